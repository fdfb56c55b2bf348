"""Pagefind's indexing service, started from the pinned `pagefind` package and spoken to
without waiting, and what it is asked for: the language, the files the site does not use."""

from __future__ import annotations

import base64
import contextlib
import importlib.metadata
import json
import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from regles.features.search.records import SearchIndexError

__all__ = [
    "UNUSED_BUNDLE_FILES",
    "IndexSummary",
    "Service",
    "executable",
    "pagefind_version",
]

# Files Pagefind writes that the site does not use: its ready-made interfaces. The header box
# talks to pagefind.js directly, and the service worker would otherwise download them all.
UNUSED_BUNDLE_FILES = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-highlight.js",
)


@dataclass(frozen=True)
class IndexSummary:
    records: int
    entries: int
    files: int
    bytes: int


class Service:
    """Pagefind's indexing service (`pagefind --service`), requests pipelined.

    The `pagefind` package's own client (`pagefind.index.PagefindIndex`) reads the service's
    answers in a loop that sleeps 0.1 s before each one: one record costs 0.1 s, the site's
    ~600 records a minute. The protocol is the one that client speaks (requests and answers
    are base64-encoded JSON objects, each followed by a comma; payload types in
    `pagefind.service.types`), so the pinned binary is the same and only the waiting goes.

    Requests are written without waiting for their answers (`send`), which the service
    queues (its stdin reader and stdout writer are threads with unbounded queues) and
    handles one by one in the order received; `receive` reads the next answer. So the
    service indexes on one core while MkDocs renders pages on the other.
    """

    def __init__(self, executable: Path) -> None:
        # The service's error output, kept for the message if it stops.
        self._log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close/kill)
        try:
            self._process = subprocess.Popen(
                [str(executable), "--service"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
            )
        except OSError as error:
            self._log.close()
            raise SearchIndexError(f"Pagefind ne démarre pas ({executable}) : {error}") from None
        self._next_id = 0
        self._unanswered: list[int] = []
        self._buffer = bytearray()
        self._broken = False

    def close(self) -> None:
        """End the service (stdin closed: it exits) and wait for it."""
        if self._process.stdin is not None and not self._process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self._process.stdin.close()
        try:
            self._process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            raise SearchIndexError("le service Pagefind ne s’est pas arrêté en 5 minutes") from None
        finally:
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._log.close()

    def kill(self) -> None:
        """Stop the service now (the build failed: its index will not be written)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()
        self._log.close()

    def send(self, payload: Mapping[str, object]) -> None:
        """Queue a request; its answer comes from a later `receive`."""
        stdin = self._process.stdin
        assert stdin is not None
        self._next_id += 1
        self._unanswered.append(self._next_id)
        if self._broken:
            return  # reported by `receive`, with the service's own message
        message = {"message_id": self._next_id, "payload": payload}
        try:
            stdin.write(base64.b64encode(json.dumps(message).encode()) + b",")
            stdin.flush()
        except BrokenPipeError:
            self._broken = True

    def receive(self) -> dict[str, Any]:
        """The answer to the oldest request not yet answered."""
        stdout = self._process.stdout
        assert stdout is not None and self._unanswered
        expected = self._unanswered.pop(0)
        while b"," not in self._buffer:
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise SearchIndexError(f"le service Pagefind s’est arrêté{self._stderr()}")
            self._buffer += chunk
        cut = self._buffer.index(b",")
        answer = json.loads(base64.b64decode(bytes(self._buffer[:cut])))
        del self._buffer[: cut + 1]
        if answer.get("message_id") != expected:
            raise SearchIndexError(
                f"Pagefind a répondu au message {answer.get('message_id')}, "
                f"le {expected} était attendu"
            )
        result: dict[str, Any] = answer["payload"]
        if result.get("type") == "Error":
            raise SearchIndexError(f"Pagefind : {result.get('message')}")
        return result

    def wait_all(self) -> dict[str, Any]:
        """Wait for the answers to every request sent (an error answer raises); the last."""
        last: dict[str, Any] = {}
        while self._unanswered:
            last = self.receive()
        return last

    def _stderr(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode("utf-8", "replace").strip()
        return f" : {text}" if text else ""


def executable() -> Path:
    try:
        from pagefind.service import get_executable
    except ImportError as error:
        raise SearchIndexError(f"le paquet Python « pagefind » manque : {error}") from error
    executable = get_executable()
    if executable is None:
        raise SearchIndexError("exécutable Pagefind introuvable (paquet « pagefind[bin] »)")
    return Path(executable)


def pagefind_version() -> str:
    """The Pagefind that `executable` would start, read without importing its client (which
    loads asyncio: some 35 ms of CPU, for nothing when the kept index is given): the
    versions of its distributions, and the executable named by the environment, if any."""
    versions = []
    for name in ("pagefind", "pagefind_bin_extended", "pagefind_bin"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} ?")
    return ", ".join([*versions, os.environ.get("PAGEFIND_BINARY_PATH", "")])
