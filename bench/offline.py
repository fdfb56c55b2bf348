"""The site offline, on a reader's link: a first visit over a throttled link (how long until
all the text, then everything, is stored by the service worker, against bytes ÷ bandwidth),
and the bytes that an update fetches after one page of the site has changed.

The link is `CountingServer.rate` (one token bucket for every connection); the bytes are the
server's (bodies as sent: gzip for text). The list of what the service worker stores is its
own build data (`sw.js`): each file's `url`, `revision`, `size` and, for what can wait (the
calculators' Python), `later: true`.
"""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from bench.browser import CHROMIUM_ARGS, Chrome, chromium_path
from bench.project import (
    ROOT,
    BenchError,
    BuildSample,
    load_mkdocs_yaml,
    mirror_project,
    timed_build,
)
from bench.server import CountingServer, Transfer
from regles.features.offline import offline, precache

__all__ = [
    "MBIT",
    "UPDATE_WAITING",
    "SiteFiles",
    "ThrottledVisit",
    "UpdateBytes",
    "changed_files",
    "edited_build",
    "raw_visit",
    "site_files",
    "throttled_visit",
    "update_after_edit",
]

MBIT = 1_000_000 / 8  # bytes per second in one Mbit/s
# offline.js marks the page root: data-hors-ligne-texte="pret" once all the text (pages,
# search, data, styles, scripts, icons) is stored, data-hors-ligne="pret" once everything is
# (the calculators' Python included), data-hors-ligne-maj while a new version waits. Read with
# locators: the pages' Content-Security-Policy forbids eval, so wait_for_function cannot run.
UPDATE_WAITING = "html[data-hors-ligne-maj]"
PHASES_THAT_END = ("echec", "indisponible", "developpement")
POLL = 0.05  # seconds between two looks at the page root's attributes
LOOK_TIMEOUT_MS = 10_000  # for one look (the root element is there from the navigation on)
# After « everything is offline », how long the text's own mark may still take to show
# before it counts as absent (offline.js sets both from the same message).
TEXT_GRACE = 2.0
UPDATE_JS = """() => navigator.serviceWorker
  .getRegistration()
  .then((r) => (r ? r.update().then(() => true) : false))"""
ADDED_SENTENCE = "\n\nUne phrase ajoutée par le banc d’essai, pour mesurer une mise à jour.\n"


# What the service worker stores ------------------------------------------------------------


@dataclass
class SiteFiles:
    """The service worker's list, with each file's bytes on the wire (gzip for text)."""

    version: str
    worker_bytes: int  # sw.js itself, fetched before anything else
    files: list[dict[str, Any]]  # url, revision, size, later, wire

    @property
    def text(self) -> list[dict[str, Any]]:
        return [f for f in self.files if not f.get("later")]

    @property
    def later(self) -> list[dict[str, Any]]:
        return [f for f in self.files if f.get("later")]

    @property
    def text_bytes(self) -> int:
        """What must cross the link before the text is offline: sw.js and every file
        without `later`."""
        return self.worker_bytes + sum(int(f["wire"]) for f in self.text)

    @property
    def all_bytes(self) -> int:
        return self.worker_bytes + sum(int(f["wire"]) for f in self.files)


def site_files(site: Path, server: CountingServer) -> SiteFiles:
    """`site`'s service worker list; the bytes are those `server` sends for each file (as
    if it served `site`)."""
    text = (site / precache.SERVICE_WORKER_FILE).read_text("utf-8")
    data = offline.read_service_worker_data(text)
    files = []
    for entry in data["files"]:
        wire = server.wire_size(str(entry["url"]), root=site)
        if wire is None:
            raise BenchError(f"{entry['url']} : dans la liste du service worker, absent du site")
        files.append(
            {
                "url": str(entry["url"]),
                "revision": str(entry["revision"]),
                "size": int(entry["size"]),
                "later": bool(entry.get("later", False)),
                "wire": wire,
            }
        )
    worker = server.wire_size(precache.SERVICE_WORKER_FILE, root=site)
    return SiteFiles(str(data.get("version")), worker or 0, files)


# A first visit over a throttled link -----------------------------------------------------------


@dataclass
class ThrottledVisit:
    page: str
    rate: float  # bytes per second
    allowance: float  # seconds the visit could last
    text_bytes: int  # on the wire, sw.js included (SiteFiles.text_bytes)
    all_bytes: int
    later_files: int  # files marked `later` in the list (0: the text mark cannot be told apart)
    text_seconds: float | None = None  # navigation → html[data-hors-ligne-texte='pret']
    all_seconds: float | None = None  # navigation → html[data-hors-ligne='pret']
    text_mark_seen: bool = False  # data-hors-ligne-texte present at any time
    last_phase: str | None = None
    bytes_sent: int = 0  # every body byte the server wrote during the visit
    responses: int = 0  # full responses (200, 304…) during the visit
    not_modified: int = 0  # of which 304
    repeated: dict[str, int] = field(default_factory=dict)  # paths sent in full (200) twice or more
    timeline: list[tuple[float, str | None, str | None]] = field(default_factory=list)
    # The text's time in this visit and in the visits that only waited for the text after it
    # (run.py's TEXT_ROUNDS); text_seconds is then their median.
    text_runs: list[float | None] = field(default_factory=list)

    @property
    def text_limit(self) -> float:
        return self.text_bytes / self.rate

    @property
    def all_limit(self) -> float:
        return self.all_bytes / self.rate

    def text_missing(self) -> str | None:
        """Why there is no time for the text, None when there is one."""
        if self.text_seconds is not None:
            return None
        if self.last_phase in PHASES_THAT_END:
            return f"data-hors-ligne={self.last_phase}"
        if self.all_seconds is not None and not self.text_mark_seen:
            return "data-hors-ligne-texte jamais posé"
        return f"pas prêt après {self.allowance:.0f} s"

    def all_missing(self) -> str | None:
        if self.all_seconds is not None:
            return None
        if self.last_phase in PHASES_THAT_END:
            return f"data-hors-ligne={self.last_phase}"
        return f"pas prêt après {self.allowance:.0f} s"


def _repeated(transfers: list[Transfer]) -> dict[str, int]:
    counts = Counter(t.path for t in transfers if t.status == 200)
    return {path: n for path, n in sorted(counts.items()) if n > 1}


def _count_transfers(visit: ThrottledVisit, server: CountingServer, mark: int, sent: int) -> None:
    """What the server sent since `mark` (its log) and `sent` (its byte count), into `visit`."""
    transfers = server.since(mark)
    visit.bytes_sent = server.bytes_sent - sent
    visit.responses = len(transfers)
    visit.not_modified = sum(1 for t in transfers if t.status == 304)
    visit.repeated = _repeated(transfers)


def throttled_visit(
    chrome: Chrome,
    server: CountingServer,
    page_path: str,
    files: SiteFiles,
    rate: float | None,
    allowance: float,
    *,
    after: Callable[[Page], None] | None = None,
) -> ThrottledVisit:
    """A reader's first visit of `page_path` in Playwright's Chromium (fresh profile on disk,
    service workers allowed) over a link of `rate` bytes per second (None: full speed), timed
    from the navigation until all the text, then everything, is offline, `allowance` seconds
    at most. Then, with the link back to
    full speed and in the same profile, `after(page)` if given and if everything is offline.
    """
    visit = ThrottledVisit(
        page_path,
        rate or float("inf"),  # None: full speed (its limits are then 0)
        allowance,
        files.text_bytes,
        files.all_bytes,
        len(files.later),
    )
    with chrome.profile(service_workers="allow") as context:
        page = context.pages[0] if context.pages else context.new_page()
        root = page.locator("html")
        mark, sent = server.mark(), server.bytes_sent
        server.rate = rate
        try:
            started = time.monotonic()
            # Playwright reads a timeout of 0 as none at all: never below a second here.
            page.goto(
                server.url + page_path, wait_until="commit", timeout=max(allowance, 1.0) * 1000
            )
            last: tuple[str | None, str | None] = (None, None)
            while True:
                now = time.monotonic() - started
                try:
                    phase = root.get_attribute("data-hors-ligne", timeout=LOOK_TIMEOUT_MS)
                    text = root.get_attribute("data-hors-ligne-texte", timeout=LOOK_TIMEOUT_MS)
                except PlaywrightError:
                    phase, text = last  # the page is between two documents: look again
                if (phase, text) != last:
                    visit.timeline.append((round(now, 3), phase, text))
                    last = (phase, text)
                visit.last_phase = phase
                visit.text_mark_seen |= text is not None
                if text == "pret" and visit.text_seconds is None:
                    visit.text_seconds = now
                if phase == "pret" and visit.all_seconds is None:
                    visit.all_seconds = now
                if phase in PHASES_THAT_END:
                    break
                if visit.all_seconds is not None and (
                    visit.text_seconds is not None or now - visit.all_seconds >= TEXT_GRACE
                ):
                    break
                if now >= allowance:
                    break
                time.sleep(POLL)
            if visit.all_seconds is not None:
                server.wait_quiet(1.0, 10.0)  # the last responses are logged
        finally:
            server.rate = None
        _count_transfers(visit, server, mark, sent)
        if after is not None and visit.all_seconds is not None:
            after(page)
    return visit


# The same visit in a Chromium that nothing drives -------------------------------------------

FIRST_VISIT_PAGE = "__bench__/premiere-visite.html"  # bench/static/: the site in a frame
MARK_PATH = "/__bench__/marque"  # its reports: ?quoi=texte|phase-<phase>&ms=<since its start>


def _marks(server: CountingServer, since: int) -> dict[str, float]:
    """The bench page's reports among the requests since `since`: what → seconds."""
    found: dict[str, float] = {}
    for request in server.requests[since:]:
        if not request.startswith(MARK_PATH + "?"):
            continue
        query = parse_qs(urlsplit(request).query)
        what, ms = query.get("quoi", [""])[0], query.get("ms", [""])[0]
        if what and ms.isdigit():
            found.setdefault(what, int(ms) / 1000)
    return found


def raw_visit(
    server: CountingServer,
    page_path: str,
    files: SiteFiles,
    rate: float,
    allowance: float,
    scratch: Path,
    *,
    text_only: bool = False,
) -> ThrottledVisit:
    """A reader's first visit of `page_path` over a link of `rate` bytes per second, in a
    Chromium launched on its own, with a fresh profile: timed by the browser itself, from the
    start of a bench page that opens the site's page in a frame, until all the text, then
    everything, is offline (`allowance` seconds at most); with `text_only`, until the text is.

    Not through Playwright: it drives Chromium over the DevTools protocol, which reports
    every request, and on this machine that triples the cost of each of the text's 800 small
    files (735 Pagefind fragments fetched from a page: 4.5 s with it, 1.7 s without): the
    time would be the harness's, not the site's."""
    executable = chromium_path()
    if executable is None:
        raise BenchError("Chromium est introuvable (paquet Debian « chromium »)")
    visit = ThrottledVisit(
        page_path, rate, allowance, files.text_bytes, files.all_bytes, len(files.later)
    )
    profile = scratch / f"profil-brut-{time.monotonic_ns()}"
    mark, sent, since = server.mark(), server.bytes_sent, len(server.requests)
    server.rate = rate
    browser = subprocess.Popen(
        [
            executable,
            "--headless",
            *CHROMIUM_ARGS,
            f"--user-data-dir={profile}",
            f"{server.url}{FIRST_VISIT_PAGE}?page={page_path}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        started = time.monotonic()
        while time.monotonic() - started < allowance:
            marks = _marks(server, since)
            visit.text_seconds = marks.get("texte")
            visit.all_seconds = marks.get("phase-pret")
            visit.text_mark_seen = "texte" in marks
            phases = [w.removeprefix("phase-") for w in marks if w.startswith("phase-")]
            visit.last_phase = max(phases, key=lambda w: marks["phase-" + w], default=None)
            visit.timeline = sorted((s, w, None) for w, s in marks.items())
            if visit.last_phase in PHASES_THAT_END or visit.all_seconds is not None:
                break
            if text_only and visit.text_seconds is not None:
                break
            time.sleep(POLL)
        if visit.all_seconds is not None:
            server.wait_quiet(1.0, 10.0)  # the last responses are logged
    finally:
        server.rate = None
        browser.kill()
        browser.wait()
    _count_transfers(visit, server, mark, sent)
    return visit


# An update after a one-page change ------------------------------------------------------------


def edited_build(work: Path, page: str, site_url: str) -> tuple[Path, BuildSample]:
    """The site built again (`mkdocs build --strict`, as `make site`) from a copy of the
    project where the docs page `page` ends with one more sentence, for `site_url`. Returns
    the new site's folder."""
    mkdocs_yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    project = work / "projet-maj"
    config = mirror_project(project, {"mkdocs.yml": mkdocs_yml})["mkdocs.yml"]
    docs = str(load_mkdocs_yaml(config).get("docs_dir") or "docs")
    source = project / docs / page
    if not source.is_file():
        raise BenchError(f"{page} absent des pages")
    source.write_text(source.read_text(encoding="utf-8") + ADDED_SENTENCE, encoding="utf-8")
    site = work / "site-nous-maj"
    return site, timed_build(config, site, strict=True, site_url=site_url)


@dataclass
class UpdateBytes:
    edited: str  # the docs page that changed
    changed: list[str]  # what the update must fetch: new or changed files, and sw.js
    removed: list[str]  # files of the old list that the new one no longer has
    list_files: int  # files in the new list
    first_visit_bytes: int  # the visit that installed the old version (this profile)
    first_visit_responses: int
    changed_bytes: int = 0  # the changed files on the wire, sw.js included: the least to fetch
    bytes: int = 0  # every body byte sent from the new deploy on to the new version waiting
    responses: int = 0
    downloaded: list[str] = field(default_factory=list)  # paths sent with 200, as in the list
    seconds: float = 0.0


def changed_files(old: SiteFiles, new: SiteFiles) -> tuple[list[str], list[str]]:
    """What an update must fetch between two lists (files new or with another revision, and
    sw.js, which changes whenever any file does), and the files that went away."""
    before = {f["url"]: f["revision"] for f in old.files}
    after = {f["url"]: f["revision"] for f in new.files}
    fetched = sorted(u for u, revision in after.items() if before.get(u) != revision)
    removed = sorted(before.keys() - after.keys())
    if not fetched and not removed:
        return [], []
    return [precache.SERVICE_WORKER_FILE, *fetched], removed


def update_after_edit(
    page: Page,
    server: CountingServer,
    new_site: Path,
    update: UpdateBytes,
    timeout: float,
) -> UpdateBytes:
    """In a page whose service worker has stored the site: publish `new_site` on `server`,
    ask the worker to look for an update, and count what is sent until the new version is
    installed and waiting (html[data-hors-ligne-maj]). The server serves its old root again
    afterwards."""
    old_root = server.root
    mark, sent = server.mark(), server.bytes_sent
    server.root = new_site
    try:
        started = time.monotonic()
        if not page.evaluate(UPDATE_JS):
            raise BenchError("aucun service worker enregistré dans la page")
        page.locator(UPDATE_WAITING).wait_for(state="attached", timeout=max(timeout, 1.0) * 1000)
        update.seconds = time.monotonic() - started
        server.wait_quiet(1.0, 10.0)
    finally:
        server.root = old_root
    transfers = server.since(mark)
    update.bytes = server.bytes_sent - sent
    update.responses = len(transfers)
    update.downloaded = sorted({t.path.lstrip("/") for t in transfers if t.status == 200})
    return update
