"""The search index built in a process of its own, while MkDocs converts the pages.

Cutting a page into records (`search.page_records`, an HTML parser in pure Python) costs as
much as converting its Markdown; in the build's process it would add to the build's time. So
the plugin hands each page's article to `IndexWorker`, which passes it on to a child Python
(`python -m regles.features.search.worker`) that cuts the records and feeds Pagefind's
service: both work on the machine's other core while MkDocs goes on.

When the build cache keeps the index of the same pages (search.Indexer), the pages are only
compared with it here, and no child is started: the kept index is given again. The first
page that differs starts the child, with the pages held back.

Protocol, one JSON object per line. Parent to child: `{"cache": folder or null}` first (where
`search.Indexer` keeps the last index), `{"page": path, "html": text, "area": [system, kind,
section, annex, database] or null}` for each page (its `search.Area`), then
`{"write": folder}`. Child to parent, once, at the end: `{"summary": {...}}` (an
`IndexSummary`) or `{"error": message}`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from regles.features.search.index import Indexer
from regles.features.search.kept import (
    copy_kept_index,
    kept_index,
    kept_summary,
    made_by,
    page_digest,
)
from regles.features.search.pagefind import IndexSummary
from regles.features.search.records import EXCLUDED_PAGES, Area, SearchIndexError, is_indexed

__all__ = ["IndexWorker", "main"]

ROOT = Path(__file__).resolve().parents[3]  # the folder that holds the package `regles`


class IndexWorker:
    """`search.Indexer`'s interface, its work done by a child process, started only when a
    page differs from those of the kept index (or when there is none).

    Pages are queued and written to the child by a thread, so that the build never waits
    on the pipe; errors of the child (Pagefind missing, a page it cannot read) are raised by
    `finish`, with the child's message.
    """

    def __init__(self, cache: Path | None = None) -> None:
        self._cache = cache
        self._kept = kept_index(cache, made_by(EXCLUDED_PAGES))
        self._held: list[tuple[str, str, Area | None]] = []  # pages of the kept index so far
        self._output: Path | None = None
        self._child: _Child | None = None if self._kept is not None else _Child(cache)

    def add_page(self, path: str, text: str, area: Area | None) -> None:
        if self._child is None and is_indexed(path):
            expected = self._kept.pages if self._kept is not None else ()
            count = len(self._held)
            if count < len(expected) and expected[count] == page_digest(path, text, area):
                self._held.append((path, text, area))
                return
            self._start_child()
        if self._child is not None:
            self._child.add_page(path, text, area)

    def _start_child(self) -> _Child:
        """The child, started now if it was not: the pages held back given first."""
        if self._child is None:
            self._child = _Child(self._cache)
            for page in self._held:
                self._child.add_page(*page)
            self._held = []
        return self._child

    def start_writing(self, output: Path) -> None:
        """Ask for the index, for `output`: the kept one when every page was its own."""
        self._output = output
        if (
            self._child is None
            and self._kept is not None
            and len(self._held) == len(self._kept.pages)
        ):
            return  # `finish` gives the kept index
        self._start_child().start_writing(output)

    def finish(self) -> IndexSummary:
        """The index written into the output `start_writing` named; its summary."""
        if self._output is None:
            raise SearchIndexError("index jamais écrit (start_writing manquant)")
        if self._child is None and self._kept is not None:
            copied = copy_kept_index(self._kept.folder, self._output)
            if copied is not None:
                return kept_summary(self._kept, copied)
            self._start_child().start_writing(self._output)  # the kept copy is unreadable
        assert self._child is not None
        return self._child.finish()

    def abandon(self) -> None:
        if self._child is not None:
            self._child.abandon()


class _Child:
    """The child process that makes the index, and the thread that feeds it."""

    def __init__(self, cache: Path | None) -> None:
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by finish/abandon)
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), path]))}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "regles.features.search.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
        )
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write, name="index-worker", daemon=True)
        self._writer.start()
        self._closed = False
        self._send({"cache": str(cache) if cache is not None else None})

    def _write(self) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            while (line := self._queue.get()) is not None:
                stdin.write(line)
            stdin.close()
        except (BrokenPipeError, ValueError):
            pass  # the child stopped: `finish` reports why

    def _send(self, message: dict[str, Any]) -> None:
        if self._closed:
            raise SearchIndexError("index déjà écrit ou abandonné")
        self._queue.put(json.dumps(message, ensure_ascii=False).encode() + b"\n")

    def add_page(self, path: str, text: str, area: Area | None) -> None:
        shown = dataclasses.astuple(area) if area is not None else None
        self._send({"page": path, "html": text, "area": shown})

    def start_writing(self, output: Path) -> None:
        self._send({"write": str(output)})
        self._queue.put(None)
        self._closed = True

    def finish(self) -> IndexSummary:
        """Wait for the child to write the index; its summary, or its error raised."""
        self._writer.join()
        assert self._process.stdout is not None
        answer = self._process.stdout.read()
        self._process.stdout.close()
        status = self._process.wait()
        self._stderr.seek(0)
        stderr = self._stderr.read().decode("utf-8", "replace").strip()
        self._stderr.close()
        try:
            message = json.loads(answer.decode().strip().splitlines()[-1])
        except (ValueError, IndexError):
            tail = "\n".join(stderr.splitlines()[-5:])
            raise SearchIndexError(
                f"le processus d’indexation s’est arrêté (code {status}) : {tail}"
            ) from None
        if "error" in message:
            raise SearchIndexError(str(message["error"]))
        return IndexSummary(**message["summary"])

    def abandon(self) -> None:
        self._closed = True
        if self._process.poll() is None:
            self._process.kill()
        self._queue.put(None)
        self._writer.join()
        self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._stderr.close()


def serve(lines: Iterable[str], answer: IO[str]) -> int:
    """The child's loop: pages in, one summary or error out. Returns the exit status."""
    lines = iter(lines)
    first = json.loads(next(lines, "{}"))
    cache = first.get("cache")
    try:
        indexer = Indexer(cache=Path(cache) if cache else None)
    except SearchIndexError as error:
        answer.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 1
    try:
        for line in lines:
            message = json.loads(line)
            if "page" in message:
                area = message.get("area")
                indexer.add_page(message["page"], message["html"], area and Area(*area))
            elif "write" in message:
                indexer.start_writing(Path(message["write"]))
                summary = indexer.finish()
                answer.write(json.dumps({"summary": dataclasses.asdict(summary)}) + "\n")
                return 0
    except SearchIndexError as error:
        indexer.abandon()
        answer.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 1
    indexer.abandon()  # the build stopped before asking for the index
    return 1


def main() -> int:
    stdin = open(sys.stdin.fileno(), encoding="utf-8", closefd=False)  # noqa: SIM115
    return serve(stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
