"""`python -m bench`: every figure in one run, one table on stdout, raw samples in JSON.

Order: builds (they make the two sites), `mkdocs serve` rebuilds, spell-export growth, then
the two sites served locally for Chromium (weight, Python start, search, our first visit over
a throttled link and an update after a one-page change) and Lighthouse.
Each part has a time allowance so that the whole run stays under 10 minutes on 2 cores;
a part that fails is reported as n/a with its reason, and the others still run.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

import calculators
from bench import browser as web
from bench.builds import (
    Budget,
    EntryScaling,
    FullBuilds,
    Rebuilds,
    empty_export,
    entry_scaling,
    full_builds,
    serve_rebuilds,
    synthesize_export,
)
from bench.lighthouse import (
    CATEGORIES,
    LATE_PAINT_MS,
    VERSION,
    LighthouseRun,
    good_runs,
    lighthouse_problem,
    median_run,
    median_scores,
    run_lighthouse,
)
from bench.offline import (
    MBIT,
    SiteFiles,
    ThrottledVisit,
    UpdateBytes,
    changed_files,
    edited_build,
    raw_visit,
    site_files,
    throttled_visit,
    update_after_edit,
)
from bench.project import (
    ROOT,
    BenchError,
    entry_source,
    free_port,
    load_mkdocs_yaml,
    mirror_project,
    stock_project,
    with_entries_export,
)
from bench.report import (
    NA,
    Goal,
    Row,
    fmt_bytes,
    fmt_duration,
    fmt_number,
    fmt_scores,
    median,
    paired_ratio,
    render_table,
    same_page,
    section,
    verdict,
)
from bench.scale_run import SizesPart
from bench.server import CHUNK, CountingServer
from regles.features.calculators.formatting import format_value

__all__ = ["main"]

OUTPUT = ROOT / "build" / "bench.json"
LIGHTHOUSE_REPORTS = ROOT / "build" / "bench-lighthouse"  # full JSON reports, to fix audits
DEADLINE = 9 * 60  # seconds; the issue asks for under 10 minutes, this leaves a margin
LIGHTHOUSE_ROUNDS = 3  # one run per page swings by ±0.05 in performance on this machine
PAGES = {
    "règles": "dnd5e/combat/",
    "collège": "magie/acoustique/",
    "calculateurs": "outils/",
}
EDITED_PAGE = "dnd5e/combat.md"  # edited (in a copy) to time the rebuild of `mkdocs serve`
QUIET_PAGE = "licences/"  # no calculator: Python starts only when the benchmark asks
SEARCH_NA = "n/a (recherche pas encore disponible)"
# A reader's first visit of the home page over a throttled link (one link for every
# connection): (label, bytes per second, seconds allowed). The slow one downloads everything
# (~20 MB) in some two minutes.
OFFLINE_PAGE = ""
OFFLINE_SLOW = ("1,5 Mbit/s", 1.5 * MBIT, 180.0)
OFFLINE_FAST = ("10 Mbit/s", 10 * MBIT, 60.0)
# First visits timed until the text is offline, at 10 Mbit/s: one visit swings by ±0.2 s
# (±15 % of the limit) on this machine, the median of three by less.
TEXT_ROUNDS = 3
LIGHTHOUSE_MIN = 90  # seconds kept for Lighthouse after the offline parts: about one round

GOAL_BUILD = Goal("ratio_max", 1.2, "≤ 1,2×")
GOAL_LINEAR = Goal("ratio_max", 1.25, "≤ 1,25× (linéaire)")
GOAL_RULE_PAGE = Goal("max", 300_000, "≤ 300 Ko")
GOAL_WARM_START = Goal("ratio_max", 0.5, "≤ 0,5×")
GOAL_ROUND_TRIP = Goal("max", 20, "≤ 20 ms")
GOAL_FIRST_EDIT_WARM = Goal("max", 1000, "≤ 1,0 s")
GOAL_EDIT_READY = Goal("max", 50, "≤ 50 ms")
GOAL_OFFLINE_TEXT = Goal("ratio_max", 1.3, "≤ 1,3×")
# The reader's first edit of a calculator that needs Python: the ability modifier, second on
# the tools page (the dice calculator before it answers without Python until Python is
# ready: dice-calculator.js). Scores from both ends in turn, so that each edit changes its
# headline modifier. The first three are the first edits (cold, warm, service worker), the
# others follow with Python ready.
EDITED_FORM = ("ability_modifier", "score", "modifier_text")
EDIT_VALUES = [
    str(score) for pair in zip(range(1, 13), range(30, 18, -1), strict=True) for score in pair
][:23]
GOAL_SCORES = (0.95, 1.0, 1.0, 1.0)
SCORE_NAMES = {
    "performance": "perf.",
    "accessibility": "accessibilité",
    "best-practices": "bonnes pratiques",
    "seo": "SEO",
}


def _json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _json(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


class Bench:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.rows: list[Row] = []
        self.notes: list[str] = []
        self.errors: list[str] = []
        self.data: dict[str, Any] = {
            "machine": {"cpus": os.cpu_count(), "load_start": os.getloadavg()},
            "pages": PAGES,
        }
        self.work = Path(tempfile.mkdtemp(prefix="regles-bench-"))
        self.servers: dict[str, CountingServer] = {}

    def left(self) -> float:
        return DEADLINE - (time.monotonic() - self.started)

    def budget(self, wanted: float, keep: float) -> Budget:
        """`wanted` seconds, or less so that `keep` seconds stay for what comes after."""
        return Budget(max(0.0, min(wanted, self.left() - keep)))

    def part(self, name: str, run: Callable[[], None], fallback: list[Row]) -> None:
        """Run one part; on failure, its rows say n/a and the reason goes under the table."""
        began = time.monotonic()
        print(f"… {name}", file=sys.stderr, flush=True)
        try:
            run()
        except Exception as error:  # a benchmark reports what it could measure
            message = str(error).strip().splitlines()
            reason = f"{name} : {type(error).__name__}: {message[0] if message else ''}"
            self.errors.append(reason)
            self.data.setdefault("errors", []).append(
                {"part": name, "error": str(error), "trace": traceback.format_exc()}
            )
            self.rows += fallback
        self.data.setdefault("seconds_per_part", {})[name] = time.monotonic() - began

    # Sites ---------------------------------------------------------------------------

    def prepare(self) -> None:
        self.ours_port, self.stock_port = free_port(), free_port()
        self.ours_url = f"http://127.0.0.1:{self.ours_port}/"
        self.stock_url = f"http://127.0.0.1:{self.stock_port}/"
        self.stock_config = stock_project(self.work / "stock", self.stock_url)
        self.source = entry_source()
        self.export_10x = synthesize_export(self.source.text, 10)
        path_10x = self.work / "export-x10.txt"
        path_10x.write_text(self.export_10x, encoding="utf-8")
        path_0x = self.work / "export-vide.txt"
        path_0x.write_text(empty_export(self.source.text), encoding="utf-8")
        text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
        self.mirror = mirror_project(
            self.work / "projet",
            {
                "mkdocs-0.yml": with_entries_export(text, path_0x),
                "mkdocs-1.yml": with_entries_export(text, self.source.path),
                "mkdocs-10.yml": with_entries_export(text, path_10x),
            },
        )
        self.ours_site = self.work / "site-nous"
        self.stock_site = self.work / "site-material"

    # Builds --------------------------------------------------------------------------

    def builds(self) -> None:
        result: FullBuilds = full_builds(
            ROOT / "mkdocs.yml",
            self.ours_site,
            self.ours_url,
            self.stock_config,
            self.stock_site,
            self.budget(40, keep=400),
        )
        self.data["builds"] = result
        wall = ([s.wall for s in result.ours], [s.wall for s in result.stock])
        cpu = ([s.cpu for s in result.ours], [s.cpu for s in result.stock])
        n = len(result.ours)
        self.rows += [
            Row.measured(
                f"Construction complète, à chaud (s, médiane de {n})",
                median(wall[0]),
                median(wall[1]),
                decimals=2,
                unit="s",
                ratio=paired_ratio(*wall),
                goal=GOAL_BUILD,
            ),
            Row.measured(
                "Construction complète, temps CPU (s)",
                median(cpu[0]),
                median(cpu[1]),
                decimals=2,
                unit="s",
                ratio=paired_ratio(*cpu),
                goal=GOAL_BUILD,
            ),
        ]

    def rebuilds(self) -> None:
        docs = str(load_mkdocs_yaml(ROOT / "mkdocs.yml").get("docs_dir") or "docs")
        result: Rebuilds = serve_rebuilds(
            self.mirror["mkdocs-1.yml"],
            self.mirror["mkdocs-1.yml"].parent / docs / EDITED_PAGE,
            self.stock_config,
            self.stock_config.parent / "docs" / EDITED_PAGE,
            self.budget(30, keep=360),
        )
        self.data["rebuilds"] = result
        self.rows.append(
            Row.measured(
                f"Reconstruction de mkdocs serve après modification de {EDITED_PAGE} (s)",
                median(result.ours),
                median(result.stock),
                decimals=2,
                unit="s",
                ratio=paired_ratio(result.ours, result.stock),
            )
        )

    def entries(self) -> None:
        configs = {k: self.mirror[f"mkdocs-{k}.yml"] for k in ("0", "1", "10")}
        result: EntryScaling = entry_scaling(
            configs, self.work, self.source, self.export_10x, self.budget(75, keep=300)
        )
        self.data["entries"] = result

        # Cost of the spells alone: build with the export minus build without it (same
        # round), per spell. CPU time: the question is how the work grows, and a busy machine
        # blurs wall time.
        def per_entry(key: str, entries: int) -> list[float]:
            return [(r[key].cpu - r["0"].cpu) / entries * 1000 for r in result.rounds if key in r]

        one, ten = per_entry("1", result.entries_1x), per_entry("10", result.entries_10x)
        mid_one, mid_ten = median(one), median(ten)
        ratio = mid_ten / mid_one if mid_one and mid_ten is not None else None
        tens = sum(1 for r in result.rounds if "10" in r)
        self.rows += [
            Row.measured(
                f"Export ×1 ({fmt_number(result.entries_1x)} sorts) : CPU par sort "
                f"(ms, médiane de {len(one)})",
                median(one),
                decimals=2,
                unit="ms",
            ),
            Row.measured(
                f"Export ×10 ({fmt_number(result.entries_10x)} sorts) : CPU par sort "
                f"(ms, {tens} mesure{'s' if tens > 1 else ''}), réf. = ×1",
                median(ten),
                median(one),
                decimals=2,
                unit="ms",
                ratio=ratio,
                goal=GOAL_LINEAR,
            ),
            Row.measured(
                "Construction avec l’export ×10, CPU, réf. = ×1 (s)",
                median([r["10"].cpu for r in result.rounds if "10" in r]),
                median([r["1"].cpu for r in result.rounds]),
                decimals=1,
                unit="s",
            ),
        ]
        walls = " ; ".join(
            f"×{k} : {fmt_number(median([r[k].wall for r in result.rounds if k in r]), 1, 's')}"
            for k in ("0", "1", "10")
        )
        self.notes.append(
            "Export de sorts : coût par sort = (construction avec l’export − construction avec "
            f"un export sans aucun sort) / nombre de sorts, en CPU. Temps écoulés (médianes) : "
            f"{walls}."
        )

    # In the browser ------------------------------------------------------------------

    def serve_sites(self) -> None:
        for name, site, port in (
            ("ours", self.ours_site, self.ours_port),
            ("stock", self.stock_site, self.stock_port),
        ):
            if not (site / "index.html").is_file():
                raise BenchError(f"site {name} absent : la construction a échoué")
            self.servers[name] = CountingServer(site, port).start()

    def weights(self, chrome: web.Chrome) -> None:
        ours, stock = self.servers["ours"], self.servers["stock"]
        measured: dict[str, Any] = {}
        for label, page in PAGES.items():
            mine = web.page_weight(chrome.browser, ours, page)
            theirs = web.page_weight(chrome.browser, stock, page)
            measured[label] = {"ours": mine, "stock": theirs}
            self.rows.append(
                Row.measured(
                    f"Poids 1re vue, page {label} ({page}), hors Pyodide",
                    mine.without_pyodide,
                    theirs.without_pyodide,
                    fmt="bytes",
                    goal=GOAL_RULE_PAGE if label == "règles" else None,
                )
            )
            if mine.pyodide:
                self.rows.append(
                    Row.measured(
                        f"  + Pyodide et calculateurs chargés par la page {label}",
                        mine.pyodide,
                        fmt="bytes",
                    )
                )
        # With the service worker: the first visit also downloads the site for offline use.
        # Stock Material has no service worker: its figure is the page's own weight.
        page = PAGES["règles"]
        mine = web.first_install_weight(chrome, ours, page)
        measured["hors-ligne"] = {"ours": mine}
        self.rows.append(
            Row.measured(
                f"1re visite avec le téléchargement hors ligne (service worker), {page}",
                mine.total,
                measured["règles"]["stock"].total,
                fmt="bytes",
            )
        )
        self.data["weights"] = measured

    def python(self, chrome: web.Chrome) -> None:
        result = web.python_start(
            chrome,
            self.servers["ours"],
            self.ours_site,
            QUIET_PAGE,
            self.budget(35, keep=200),
            min_pairs=1,
        )
        self.data["python"] = result
        n = len(result.ours_cold)
        self.rows += [
            Row.measured(
                f"Python prêt + 1er calcul, à froid (ms, médiane de {n}), réf. = Pyodide seul",
                median(result.ours_cold),
                median(result.plain_cold),
                unit="ms",
                ratio=paired_ratio(result.ours_cold, result.plain_cold),
            ),
            Row.measured(
                "Python prêt + 1er calcul, à chaud (cache HTTP), réf. = Pyodide seul",
                median(result.ours_warm),
                median(result.plain_warm),
                unit="ms",
                ratio=paired_ratio(result.ours_warm, result.plain_warm),
                goal=GOAL_WARM_START,
            ),
            Row.measured(
                f"Aller-retour d’un calcul, Python prêt (ms, médiane de {len(result.round_trips)})",
                median(result.round_trips),
                decimals=1,
                unit="ms",
                goal=GOAL_ROUND_TRIP,
            ),
        ]
        self.first_edits(chrome, result)
        modes = sorted({str(s.get("mode")) for s in result.statuses})
        reasons = sorted(
            {str(s["fallbackReason"]) for s in result.statuses if s.get("fallbackReason")}
        )
        self.notes.append(
            "Calculateurs : window.rules.status() → mode "
            + ", ".join(modes)
            + (f" (repli : {'; '.join(reasons)})" if reasons else "")
            + f" ; démarrage mesuré sur {QUIET_PAGE} (aucun calculateur n’y démarre Python seul)."
        )

    def first_edits(self, chrome: web.Chrome, start: web.PythonStart) -> None:
        """From the first edit of a field after the page's load to its headline painted,
        side by side with plain `loadPyodide` (its figures from `python_start`, this run)."""
        form, field, output = EDITED_FORM
        edits = [
            web.Edit(
                form,
                field,
                text,
                output,
                format_value(output, calculators.run(form, {field: int(text)})),
            )
            for text in EDIT_VALUES
        ]
        result = web.first_edit(chrome, self.servers["ours"], PAGES["calculateurs"], edits)
        self.data["first_edit"] = result
        page = PAGES["calculateurs"]
        self.rows += [
            Row.measured(
                f"1re modification → résultat affiché, à froid, {page} (ms), réf. = Pyodide seul",
                median(result.cold),
                median(start.plain_cold),
                unit="ms",
            ),
            Row.measured(
                "1re modification → résultat affiché, à chaud (cache HTTP), réf. = Pyodide seul",
                median(result.warm),
                median(start.plain_warm),
                unit="ms",
                goal=GOAL_FIRST_EDIT_WARM,
            ),
            Row.measured(
                "1re modification → résultat affiché, par le service worker, réf. = Pyodide seul",
                median(result.service_worker),
                median(start.plain_warm),
                unit="ms",
            ),
            Row.measured(
                f"Modification → résultat affiché, Python prêt (ms, médiane de "
                f"{len(result.ready)}, max {fmt_number(max(result.ready), 1, '')})",
                median(result.ready),
                decimals=1,
                unit="ms",
                goal=GOAL_EDIT_READY,
            ),
        ]

    def search(self, chromium: web.Browser) -> None:
        queries = load_queries()
        if queries is None:
            self.rows += search_na_rows(SEARCH_NA, NA)
            self.notes.append("Recherche : tests/content/search_queries.py absent, rien à mesurer.")
            return
        ours = web.search_ours(chromium, self.servers["ours"], QUIET_PAGE, queries, same_page)
        theirs = web.search_material(
            chromium, self.servers["stock"], QUIET_PAGE, queries, same_page
        )
        self.data["search"] = {"queries": queries, "ours": ours, "material": theirs}
        n = len(queries)
        if ours is None:
            self.notes.append("Recherche : window.rules.search absent du site construit.")

        def first(run: web.SearchRun) -> float:
            return float(run.bytes_at_load + (run.bytes_per_query[0] if run.bytes_per_query else 0))

        def following(run: web.SearchRun) -> float | None:
            return median([float(b) for b in run.bytes_per_query[1:]])

        na = None if ours else SEARCH_NA
        self.rows += [
            Row.measured(
                f"Recherche : temps par requête (ms, médiane de {n} requêtes)",
                median(ours.times) if ours else None,
                median(theirs.times),
                decimals=1,
                unit="ms",
                ratio=paired_ratio(ours.times, theirs.times) if ours else None,
                na_reason=na,
            ),
            Row.measured(
                "Recherche : octets pour la 1re requête (index et worker compris)",
                first(ours) if ours else None,
                first(theirs),
                fmt="bytes",
                na_reason=na,
            ),
            Row.measured(
                "Recherche : octets par requête suivante (médiane)",
                following(ours) if ours else None,
                following(theirs),
                fmt="bytes",
                na_reason=na,
            ),
            Row(
                "Recherche : résultat attendu parmi les 3 premiers",
                f"{sum(ours.hits)}/{n}" if ours else SEARCH_NA,
                f"{sum(theirs.hits)}/{n}",
                "—",
                f"{n}/{n}",
                verdict(sum(ours.hits) == n) if ours else NA,
            ),
        ]
        for run in (ours, theirs):
            if run is None:
                continue
            missed = [q for (q, _), hit in zip(queries, run.hits, strict=True) if not hit]
            if missed:
                engine = "nous" if run.engine == "ours" else "Material"
                self.notes.append(
                    f"Recherche ({engine}) : attendu absent des 3 premiers pour "
                    + ", ".join(f"« {q} »" for q in missed)
                )

    # Offline, over a throttled link ----------------------------------------------------

    def offline_fast(self, chrome: web.Chrome) -> None:
        """The first visit at 10 Mbit/s, then another at full speed in Playwright's Chromium
        and, in its profile, the update after a one-page change (its site built first,
        before any timing)."""
        server = self.servers["ours"]
        label, rate, wanted = OFFLINE_FAST
        if self.budget(wanted, keep=LIGHTHOUSE_MIN + 120).left() < 20:
            raise BenchError("temps épuisé avant la visite")
        old = site_files(self.ours_site, server)
        update: UpdateBytes | None = None
        new_site: Path | None = None
        problem: str | None = None
        try:
            new_site, sample = edited_build(self.work, EDITED_PAGE, self.ours_url)
            new = site_files(new_site, server)
            self.data.setdefault("offline", {})["update_build_seconds"] = sample.wall
            changed, removed = changed_files(old, new)
            if not changed:
                raise BenchError(f"aucun fichier ne change après modification de {EDITED_PAGE}")
            update = UpdateBytes(
                EDITED_PAGE,
                changed,
                removed,
                len(new.files),
                0,
                0,
                changed_bytes=new.worker_bytes
                + sum(f["wire"] for f in new.files if f["url"] in changed),
            )
        except Exception as error:  # the visit is measured all the same
            problem = f"{type(error).__name__}: {str(error).strip()[:200]}"

        def after(page: Page) -> None:
            nonlocal problem
            if update is None or new_site is None:
                return
            try:
                update_after_edit(
                    page, server, new_site, update, self.budget(60, keep=LIGHTHOUSE_MIN + 60).left()
                )
            except Exception as error:
                problem = f"{type(error).__name__}: {str(error).strip()[:200]}"

        allowance = self.budget(wanted, keep=LIGHTHOUSE_MIN + 120).left()
        if allowance < 10:
            raise BenchError("temps épuisé avant la visite")
        visit = self.offline_visit(chrome, label, rate, allowance, old, after, TEXT_ROUNDS)
        if update is not None:
            update.first_visit_bytes = visit.bytes_sent
            update.first_visit_responses = visit.responses
        self.data.setdefault("offline", {})["update"] = update
        if problem is not None:
            self.data["offline"]["update_error"] = problem
        self.update_rows(update, visit, problem)

    def offline_slow(self, chrome: web.Chrome) -> None:
        """The first visit at 1,5 Mbit/s, with what time is left but Lighthouse's round."""
        label, rate, wanted = OFFLINE_SLOW
        allowance = self.budget(wanted, keep=LIGHTHOUSE_MIN).left()
        if allowance < 20:
            raise BenchError("temps épuisé avant la visite")
        files = site_files(self.ours_site, self.servers["ours"])
        self.offline_visit(chrome, label, rate, allowance, files, None)

    def offline_visit(
        self,
        chrome: web.Chrome,
        label: str,
        rate: float,
        allowance: float,
        files: SiteFiles,
        after: Callable[[Page], None] | None,
        text_rounds: int = 1,
    ) -> ThrottledVisit:
        """One first visit over the link at `rate`, in a Chromium nothing drives, and
        `text_rounds` - 1 more until the text only; its three rows (text: the median, everything,
        bytes). Then, if `after`, another first visit in Playwright's Chromium at full speed,
        and `after` on its page (the update)."""
        started = time.monotonic()
        server = self.servers["ours"]
        visit = raw_visit(server, OFFLINE_PAGE, files, rate, allowance, self.work)
        visit.text_runs = [visit.text_seconds]
        if text_rounds > 1 and visit.text_seconds is not None:
            for _ in range(text_rounds - 1):
                left = allowance - (time.monotonic() - started)
                again = raw_visit(
                    server, OFFLINE_PAGE, files, rate, left, self.work, text_only=True
                )
                visit.text_runs.append(again.text_seconds)
            times = [t for t in visit.text_runs if t is not None]
            visit.text_seconds = median(times) if len(times) == len(visit.text_runs) else None
            self.notes.append(
                f"Texte hors ligne, {label} : médiane de {len(visit.text_runs)} visites ("
                + ", ".join(fmt_number(t, 2, "s") for t in visit.text_runs)
                + ")."
            )
        if after is not None:
            left = allowance - (time.monotonic() - started)
            throttled_visit(
                chrome, self.servers["ours"], OFFLINE_PAGE, files, None, max(left, 30), after=after
            )
        offline_data = self.data.setdefault("offline", {})
        offline_data.setdefault("visits", {})[label] = visit
        offline_data["files"] = {
            "version": files.version,
            "count": len(files.files),
            "later": [f["url"] for f in files.later],
            "text_bytes": files.text_bytes,
            "all_bytes": files.all_bytes,
            "raw_bytes": sum(f["size"] for f in files.files),
            "sw_js_bytes": files.worker_bytes,
        }
        text_na, all_na = visit.text_missing(), visit.all_missing()
        if "link" not in offline_data:
            offline_data["link"] = {"chunk": CHUNK, "page": OFFLINE_PAGE}
            later = len(files.later)
            self.notes.append(
                "Hors ligne, lien bridé : un seul débit pour toutes les connexions (seau à "
                f"jetons, corps des réponses par tranches de {CHUNK // 1024} Kio, en-têtes non "
                "comptés), profil neuf, page d’accueil ; chrono dès la navigation. Octets sur "
                f"le fil (gzip pour le texte) : texte {fmt_bytes(files.text_bytes)} "
                f"({len(files.text)} fichiers + sw.js), tout {fmt_bytes(files.all_bytes)} "
                f"({len(files.files)} fichiers + sw.js, dont {later} marqués « later »)."
            )
        self.rows += [
            Row.measured(
                f"Texte hors ligne (pages, recherche, données, styles, scripts, icônes), {label}"
                " (s), réf. = octets ÷ débit",
                visit.text_seconds,
                visit.text_limit,
                decimals=1,
                unit="s",
                goal=GOAL_OFFLINE_TEXT,
                na_reason=f"n/a ({text_na})" if text_na else None,
            ),
            Row.measured(
                f"Tout hors ligne (Pyodide compris), {label} (s), réf. = octets ÷ débit",
                visit.all_seconds,
                visit.all_limit,
                decimals=1,
                unit="s",
                na_reason=f"n/a ({all_na})" if all_na else None,
            ),
            Row.measured(
                f"Octets transférés pendant cette 1re visite, {label}, réf. = fichiers de la "
                "liste + sw.js",
                visit.bytes_sent if all_na is None else None,
                files.all_bytes,
                fmt="bytes",
                na_reason=f"n/a ({all_na})" if all_na else None,
            ),
        ]
        if visit.repeated:
            self.notes.append(
                f"Hors ligne, {label} : envoyés en entier plus d’une fois pendant la 1re visite : "
                + ", ".join(f"{path} ×{n}" for path, n in visit.repeated.items())
            )
        return visit

    def update_rows(
        self, update: UpdateBytes | None, visit: ThrottledVisit, problem: str | None
    ) -> None:
        reason = None
        if problem is not None:
            reason = f"n/a ({problem[:80]})"
        elif visit.all_seconds is None:
            reason = "n/a (1re visite inachevée)"
        done = update is not None and reason is None
        self.rows += [
            Row.measured(
                f"Mise à jour après modification de {EDITED_PAGE} : octets transférés, "
                "réf. = 1re visite complète",
                update.bytes if done and update else None,
                visit.bytes_sent if visit.all_seconds is not None else None,
                fmt="bytes",
                na_reason=reason,
            ),
            Row.measured(
                "Mise à jour : fichiers transférés, réf. = fichiers nouveaux ou modifiés (sw.js "
                "compris)",
                len(update.downloaded) if done and update else None,
                len(update.changed) if update else None,
                na_reason=reason,
            ),
        ]
        if update is None or not done:
            return

        def listing(paths: list[str], most: int = 12) -> str:
            shown = ", ".join(paths[:most])
            return shown + (f" et {len(paths) - most} autres" if len(paths) > most else "")

        self.notes.append(
            f"Mise à jour après l’ajout d’une phrase à {EDITED_PAGE} : "
            f"{fmt_number(len(update.changed))} fichiers nouveaux ou modifiés "
            f"({fmt_bytes(update.changed_bytes)} sur le fil), {len(update.removed)} retirés, "
            f"sur {fmt_number(update.list_files)} ; nouveaux ou modifiés : "
            f"{listing(update.changed)} ; transférés : {listing(update.downloaded)} "
            f"(listes complètes dans {OUTPUT.relative_to(ROOT)})."
        )

    # Lighthouse ----------------------------------------------------------------------

    def lighthouse(self) -> None:
        """LIGHTHOUSE_ROUNDS rounds; in each, every page once for ours then at once for stock,
        so that the two runs of a pair see the same machine. A run starts only if it can end
        before the deadline; each figure is the median of the runs made."""
        problem = lighthouse_problem()
        runs: dict[str, dict[str, list[LighthouseRun]]] = {
            label: {"ours": [], "stock": []} for label in PAGES
        }
        plan = [
            (round_, label, name)
            for round_ in range(LIGHTHOUSE_ROUNDS)
            for label in PAGES
            for name in ("ours", "stock")
        ]
        estimate = 40.0
        for round_, label, name in plan if problem is None else []:
            if self.left() < 1.2 * estimate + 10:
                break  # the figures are the medians of the runs made; the rows say how many
            page = PAGES[label]
            LIGHTHOUSE_REPORTS.mkdir(parents=True, exist_ok=True)
            stem = f"{name}-{page.strip('/').replace('/', '-')}-{round_ + 1}"
            out = LIGHTHOUSE_REPORTS / f"{stem}.json"
            out.unlink(missing_ok=True)
            run = run_lighthouse(self.servers[name].url + page, out, timeout=max(self.left(), 20))
            runs[label][name].append(run)
            estimate = max(run.seconds, 20.0)
        for label, page in PAGES.items():
            self.rows.append(self.lighthouse_row(label, page, runs[label], problem))
        self.data["lighthouse"] = {"problem": problem, "runs": runs}
        indexes = sorted(
            {
                r.benchmark_index
                for v in runs.values()
                for rs in v.values()
                for r in rs
                if r.benchmark_index
            }
        )
        if indexes:
            self.notes.append(
                "Lighthouse : indice de performance de la machine (benchmarkIndex) "
                + ", ".join(fmt_number(i) for i in indexes)
                + " ; les scores de performance baissent quand la machine est occupée."
            )

        def performances(made: list[LighthouseRun]) -> str:
            scores = []
            for run in good_runs(made):
                score = fmt_number(run.scores.get("performance"), 2)
                if run.blocking_ms is not None:
                    score += f" (blocage {fmt_number(run.blocking_ms)} ms)"
                scores.append(score + (" *" if run.late_first_paint else ""))
            return " ; ".join(scores) or "n/a"

        for label, page in PAGES.items():
            done = good_runs(runs[label]["ours"])
            if not done:
                continue
            self.notes.append(
                f"Lighthouse, performance de chaque passage, {page} : nous "
                f"{performances(done)} — Material seul {performances(runs[label]['stock'])}"
            )
            mine = median_run(done)
            failing = [
                f"{SCORE_NAMES[c]} : " + ", ".join(f"{i} ({fmt_number(s, 2)})" for i, s in audits)
                for c, audits in mine.failing.items()
                if audits
            ]
            if failing:
                self.notes.append(
                    f"Lighthouse, audits ratés chez nous (passage médian), {page} — "
                    + " ; ".join(failing)
                )
        made = [r for v in runs.values() for rs in v.values() for r in good_runs(rs)]
        late = [r for r in made if r.late_first_paint]
        if late:
            self.notes.append(
                f"Lighthouse, * : passage où Chromium n’a peint la page que plus de "
                f"{fmt_number(LATE_PAINT_MS)} ms après son chargement ({len(late)} sur "
                f"{len(made)}, les deux sites confondus), le fil principal de la page libre "
                "entre-temps ; l’indice de vitesse et le LCP simulés en pâtissent."
            )

    def lighthouse_row(
        self,
        label: str,
        page: str,
        runs: dict[str, list[LighthouseRun]],
        problem: str | None,
    ) -> Row:
        def cell(made: list[LighthouseRun]) -> str:
            if problem is not None:
                return f"n/a ({problem})"
            done = good_runs(made)
            if not done:
                failed = [r.error for r in made if r.error]
                return f"n/a ({failed[-1][:80]})" if failed else "n/a (temps épuisé)"
            return fmt_scores(median_scores(done))

        ours = good_runs(runs["ours"])
        met = NA
        if ours:
            scores = median_scores(ours)
            missed = [
                SCORE_NAMES[c]
                for c, score, goal in zip(CATEGORIES, scores, GOAL_SCORES, strict=True)
                if (score or 0.0) < goal
            ]
            met = "oui" if not missed else "NON (" + ", ".join(missed) + ")"
        counts = sorted({len(good_runs(runs["ours"])), len(good_runs(runs["stock"]))})
        return Row(
            f"Lighthouse perf. / accessibilité / bonnes pratiques / SEO, page {label} ({page}),"
            f" médiane de {' et '.join(str(c) for c in counts)}",
            cell(runs["ours"]),
            cell(runs["stock"]),
            "—",
            "≥ 0,95 / 1 / 1 / 1",
            met,
        )

    # Everything ----------------------------------------------------------------------

    def run(self) -> None:
        try:
            self.part("préparation", self.prepare, [])
            if self.errors:
                return
            self.rows.append(section("Construction"))
            self.part("constructions", self.builds, [Row("Construction complète", NA)])
            self.part("mkdocs serve", self.rebuilds, [Row("Reconstruction de mkdocs serve", NA)])
            self.part("export de sorts ×10", self.entries, [Row("Export de sorts ×1 et ×10", NA)])
            self.part("serveurs", self.serve_sites, [])
            if len(self.servers) < 2:
                return
            with web.chromium(self.work) as chrome:
                self.rows.append(section("Poids (octets transférés, gzip pour le texte)"))
                self.part("poids", lambda: self.weights(chrome), [Row("Poids des pages", NA)])
                self.rows.append(section("Calculateurs"))
                self.part(
                    "calculateurs",
                    lambda: self.python(chrome),
                    [Row("Démarrage de Python", NA)],
                )
                self.rows.append(section("Recherche"))
                self.part(
                    "recherche",
                    lambda: self.search(chrome.browser),
                    search_na_rows(NA, NA),
                )
                self.rows.append(
                    section("Hors ligne : 1re visite sur un lien bridé, puis une mise à jour")
                )
                self.part(
                    "hors ligne 10 Mbit/s et mise à jour",
                    lambda: self.offline_fast(chrome),
                    [Row(f"Hors ligne, {OFFLINE_FAST[0]}, et mise à jour", NA)],
                )
                self.part(
                    "hors ligne 1,5 Mbit/s",
                    lambda: self.offline_slow(chrome),
                    [Row(f"Hors ligne, {OFFLINE_SLOW[0]}", NA)],
                )
            self.rows.append(section(f"Lighthouse {VERSION} (mobile, réseau simulé)"))
            self.part("lighthouse", self.lighthouse, [Row("Lighthouse", NA)])
        finally:
            for server in self.servers.values():
                server.close()
            shutil.rmtree(self.work, ignore_errors=True)

    def report(self, sizes: SizesPart | None = None) -> str:
        total = time.monotonic() - self.started
        load = os.getloadavg()
        self.data["machine"]["load_end"] = load
        self.data["total_seconds"] = total
        self.data["rows"] = [dataclasses.asdict(r) for r in self.rows]
        self.data["notes"] = self.notes
        lines = [render_table(self.rows), ""]
        lines += [f"- {note}" for note in self.notes]
        lines += [f"- ÉCHEC {error}" for error in self.errors]
        start = self.data["machine"]["load_start"]
        lines.append(
            f"- Machine : {os.cpu_count()} cœurs, charge moyenne {fmt_number(start[0], 1)} au "
            f"début, {fmt_number(load[0], 1)} à la fin (rapports pris paire par paire)."
        )
        lines.append(
            f"- Données brutes : {OUTPUT.relative_to(ROOT)} ; rapports Lighthouse complets : "
            f"{LIGHTHOUSE_REPORTS.relative_to(ROOT)}/"
        )
        lines.append(
            f"- Durée totale des mesures : {fmt_duration(total)} (installation des dépendances "
            "non comprise)"
        )
        if sizes is not None:
            lines += ["", sizes.report()]
            self.data["sizes"] = sizes.data()
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(
            json.dumps(_json(self.data), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        return "\n".join(lines)


def load_queries() -> list[tuple[str, str]] | None:
    """tests/content/search_queries.py's QUERIES, when that file exists."""
    path = ROOT / "tests" / "content" / "search_queries.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("regles_bench_search_queries", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [(str(q), str(u)) for q, u in getattr(module, "QUERIES", [])] or None


def search_na_rows(ours: str, baseline: str) -> list[Row]:
    return [
        Row("Recherche : temps par requête (ms)", ours, baseline, NA),
        Row("Recherche : octets par requête", ours, baseline, NA),
        Row("Recherche : page attendue dans les 3 premiers résultats", ours, baseline, NA),
    ]


def main(sizes: SizesPart | None = None) -> int:
    """Every figure, then the big games of `sizes` (bench/scale_run.py), each part with its
    own time budget."""
    bench = Bench()
    bench.run()
    if sizes is not None:
        sizes.run()
    print(bench.report(sizes))
    return 1 if bench.errors or (sizes is not None and sizes.errors) else 0
