"""The site's rules package run by a child Python process, within limits of time and size.

The rules package is the site owner's code: a module may loop, quit Python or answer 20 MB.
So the build does not import it: `RulesProcess` starts a child Python (rules_child.py),
once per build (`mkdocs serve` reads the package anew at each rebuild), which imports the
package and answers the build's calls. Each module imported and each call has a time limit,
and each result a size limit (`RulesLimits`, the plugin's `rules_limits`); past one, or
when the code quits Python or raises, the build gets a French message naming the module,
the calculator or table, the limit, and the file and line of the package's code that was
running.

The child keeps the time limits itself (faulthandler's watchdog writes where its code was
into a file this process gave, `dump`, and ends it). This process waits a little longer
(GRACE_SECONDS), then kills it: the rules code may have stopped the watchdog.

Protocol, one JSON object per line. Parent to child: `{"load": folder, "limits": [import
seconds, call seconds, result bytes]}` first, then `{"run": id, "inputs": JSON text}` or
`{"table": id}`. Child to parent: `{"importing": module or null, "begins": bool}` as the
package's modules start and end their import, `{"exiting": code, "at": [file, line]}` when
its code calls os._exit, and one answer per request: `{"ok": …}` or `{"error": {"type":
"exception" | "exit" | "size" | "message", "text", "at", …}}` ("message": a whole French
sentence).

The rules code is pure (the same answer for the same inputs, whatever the machine): what
the child answered is kept in the build cache (`KEPT_FOLDER`), under a digest of the
package's files, the limits, Python's and the generator's versions. A build whose package
has not changed then starts no child at all; the first question a kept answer does not
cover starts one. Only answers are kept, never a failure: a package that fails is run again
at each build, and says why again.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any

from regles.core.cache import code_digest, keep_object, kept_object
from regles.core.words import duration, file_size
from regles.features.calculators.package import RulesLimits, RulesPackageError, package_name
from regles.features.calculators.rules_child import Message, inside
from regles.kit import Follows, Table
from regles.kit.schema import JsonDict

__all__ = ["RulesCallError", "RulesProcess"]

ROOT = Path(__file__).resolve().parents[3]  # the folder that holds the package `regles`
CHILD = "regles.features.calculators.rules_child"
SETTING = "rules_limits"  # the plugin's option, as the messages name it
OPTION = "du greffon regles"
# Past the child's own limit, how long the parent waits for it to stop itself; and for the
# child's own start, before the package's first module. Reached only when something else
# went wrong (the watchdog stopped by the rules code, a machine out of breath).
GRACE_SECONDS = 30.0
START_SECONDS = 60.0
KEPT_FOLDER = "calculateurs"  # in the build cache: the child's answers (see the docstring)


class RulesCallError(Exception):
    """A call of the rules code that gave no answer the build can use: `what` was called
    (« calculateur « x » (module m) »), `reason` says why, in French."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what} : {reason}")
        self.what = what
        self.reason = reason


class _Ended(Exception):
    """The child ended before it answered, or was killed at its time limit."""

    def __init__(
        self,
        status: int,
        dump: str,
        exiting: Message | None,
        importing: str | None,
        killed: bool,
    ) -> None:
        super().__init__(status)
        self.status = status
        self.killed = killed  # by the parent, past the child's time and the grace
        self.dump = dump  # faulthandler's traceback, if it wrote one
        self.exiting = exiting  # what the child said of os._exit, if its code called it
        self.importing = importing  # the module whose import was running


def _read_lines(stream: IO[bytes], messages: queue.SimpleQueue[Message | None]) -> None:
    """The child's messages, in the queue as they come; None when it closed its side."""
    for line in stream:
        try:
            message = json.loads(line)
        except ValueError:
            message = {"error": {"type": "exception", "text": "réponse illisible du processus"}}
        messages.put(message if isinstance(message, dict) else {})
    messages.put(None)


def _shut(process: subprocess.Popen[bytes], dump: IO[bytes]) -> None:
    """The child stopped: asked to (its requests closed), then killed if it goes on."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass  # already gone
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        process.stdout.close()
    dump.close()


class _Child:
    """One child process: requests written to it, its messages read by a thread."""

    def __init__(self, limits: RulesLimits) -> None:
        self.limits = limits
        self.dump: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by _shut)
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), path]))}
        fd = self.dump.fileno()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", CHILD, str(fd)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                pass_fds=(fd,),
                env=env,
            )
        except OSError as error:
            self.dump.close()
            raise RulesPackageError(f"processus des calculateurs impossible : {error}") from error
        self.messages: queue.SimpleQueue[Message | None] = queue.SimpleQueue()
        assert self.process.stdout is not None
        # A function of the stream alone: the thread holds no reference to this object,
        # which its finalizer stops when the build forgets it.
        reader = threading.Thread(
            target=_read_lines, args=(self.process.stdout, self.messages), daemon=True
        )
        reader.start()
        self.importing: str | None = None
        self.exiting: Message | None = None
        self.close = weakref.finalize(self, _shut, self.process, self.dump)

    def ask(self, request: Message, seconds: float) -> Message:
        """The child's answer to `request`; _Ended if it ends first, or is still at work
        GRACE_SECONDS past `seconds` (a module that starts its import gives it
        `import_seconds` more)."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:
            pass  # the child is gone: its end is read below
        deadline = time.monotonic() + seconds + GRACE_SECONDS
        while True:
            try:
                message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.process.kill()
                raise self._ended(killed=True) from None
            if message is None:
                raise self._ended(killed=False)
            if "importing" in message:
                self.importing = message["importing"]
                if message.get("begins"):
                    deadline = time.monotonic() + self.limits.import_seconds + GRACE_SECONDS
            elif "exiting" in message:
                self.exiting = message
            else:
                return message

    def _ended(self, killed: bool) -> _Ended:
        try:
            status = self.process.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:  # it closed its answers and went on
            self.process.kill()
            status = self.process.wait()
        self.dump.seek(0)
        dump = self.dump.read().decode("utf-8", "replace")
        self.close()
        return _Ended(status, dump, self.exiting, self.importing, killed)


LOAD = "load"  # the kept answer to the package's import


class KeptAnswers:
    """The child's answers kept in the build cache for the package in `folder` as it is
    now (see the module's docstring); nothing kept without a `cache_dir`."""

    def __init__(self, folder: Path, limits: RulesLimits, cache_dir: Path | None) -> None:
        self.entry: Path | None = None
        self.answers: dict[str, Any] = {}
        self.changed = False
        if cache_dir is None:
            return
        self.entry = cache_dir / KEPT_FOLDER / f"{package_digest(folder, limits)}.pickle"
        kept = kept_object(self.entry)
        if isinstance(kept, dict):
            self.answers = kept

    def answer(self, key: str) -> Any | None:
        return self.answers.get(key)

    def add(self, key: str, answer: Any) -> None:
        if self.entry is not None:
            self.answers[key] = answer
            self.changed = True

    def keep(self) -> None:
        """Write the answers if the build asked new questions (older packages' removed)."""
        if self.entry is not None and self.changed:
            keep_object(self.entry, self.answers, stale="*.pickle")
            self.changed = False


def package_digest(folder: Path, limits: RulesLimits) -> str:
    """What the child's answers depend on: every file of the package (its data too, which
    its code may read), the limits, Python's version and the generator's code."""
    digest = hashlib.sha256()
    for part in (code_digest(), sys.version, repr(limits)):
        digest.update(part.encode() + b"\0")
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if "__pycache__" in relative.parts or not path.is_file():
            continue
        digest.update(relative.as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


# A frame of faulthandler's traceback: `  File "/x/calculators/boucle.py", line 3 in f`.
DUMP_FRAME = re.compile(r'^\s*File "(.*)", line (\d+) in ', re.MULTILINE)


class RulesProcess:
    """The rules package in `folder`, imported and run by a child process (see the module's
    docstring), with `Rules`' interface. Its import failing is a RulesPackageError, a call
    failing a RulesCallError; both name the file and line of the package's code, from
    `project` (the folder of mkdocs.yml). A child that ended is replaced at the next call."""

    def __init__(
        self, folder: Path, limits: RulesLimits, project: Path, cache_dir: Path | None = None
    ) -> None:
        self.folder = folder.resolve()
        self.name = package_name(folder)
        self.limits = limits
        self.project = project
        self._child: _Child | None = None
        self._kept = KeptAnswers(self.folder, limits, cache_dir)
        loaded = self._load()
        self._catalog: list[JsonDict] = loaded["catalog"]
        self._notes: Mapping[str, str] = MappingProxyType(dict(loaded["notes"]))
        self._tables: list[str] = list(loaded["tables"])
        self._owners = {(kind, key): module for kind, key, module in loaded["owners"]}

    # Rules' interface ------------------------------------------------------------------

    @property
    def notes(self) -> Mapping[str, str]:
        return self._notes

    def catalog(self) -> list[JsonDict]:
        return list(self._catalog)

    def table_ids(self) -> list[str]:
        return list(self._tables)

    def run_json(self, name: str, inputs_json: str) -> str:
        """The calculator's answer, as `RulesPackage.run_json` gives it; RulesCallError
        when its code raises, quits, outlives its time or answers too much."""
        answer = self._call({"run": name, "inputs": inputs_json}, self._what("calculateur", name))
        return str(answer)

    def table(self, table_id: str) -> Table:
        made = self._call({"table": table_id}, self._what("table", table_id))
        follows = made["follows"]
        return Table(
            made["caption"],
            made["headers"],
            made["rows"],
            made["key_columns"],
            None if follows is None else Follows(follows[0], follows[1], dict(follows[2])),
        )

    def close(self) -> None:
        self._kept.keep()
        if self._child is not None:
            self._child.close()
            self._child = None

    # Its child process -------------------------------------------------------------------

    def _load(self) -> Message:
        """What the package declares (catalog, tables, notes), kept or from a new child."""
        kept = self._kept.answer(LOAD)
        if kept is not None:
            return dict(kept)
        loaded = self._start()
        self._kept.add(LOAD, loaded)
        return loaded

    def _start(self) -> Message:
        """A new child, the package imported in it; RulesPackageError if it cannot be."""
        child = _Child(self.limits)
        limits = self.limits
        request = {
            "load": str(self.folder),
            "limits": [limits.import_seconds, limits.call_seconds, limits.result_bytes],
        }
        try:
            answer = child.ask(request, START_SECONDS + limits.import_seconds)
        except _Ended as ended:
            raise RulesPackageError(self._import_ended(ended)) from None
        if "error" in answer:
            child.close()
            raise RulesPackageError(self._import_failed(answer["error"]))
        self._child = child
        return dict(answer["ok"])

    def _call(self, request: Message, what: str) -> Any:
        key = json.dumps(request, sort_keys=True)
        kept = self._kept.answer(key)
        if kept is not None:
            return kept
        if self._child is None:
            try:
                self._start()
            except RulesPackageError as error:
                raise RulesCallError(what, f"le paquet ne s’importe plus : {error}") from None
        child = self._child
        assert child is not None
        try:
            answer = child.ask(request, self.limits.call_seconds)
        except _Ended as ended:
            self._child = None
            raise RulesCallError(what, self._call_ended(ended)) from None
        if "error" in answer:
            raise RulesCallError(what, self._call_failed(answer["error"]))
        self._kept.add(key, answer["ok"])
        return answer["ok"]

    # Messages ------------------------------------------------------------------------------

    def _what(self, kind: str, key: str) -> str:
        module = self._owners.get((kind, key))
        return f"{kind} « {key} »" + (f" (module {module})" if module else "")

    def _place(self, at: object) -> str | None:
        """Where the package's code was, as the owner finds it: « calculators/x.py:3 »."""
        if not isinstance(at, list) or len(at) != 2:
            return None
        file = os.path.relpath(Path(str(at[0])).resolve(), self.project.resolve())
        return f"{Path(file).as_posix()}:{at[1]}"

    def _module_at(self, at: object) -> str | None:
        """The module of the package that holds the file `at` names."""
        if not isinstance(at, list) or len(at) != 2:
            return None
        try:
            parts = Path(str(at[0])).resolve().relative_to(self.folder).with_suffix("").parts
        except ValueError:
            return None
        return ".".join([self.name, *(p for p in parts if p != "__init__")])

    def _dumped_at(self, dump: str) -> list[Any] | None:
        """The innermost frame of the package's code in faulthandler's traceback."""
        for match in DUMP_FRAME.finditer(dump):
            if inside(match.group(1), self.folder):
                return [match.group(1), int(match.group(2))]
        return None

    def _import_failed(self, error: Message) -> str:
        at = error.get("at")
        module = self._module_at(at) or self.name
        kind, text = error.get("type"), str(error.get("text", ""))
        if kind == "exit":
            text = (
                f"le module « {module} » appelle {text} pendant son import : le code des "
                "règles ne doit pas quitter Python"
            )
        elif kind == "size":
            text = (
                f"{text} fait {file_size(int(error['size']))}, plus que la limite de "
                f"{file_size(self.limits.result_bytes)} (réglage {SETTING}.result_kb {OPTION})"
            )
        elif kind != "message":
            text = f"le module « {module} » ne s’importe pas : {text}"
        place = self._place(at)
        return f"{place}: {text}" if place else text

    def _import_ended(self, ended: _Ended) -> str:
        at: object = self._dumped_at(ended.dump)
        if ended.exiting is not None:
            at = ended.exiting.get("at")
        module = self._module_at(at) or ended.importing or self.name
        if ended.exiting is not None:
            text = (
                f"le module « {module} » appelle os._exit({ended.exiting.get('exiting')}) "
                "pendant son import : le code des règles ne doit pas quitter Python"
            )
        elif ended.dump.startswith("Timeout") or ended.killed:
            text = (
                f"l’import du module « {module} » dure plus de "
                f"{duration(self.limits.import_seconds, None)} (limite : réglage "
                f"{SETTING}.import_seconds {OPTION}) ; arrêté" + (" à cette ligne" if at else "")
            )
        else:
            text = (
                f"le processus qui importe le paquet des calculateurs s’est arrêté "
                f"({_status(ended.status)}) pendant l’import du module « {module} »"
            )
        place = self._place(at)
        return f"{place}: {text}" if place else text

    def _call_failed(self, error: Message) -> str:
        place = self._place(error.get("at"))
        kind, text = error.get("type"), str(error.get("text", ""))
        where = f" ({place})" if place else ""
        if kind == "exit":
            return f"appelle {text}{where} : le code des règles ne doit pas quitter Python"
        if kind == "size":
            return (
                f"son résultat fait {file_size(int(error['size']))}, plus que la limite de "
                f"{file_size(self.limits.result_bytes)} (réglage {SETTING}.result_kb {OPTION}) : "
                "il irait tel quel dans la page"
            )
        return f"{text}{where}"

    def _call_ended(self, ended: _Ended) -> str:
        if ended.exiting is not None:
            place = self._place(ended.exiting.get("at"))
            where = f" ({place})" if place else ""
            code = ended.exiting.get("exiting")
            return (
                f"appelle os._exit({code}){where} : le code des règles ne doit pas quitter Python"
            )
        place = self._place(self._dumped_at(ended.dump))
        if ended.dump.startswith("Timeout") or ended.killed:
            return (
                f"toujours en calcul après {duration(self.limits.call_seconds, None)} (limite : "
                f"réglage {SETTING}.call_seconds {OPTION}) ; arrêté"
                + (f" à {place}" if place else "")
            )
        where = f" à {place}" if place else ""
        return f"le processus des calculateurs s’est arrêté ({_status(ended.status)}){where}"


def _status(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"code {code}"
