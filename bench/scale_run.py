"""`make bench`'s big games: each size generated (bench/sizes.py), built by us and by stock
Material, served, searched, within its own time budget; the table; `--profile SIZE`.

Per size, in this order: the game and its stock twin written; one build of each, untimed
(ours makes its build cache: Pyodide's snapshot, the search index of these pages); then
warm builds in pairs, ours and stock in turn; `mkdocs serve` on both, edits timed; search in
Chromium on both sites. The sizes part runs after the rest of the bench, with its own
budget: s30 (some 20 minutes of building today) only when asked (`BENCH_SIZES`) or when
its estimate fits what is left.
"""

from __future__ import annotations

import io
import math
import os
import pstats
import shutil
import sys
import sysconfig
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import regles
from bench import browser as web
from bench.builds import Budget
from bench.project import ROOT
from bench.report import fmt_duration, fmt_number
from bench.scale import (
    BuildRun,
    SiteStats,
    run_build,
    search_times,
    served_edits,
    site_stats,
    stock_twin,
)
from bench.sizes import Game, make_game, size_factor, write_game
from bench.sizes_report import Side, SizeFigures, size_table
from regles.features.assets import npm
from tests.conftest import serve

__all__ = ["SIZES_ENV", "SizesPart", "profile_report", "requested_sizes"]

SIZES_ENV = "BENCH_SIZES"
DEFAULT_SIZES = ("s1", "s3", "s10")
WHEN_TIME_ALLOWS = ("s30",)  # measured after the others only if its estimate fits
DEADLINE = 30 * 60  # seconds for the default sizes and, if it fits, s30
SITE_URL = "http://127.0.0.1:8000/"  # as `make serve`; the sites are searched wherever served
SEARCH_PAGE = ""  # the home page: no calculator, Python does not start
SEARCH_TIMEOUT = 300.0  # seconds for a page to load and Material's index to be built
PROFILE_TOP = 25


def requested_sizes(value: str | None) -> tuple[list[str], list[str]]:
    """The sizes asked for (`BENCH_SIZES=s1,s3` or `--sizes`), each checked, and those to
    add when time allows: none when the caller named them."""
    if value is None or not value.strip():
        return list(DEFAULT_SIZES), list(WHEN_TIME_ALLOWS)
    sizes = [s.strip() for s in value.split(",") if s.strip()]
    for size in sizes:
        size_factor(size)  # raises ValueError with a French message
    return sizes, []


@dataclass
class SizeRaw:
    """Every sample of one size, for build/bench.json."""

    size: str
    warmup: dict[str, BuildRun] = field(default_factory=dict)
    ours: list[BuildRun] = field(default_factory=list)
    stock: list[BuildRun] = field(default_factory=list)
    stats: dict[str, SiteStats] = field(default_factory=dict)
    served: Any = None
    search: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def _side(side: Side, runs: list[BuildRun], stats: SiteStats | None) -> None:
    side.walls = [r.wall for r in runs]
    side.cpus = [r.cpu for r in runs]
    side.peaks = [r.peak for r in runs]
    if stats is not None:
        side.html_pages, side.html_bytes = stats.html_pages, stats.html_bytes
        side.nav_links, side.site_bytes = stats.nav_links, stats.site_bytes
        side.offline_text, side.sw_js = stats.offline_text, stats.sw_js


class SizeBench:
    """One size measured; `figures` and `raw` hold what was, even after a failure."""

    def __init__(self, size: str, work: Path, budget: Budget) -> None:
        self.size, self.work, self.budget = size, work, budget
        self.game: Game = make_game(size)
        self.figures = SizeFigures(
            size, size_factor(size), self.game.markdown_pages, self.game.entries
        )
        self.raw = SizeRaw(size)

    def step(self, name: str, started: float) -> None:
        self.raw.seconds[name] = time.monotonic() - started

    def run(self) -> None:
        began = time.monotonic()
        try:
            self._run()
        finally:
            self.figures.seconds = time.monotonic() - began
            shutil.rmtree(self.work, ignore_errors=True)  # s30's sites take gigabytes

    def _run(self) -> None:
        started = time.monotonic()
        project = self.work / "jeu"
        config = write_game(self.game, project, npm.installed(ROOT / "build" / "npm"))
        twin = stock_twin(self.game, project, self.work / "material", SITE_URL)
        ours_site, stock_site = self.work / "site-nous", self.work / "site-material"

        def ours() -> BuildRun:
            return run_build(config, ours_site, strict=True, site_url=SITE_URL)

        def stock() -> BuildRun:
            return run_build(twin, stock_site, strict=False)

        self.step("écriture", started)
        started = time.monotonic()
        self.raw.warmup = {"ours": ours(), "stock": stock()}
        self.step("constructions à froid", started)
        started = time.monotonic()
        warm = self.raw.warmup
        pair = warm["ours"].wall + warm["stock"].wall
        # What the edits and the search will take: each server's first build, two edits.
        later = 3 * pair + 60
        least = 2 if self.figures.factor <= 10 else 1
        while len(self.raw.ours) < 4 and (
            len(self.raw.ours) < least or self.budget.allows(pair + later)
        ):
            began = time.monotonic()
            if len(self.raw.ours) % 2 == 0:
                self.raw.ours.append(ours())
                self.raw.stock.append(stock())
            else:
                self.raw.stock.append(stock())
                self.raw.ours.append(ours())
            pair = time.monotonic() - began
        self.step("constructions à chaud", started)
        self.raw.stats = {"ours": site_stats(ours_site), "stock": site_stats(stock_site)}
        _side(self.figures.ours, self.raw.ours, self.raw.stats["ours"])
        _side(self.figures.stock, self.raw.stock, self.raw.stats["stock"])
        started = time.monotonic()
        try:
            self.search(ours_site, stock_site)
        except Exception as error:  # the edits are measured all the same
            self.figures.errors.append(f"recherche : {type(error).__name__}: {error}")
        self.step("recherche", started)
        started = time.monotonic()
        edited = self.game.edited_page
        served = served_edits(
            (config, project / "content" / edited),
            (twin, twin.parent / "docs" / edited),
            edited.removesuffix(".md") + "/",
            self.budget,
        )
        self.raw.served = served
        self.figures.ours.served, self.figures.stock.served = served.ours, served.stock
        self.figures.ours.rebuilt = served.ours_done
        self.figures.stock.rebuilt = served.stock_done
        self.step("mkdocs serve", started)

    def search(self, ours_site: Path, stock_site: Path) -> None:
        queries = self.game.queries
        with web.chromium(self.work) as chrome:
            for name, site, side in (
                ("ours", ours_site, self.figures.ours),
                ("material", stock_site, self.figures.stock),
            ):
                server, url = serve(site)
                try:
                    found = search_times(
                        chrome.browser, f"{url}/{SEARCH_PAGE}", queries, name, SEARCH_TIMEOUT
                    )
                    self.figures.notes.append(
                        f"recherche ({'nous' if name == 'ours' else 'Material'}) : page "
                        f"attendue parmi les 3 premiers résultats pour {sum(found.found)} "
                        f"requêtes sur {len(found.found)}"
                        + (f", sans réponse : {found.unanswered}" if found.unanswered else "")
                    )
                finally:
                    server.shutdown()
                    server.server_close()
                self.raw.search[name] = found
                side.search_first, side.search_later = found.first, found.later


class SizesPart:
    """The sizes asked for, in order, each in its own folder under `work`; a size that
    fails is reported and the next one still runs."""

    def __init__(
        self, work: Path, sizes: Sequence[str], optional: Sequence[str], deadline: float = DEADLINE
    ) -> None:
        self.work, self.sizes, self.optional = work, list(sizes), list(optional)
        self.started = time.monotonic()
        self.deadline = deadline
        self.figures: list[SizeFigures] = []
        self.raw: list[SizeRaw] = []
        self.notes: list[str] = []
        self.errors: list[str] = []

    def left(self) -> float:
        return self.deadline - (time.monotonic() - self.started)

    def run(self) -> None:
        for size in self.sizes:
            self.measure(size)
        for size in self.optional:
            estimate = self.estimate(size)
            if estimate is not None and estimate <= self.left():
                self.measure(size)
            else:
                guess = f" (estimée à {fmt_duration(estimate)})" if estimate else ""
                self.notes.append(
                    f"{size} non mesurée faute de temps{guess} : "
                    f"{SIZES_ENV}={','.join([*self.sizes, size])} make bench la demande."
                )

    def estimate(self, size: str) -> float | None:
        """A size's duration, from how the durations of the two largest sizes measured grew
        with their size (at least in proportion, at most with its square)."""
        done = [f for f in self.figures if f.seconds > 0 and not f.errors]
        if not done:
            return None
        last = done[-1]
        power = 2.0
        if len(done) > 1 and done[-2].factor < last.factor:
            growth = math.log(last.seconds / done[-2].seconds)
            power = min(2.0, max(1.0, growth / math.log(last.factor / done[-2].factor)))
        return float(last.seconds * (size_factor(size) / last.factor) ** power)

    def measure(self, size: str) -> None:
        print(f"… taille {size}", flush=True, file=sys.stderr)
        # Samples beyond the least: a share of what is left for this size and the next.
        budget = Budget(max(0.0, min(self.left(), 120.0 + 40.0 * size_factor(size))))
        bench = SizeBench(size, self.work / size, budget)
        try:
            bench.run()
        except Exception as error:  # a benchmark reports what it could measure
            line = (str(error).strip().splitlines() or [""])[0]
            bench.figures.errors.append(f"{type(error).__name__}: {line}")
            self.errors.append(f"taille {size} : {type(error).__name__}: {line}")
        self.figures.append(bench.figures)
        self.raw.append(bench.raw)

    def data(self) -> dict[str, Any]:
        return {
            "figures": [asdict(f) for f in self.figures],
            "raw": [asdict(r) for r in self.raw],
            "notes": self.notes,
            "errors": self.errors,
        }

    def report(self) -> str:
        lines = [size_table(self.figures), ""] if self.figures else []
        durations = ", ".join(f"{f.size} {fmt_duration(f.seconds)}" for f in self.figures)
        lines.append(
            "- Grands jeux (bench/sizes.py, graine fixe) : sites écrits par regles new, pages "
            "de ce dépôt redistribuées en pages uniques, trois bases ; Material seul construit "
            f"les mêmes pages Markdown. Durée de chaque taille : {durations}."
        )
        lines.append(
            "- Construction : à chaud (une construction non chronométrée d’abord), paires "
            "alternées ; mémoire de pointe : somme des mémoires résidentes de mkdocs et de ses "
            "processus enfants, relevée toutes les 0,1 s. Liens de navigation : moyenne sur "
            "300 pages au plus, réparties dans le site."
        )
        lines.append(
            "- mkdocs serve : une phrase ajoutée à une page (puis retirée), chronométrée "
            "jusqu’à la page servie qui la montre (MkDocs ne sert une page qu’une fois sa "
            "reconstruction finie), et jusqu’à la fin de la reconstruction. Recherche : "
            "page d’accueil chargée et au repos, puis chaque requête ; l’index de Material se "
            "construit au chargement de la page, le nôtre à la 1re requête."
        )
        for figures in self.figures:
            lines += [f"- {figures.size}, {note}." for note in figures.notes]
            lines += [f"- ÉCHEC {figures.size} : {e}" for e in figures.errors]
        lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines)


def profile_report(size: str, work: Path, top: int = PROFILE_TOP) -> str:
    """cProfile's top lines (by own time, then by cumulative time) of a warm build of the
    game at `size`: one build first, untimed, then the profiled one."""
    game = make_game(size)
    project = work / "jeu"
    config = write_game(game, project, npm.installed(ROOT / "build" / "npm"))
    site = work / "site"
    first = run_build(config, site, strict=True, site_url=SITE_URL)
    stats_file = work / "profil.pstats"
    profiled = run_build(config, site, strict=True, site_url=SITE_URL, profile=stats_file)
    out = io.StringIO()
    stats = pstats.Stats(str(stats_file), stream=out)
    for key in ("tottime", "cumulative"):
        out.write(f"\n### Les {top} premières lignes par {key}\n")
        stats.sort_stats(key).print_stats(top)
    # Paths from their package (« markdown/core.py », « regles/core/build.py »): the file
    # names alone would not tell MkDocs' build.py from ours.
    text = out.getvalue()
    for prefix in sorted(_package_folders(), key=len, reverse=True):
        text = text.replace(prefix + os.sep, "")
    pages = game.markdown_pages
    head = (
        f"Profil (cProfile, processus principal seulement : ses processus enfants n’y sont "
        f"pas) d’une construction à chaud de {size} ({pages} pages Markdown, {game.entries} "
        f"entrées) : {fmt_number(profiled.wall, 1, 's')} sous le profileur ; la construction "
        f"qui l’a précédée, à froid et sans profileur : {fmt_number(first.wall, 1, 's')}."
    )
    return head + "\n" + text


def _package_folders() -> set[str]:
    """Where the profiled modules come from: the generator, the installed packages, the
    standard library."""
    folders = {str(Path(regles.__file__).parent.parent), sysconfig.get_paths()["stdlib"]}
    folders |= {p for p in sys.path if p.endswith("site-packages")}
    return folders
