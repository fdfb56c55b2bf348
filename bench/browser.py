"""Figures measured in Chromium through Playwright: page weight, Python start-up in the page,
calculation round trip, search. Bytes are counted by `bench.server` (what was sent)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.builds import Budget
from bench.project import BenchError
from bench.server import CountingServer, Transfer

# One definition of how Chromium is found and started, shared with the tests.
from tests.conftest import CHROMIUM_ARGS, chromium_path

__all__ = [
    "CHROMIUM_ARGS",
    "Browser",
    "Chrome",
    "Edit",
    "FirstEdit",
    "PythonStart",
    "SearchRun",
    "Weight",
    "chromium",
    "chromium_path",
    "first_edit",
    "first_install_weight",
    "measure_edit",
    "page_weight",
    "python_start",
    "search_material",
    "search_ours",
]

PYODIDE_PATHS = ("/assets/pyodide/", "/assets/calculators/")
SEARCH_PATHS = ("pagefind", "search_index.json", "/workers/search")
NAV_TIMEOUT_MS = 60_000


@dataclass
class Chrome:
    """Playwright's Chromium: `browser` for fresh incognito contexts, `profile()` for a
    browser with a real profile on disk (an incognito context keeps its HTTP cache in memory
    and does not store files as large as pyodide.asm.wasm: a warm start needs a profile)."""

    browser: Browser
    executable: str
    scratch: Path

    @contextmanager
    def profile(
        self, service_workers: Literal["allow", "block"] = "block"
    ) -> Iterator[BrowserContext]:
        """A fresh profile (empty cache) that lives as long as the `with` block."""
        folder = Path(tempfile.mkdtemp(prefix="profil-", dir=self.scratch))
        context = self.browser.browser_type.launch_persistent_context(
            str(folder),
            executable_path=self.executable,
            args=CHROMIUM_ARGS,
            service_workers=service_workers,
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def chromium(scratch: Path) -> Iterator[Chrome]:
    executable = chromium_path()
    if executable is None:
        raise BenchError("Chromium est introuvable (paquet Debian « chromium »)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield Chrome(browser, executable, scratch)
        finally:
            browser.close()


def _settle(page: Page) -> None:
    # A page that keeps fetching never reaches "networkidle": the server's quiet period
    # (CountingServer.wait_quiet) decides instead.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=30_000)


def _open(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url, wait_until="load", timeout=NAV_TIMEOUT_MS)
    _settle(page)
    return page


# Weight ----------------------------------------------------------------------------------


@dataclass
class Weight:
    page: str
    total: int
    pyodide: int  # under assets/pyodide/ and assets/calculators/
    requests: int
    transfers: list[dict[str, Any]] = field(default_factory=list)

    @property
    def without_pyodide(self) -> int:
        return self.total - self.pyodide


def _weight(page: str, transfers: list[Transfer]) -> Weight:
    return Weight(
        page,
        sum(t.body_bytes for t in transfers),
        sum(t.body_bytes for t in transfers if any(p in t.path for p in PYODIDE_PATHS)),
        len(transfers),
        [
            {"path": t.path, "status": t.status, "bytes": t.body_bytes, "gzip": t.gzip}
            for t in transfers
        ],
    )


def page_weight(
    browser: Browser,
    server: CountingServer,
    page_path: str,
    *,
    quiet: float = 2.0,
    limit: float = 60.0,
) -> Weight:
    """First view in a fresh context (empty cache, service worker blocked): every byte sent
    until the network has been idle, then quiet for `quiet` more seconds (so that lazy loads
    happen). With the service worker: `first_install_weight`."""
    context = browser.new_context(service_workers="block")
    try:
        return _measure(context, server, page_path, quiet, limit)
    finally:
        context.close()


def first_install_weight(
    chrome: Chrome,
    server: CountingServer,
    page_path: str,
    *,
    quiet: float = 2.0,
    limit: float = 120.0,
) -> Weight:
    """First visit with the service worker, which downloads the site for offline use, in a
    fresh profile on disk. Not in an incognito context: its HTTP cache, in memory, does not
    keep pyodide.asm.wasm (~10 MB) once the page has loaded it, so the worker's revalidation
    ("no-cache") would download it a second time, which a reader's browser does not."""
    with chrome.profile(service_workers="allow") as context:
        return _measure(context, server, page_path, quiet, limit)


def _measure(
    context: BrowserContext, server: CountingServer, page_path: str, quiet: float, limit: float
) -> Weight:
    mark = server.mark()
    _open(context, server.url + page_path)
    server.wait_quiet(quiet, limit)
    return _weight(page_path, server.since(mark))


# Python in the page -----------------------------------------------------------------------

OURS_START_JS = """async () => {
  const started = performance.now();
  await window.rules.boot();
  const outputs = await window.rules.run("ability_modifier", { score: 14 });
  return { ms: performance.now() - started, status: window.rules.status(), outputs };
}"""
ROUND_TRIP_JS = """async (count) => {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await window.rules.run("ability_modifier", { score: 14 });
    times.push(performance.now() - started);
  }
  return times;
}"""
NO_WIDGET_JS = "() => !document.querySelector('form.calculateur, button.de[data-de]')"


@dataclass
class PythonStart:
    boot_page: str
    plain_cold: list[float] = field(default_factory=list)  # ms, creation → first result
    plain_warm: list[float] = field(default_factory=list)
    ours_cold: list[float] = field(default_factory=list)
    ours_warm: list[float] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)  # ms


def python_start(
    chrome: Chrome,
    server: CountingServer,
    site: Path,
    boot_page: str,
    budget: Budget,
    *,
    min_pairs: int = 2,
    max_pairs: int = 6,
    calculations: int = 50,
) -> PythonStart:
    """Plain `loadPyodide` in a module worker (our served Pyodide files, no snapshot, no
    package) against `rules.boot()` + the first `rules.run()`, cold (fresh profile, empty
    cache) and warm (same profile, page loaded again: HTTP cache on disk), interleaved."""
    runtime = json.loads((site / "assets" / "rules-runtime.json").read_text(encoding="utf-8"))
    index_url = server.url + str(runtime["pyodide"])
    result = PythonStart(boot_page)

    def plain() -> None:
        with chrome.profile() as context:
            page = _open(context, server.url + "__bench__/pyodide-plain.html")
            for samples in (result.plain_cold, result.plain_warm):
                if samples is result.plain_warm:
                    page.reload(wait_until="load")
                    _settle(page)
                answer = page.evaluate("(url) => window.benchPlainStart(url)", index_url)
                samples.append(float(answer["ms"]))

    def ours() -> None:
        with chrome.profile() as context:
            page = _open(context, server.url + boot_page)
            if not page.evaluate(NO_WIDGET_JS):
                raise BenchError(f"{boot_page} a des calculateurs : Python y démarre tout seul")
            for samples in (result.ours_cold, result.ours_warm):
                if samples is result.ours_warm:
                    page.reload(wait_until="load")
                    _settle(page)
                answer = page.evaluate(OURS_START_JS)
                if answer["outputs"].get("modifier") != 2:
                    raise BenchError(f"rules.run a répondu {answer['outputs']!r}")
                samples.append(float(answer["ms"]))
                result.statuses.append(dict(answer["status"]))
            # Python is ready in this page: the round trip of one calculation.
            result.round_trips += [float(t) for t in page.evaluate(ROUND_TRIP_JS, calculations)]

    pair_time = 0.0
    while len(result.ours_cold) < max_pairs and (
        len(result.ours_cold) < min_pairs or budget.allows(pair_time)
    ):
        started = time.monotonic()
        if len(result.ours_cold) % 2 == 0:
            plain()
            ours()
        else:
            ours()
            plain()
        pair_time = time.monotonic() - started
    return result


# A reader's first edit -------------------------------------------------------------------

# Types `expression` into a calculator's field as a reader does (the value, then an `input`
# event) and times it until its headline output reads `expected`, painted: the frame after
# the change has been drawn (a task queued from requestAnimationFrame runs after the paint).
EDIT_JS = """async ({ edit: { form, field, value, output, expected }, timeout }) => {
  const root = document.querySelector(`form.calculateur[data-calculateur="${form}"]`);
  const input = root && root.querySelector(`[name="${field}"]`);
  const shown = root && root.querySelector(`output[name="${output}"]`);
  if (!input || !shown) return { error: `formulaire ${form} sans ${field} ou ${output}` };
  const painted = () =>
    new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return await new Promise((resolve) => {
    let started = 0;
    const done = async () => {
      if (shown.textContent !== expected) return;
      observer.disconnect();
      clearTimeout(timer);
      await painted();
      resolve({ ms: performance.now() - started });
    };
    const observer = new MutationObserver(done);
    observer.observe(shown, { childList: true, characterData: true, subtree: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve({ error: `toujours « ${shown.textContent} » au lieu de « ${expected} »` });
    }, timeout);
    started = performance.now();
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}"""


@dataclass(frozen=True)
class Edit:
    """One edit of a calculator's field and what its headline output then reads."""

    form: str
    field: str
    value: str
    output: str
    expected: str


@dataclass
class FirstEdit:
    page: str
    cold: list[float] = field(default_factory=list)  # ms, input event → headline painted
    warm: list[float] = field(default_factory=list)
    service_worker: list[float] = field(default_factory=list)
    ready: list[float] = field(default_factory=list)  # the same, Python ready


def measure_edit(page: Page, edit: Edit, timeout_ms: int = NAV_TIMEOUT_MS) -> float:
    """One edit in `page`, timed (ms) from its input event to its headline painted."""
    answer = page.evaluate(EDIT_JS, {"edit": dataclasses.asdict(edit), "timeout": timeout_ms})
    if "error" in answer:
        raise BenchError(f"{edit.form} : {answer['error']}")
    return float(answer["ms"])


def first_edit(
    chrome: Chrome,
    server: CountingServer,
    page_path: str,
    edits: list[Edit],
    *,
    profiles: int = 1,
) -> FirstEdit:
    """What a reader feels: the page loaded, the first edit of a field, until its headline
    result is painted. Cold (fresh profile, service worker blocked), warm (the same profile,
    the page loaded again: HTTP cache on disk) and from the service worker (a profile whose
    first visit installed the site for offline use, the page loaded again); then, Python
    ready, each following edit. `edits` must each change the headline: the first three are
    the first edits, the others the edits with Python ready."""
    result = FirstEdit(page_path)
    url = server.url + page_path
    first, following = edits[:3], edits[3:]
    for _ in range(profiles):
        with chrome.profile() as context:
            page = context.new_page()
            page.goto(url, wait_until="load", timeout=NAV_TIMEOUT_MS)
            result.cold.append(measure_edit(page, first[0]))
            page.reload(wait_until="load", timeout=NAV_TIMEOUT_MS)
            result.warm.append(measure_edit(page, first[1]))
            result.ready += [measure_edit(page, edit) for edit in following]
        with chrome.profile(service_workers="allow") as context:
            page = context.new_page()
            page.goto(url, wait_until="load", timeout=NAV_TIMEOUT_MS)
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", timeout=NAV_TIMEOUT_MS
            )
            server.wait_quiet(2.0, 120.0)  # the offline download is over
            page.reload(wait_until="load", timeout=NAV_TIMEOUT_MS)
            result.service_worker.append(measure_edit(page, first[2]))
    return result


# Search ------------------------------------------------------------------------------------

OURS_SEARCH_JS = """async (query) => {
  const started = performance.now();
  const hits = await window.rules.search(query);
  const ms = performance.now() - started;
  // A relative URL is taken from the site root, as data/spells.json's URLs are.
  const meta = document.querySelector('meta[name="regles-racine"]');
  const root = new URL(meta ? meta.content : "/", location.href);
  return { ms, urls: (hits || []).slice(0, 3).map((h) => new URL(h.url, root).href) };
}"""
HAS_OURS_SEARCH_JS = "() => typeof (window.rules && window.rules.search) === 'function'"
# Material listens to keyup on its input and answers from its worker; the results are
# rendered when the meta line leaves its placeholder. Timed from the keyup to that moment.
MATERIAL_READY_JS = """async () => {
  const input = document.querySelector("input.md-search__input");
  const meta = document.querySelector(".md-search-result__meta");
  const config = JSON.parse(document.getElementById("__config").textContent);
  const placeholder = config.translations["search.result.placeholder"];
  for (let i = 0; i < 300; i++) {
    input.value = "";
    input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
    await new Promise((r) => setTimeout(r, 50));
    if (meta.textContent.trim() === placeholder.trim()) return true;
  }
  return false;
}"""
MATERIAL_SEARCH_JS = """async (query) => {
  const input = document.querySelector("input.md-search__input");
  const meta = document.querySelector(".md-search-result__meta");
  const list = document.querySelector(".md-search-result__list");
  const config = JSON.parse(document.getElementById("__config").textContent);
  const none = config.translations["search.result.none"];
  const placeholder = config.translations["search.result.placeholder"];
  const type = (value) => {
    input.value = value;
    input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  };
  type("");
  for (let i = 0; i < 100 && meta.textContent.trim() !== placeholder.trim(); i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return await new Promise((resolve) => {
    let started = 0;
    const check = () => {
      const text = meta.textContent.trim();
      const items = list.querySelectorAll(".md-search-result__item");
      if (text === placeholder.trim() || (items.length === 0 && text !== none.trim())) return;
      const ms = performance.now() - started;
      observer.disconnect();
      clearTimeout(timer);
      // Each result is a page with its matching sections under it: all their links count.
      const top = [...items]
        .slice(0, 3)
        .map((li) => [...li.querySelectorAll("a")].map((a) => a.href));
      resolve({ ms, urls: top.map((links) => links[0] || ""), links: top.flat() });
    };
    const observer = new MutationObserver(check);
    observer.observe(meta, { childList: true, characterData: true, subtree: true });
    observer.observe(list, { childList: true, subtree: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve({ ms: null, urls: [] });
    }, 15000);
    started = performance.now();
    type(query);
  });
}"""


@dataclass
class SearchRun:
    engine: str
    times: list[float] = field(default_factory=list)  # ms per query
    bytes_at_load: int = 0  # search files fetched with the page (index, worker)
    bytes_per_query: list[int] = field(default_factory=list)
    top3: list[list[str]] = field(default_factory=list)
    hits: list[bool] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        return self.bytes_at_load + sum(self.bytes_per_query)


def _search_bytes(transfers: list[Transfer]) -> int:
    return sum(t.body_bytes for t in transfers if any(p in t.path for p in SEARCH_PATHS))


def _search(
    browser: Browser,
    server: CountingServer,
    page_path: str,
    queries: list[tuple[str, str]],
    engine: str,
    matches: Any,
) -> SearchRun | None:
    context = browser.new_context(service_workers="block")
    try:
        mark = server.mark()
        page = _open(context, server.url + page_path)
        if engine == "ours":
            if not page.evaluate(HAS_OURS_SEARCH_JS):
                return None
            script = OURS_SEARCH_JS
        else:
            if not page.evaluate(MATERIAL_READY_JS):
                raise BenchError("la recherche de Material ne s’est pas initialisée")
            script = MATERIAL_SEARCH_JS
        server.wait_quiet(0.5, 10)
        run = SearchRun(engine, bytes_at_load=_search_bytes(server.since(mark)))
        for query, expected in queries:
            before = server.mark()
            answer = page.evaluate(script, query)
            server.wait_quiet(0.05, 2)  # the last response is logged just after it is sent
            run.bytes_per_query.append(sum(t.body_bytes for t in server.since(before)))
            if answer["ms"] is not None:
                run.times.append(float(answer["ms"]))
            urls = [str(u) for u in answer["urls"]]
            run.top3.append(urls)
            links = [str(u) for u in answer.get("links", urls)]
            run.hits.append(any(matches(u, expected, server.url) for u in links))
        return run
    finally:
        context.close()


def search_ours(
    browser: Browser,
    server: CountingServer,
    page_path: str,
    queries: list[tuple[str, str]],
    matches: Any,
) -> SearchRun | None:
    """`window.rules.search(query)` on our site; None when the site has no such function."""
    return _search(browser, server, page_path, queries, "ours", matches)


def search_material(
    browser: Browser,
    server: CountingServer,
    page_path: str,
    queries: list[tuple[str, str]],
    matches: Any,
) -> SearchRun:
    """Material's own search box on the stock build."""
    run = _search(browser, server, page_path, queries, "material", matches)
    assert run is not None
    return run
