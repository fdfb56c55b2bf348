"""Installable and offline, in headless Chromium, under a GitHub Pages project path (/regles/).

Reusable by other test modules (search, calculators offline):

    from tests.test_offline import subpath_site  # noqa: F401
    from tests.test_offline_browser import offline_ready  # noqa: F401

    def test_something_offline(offline_ready: OfflineReady) -> None:
        with offline_ready.network_cut():
            offline_ready.page.goto(offline_ready.url + "outils/")
            ...

`offline_ready` is a persistent Chromium profile (a real one: service workers and the install
check need it) in which the site was visited once and reported « Disponible hors ligne ».
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from regles.features.offline import offline
from tests.conftest import (
    CHROMIUM_ARGS,
    HOLD_FRAMES,
    ROOT,
    chromium_path,
    hold_load,
    rules_of_test_site,
    wait_for_page,
)
from tests.test_offline import (
    NODE_MODULES,
    SUBPATH,
    TEMPLATE,
    SiteServer,
    SubpathSite,
    html_pages,
    page_title,
    subpath_site,  # noqa: F401  (fixture)
    sw_data,
)

pytestmark = [pytest.mark.browser, pytest.mark.python, pytest.mark.offline]

READY = "html[data-hors-ligne='pret']"
# The first visit downloads ~25 MB (Pyodide included) from a local server.
READY_TIMEOUT_MS = 120_000
# Whether the page's service worker is registered; and the same, polled for ten seconds (the
# download that follows registering can be over in an instant from the test server, too soon
# for a wait on its « téléchargement » state).
REGISTERED = "() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r))"
REGISTERED_SOON = """async () => {
    for (let i = 0; i < 200; i++) {
        if (await navigator.serviceWorker.getRegistration()) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
}"""
# Whether the page is controlled by its service worker, polled for ten seconds.
CONTROLLED_SOON = """async () => {
    for (let i = 0; i < 200; i++) {
        if (navigator.serviceWorker.controller) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
}"""
# No name resolves: a request to another site fails at once instead of leaving the machine.
ISOLATION_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


@dataclass
class OfflineReady:
    context: Any  # playwright BrowserContext (persistent)
    page: Any
    server: SiteServer
    site: Path
    url: str
    seconds_to_ready: float
    requests: list[tuple[str, bool]] = field(default_factory=list)  # (url, from the worker)
    errors: list[str] = field(default_factory=list)  # uncaught errors of offline.js

    def foreign_requests(self) -> list[str]:
        origin = urlparse(self.url).netloc
        return [u for u, _ in self.requests if urlparse(u).netloc not in (origin, "")]

    @contextmanager
    def network_cut(self, lost: Iterable[str] = ()) -> Iterator[None]:
        """Browser offline and server unreachable; fails if a request still reached it.
        `lost`: the addresses of files the worker lost (a test evicted them), which it may
        be fetching again when the link goes, as a download begun just before would."""
        self.server.requests_while_cut.clear()
        self.server.cut = True
        self.context.set_offline(True)
        try:
            yield
            # Only the browser's own update checks of sw.js (which Chromium's offline emulation
            # does not stop; they fail, as on a device without network) may try the server.
            paths = {urlparse(address).path for address in lost}
            tried = [
                p
                for p in self.server.requests_while_cut
                if not p.endswith("/sw.js") and p.split("?")[0] not in paths
            ]
            assert tried == [], tried
        finally:
            self.server.cut = False  # the network first, then the browser learns it is back
            self.context.set_offline(False)

    def offline_again(self) -> None:
        """The browser's offline emulation given again to the document it has just loaded:
        Chromium 150 does not carry it over to a document loaded while offline, which then
        reads `navigator.onLine` true and gets no « online » event when the link is back."""
        self.context.set_offline(False)
        self.context.set_offline(True)


def open_profile(browser: Any, profile: Path, **options: Any) -> Any:
    """A persistent Chromium profile (service workers and installability need a real one)."""
    return browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=chromium_path(),
        args=[*CHROMIUM_ARGS, *ISOLATION_ARGS],
        viewport=options.pop("viewport", {"width": 1280, "height": 800}),
        **options,
    )


def record_requests(context: Any, into: list[tuple[str, bool]]) -> None:
    # Page requests, and (Playwright ≥ 1.5x on Chromium) the service worker's own requests.
    context.on("request", lambda r: into.append((r.url, r.service_worker is not None)))


def wait_until_offline_ready(page: Any) -> None:
    # A locator, not wait_for_function: the pages' Content-Security-Policy forbids eval.
    page.locator(READY).wait_for(state="attached", timeout=READY_TIMEOUT_MS)


def first_visit(browser: Any, profile: Path, url: str, **options: Any) -> tuple[Any, Any, float]:
    context = open_profile(browser, profile, **options)
    page = context.pages[0] if context.pages else context.new_page()
    start = time.monotonic()
    page.goto(url)
    wait_until_offline_ready(page)
    return context, page, time.monotonic() - start


PACKS_CACHE = "rules-packs-"  # + the worker's scope (sw.js)


def stored_keys(page: Any) -> dict[str, list[str]]:
    """Every cache of the page's origin, with the addresses it holds."""
    result: dict[str, list[str]] = page.evaluate(
        """async () => {
            const found = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                found[name] = (await cache.keys()).map((r) => r.url);
            }
            return found;
        }"""
    )
    return result


def worker_state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        """async () => {
            const r = await navigator.serviceWorker.getRegistration();
            const state = await new Promise((resolve) => {
                const channel = new MessageChannel();
                channel.port1.onmessage = (e) => resolve(e.data);
                r.active.postMessage({type: "STATUS"}, [channel.port2]);
            });
            return {
                scope: r.scope,
                script: r.active && r.active.scriptURL,
                controller: navigator.serviceWorker.controller &&
                    navigator.serviceWorker.controller.scriptURL,
                waiting: Boolean(r.waiting),
                ...state,
            };
        }"""
    )
    return result


@pytest.fixture(scope="module")
def offline_ready(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[OfflineReady]:
    """The site visited once in a fresh persistent profile, offline-ready."""
    requests: list[tuple[str, bool]] = []
    errors: list[str] = []
    profile = tmp_path_factory.mktemp("profil")
    context = open_profile(browser, profile)
    record_requests(context, requests)
    page = context.pages[0] if context.pages else context.new_page()
    page.on("pageerror", lambda e: "/assets/js/" in (e.stack or "") and errors.append(e.stack))
    start = time.monotonic()
    page.goto(subpath_site.url)
    wait_until_offline_ready(page)
    ready = OfflineReady(
        context,
        page,
        subpath_site.server,
        subpath_site.site,
        subpath_site.url,
        time.monotonic() - start,
        requests,
        errors,
    )
    yield ready
    context.close()


# Install ----------------------------------------------------------------------------------


def test_installable_without_error(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    cdp = offline_ready.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == offline_ready.url + "manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    cdp.detach()


def test_service_worker_scope_is_the_project_path(offline_ready: OfflineReady) -> None:
    state = worker_state(offline_ready.page)
    assert state["scope"] == offline_ready.url
    assert state["script"] == offline_ready.url + "sw.js"
    assert state["controller"] == offline_ready.url + "sw.js"  # claimed: offline at once
    assert state["complete"] is True
    assert state["text"]["missing"] == state["later"]["missing"] == 0
    assert state["later"]["files"] > 0  # Python and the calculators' package, after the text
    footer = offline_ready.page.locator(".md-footer .hors-ligne-etat__texte")
    assert footer.inner_text().strip() == "Pages, recherche et calculateurs\u00a0: hors ligne"
    files = state["text"]["files"] + state["later"]["files"]
    size = state["text"]["bytes"] + state["later"]["bytes"]
    seconds = offline_ready.seconds_to_ready
    print(f"\nhors ligne prêt en {seconds:.1f} s : {files} fichiers, {size / 1e6:.1f} Mo")


# Offline ------------------------------------------------------------------------------------


def test_the_packs_are_stored_as_they_came(offline_ready: OfflineReady) -> None:
    """The text's packs are kept zipped on the device, a quarter of the room: each stored
    pack's body is the published file, byte for byte."""
    published = {
        offline_ready.url + pack["url"]: (offline_ready.site / pack["url"]).read_bytes()
        for pack in sw_data(offline_ready.site)["packs"]
    }
    stored = offline_ready.page.evaluate(
        """async (prefix) => {
            const found = {};
            for (const name of await caches.keys()) {
                if (!name.startsWith(prefix)) continue;
                const cache = await caches.open(name);
                for (const request of await cache.keys()) {
                    const response = await cache.match(request);
                    const bytes = new Uint8Array(await response.arrayBuffer());
                    found[request.url] = [response.headers.get("X-Rules-Pack"), Array.from(bytes)];
                }
            }
            return found;
        }""",
        PACKS_CACHE,
    )
    assert stored.keys() == published.keys()
    for url, (mark, body) in stored.items():
        assert mark == "gzip" and bytes(body) == published[url], url


def test_every_page_opens_offline(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    failed: list[str] = []
    # Leaving a page cancels its pending loads (net::ERR_ABORTED): not a cache miss.
    page.on(
        "requestfailed",
        lambda r: "ERR_ABORTED" not in (r.failure or "") and failed.append(f"{r.url} {r.failure}"),
    )
    pages = html_pages(offline_ready.site)
    assert len(pages) > 20
    with offline_ready.network_cut():
        for name in pages:
            url = offline_ready.url + name.removesuffix("index.html")
            response = page.goto(url)
            assert response is not None and response.ok, name
            assert response.from_service_worker, name
            assert page.title() == page_title(offline_ready.site, name), name
            # Every page finds the worker at the site root and shows the status.
            page.locator(READY).wait_for(state="attached", timeout=10_000)
        # Instant navigation (Material fetches the next page) also reads from the cache.
        page.goto(offline_ready.url)
        page.evaluate("() => { window.pasRecharge = true; }")
        page.locator("article a[href$='/jeu/combat/']").first.click()
        wait_for_page(page, "/jeu/combat/")
        page.locator("article h1", has_text="Combat").wait_for()
        assert page.evaluate("() => window.pasRecharge === true"), "navigation complète"
        # The status is set up in a task of its own after Material's page swap: waited for.
        expect(page.locator(".md-footer .hors-ligne-etat")).to_be_visible()
    assert failed == [], failed


def test_uncached_address_shows_the_offline_page(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    missing = offline_ready.url + "jeu/pas-encore-ecrite/"
    with offline_ready.network_cut():
        page.goto(missing)
        page.wait_for_url("**/hors-ligne/?depuis=*")
        offline_ready.offline_again()
        assert page.evaluate("navigator.onLine") is False
        assert page.locator("article h1").inner_text().strip().rstrip("¶") == "Hors ligne"
        retry = page.locator(".hors-ligne-reessayer")
        assert retry.is_visible() and retry.get_attribute("href") == missing
        assert page.locator(".hors-ligne-adresse").inner_text() == "jeu/pas-encore-ecrite/"
        # The page is styled and laid out: its assets came from the cache too.
        page.locator(READY).wait_for(state="attached", timeout=10_000)
        styles = page.evaluate(
            """() => ({
                header: getComputedStyle(document.querySelector(".md-header")).backgroundColor,
                status: getComputedStyle(document.querySelector(".hors-ligne-etat")).display,
            })"""
        )
        assert styles == {"header": "rgb(121, 86, 73)", "status": "flex"}  # Material's brown
    # Back online, the page goes back by itself to the address that failed (here: a 404).
    page.wait_for_url(missing)
    assert page.title() == page_title(offline_ready.site, "404.html")


def test_without_the_offline_page_stored_the_worker_writes_one(
    offline_ready: OfflineReady,
) -> None:
    """The offline page evicted (as a browser short of room may do): an address not stored
    gets the worker's own page, not a redirect to a page it cannot have, again and again."""
    page = offline_ready.page
    data = sw_data(offline_ready.site)
    offline_page = next(f for f in data["files"] if f["url"] == "hors-ligne/index.html")
    gone = [offline_ready.url + offline_page["url"]]
    if "pack" in offline_page:
        gone.append(offline_ready.url + data["packs"][offline_page["pack"]]["url"])
    page.evaluate(
        """async (gone) => {
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const r of await cache.keys()) {
                    if (gone.some((url) => r.url === url || r.url.startsWith(url + "?"))) {
                        await cache.delete(r);
                    }
                }
            }
        }""",
        gone,
    )
    missing = offline_ready.url + "jeu/pas-encore-ecrite/?q=<b>x</b>"
    # The worker, told to complete its copy by a page that was online a moment ago, may be
    # fetching the page it lost when the link goes: that try fails, as on a phone.
    with offline_ready.network_cut(lost=gone):
        for address in (missing, offline_ready.url + "hors-ligne/"):
            response = page.goto(address)
            assert response is not None and response.ok, address
            assert page.locator("h1").inner_text() == "Hors ligne"
            assert page.locator("b").count() == 0
        page.goto(missing)
        assert page.locator("code").inner_text() == missing.replace("<", "%3C").replace(">", "%3E")
        assert page.get_by_role("link", name="Réessayer").get_attribute("href") is not None
    # Online again, the offline page comes back.
    page.goto(offline_ready.url)
    wait_until_offline_ready(page)
    assert worker_state(page)["complete"] is True


def test_install_button_appears_when_the_browser_offers_it(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    page.goto(offline_ready.url + "installer/")
    button = page.locator(".installer-bouton")
    button.wait_for(state="visible", timeout=30_000)  # after beforeinstallprompt
    assert button.inner_text().strip() == "Installer l’application"
    status = page.locator(".installer-etat").inner_text()
    assert "en un clic" in status
    # The event came on this page load; instant navigation away and back keeps the button.
    page.locator(".md-nav a[href$='/licences/']").first.dispatch_event("click")
    wait_for_page(page, "/licences/")
    page.go_back()
    wait_for_page(page, "/installer/")
    page.locator(".installer-bouton").wait_for(state="visible")


def test_evicted_files_are_downloaded_again(offline_ready: OfflineReady) -> None:
    """A file stored on its own (a stylesheet) and a pack (the one that holds the spells'
    data) taken away, as a browser short of room may do: both come back."""
    page = offline_ready.page
    data = sw_data(offline_ready.site)
    entries = next(f for f in data["files"] if f["url"] == "data/bases/sorts.json")
    pack = offline_ready.url + data["packs"][entries["pack"]]["url"]
    style = offline_ready.url + next(f["url"] for f in data["files"] if f["url"].endswith(".css"))
    evict = """async ([pack, style]) => {
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const r of await cache.keys()) {
                if (r.url === pack || r.url.startsWith(style + "?")) await cache.delete(r);
            }
        }
    }"""
    page.evaluate(evict, [pack, style])

    def present() -> tuple[bool, bool]:
        urls = [u for found in stored_keys(page).values() for u in found]
        return pack in urls, any(u.startswith(style + "?") for u in urls)

    assert present() == (False, False)
    page.reload()
    wait_until_offline_ready(page)
    assert present() == (True, True)
    assert worker_state(page)["complete"] is True


def test_no_request_left_the_origin(offline_ready: OfflineReady) -> None:
    assert offline_ready.requests, "aucune requête observée"
    assert any(from_worker for _, from_worker in offline_ready.requests), (
        "les requêtes du service worker ne sont pas observées"
    )
    assert offline_ready.foreign_requests() == []
    assert all(p.startswith(f"/{SUBPATH}/") for p in offline_ready.server.requests)


def test_no_error_from_the_offline_script(offline_ready: OfflineReady) -> None:
    assert offline_ready.errors == []


def test_without_service_workers_the_status_says_so(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
) -> None:
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(e.stack or str(e)))
        page.goto(subpath_site.url + "installer/")
        page.locator("html[data-hors-ligne='indisponible']").wait_for(state="attached")
        assert "non prise en charge" in page.locator(".hors-ligne-etat").inner_text()
        assert errors == []
    finally:
        context.close()


def open_with_no_worker_yet(context: Any, url: str, wait_until: str = "load") -> Any:
    """The context's page at `url`, 1.5 s later: its service worker not registered, not even
    requested."""
    page = context.pages[0] if context.pages else context.new_page()
    requests: list[tuple[str, bool]] = []
    record_requests(context, requests)
    page.goto(url, wait_until=wait_until)
    page.wait_for_timeout(1500)
    assert page.evaluate(REGISTERED) is False
    assert not [address for address, _ in requests if address.endswith("/sw.js")]
    return page


def test_the_download_waits_until_the_page_has_been_painted(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path: Path,
) -> None:
    context = open_profile(browser, tmp_path / "profil")
    try:
        context.add_init_script(HOLD_FRAMES)
        page = open_with_no_worker_yet(context, subpath_site.url + "sorts/acoustique/")
        page.evaluate("() => window.releaseHeldFrames()")
        assert page.evaluate(REGISTERED_SOON) is True
    finally:
        context.close()


def test_the_download_waits_until_the_page_has_loaded(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path: Path,
) -> None:
    """An image of the page still coming holds its load event, and the download with it."""
    context = open_profile(browser, tmp_path / "profil")
    try:
        held = hold_load(context)
        page = open_with_no_worker_yet(
            context, subpath_site.url + "sorts/acoustique/", "domcontentloaded"
        )
        assert len(held) == 1, "l’image qui retient le chargement n’a pas été demandée"
        assert page.evaluate("() => document.readyState") != "complete"
        held[0].fulfill(status=404)
        assert page.evaluate(REGISTERED_SOON) is True
    finally:
        context.close()


def stored_share(state: dict[str, Any]) -> float:
    """How much of the site the worker says it has stored, from 0 to 1 (by bytes)."""
    text, later = state["text"], state["later"]
    return float(
        (text["progress"] * text["bytes"] + later["progress"] * later["bytes"])
        / (text["bytes"] + later["bytes"])
    )


def back_during_the_first_download(browser: Any, site: SubpathSite, profile: Path) -> None:
    """Open a spell page, leave it while the site downloads, come back with Back."""
    context = open_profile(browser, profile, ignore_default_args=["--disable-back-forward-cache"])
    # Python's files (most of the bytes, downloaded last) come slowly: the download is still
    # under way when the test looks, however fast the machine brings the rest.
    site.server.slow = {"/assets/pyodide/": 1.0}
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.add_init_script(
            "addEventListener('pageshow', (e) => {"
            " document.documentElement.dataset.restauree = String(e.persisted); });"
        )
        page.goto(site.url + "sorts/acoustique/")
        page.locator("html[data-hors-ligne='telechargement']").wait_for(state="attached")
        # The worker takes the pages over within a second (its install stores only what
        # pages need), which a page in the back/forward cache would not survive; then it
        # downloads the rest.
        assert page.evaluate(CONTROLLED_SOON) is True
        before = stored_share(worker_state(page))
        assert before < 1
        page.goto(site.url + "licences/")
        page.wait_for_timeout(1500)
        page.go_back(wait_until="commit")  # a restored page fires no new "load"
        page.locator("html[data-restauree]").wait_for(state="attached")
        # The worker went on downloading, and announcing its progress, meanwhile.
        assert stored_share(worker_state(page)) > before
        assert page.locator("html").get_attribute("data-restauree") == "true"
        wait_until_offline_ready(page)  # the progress, heard again, reaches the end
    finally:
        site.server.slow = {}
        context.close()


def test_back_button_during_the_first_download_restores_the_page(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Leaving a page while the site downloads for offline use, then coming back with the
    Back button: the page comes back from the back/forward cache, its download still shown.
    (Playwright turns that cache off by default: turned back on here.)

    Once in CI (Debian's Chromium 156.0.8078.114, 1 test of 1,419), the renderer crashed
    during the restore (« Target crashed »), never seen in 50 runs here, alone or under load.
    A crashed renderer tells nothing of the page, so that one error, and it only, gets one
    more try in a new profile; a second crash, or any failed check, fails the test."""
    try:
        back_during_the_first_download(browser, subpath_site, tmp_path / "profil")
    except PlaywrightError as error:
        if "Target crashed" not in str(error):
            raise
        back_during_the_first_download(browser, subpath_site, tmp_path / "profil-2")


# Updates ----------------------------------------------------------------------------------


def test_new_deploy_is_offered_then_loaded_whole(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path: Path,
) -> None:
    # Version 1: a copy of the built site, on a server whose root we switch to version 2.
    v1, v2 = tmp_path / "v1" / SUBPATH, tmp_path / "v2" / SUBPATH
    shutil.copytree(subpath_site.site, v1)
    server = SiteServer(v1.parent)
    url = f"{server.origin}/{SUBPATH}/"
    requests: list[tuple[str, bool]] = []
    context = open_profile(browser, tmp_path / "profil")
    record_requests(context, requests)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url)
        wait_until_offline_ready(page)
        before = worker_state(page)
        before_packs = sw_data(v1)["packs"]
        assert before_packs and sorted(stored_keys(page)[PACKS_CACHE + url]) == sorted(
            url + p["url"] for p in before_packs
        )

        # Version 2: one page rewritten, sw.js regenerated by the build step's own function.
        marker = "Texte de la nouvelle version, publiée pendant la lecture."
        summary = deploy_new_version(v1, v2, marker)
        assert summary.version != before["version"]
        server.root = v2.parent

        # The open page finds it (as on its periodic check) and offers it; nothing changes yet.
        served_before = len(server.requests)
        banner = update_banner(page)
        assert "Nouvelle version disponible" in banner.inner_text()
        assert banner.get_by_role("button", name="Recharger").is_visible()
        downloaded = {p.split("?")[0] for p in server.requests[served_before:]}
        assert downloaded == {f"/{SUBPATH}/sw.js", f"/{SUBPATH}/index.html"}, downloaded
        assert page.locator("#nouvelle-version").count() == 0
        # Another tab opened now still gets version 1 whole: the new worker only waits.
        other = context.new_page()
        other.goto(url)
        assert other.locator("#nouvelle-version").count() == 0
        assert worker_state(other)["version"] == before["version"]

        # « Recharger »: the waiting worker takes over, the page reloads on version 2.
        with page.expect_navigation():
            banner.get_by_role("button", name="Recharger").click()
        wait_until_offline_ready(page)
        assert page.locator("#nouvelle-version").inner_text() == marker
        after = worker_state(page)
        assert after["version"] == summary.version and after["complete"] is True
        assert after["waiting"] is False
        assert not page.locator(".hors-ligne-maj").is_visible()
        # The other tab had a controller change too: it reloaded rather than mix versions.
        other.locator("#nouvelle-version").wait_for(state="attached")
        # The old revision of the page is gone from the cache (activation cleans up); the
        # packs of version 1 stay, since each still holds files of version 2.
        keys = stored_keys(page)
        assert sorted(name.split("-http")[0] for name in keys) == [
            "rules-packs",
            "workbox-precache-v2",
        ], list(keys)
        files = next(urls for name, urls in keys.items() if name.startswith("workbox-"))
        packs = next(urls for name, urls in keys.items() if name.startswith("rules-packs"))
        homes = [k for k in files if k.startswith(url + "index.html?")]
        assert len(homes) == 1 and summary_revision(summary, "index.html") in homes[0]
        current = {f"{url}{e.url}?__WB_REVISION__={e.revision}" for e in summary.entries}
        assert set(files) <= current
        assert sorted(packs) == sorted(url + p["url"] for p in before_packs)
        assert [u for u, _ in requests if urlparse(u).netloc != urlparse(url).netloc] == []
    finally:
        context.close()
        server.close()


def deploy_new_version(v1: Path, v2: Path, marker: str) -> offline.OfflineSummary:
    """A copy of `v1` whose home page carries `marker`, with its service worker regenerated."""
    shutil.copytree(v1, v2)
    home = (v2 / "index.html").read_text("utf-8")
    home = home.replace("<h1", f'<p id="nouvelle-version">{marker}</p>\n<h1', 1)
    (v2 / "index.html").write_text(home, encoding="utf-8")
    later = [unquote(f["url"]) for f in sw_data(v1)["files"] if f.get("later")]
    return offline.write_service_worker(
        v2, TEMPLATE, workbox=offline.workbox_folder(NODE_MODULES), later=later
    )


def update_banner(page: Any, seconds: float = 60) -> Any:
    """The banner of a new version, once the page's worker has looked for one (as on its
    periodic check), asked again every 10 s: a check made while the machine is busy may
    fail, and a reader's page would check again later."""
    banner = page.locator(".hors-ligne-maj")
    deadline = time.monotonic() + seconds
    while True:
        page.evaluate(
            "navigator.serviceWorker.getRegistration().then((r) => r.update()).catch(() => {})"
        )
        try:
            banner.wait_for(state="visible", timeout=10_000)
            return banner
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise


def summary_revision(summary: offline.OfflineSummary, url: str) -> str:
    return next(e.revision for e in summary.entries if e.url == url)


# Looks --------------------------------------------------------------------------------------


def test_status_and_banner_screenshots(
    browser: Any,
    subpath_site: SubpathSite,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Captures of the download corner, the footer status and the update banner at 360 px
    (light) and 1280 px (dark), for review in build/captures-hors-ligne/; none may overflow."""
    out = ROOT / "build" / "captures-hors-ligne"
    out.mkdir(parents=True, exist_ok=True)
    for width, scheme in ((360, "light"), (1280, "dark")):
        v1 = tmp_path / f"{width}-v1" / SUBPATH
        shutil.copytree(subpath_site.site, v1)
        server = SiteServer(v1.parent)
        url = f"{server.origin}/{SUBPATH}/"
        context = open_profile(
            browser,
            tmp_path / f"profil-{width}",
            viewport={"width": width, "height": 720},
            color_scheme=scheme,
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(url + "jeu/combat/")
            page.locator(".hors-ligne-puce").wait_for(state="visible", timeout=30_000)
            page.screenshot(path=str(out / f"1-telechargement-{width}-{scheme}.png"))
            # « … hors ligne : 42 % », French-spaced as the pages' prose.
            said = page.locator(".hors-ligne-puce [data-texte]").inner_text()
            assert " :" not in said and " %" not in said, said  # ordinary spaces (U+0020)
            wait_until_offline_ready(page)
            # First visit on a page two levels down: the worker still has the site's scope.
            assert worker_state(page)["scope"] == url
            page.locator(".md-footer").scroll_into_view_if_needed()
            page.screenshot(path=str(out / f"2-pret-{width}-{scheme}.png"))
            v2 = tmp_path / f"{width}-v2" / SUBPATH
            deploy_new_version(v1, v2, "Nouvelle version.")
            server.root = v2.parent
            update_banner(page)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"3-nouvelle-version-{width}-{scheme}.png"))
            for selector in (".hors-ligne-etat", ".hors-ligne-maj", ".hors-ligne-puce"):
                box = page.locator(selector).bounding_box()
                if box:
                    assert box["x"] >= 0 and box["x"] + box["width"] <= width, selector
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0
        finally:
            context.close()
            server.close()


def test_search_and_calculators_work_offline(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    with offline_ready.network_cut():
        page.goto(offline_ready.url + "outils/")
        found = page.evaluate("() => window.rules.search('encombrement')")
        assert any("maison/poids-transportable/" in hit["url"] for hit in found[:3]), found
        rules = rules_of_test_site()
        answer = page.evaluate("() => window.rules.run('survie', {successes: 1, failures: 2})")
        assert answer == rules.run("survie", {"successes": 1, "failures": 2})
        form = page.locator("form[data-calculateur='deplacement']")
        form.scroll_into_view_if_needed()  # far down the page, folded until the reader nears
        form.locator("[name='speed_m']").fill("10.5")
        squares = str(rules.run("deplacement", {"speed_m": 10.5})["squares"])
        assert squares != str(rules.run("deplacement", {})["squares"])  # not the build's answer

        expect(form.locator("output[name='squares']")).to_have_text(squares, timeout=60000)


def test_a_characters_values_are_there_after_a_reload_offline(
    offline_ready: OfflineReady,
) -> None:
    """Values typed into a calculator are kept in the browser (characters.js): a reload
    without network opens the form on them, not on the rules' example."""
    page = offline_ready.page
    forget = "() => Object.keys(localStorage).filter((k) => k.startsWith('regles-personnages:'))"
    forget += ".forEach((k) => localStorage.removeItem(k))"
    page.goto(offline_ready.url + "maison/poids-transportable/")
    form = page.locator("form[data-calculateur='charge']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    try:
        form.locator("input[name='strength']").click()
        page.keyboard.press("Control+A")
        page.keyboard.type("13")
        expect(form.locator(".calculateur-personnage")).to_contain_text("Valeurs de")
        # The rules' example when the reader had no character yet, « none » when an earlier
        # test of this file made one: kept either way.
        armor = form.locator("select[name='armor']").input_value()
        with offline_ready.network_cut():
            page.reload()
            form.scroll_into_view_if_needed()
            form.and_(page.locator("[data-pret]")).wait_for()
            expect(form.locator("input[name='strength']")).to_have_value("13")
            expect(form.locator("select[name='armor']")).to_have_value(armor)
    finally:
        page.evaluate(forget)
