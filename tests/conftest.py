"""Shared fixtures: the built site (built once per test session), a local server, Chromium.

The generator's tests run on its own test site, tests/site/ (`site_dir`, `site_url`): they
pass whatever content/ holds. The tests of this site's content are in tests/content/, whose
conftest gives `site_dir` and `site_url` for the site built from mkdocs.yml instead."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from regles.core.build import Settings, SiteBuild
from regles.core.report import Problem
from regles.features.assets import npm
from regles.features.calculators.package import load_rules
from regles.features.offline.app import App
from regles.kit import RulesPackage
from regles.provenance import exact_pin, running_source

ROOT = Path(__file__).resolve().parent.parent
TEST_SITE = ROOT / "tests" / "site" / "mkdocs.yml"  # the generator's own test site
TEST_RULES = TEST_SITE.parent / "regles_essai"  # its rules package (`calculators:`)
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# An init script that holds back a page's requestAnimationFrame callbacks until the test calls
# window.releaseHeldFrames(), as for a page the browser has not painted yet.
HOLD_FRAMES = """(() => {
  const held = [];
  const original = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => held.push(callback);
  window.releaseHeldFrames = () => {
    window.requestAnimationFrame = original;
    for (const callback of held.splice(0)) original(callback);
  };
})();"""


def retype(page: Any, field: Any, typed: str) -> None:
    """Taps `field` and types `typed` in place of what it holds, as a reader on a phone does:
    from its end, one key at a time."""
    field.tap()
    field.press("End")
    for _ in field.input_value():
        field.press("Backspace")
    page.keyboard.type(typed)


def requests_of(page: Any) -> list[str]:
    """The addresses `page` asks for from now on, as it asks for them."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return asked


def wait_past_python_start(page: Any) -> None:
    """Until past the moment a page starts Python when it needs it (rules.js): painted,
    then the browser idle twice."""
    page.evaluate(
        """() => new Promise((done) => requestAnimationFrame(() => setTimeout(() =>
            requestIdleCallback(() => requestIdleCallback(done, { timeout: 3000 }),
                                { timeout: 3000 }), 0)))"""
    )


def wait_for_python(page: Any) -> None:
    """Until the page's Python is ready to compute (rules.js's status): its first start takes
    seconds, more on a busy machine."""
    page.wait_for_function("() => window.rules?.status?.().state === 'ready'", timeout=60_000)


def roll_inline_dice(page: Any, expression: str) -> int:
    """Taps the first dice expression `expression` of the page's text (« 1d6+1 »): the total
    it rolled, once shown in its tray and in the badge after it (dice.js: the last total,
    its roll's number in data-jet). Its tray is left open."""
    after = f"button.de[data-de='{expression}'] ~ output.de-resultat"
    result = page.locator(after).first
    result.wait_for(state="attached")  # the dice is set up: a tap rolls it
    before = result.get_attribute("data-jet")
    page.locator(f"button.de[data-de='{expression}']").first.click()
    rolled = f"{after}[data-jet]" + (f":not([data-jet='{before}'])" if before else "")
    page.locator(rolled).first.wait_for(state="attached", timeout=60_000)
    return int((result.text_content() or "").replace("\u2212", "-").replace("\u202f", ""))


def browser_run(page: Any, name: str, inputs: dict[str, Any]) -> Any:
    """`window.rules.run(name, inputs)` in the page: `{ok: true, outputs}`, or the error's
    `{ok: false, field, message, kind}`."""
    return page.evaluate(
        """([name, inputs]) => window.rules.run(name, inputs).then(
            (outputs) => ({ok: true, outputs}),
            (e) => ({ok: false, field: e.field, message: e.message, kind: e.kind}))""",
        [name, inputs],
    )


def assert_cells_within(page: Any, table: Any, width: int) -> None:
    """Every cell of `table` on the screen of that width, nothing to scroll sideways."""
    table.scroll_into_view_if_needed()
    for cell in table.locator("td").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (
            cell.inner_text(),
            box,
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def hold_load(context: Any) -> list[Any]:
    """Holds back the load event of the context's pages: each page gets an image, added at
    DOMContentLoaded, whose request waits in the list returned until the test answers it
    (e.g. `held[0].fulfill(status=404)`)."""
    held: list[Any] = []
    context.route("**/image-retenue.png", lambda route: held.append(route))
    context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        " const image = new Image(); image.src = 'image-retenue.png';"
        " document.body.append(image); });"
    )
    return held


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@functools.cache
def package_source(into: Path) -> Path:
    """A copy of what the package is made of, as a clone holds it (setuptools writes into the
    folder it builds from: build/lib, *.egg-info), for a test to build or change; its path."""
    ignored = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    shutil.copytree(ROOT / "generator", into / "generator", ignore=ignored)
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        shutil.copy(ROOT / name, into / name)
    return into


def wheel_of(source: Path, into: Path) -> Path:
    """The wheel `pip install <source>` would install, built into `into`; its path."""
    pip = (sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q")
    subprocess.run(
        [*pip, "-w", str(into), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = into.glob("regles-*.whl")
    return wheel


def generator_pin() -> str:
    """The requirements line of the generator these tests run (`make deps` installs it with
    -e): what a site made by `regles new` here pins, for its build to accept it."""
    line = exact_pin(running_source())
    assert line, "le générateur n’est pas installé par pip : lancez make deps"
    return line


def rules_of_test_site() -> RulesPackage:
    """The test site's rules package (tests/site/regles_essai), loaded as its build loads it:
    its calculators (the kit's dice first), tables and notes, which the generator's tests run
    and compare the pages with."""
    return load_rules(TEST_RULES).rules


# The installed app of the sites that tests build from settings alone, without mkdocs.yml.
SITE_APP = App("Site", "Site", "", "#795548")
NODE_MODULES = ROOT / "build" / "npm" / "node_modules"  # the generator's, as the sites name it


def new_build(project: Path, **options: Any) -> SiteBuild:
    """A build of a site declared by `options` (Settings' own), in `project`, without a
    rules package unless `calculators` names one: the passes and features run on strings."""
    options.setdefault("calculators", project / "sans-paquet")
    return SiteBuild(Settings(project, "mkdocs.yml", SITE_APP, **options))


def render(build: SiteBuild, text: str, uri: str = "p.md") -> tuple[str, list[Problem]]:
    """A page's Markdown as the build renders it, and the problems it added to the report."""
    before = len(build.report.problems)
    out = build.render_markdown(uri, text, text)
    return out, build.report.problems[before:]


def npm_packages() -> Path:
    """The generator's npm packages, in the repository's build/npm/, where every test site's
    mkdocs.yml looks for them (`node_modules:`): installed once, before the first build."""
    return npm.installed(ROOT / "build" / "npm")


@contextlib.contextmanager
def one_build_of(config: Path) -> Iterator[None]:
    """Exclusive use of `config`'s build outputs (its cache, its report) across processes."""
    locks = ROOT / "build" / "verrous"
    locks.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(str(config.resolve()).encode()).hexdigest()[:16]
    with open(locks / name, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file is closed
        yield


def build_site(
    destination: Path,
    config: Path = TEST_SITE,
    site_url: str | None = None,
    env: dict[str, str] | None = None,
    engine: str = "mkdocs",
    verbose: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` as `make site` runs it, into another folder; `env` adds to
    (or overrides) the environment, e.g. SOURCE_DATE_EPOCH; `engine` names the module that
    builds ("properdocs": the same command under ProperDocs); `verbose` adds `-v` (the
    report's notes, line by line)."""
    npm_packages()
    # Builds of one mkdocs.yml share its build cache and report: one at a time, when tests
    # run in several processes (pytest -n).
    with one_build_of(config):
        return subprocess.run(
            [
                sys.executable,
                "-m",
                engine,
                "build",
                "--strict",
                *(["-v"] if verbose else []),
                "-f",
                str(config),
                "-d",
                str(destination),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env={
                **os.environ,
                "NO_MKDOCS_2_WARNING": "1",
                **({"SITE_URL": site_url} if site_url else {}),
                **(env or {}),
            },
        )


# What another site's build may take from a build cache: what is made from sources alone
# (Pyodide's snapshot, minified files, compiled templates). Not the kept search index nor
# the precache digests, which hold one site's pages: shared, each build would replace the
# other's, and a build of unchanged pages would no longer find its own.
SHAREABLE_CACHE_ENTRIES = ("snapshot-*", "minifie-*", "gabarits")


def share_made_files(cache: Path, other: Path) -> None:
    """A build cache for another site, with links to what it may share of `cache`."""
    other.mkdir(parents=True, exist_ok=True)
    for pattern in SHAREABLE_CACHE_ENTRIES:
        for entry in cache.glob(pattern):
            (other / entry.name).symlink_to(entry)


def variant_of_test_site(work: Path, edit: Callable[[str], str] = str) -> Path:
    """A copy of the test site's mkdocs.yml in `work`, every path made absolute (so that it
    builds the same pages from there), with its own build cache (sharing what is made from
    sources alone) and report; `edit` changes its text. Returns its path."""
    folder = TEST_SITE.parent
    text = TEST_SITE.read_text(encoding="utf-8")
    cache = work / "build" / "cache"
    share_made_files(ROOT / "build" / "cache-essai", cache)
    for old, new in (
        ("docs_dir: content", f"docs_dir: {folder / 'content'}"),
        ("export: sorts.txt", f"export: {folder / 'sorts.txt'}"),
        ("cache_dir: ../../build/cache-essai", f"cache_dir: {cache}"),
        ("report_file: ../../build/essai-rapport.json", f"report_file: {work / 'rapport.json'}"),
        ("calculators: regles_essai", f"calculators: {TEST_RULES}"),
        ("../../", f"{ROOT}/"),
    ):
        assert old in text, f"tests/site/mkdocs.yml a changé : « {old} » introuvable"
        text = text.replace(old, new)
    config = work / "mkdocs.yml"
    config.write_text(edit(text), encoding="utf-8")
    return config


# Material's instant navigation only follows links of the sitemap, which is made from
# site_url: the test site is built for the very address it is served at.
SITE_PORT = free_port()


def built_site(tmp_path_factory: pytest.TempPathFactory, config: Path, port: int) -> Path:
    """`config`'s site, built with --strict for http://127.0.0.1:<port>/."""
    destination = tmp_path_factory.mktemp("site")
    result = build_site(destination, config, site_url=f"http://127.0.0.1:{port}/")
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")
    return destination


@pytest.fixture(scope="session", autouse=True)
def generator_npm_packages() -> Path:
    """Esbuild, Workbox and Pyodide, which some tests run without a build."""
    return npm_packages()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_site(tmp_path_factory, TEST_SITE, SITE_PORT)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: dict[str, str] = {  # noqa: RUF012 - an instance attribute in the stdlib
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
        ".json": "application/json",
    }

    def end_headers(self) -> None:
        # LinkChecker waits 0.1–0.6 s between two requests to a host unless the host answers
        # with this header (its opt-in for full speed, linkcheck/checker/httpurl.py).
        self.send_header("LinkChecker", "allow-concurrent-checks")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(directory: Path, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    server, url = serve(site_dir, SITE_PORT)
    yield url + "/"
    server.shutdown()


def chromium_path() -> str | None:
    found = os.environ.get("CHROMIUM") or next(
        (p for p in CHROMIUM_CANDIDATES if Path(p).exists()), None
    )
    return found or shutil.which("chromium")


# The calculators' runtime description, the first thing a page asks for to start Python.
RULES_RUNTIME = "**/assets/rules-runtime.json"


# Material's instant navigation takes over a click only once it has read sitemap.xml (an XHR
# whose blob it reads, then parses): a link clicked before is followed with a full load, more
# often on a busy machine. Every page of a browser test says when that reading is done.
SITEMAP_READ = """(() => {
    let sitemap = null;
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url, ...rest) {
        if (new URL(url, location.href).pathname.endsWith("/sitemap.xml")) {
            this.addEventListener("load", () => { sitemap = this.response; });
        }
        return open.call(this, method, url, ...rest);
    };
    const text = Blob.prototype.text;
    Blob.prototype.text = function () {
        const read = text.call(this);
        if (this === sitemap) {
            read.then(() => setTimeout(() => { window.__sitemapRead = true; }, 0), () => {});
        }
        return read;
    };
})();"""


def mark_the_document(page: Any) -> None:
    """Once instant navigation takes over clicks, marks the page's document: a navigation
    that keeps the mark was instant (no reload)."""
    page.wait_for_function("() => window.__sitemapRead === true")
    page.evaluate("window.__sameDocument = true")


def shown_preview(preview: Any) -> str:
    """The text of an entry's preview once it shows the entry: on a busy machine it first
    says « Chargement… » (preview.js, when reading the data takes over 150 ms)."""
    from playwright.sync_api import expect

    preview.wait_for(state="visible")
    expect(preview).not_to_contain_text("Chargement…", timeout=30_000)
    return str(preview.inner_text())


def is_the_marked_document(page: Any) -> bool:
    return page.evaluate("window.__sameDocument") is True


def wait_for_still_scroll(page: Any, frames: int = 10) -> None:
    """Waits until the page has not scrolled for `frames` frames in a row: after instant
    navigation back, Material restores the scroll position it left, and a tap made while
    the page moves lands elsewhere."""
    page.evaluate(
        """(frames) => new Promise((done) => {
            let y = scrollY;
            let still = 0;
            const tick = () => {
                still = scrollY === y ? still + 1 : 0;
                y = scrollY;
                if (still >= frames) done(true);
                else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
        })""",
        frames,
    )


def wait_for_page(page: Any, path: str) -> None:
    """Waits for an address ending in `path`, whatever its fragment: Material's
    navigation.tracking writes the section in view into the address, so a page that goes
    back to a scrolled position may come back as `…/page/#section`."""
    page.wait_for_url(lambda url: url.split("#")[0].endswith(path))


@pytest.fixture(autouse=True)
def lean_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's pages do only the background work the test is about:
    - not marked `python`, their Python never starts: the request that starts it is held,
      as on a network that has not delivered it yet. A page of calculators or dice starts
      Python on its own once loaded (seconds of work on both cores);
    - not marked `offline`, they register no service worker, which would download the whole
      site (Pyodide included) into each new context.
    A test of the search, the print or the contrast would pay for both and test nothing of
    them. A module marks all its tests with `pytestmark`. Every page also says when instant
    navigation is ready (SITEMAP_READ)."""
    if "browser" not in request.fixturenames:
        yield
        return
    python = request.node.get_closest_marker("python") is not None
    offline = request.node.get_closest_marker("offline") is not None
    browser = request.getfixturevalue("browser")
    new_context = browser.new_context

    def lean(*args: Any, **options: Any) -> Any:
        if not offline:
            options.setdefault("service_workers", "block")
        context = new_context(*args, **options)
        context.add_init_script(SITEMAP_READ)
        if not python:
            context.route(RULES_RUNTIME, lambda route: None)  # never answered
        return context

    browser.new_context = lean
    try:
        yield
    finally:
        del browser.new_context


@pytest.fixture(scope="module")
def tools_page(browser: Any, site_url: str) -> Iterator[Any]:
    """The site's tools page (outils/) with its Python started, shared by a module's tests
    (a test module marked `python`): its first start takes seconds."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A context of a 360×800 phone with touch; its pages share its storage. A test module
    whose phone needs more (blocked workers, routes) defines its own."""
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


@pytest.fixture
def phone_page(phone: Any) -> Any:
    """A page of a 360×800 phone with touch, in a context of its own."""
    return phone.new_page()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = chromium_path()
    if executable is None:
        message = "Chromium est introuvable (paquet Debian « chromium »)"
        if os.environ.get("CI"):
            pytest.fail(message + " : en CI, un navigateur manquant est un échec.")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


def node_json(script: str, module: Path, data: object, timeout: float = 120) -> Any:
    """What a Node.js `script` (an ES module's text, given `require` and, as
    `process.argv[1]`, the path of the page script `module` to import) writes as JSON, `data`
    given as JSON on its standard input: a page script run beside the Python it mirrors."""
    node = shutil.which("node")
    assert node is not None, "Node.js est nécessaire (il construit le site)"
    prelude = "const require = (await import('node:module')).createRequire(import.meta.url);\n"
    result = subprocess.run(
        [node, "--input-type=module", "-e", prelude + script, str(module)],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    return json.loads(result.stdout)
