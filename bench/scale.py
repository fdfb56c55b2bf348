"""Measuring a generated game (bench/sizes.py): its stock Material twin, builds timed with the
peak memory of their whole process tree, the built sites' figures, `mkdocs serve`'s edit →
served page, and search in Chromium."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from playwright.sync_api import Browser

from bench.browser import MATERIAL_SEARCH_JS, OURS_SEARCH_JS, _settle
from bench.builds import BUILT, SERVING, Budget, _Serve
from bench.project import BenchError, _plain_extensions, build_environment
from bench.report import same_page
from bench.sizes import Game
from regles.core.words import Words
from regles.features.assets.theme import MARKDOWN_EXTENSIONS
from regles.features.databases.book import DatabaseSettings, read_book
from regles.features.databases.pages import ENTRY_TABLE_MARK, render_entry_table
from regles.features.offline import offline, precache

__all__ = [
    "BuildRun",
    "SearchTimes",
    "ServedEdits",
    "SiteStats",
    "TreeMemory",
    "nav_links",
    "run_build",
    "search_times",
    "served_edits",
    "site_stats",
    "stock_twin",
]

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
MEMORY_INTERVAL = 0.1  # seconds between two looks at the process tree (some 1 ms each)
NAV_SAMPLE = 300  # pages whose navigation links are counted (evenly spread)


# The stock Material twin -----------------------------------------------------------------


def stock_twin(game: Game, project: Path, destination: Path, site_url: str) -> Path:
    """The same Markdown pages built by stock Material for MkDocs: the game's pages, and its
    databases' pages written once as Markdown (as `bench.project.stock_project` does for
    this site), Material's own search, the site's theme features; no `regles` plugin.
    Returns its mkdocs.yml."""
    docs = destination / "docs"
    shutil.copytree(project / "content", docs)
    nav = copy.deepcopy(game.nav)
    for database in game.databases:
        settings = DatabaseSettings(
            export=project / database.export,
            export_name=database.export,
            folder=database.folder,
            section=database.section,
            index_title=database.index_title,
            lists_title=database.lists_title,
            words=Words(database.entry, database.group, database.listing),
            linked_from=database.linked_from,
        )
        book, problems = read_book(settings)
        if book is None:
            raise BenchError(f"{database.export} illisible : {problems[:1]}")
        table = render_entry_table(book.result, book.labels, book.columns)
        for uri, text in book.pages():
            page = docs / uri
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(text.replace(ENTRY_TABLE_MARK, table), encoding="utf-8")
        book.extend_nav(nav)
    config = yaml.safe_load((project / "mkdocs.yml").read_text(encoding="utf-8").replace(
        "!ENV [SITE_URL, ", "["))  # fmt: skip
    theme = config.get("theme") or {}
    stock = {
        "site_name": config.get("site_name"),
        "site_description": config.get("site_description"),
        "site_url": site_url,
        "docs_dir": str(docs),
        "theme": {
            "name": "material",
            "language": theme.get("language", "fr"),
            "font": False,
            "features": theme.get("features", []),
        },
        "plugins": ["search"],
        "markdown_extensions": _plain_extensions(
            [*(config.get("markdown_extensions") or []), *MARKDOWN_EXTENSIONS]
        ),
        "nav": nav,
    }
    path = destination / "mkdocs.yml"
    path.write_text(yaml.safe_dump(stock, allow_unicode=True), encoding="utf-8")
    return path


# Builds ------------------------------------------------------------------------------------


class TreeMemory:
    """The peak of the summed resident memory of a process and all its descendants, sampled
    in a thread (a build starts child processes: the rules package's, the search's)."""

    def __init__(self, pid: int, interval: float = MEMORY_INTERVAL) -> None:
        self.pid, self.interval = pid, interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(self.pid))
            self._stop.wait(self.interval)


def tree_rss(root: int) -> int:
    """Resident bytes of `root` and its descendants, now (0 once it has ended)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        parent = int(data[data.rindex(b")") + 2 :].split(b" ", 2)[1])
        children.setdefault(parent, []).append(int(entry.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * PAGE_SIZE
        except (OSError, IndexError, ValueError):
            continue
    return total


@dataclass(frozen=True)
class BuildRun:
    wall: float  # seconds, as the user waits
    cpu: float  # seconds of CPU of mkdocs and every child it waited for
    peak: int  # bytes: the process tree's summed resident memory, at its highest
    largest: int  # bytes: the largest resident memory of one process (the kernel's figure)
    log: str  # the build's output, last lines


def run_build(
    config: Path,
    destination: Path,
    *,
    strict: bool,
    site_url: str | None = None,
    profile: Path | None = None,
) -> BuildRun:
    """`mkdocs build` into a fresh `destination` (our site with --strict, as `make site`),
    timed; with `profile`, under cProfile, its statistics written there."""
    shutil.rmtree(destination, ignore_errors=True)
    log = destination.with_name(destination.name + ".log")
    env = build_environment(**({"SITE_URL": site_url} if site_url else {}))
    python = [sys.executable, *(["-m", "cProfile", "-o", str(profile)] if profile else [])]
    command = [*python, "-m", "mkdocs", "build", "--strict" if strict else "--no-strict"]
    command += ["-f", str(config), "-d", str(destination)]
    with log.open("wb") as output:
        started = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=config.parent, env=env, stdout=output, stderr=output
        )
        with TreeMemory(process.pid) as memory:
            _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    text = log.read_text(encoding="utf-8", errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise BenchError(f"mkdocs build a échoué ({config}) :\n{text[-3000:]}")
    if strict and "WARNING" in text:
        raise BenchError(f"mkdocs build --strict a averti ({config}) :\n{text[-3000:]}")
    largest = usage.ru_maxrss * 1024
    return BuildRun(
        wall, usage.ru_utime + usage.ru_stime, max(memory.peak, largest), largest, text[-2000:]
    )


# The built site ----------------------------------------------------------------------------


@dataclass
class SiteStats:
    html_pages: int
    html_bytes: int
    nav_links: float  # per page, over `nav_sampled` pages
    nav_sampled: int
    site_bytes: int
    offline_text: int | None  # what the phone stores of the text (`stored_text`)
    sw_js: int | None


PRIMARY_NAV = re.compile(r"<nav\b[^>]*\bmd-nav--primary\b")
NAV_TAGS = re.compile(r"<(/?)nav\b([^>]*)>|<a\b")


def nav_links(html: str) -> int:
    """The links of a page's primary navigation (Material's `md-nav--primary`), without
    those of the table of contents Material nests in it (`md-nav--secondary`)."""
    start = PRIMARY_NAV.search(html)
    if start is None:
        return 0
    stack, count = [False], 0  # one entry per open <nav>: is it the table of contents?
    for tag in NAV_TAGS.finditer(html, start.end()):
        if tag.group(0) == "<a":
            count += not any(stack)
        elif tag.group(1):
            stack.pop()
            if not stack:
                break
        else:
            stack.append("md-nav--secondary" in (tag.group(2) or ""))
    return count


def stored_text(data: dict[str, Any]) -> int:
    """What the service worker keeps on the phone before Python (the files of its list not
    marked `later`): each pack whole, as it came (gzip: sw.js stores it so and unzips a file
    when it is read), and the files in no pack, each as it is."""
    packed = {int(f["pack"]) for f in data["files"] if f.get("pack") is not None}
    alone = sum(
        int(f["size"]) for f in data["files"] if not f.get("later") and f.get("pack") is None
    )
    return alone + sum(int(p["size"]) for i, p in enumerate(data.get("packs", [])) if i in packed)


def site_stats(site: Path, sample: int = NAV_SAMPLE) -> SiteStats:
    """Counts and sizes of a built site; the navigation links of `sample` pages spread
    over it (reading every page of s30 would take longer than its build)."""
    html = sorted(p for p in site.rglob("*.html") if p.is_file())
    sizes = [p.stat().st_size for p in html]
    step = max(1, len(html) // sample)
    chosen = html[::step]
    links = [nav_links(p.read_text(encoding="utf-8", errors="replace")) for p in chosen]
    site_bytes = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    worker = site / precache.SERVICE_WORKER_FILE
    text: int | None = None
    if worker.is_file():
        data = offline.read_service_worker_data(worker.read_text(encoding="utf-8"))
        text = stored_text(data)
    return SiteStats(
        len(html),
        sum(sizes),
        sum(links) / len(links) if links else 0.0,
        len(links),
        site_bytes,
        text,
        worker.stat().st_size if worker.is_file() else None,
    )


# Edit → served, under `mkdocs serve` -----------------------------------------------------

EDIT = "\n\nUne phrase ajoutée par le banc d’essai, repère {token}.\n"


@dataclass
class ServedEdits:
    page: str
    ours: list[float] = field(default_factory=list)  # written → page served with it
    stock: list[float] = field(default_factory=list)
    ours_done: list[float] = field(default_factory=list)  # … and the rebuild ended
    stock_done: list[float] = field(default_factory=list)


def _fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return str(answer.read().decode("utf-8", errors="replace"))
    except (urllib.error.URLError, OSError):
        return ""  # between two builds: the page is not there yet


def _edit_and_wait(
    server: _Serve, url: str, source: Path, text: str, token: str, timeout: float
) -> tuple[float, float]:
    """Write `text` into `source`; seconds until the served page shows `token` (or no
    longer shows it, if `text` lacks it), and until that and the build's end."""
    wanted = token in text
    written = time.monotonic()
    source.write_text(text, encoding="utf-8")
    deadline = written + timeout
    # A whole page, with the token or without it: not a page missing or being rewritten
    # (MkDocs empties its folder before it builds again).
    while not ("</html>" in (page := _fetch(url)) and (token in page) == wanted):
        if time.monotonic() > deadline or server.process.poll() is not None:
            raise BenchError(f"mkdocs serve : {url} inchangée après {timeout:.0f} s")
        time.sleep(0.05)
    shown = time.monotonic() - written
    at, _ = server.wait_for(BUILT, written, timeout=max(1.0, deadline - time.monotonic()))
    return shown, max(shown, at - written)


def served_edits(
    ours: tuple[Path, Path],
    stock: tuple[Path, Path],
    page_url: str,
    budget: Budget,
    *,
    min_rounds: int = 1,
    max_rounds: int = 4,
    timeout: float = 900.0,
) -> ServedEdits:
    """`mkdocs serve` on both projects (ours with --strict, as `make serve` runs it), each
    (mkdocs.yml, the edited page's source): rounds of one edit each, alternating, that add
    a sentence then take it away; each timed from the write until the served page
    (`page_url` from the root) shows it, and until the rebuild has ended too (live reload
    then shows it to a reader who has the page open)."""
    result = ServedEdits(page_url)
    servers = {"ours": _Serve(ours[0], strict=True), "stock": _Serve(stock[0], strict=False)}
    sources = {"ours": ours[1], "stock": stock[1]}
    originals = {name: path.read_text(encoding="utf-8") for name, path in sources.items()}
    try:
        for server in servers.values():
            server.wait_for(SERVING, 0.0, timeout=timeout)
        round_time = 0.0
        while len(result.ours) < max_rounds and (
            len(result.ours) < min_rounds or budget.allows(round_time)
        ):
            started = time.monotonic()
            number = len(result.ours)
            token = f"jalon{number // 2:03d}"
            for name in ("ours", "stock") if number % 2 == 0 else ("stock", "ours"):
                server = servers[name]
                text = originals[name] + (EDIT.format(token=token) if number % 2 == 0 else "")
                shown, done = _edit_and_wait(
                    server, server.url + page_url, sources[name], text, token, timeout
                )
                getattr(result, name).append(shown)
                getattr(result, f"{name}_done").append(done)
            round_time = time.monotonic() - started
    finally:
        for name, path in sources.items():
            path.write_text(originals[name], encoding="utf-8")
        for server in servers.values():
            server.stop()
    return result


# Search --------------------------------------------------------------------------------------

# Material's search is ready once its worker has built the index: an empty query then
# shows the placeholder. Its index grows with the site: wait as long as `limit` ms.
MATERIAL_READY_JS = """async (limit) => {
  const input = document.querySelector("input.md-search__input");
  const meta = document.querySelector(".md-search-result__meta");
  const config = JSON.parse(document.getElementById("__config").textContent);
  const placeholder = config.translations["search.result.placeholder"];
  const started = performance.now();
  while (performance.now() - started < limit) {
    input.value = "";
    input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
    await new Promise((r) => setTimeout(r, 50));
    if (meta.textContent.trim() === placeholder.trim()) return performance.now() - started;
  }
  return null;
}"""
HAS_OURS_SEARCH_JS = "() => typeof (window.rules && window.rules.search) === 'function'"


@dataclass
class SearchTimes:
    engine: str
    ready_ms: float | None = None  # Material: its index built after the page settled
    times: list[float] = field(default_factory=list)  # ms, in the queries' order
    unanswered: list[str] = field(default_factory=list)  # queries without results in time
    top3: list[list[str]] = field(default_factory=list)
    found: list[bool] = field(default_factory=list)  # expected page in the top 3, per query
    # that expects one

    @property
    def first(self) -> float | None:
        return self.times[0] if self.times else None

    @property
    def later(self) -> list[float]:
        return self.times[1:]


def search_times(
    browser: Browser, url: str, queries: list[tuple[str, str]], engine: str, timeout: float
) -> SearchTimes:
    """Each query in turn on the page at `url` (the site's root) once it has settled
    (service worker blocked), in our search (`window.rules.search`) or Material's search
    box; whether the expected page (from the root) is among the first three results."""
    result = SearchTimes(engine)
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto(url, wait_until="load", timeout=timeout * 1000)
        _settle(page)
        if engine == "ours":
            if not page.evaluate(HAS_OURS_SEARCH_JS):
                raise BenchError("window.rules.search absent du site construit")
            script = OURS_SEARCH_JS
        else:
            ready = page.evaluate(MATERIAL_READY_JS, timeout * 1000)
            if ready is None:
                raise BenchError(f"la recherche de Material n’est pas prête après {timeout:.0f} s")
            result.ready_ms = float(ready)
            script = MATERIAL_SEARCH_JS
        for query, expected in queries:
            answer: dict[str, Any] = page.evaluate(script, query)
            if answer["ms"] is None:
                result.unanswered.append(query)
            else:
                result.times.append(float(answer["ms"]))
            result.top3.append([str(u) for u in answer["urls"]])
            if expected:
                links = [str(u) for u in answer.get("links", answer["urls"])]
                result.found.append(any(same_page(u, expected, url) for u in links))
    finally:
        context.close()
    return result
