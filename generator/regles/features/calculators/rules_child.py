"""The child process that imports a site's rules package and runs its code for the build,
within limits of time and size: `python -m regles.features.calculators.rules_child FD`,
started and read by rules_process.py (its docstring gives the protocol).

It keeps the time limits itself with faulthandler's watchdog, a thread of C that fires even
while Python is busy in C code: at the limit it writes where every thread was into the file
of descriptor FD, which the parent reads, then ends the process. What the rules code prints
goes to the build's output (stderr), never into the answers; it reads nothing of the
parent's; os._exit says where it was called from before it exits.
"""

from __future__ import annotations

import faulthandler
import functools
import json
import os
import signal
import sys
from collections.abc import Iterable, Mapping
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import FrameType, ModuleType
from typing import IO, Any, NoReturn

from regles.features.calculators.package import (
    RulesLimits,
    RulesPackageError,
    import_package,
    package_name,
)
from regles.kit import Table
from regles.kit.bridge import run_json
from regles.kit.discovery import DiscoveryError, RulesPackage
from regles.kit.errors import CalculatorError

__all__ = ["Message", "inside", "main", "serve"]

Message = dict[str, Any]  # a line of the protocol, decoded
TEXT_CHARS = 500  # of an exception's message, in the build's output


@functools.cache
def inside(file: str, folder: Path) -> bool:
    """Whether `file` (a code object's file name) is in `folder` (resolved)."""
    return not file.startswith("<") and Path(file).resolve().is_relative_to(folder)


class _Invalid(Exception):
    """What the rules code gave is not what the build reads; the message says why, in French."""


class _Server:
    """The child's side: the package imported, each request answered."""

    def __init__(self, answers: IO[str], dump: int) -> None:
        self.answers = answers
        self.dump = dump
        self.folder = Path(".")
        self.limits = RulesLimits()
        self.rules: RulesPackage | None = None

    def send(self, message: Message) -> None:
        # ASCII: a lone surrogate of the rules' text is carried as an escape, as in-process.
        self.answers.write(json.dumps(message) + "\n")
        self.answers.flush()

    def arm(self, seconds: float) -> None:
        """The process ends in `seconds`, writing where its code was, unless disarmed."""
        faulthandler.dump_traceback_later(seconds, exit=True, file=self.dump)

    def handle(self, request: Message) -> Message:
        if "load" in request:
            return self.load(Path(request["load"]), RulesLimits(*request["limits"]))
        if self.rules is None:
            raise _Invalid("paquet des calculateurs non importé")
        self.arm(self.limits.call_seconds)
        if "run" in request:
            return self.run(self.rules, str(request["run"]), str(request["inputs"]))
        return {"ok": self.table(self.rules, str(request["table"]))}

    def load(self, folder: Path, limits: RulesLimits) -> Message:
        self.folder, self.limits = folder.resolve(), limits
        self.arm(limits.import_seconds)
        self._announce_imports(package_name(folder))
        os._exit = self._reported_exit  # type: ignore[assignment]
        rules = import_package(folder)
        catalog = rules.catalog()
        # What goes into the pages as the package describes it: each part within the limit.
        described: list[tuple[str, str, object, str]] = [
            ("calculateur", str(entry["id"]), entry, "sa description") for entry in catalog
        ]
        described += [("note", key, text, "son texte") for key, text in rules.notes.items()]
        for kind, key, item, noun in described:
            size = _bytes(item)
            if size > limits.result_bytes:
                text = f"{kind} « {key} » (module {rules.owners[(kind, key)]}) : {noun}"
                return {"error": {"type": "size", "text": text, "size": size}}
        self.rules = rules
        owners = [[kind, key, module] for (kind, key), module in rules.owners.items()]
        return {
            "ok": {
                "catalog": catalog,
                "notes": dict(rules.notes),
                "tables": rules.table_ids(),
                "owners": owners,
            }
        }

    def _announce_imports(self, package: str) -> None:
        """Each module of the package says when its import starts (its own time limit
        starts then) and ends, so that the parent knows which one was running."""
        original = SourceFileLoader.exec_module
        running: list[str] = []

        def exec_module(loader: SourceFileLoader, module: ModuleType) -> None:
            name = module.__name__
            if name != package and not name.startswith(package + "."):
                return original(loader, module)
            running.append(name)
            self.send({"importing": name, "begins": True})
            self.arm(self.limits.import_seconds)
            try:
                original(loader, module)
            finally:
                running.pop()
                self.send({"importing": running[-1] if running else None, "begins": False})

        SourceFileLoader.exec_module = exec_module  # type: ignore[method-assign,assignment]

    def _reported_exit(self, code: int) -> NoReturn:
        """os._exit for the rules code: it says where it was called from, then exits."""
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and not inside(frame.f_code.co_filename, self.folder):
            frame = frame.f_back
        at = None if frame is None else [frame.f_code.co_filename, frame.f_lineno]
        self.send({"exiting": code, "at": at})
        _exit(code)

    def run(self, rules: RulesPackage, name: str, inputs: str) -> Message:
        raised: list[Exception] = []

        def traced(calculator: str, values: Mapping[str, object]) -> Message:
            try:
                return rules.run(calculator, values)
            except CalculatorError:
                raise  # its message is for the reader: the answer carries it
            except Exception as error:
                raised.append(error)
                raise

        answer = run_json(traced, name, inputs)
        if raised:  # the bridge answers « erreur interne »: the build says which and where
            return {"error": self.failure(raised[0])}
        size = len(answer.encode())
        if size > self.limits.result_bytes:
            return {"error": {"type": "size", "size": size}}
        return {"ok": answer}

    def table(self, rules: RulesPackage, table_id: str) -> Message:
        table = rules.table(table_id)
        if not isinstance(table, Table):
            raise _Invalid(f"sa fonction rend {type(table).__name__}, pas une Table")
        for number, row in enumerate([table.headers, *table.rows]):
            if not isinstance(row, list | tuple):
                raise _Invalid(f"ligne {number} : une liste de textes est attendue")
            for cell in row:
                if not isinstance(cell, str):
                    raise _Invalid(f"ligne {number} : {cell!r} n’est pas un texte")
        follows = table.follows
        made: Message = {
            "caption": str(table.caption),
            "headers": list(table.headers),
            "rows": [list(row) for row in table.rows],
            "key_columns": int(table.key_columns),
            "follows": None
            if follows is None
            else [follows.calculator, follows.field, list(follows.columns.items())],
        }
        size = _bytes(made)
        if size > self.limits.result_bytes:
            raise _TooBig(size)
        return made

    def failure(self, error: BaseException) -> Message:
        """What the child says of an exception of the rules code, or of its own."""
        at = _raised_at(error, self.folder)
        if isinstance(error, _TooBig):
            return {"type": "size", "size": error.size}
        if isinstance(error, SystemExit):
            code = "" if error.code is None else repr(error.code)
            return {"type": "exit", "text": f"sys.exit({code})", "at": at}
        if isinstance(error, DiscoveryError):
            text = f"paquet des calculateurs « {package_name(self.folder)} » : {error}"
            return {"type": "message", "text": text, "at": at}
        if isinstance(error, RulesPackageError | _Invalid):
            return {"type": "message", "text": str(error), "at": at}
        text = f"{type(error).__name__}: {error}"
        if len(text) > TEXT_CHARS:
            text = text[: TEXT_CHARS - 1] + "…"
        return {"type": "exception", "text": text, "at": at}


class _TooBig(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


_exit = os._exit  # the real one, before the rules code's is put in its place


def _bytes(value: object) -> int:
    """The size of `value` in a page: its JSON in UTF-8."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return len(text.encode("utf-8", "replace"))


def _raised_at(error: BaseException, folder: Path) -> list[Any] | None:
    """[file, line] of the innermost frame of the package's code where `error` was raised."""
    if isinstance(error, SyntaxError) and error.filename and inside(error.filename, folder):
        return [error.filename, error.lineno]
    found = None
    trace = error.__traceback__
    while trace is not None:
        file = trace.tb_frame.f_code.co_filename
        if inside(file, folder):
            found = [file, trace.tb_lineno]
        trace = trace.tb_next
    return found


def serve(requests: Iterable[str], server: _Server) -> int:
    """The child's loop: one answer per request, until the parent closes its side."""
    for line in requests:
        try:
            answer = server.handle(json.loads(line))
        except BaseException as error:  # SystemExit too: the parent reports it
            answer = {"error": server.failure(error)}
        finally:
            faulthandler.cancel_dump_traceback_later()
        server.send(answer)
    return 0


def main() -> int:
    dump = int(sys.argv[1])
    # Ctrl-C in a terminal reaches the whole group: the build stops this process itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.enable(file=dump, all_threads=True)
    requests = os.fdopen(os.dup(0), encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    # The rules code reads nothing of the parent's, and what it prints goes to the build's
    # output (stderr), never into the answers.
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    sys.stdout = sys.stderr
    return serve(requests, _Server(answers, dump))


if __name__ == "__main__":
    sys.exit(main())
