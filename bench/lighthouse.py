"""Lighthouse (pinned in bench/package.json: `VERSION`) on Debian's Chromium, JSON output."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.browser import CHROMIUM_ARGS, chromium_path
from bench.report import median

__all__ = [
    "CATEGORIES",
    "LATE_PAINT_MS",
    "VERSION",
    "LighthouseRun",
    "good_runs",
    "lighthouse_problem",
    "median_run",
    "median_scores",
    "run_lighthouse",
    "timings",
]

BENCH = Path(__file__).resolve().parent
CLI = BENCH / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PASS = 0.9  # Lighthouse shows an audit as passed from this score on
LATE_PAINT_MS = 500  # a first paint this long after the load is the browser's (LighthouseRun)
# Lighthouse 13's `engines`: Node 22.19 (.ci/node installs a Node 24 where the machine's is
# older, and the Makefile puts it first on PATH).
MIN_NODE = (22, 19)
VERSION = json.loads((BENCH / "package.json").read_text("utf-8"))["dependencies"]["lighthouse"]


def _node_version(node: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = out.stdout.strip().lstrip("v").split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def lighthouse_problem() -> str | None:
    """Why Lighthouse cannot run here, or None when it can."""
    node = shutil.which("node")
    if node is None:
        return "node introuvable"
    version = _node_version(node)
    if version is None or version < MIN_NODE:
        needed = ".".join(map(str, MIN_NODE))
        return f"Node {version} trop ancien (Lighthouse {VERSION} demande ≥ {needed})"
    if not CLI.is_file():
        return "Lighthouse absent : lancer « npm ci --prefix bench » (ce que fait make bench)"
    if chromium_path() is None:
        return "Chromium introuvable"
    return None


@dataclass
class LighthouseRun:
    url: str
    seconds: float
    scores: dict[str, float | None] = field(default_factory=dict)
    failing: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    error: str | None = None
    benchmark_index: float | None = None  # Lighthouse's measure of this machine's speed
    blocking_ms: float | None = None  # total blocking time (simulated)
    # Observed in the unthrottled load that Lighthouse simulates from: the first paint, and
    # the end of the load event.
    first_paint_ms: float | None = None
    load_ms: float | None = None

    @property
    def late_first_paint(self) -> bool:
        """Chromium painted the page long after it had loaded (about 1.2 s after the start,
        the page's main thread idle meanwhile): seen for stock Material too, cause unknown.
        Such a run's speed index and largest paint suffer, and its performance score."""
        if self.first_paint_ms is None or self.load_ms is None:
            return False
        return self.first_paint_ms - self.load_ms > LATE_PAINT_MS


def good_runs(runs: list[LighthouseRun]) -> list[LighthouseRun]:
    """The runs that gave scores."""
    return [r for r in runs if not r.error and r.scores]


def median_scores(runs: list[LighthouseRun]) -> list[float | None]:
    """Each category's median over the runs, in CATEGORIES order."""
    return [
        median([s for r in runs if (s := r.scores.get(name)) is not None]) for name in CATEGORIES
    ]


def median_run(runs: list[LighthouseRun]) -> LighthouseRun:
    """The run whose performance score is the median (the lower one of an even count)."""
    ranked = sorted(runs, key=lambda r: r.scores.get("performance") or 0.0)
    return ranked[(len(ranked) - 1) // 2]


def _failing(report: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """Audits below Lighthouse's pass mark, by category, as (id, score)."""
    audits = report.get("audits", {})
    result: dict[str, list[tuple[str, float]]] = {}
    for name in CATEGORIES:
        category = report.get("categories", {}).get(name) or {}
        bad = []
        for ref in category.get("auditRefs", []):
            audit = audits.get(ref["id"]) or {}
            score = audit.get("score")
            mode = audit.get("scoreDisplayMode")
            if score is None or mode in ("informative", "manual", "notApplicable", "error"):
                continue
            if score < PASS:
                bad.append((ref["id"], float(score)))
        result[name] = bad
    return result


def _kill_marked(marker: str) -> None:
    """End the Chrome that this run's Lighthouse started (chrome-launcher detaches it, so it
    outlives a killed Lighthouse): the processes whose command line carries `marker`."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in command:
            with contextlib.suppress(OSError):
                os.kill(int(proc.name), signal.SIGKILL)


def run_lighthouse(url: str, output: Path, timeout: float = 240) -> LighthouseRun:
    """One Lighthouse run (mobile, simulated throttling: its defaults) on `url`."""
    chrome = chromium_path() or "chromium"
    # An unknown switch, ignored by Chrome, that names this run's browser processes.
    marker = f"--regles-bench-lighthouse={uuid.uuid4().hex}"
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS, marker])
    command = [
        "node",
        str(CLI),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
        "--disable-full-page-screenshot",  # not scored; a second of every run
    ]
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CHROME_PATH": chrome},
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        _kill_marked(marker)
        seconds = time.monotonic() - started
        return LighthouseRun(url, seconds, error=f"arrêté après {seconds:.0f} s, temps épuisé")
    seconds = time.monotonic() - started
    if process.returncode != 0 or not output.is_file():
        _kill_marked(marker)
        tail = (stderr or stdout).strip().splitlines()[-3:]
        return LighthouseRun(url, seconds, error=f"code {process.returncode} : " + " | ".join(tail))
    report = json.loads(output.read_text(encoding="utf-8"))
    run = LighthouseRun(url, seconds)
    if report.get("runtimeError"):
        run.error = str(report["runtimeError"].get("message") or report["runtimeError"])
    for name in CATEGORIES:
        category = report.get("categories", {}).get(name) or {}
        score = category.get("score")
        run.scores[name] = float(score) if score is not None else None
    run.failing = _failing(report)
    index = (report.get("environment") or {}).get("benchmarkIndex")
    run.benchmark_index = float(index) if index is not None else None
    run.blocking_ms, run.first_paint_ms, run.load_ms = timings(report)
    return run


def timings(report: dict[str, Any]) -> tuple[float | None, float | None, float | None]:
    """A report's total blocking time (simulated), and the first paint and the load's end
    observed, in ms (None where the report lacks one)."""
    audits = report.get("audits") or {}
    items = ((audits.get("metrics") or {}).get("details") or {}).get("items") or [{}]

    def number(name: str) -> float | None:
        value = items[0].get(name)
        return float(value) if isinstance(value, (int, float)) else None

    return number("totalBlockingTime"), number("observedFirstPaint"), number("observedLoad")
