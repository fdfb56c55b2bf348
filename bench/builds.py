"""Build figures: full builds (ours against stock Material), the rebuild that `mkdocs serve`
does after a page is edited, and how the build grows with the spell export (1× and 10×)."""

from __future__ import annotations

import importlib.util
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.project import (
    ROOT,
    BenchError,
    BuildSample,
    EntrySource,
    build_environment,
    count_entries,
    free_port,
    timed_build,
)

__all__ = [
    "Budget",
    "EntryScaling",
    "FullBuilds",
    "Rebuilds",
    "empty_export",
    "entry_scaling",
    "full_builds",
    "serve_rebuilds",
    "synthesize_export",
]


class Budget:
    """A time allowance: loops take another sample only while the last one still fits."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def allows(self, estimate: float) -> bool:
        return self.left() >= estimate


def synthesize_export(text: str, copies: int) -> str:
    """`tests/databases/synth.py`'s N× export (that file is a test helper, not a package)."""
    path = ROOT / "tests" / "databases" / "synth.py"
    spec = importlib.util.spec_from_file_location("regles_bench_synth", path)
    if spec is None or spec.loader is None:
        raise BenchError(f"{path} introuvable")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.synthesize_export(text, copies))


END_OF_EXPORT = " --- Fin du fichier"
FIRST_GROUP = re.compile(r"(?<!\S)## ")


def empty_export(text: str) -> str:
    """The export's preamble alone: the same site, with spell pages that list no spell.
    (Building without any export is not an option: the pages link to « Tous les sorts ».)"""
    from regles.features.databases.export import parse_export

    body = text.rstrip()
    if body.endswith(END_OF_EXPORT):
        body = body[: -len(END_OF_EXPORT)]
    first = FIRST_GROUP.search(body)
    empty = (body[: first.start()] if first else body).rstrip() + END_OF_EXPORT
    result = parse_export(empty)
    if result.groups or result.errors:
        raise BenchError("export vide impossible à écrire : " + "; ".join(map(str, result.errors)))
    return empty


# Full builds -------------------------------------------------------------------------------


@dataclass
class FullBuilds:
    warmup_ours: BuildSample
    warmup_stock: BuildSample
    ours: list[BuildSample] = field(default_factory=list)
    stock: list[BuildSample] = field(default_factory=list)


def full_builds(
    ours_config: Path,
    ours_site: Path,
    ours_url: str,
    stock_config: Path,
    stock_site: Path,
    budget: Budget,
    *,
    min_pairs: int = 2,
    max_pairs: int = 6,
) -> FullBuilds:
    """Ours (`mkdocs build --strict`, as `make site`) and stock (`mkdocs build`), each built
    once untimed (warm: the Pyodide snapshot is in build/cache, files are in the OS cache),
    then in interleaved pairs. The last build of each stays in place, to be served."""

    def ours() -> BuildSample:
        return timed_build(ours_config, ours_site, strict=True, site_url=ours_url)

    def stock() -> BuildSample:
        return timed_build(stock_config, stock_site, strict=False)

    result = FullBuilds(ours(), stock())
    pair_time = result.warmup_ours.wall + result.warmup_stock.wall
    while len(result.ours) < max_pairs and (
        len(result.ours) < min_pairs or budget.allows(pair_time)
    ):
        started = time.monotonic()
        if len(result.ours) % 2 == 0:
            result.ours.append(ours())
            result.stock.append(stock())
        else:
            result.stock.append(stock())
            result.ours.append(ours())
        pair_time = time.monotonic() - started
    return result


# Growth with the spell export ----------------------------------------------------------------


@dataclass
class EntryScaling:
    entries_1x: int
    entries_10x: int
    # Each round: the project built without spells ("0") and with the export ("1"); the
    # first round also with the 10× export ("10"), later rounds when there is time for it.
    rounds: list[dict[str, BuildSample]] = field(default_factory=list)


def entry_scaling(
    configs: dict[str, Path],
    output: Path,
    source: EntrySource,
    export_10x: str,
    budget: Budget,
    *,
    min_rounds: int = 2,
    max_rounds: int = 9,
    tens: int = 2,
) -> EntryScaling:
    """Builds of the same project with an export without spells (`empty_export`), with the
    export and with the 10× export (`configs` keys "0", "1", "10"), in rotating order. The
    cost of the spells is the difference of two builds, so the cheap pair ("0", "1") is
    repeated more than the 10×."""
    result = EntryScaling(source.entries, count_entries(export_10x))

    def build(key: str) -> BuildSample:
        # --no-strict: without spells, the rule pages' spell mentions are (rightly) reported
        # as unresolved; strictness changes only the exit status, not the work.
        return timed_build(configs[key], output / f"site-{key}x", strict=False)

    # The 10× export is built in the first `tens` rounds (some 14 s each): its cost per
    # spell is the difference of two builds some 20 s of CPU apart, yet it moved from 4.1 to
    # 4.6 ms between runs of the bench (one build each). The ×1 cost is a difference of
    # about 1 s of CPU, which moved from 1.1 to 6.3 ms within one run: the cheap pair is
    # repeated as long as the budget allows, and the median taken.
    pair_time = 0.0
    while len(result.rounds) < max_rounds:
        first = not result.rounds
        if not first and len(result.rounds) >= min_rounds and not budget.allows(pair_time):
            break
        order = ["0", "1", "10"] if len(result.rounds) < tens else ["0", "1"]
        shift = len(result.rounds) % len(order)
        samples = {key: build(key) for key in order[shift:] + order[:shift]}
        result.rounds.append(samples)
        pair_time = samples["0"].wall + samples["1"].wall
    return result


# Rebuild under `mkdocs serve` --------------------------------------------------------------

# The end of a rebuild. MkDocs's log filter drops a message it has already printed, so a
# rebuild that takes as long as an earlier one (to the hundredth of a second) prints no
# "Documentation built" line: the "Reloading browsers" line that follows every successful
# rebuild (with its time of day) ends the wait then. Our plugin has MkDocs say them in French
# (regles/mkdocs_words.py); stock Material, in English.
BUILT = re.compile(
    r"(?:Documentation built in|Site construit en) (?P<seconds>[\d.,]+) s"
    r"|\[[\d:]+\] (?:Reloading browsers|Pages ouvertes rechargées)"
)
SERVING = re.compile(r"Serving on |Site servi à l’adresse ")


@dataclass
class Rebuilds:
    page: str
    ours: list[float] = field(default_factory=list)  # wall: page written → "built" log line
    stock: list[float] = field(default_factory=list)
    ours_reported: list[float] = field(default_factory=list)  # MkDocs' own "built in" figure
    stock_reported: list[float] = field(default_factory=list)


class _Serve:
    """`mkdocs serve` in the background, its log lines in a queue with their arrival time."""

    def __init__(self, config: Path, strict: bool) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        command = [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "--strict" if strict else "--no-strict",
            "-f",
            str(config),
            "-a",
            f"127.0.0.1:{self.port}",
        ]
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.tail: list[str] = []
        self.process = subprocess.Popen(
            command,
            cwd=config.parent,
            env=build_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))

    def wait_for(
        self, pattern: re.Pattern[str], after: float, timeout: float
    ) -> tuple[float, re.Match[str]]:
        """The first line matching `pattern` that arrived after `after`, with its time."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or (self.process.poll() is not None and self.lines.empty()):
                raise BenchError(
                    f"mkdocs serve : « {pattern.pattern} » attendu en vain\n"
                    + "\n".join(self.tail[-30:])
                )
            try:
                at, line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self.tail.append(line)
            match = pattern.search(line)
            if match and at >= after:
                return at, match

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


ADDED_SENTENCE = "\n\nUne phrase ajoutée par le banc d’essai, puis retirée.\n"


def serve_rebuilds(
    ours_config: Path,
    ours_page: Path,
    stock_config: Path,
    stock_page: Path,
    budget: Budget,
    *,
    min_rounds: int = 2,
    max_rounds: int = 5,
) -> Rebuilds:
    """Drives `mkdocs serve` (ours with --strict, as `make serve`; stock without) on copies of
    the project, edits one page and times until the "Documentation built" log line, which
    includes MkDocs' file watching and its 0.1 s grouping of changes."""
    result = Rebuilds(ours_page.name)
    originals = {ours_page: ours_page.read_text(encoding="utf-8")}
    originals[stock_page] = stock_page.read_text(encoding="utf-8")
    servers = {"ours": _Serve(ours_config, strict=True), "stock": _Serve(stock_config, False)}
    try:
        for server in servers.values():
            server.wait_for(SERVING, 0.0, timeout=300)
        round_time = 0.0
        while len(result.ours) < max_rounds and (
            len(result.ours) < min_rounds or budget.allows(round_time)
        ):
            started = time.monotonic()
            order = ["ours", "stock"] if len(result.ours) % 2 == 0 else ["stock", "ours"]
            for name in order:
                page = ours_page if name == "ours" else stock_page
                # A sentence added, then taken away: each round changes the page as a reader
                # sees it (and what the search index holds), as an owner's edit does.
                edit = ADDED_SENTENCE if len(result.ours) % 2 == 0 else ""
                time.sleep(0.3)  # let the watcher settle after the previous build
                written = time.monotonic()
                page.write_text(originals[page] + edit, encoding="utf-8")
                at, match = servers[name].wait_for(BUILT, written, timeout=300)
                wall = at - written
                seconds = match["seconds"]
                reported = [float(seconds.replace(",", "."))] if seconds else []
                if name == "ours":
                    result.ours.append(wall)
                    result.ours_reported += reported
                else:
                    result.stock.append(wall)
                    result.stock_reported += reported
            round_time = time.monotonic() - started
    finally:
        for page, text in originals.items():
            page.write_text(text, encoding="utf-8")
        for server in servers.values():
            server.stop()
    return result
