"""Installable and offline, without a browser: manifest, icons, service worker, sub-path.

Also home of the helpers that the browser tests (tests/test_offline_browser.py) and other
test modules reuse: `SiteServer` (a server whose root can be switched and whose network can be
cut) and the session fixture `subpath_site` (the site built for, and served under, /regles/).
"""

from __future__ import annotations

import gzip
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlparse

import pytest
from bs4 import BeautifulSoup

from regles.core.build import Settings, SiteBuild
from regles.features.assets.theme import THEME_DIR
from regles.features.backup.feature import BACKUP_SOURCE
from regles.features.calculators.package import LoadedRules
from regles.features.offline import offline, precache
from regles.features.offline.app import App, short_name_of
from regles.kit.generic import rules as generic_rules
from tests.conftest import NODE_MODULES, ROOT, SITE_APP, TEST_SITE, QuietHandler, build_site

SUBPATH = "regles"
TEMPLATE = THEME_DIR / "sw.js"
# The generic calculators alone: a site without a rules package of its own.
GENERIC_RULES = LoadedRules(generic_rules, "regles.kit.generic", None)
NODE_MODULES = NODE_MODULES


# Helpers shared with the browser tests ------------------------------------------------------


class SiteServer:
    """A local web server like GitHub Pages (files, max-age=600), with three test switches:
    `root` can be changed between requests (a new deploy), `cut` makes every request fail
    without an answer (the network is down), requests that still arrive are recorded; and
    `slow` holds each request whose path holds one of its words that many seconds (a long
    download, which a fast machine would finish before a test can look at it)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cut = False
        self.slow: dict[str, float] = {}
        self.requests: list[str] = []
        self.requests_while_cut: list[str] = []
        site_server = self

        class Handler(QuietHandler):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(site_server.root), **kwargs)

            def handle_one_request(self) -> None:
                # Read the request line first, then either serve it or drop the connection.
                self.raw_requestline = self.rfile.readline(65537)
                if not self.raw_requestline or not self.parse_request():
                    self.close_connection = True
                    return
                if site_server.cut:
                    site_server.requests_while_cut.append(self.path)
                    self.close_connection = True
                    return
                site_server.requests.append(self.path)
                held = [s for word, s in site_server.slow.items() if word in self.path]
                if held:
                    time.sleep(max(held))
                method = getattr(self, "do_" + self.command, None)
                if method is None:
                    self.send_error(501)
                    return
                method()
                self.wfile.flush()

            def end_headers(self) -> None:
                self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages
                super().end_headers()

            def send_error(
                self, code: int, message: str | None = None, explain: str | None = None
            ) -> None:
                # As GitHub Pages: a missing file gets the project's own 404.html.
                project = self.path.lstrip("/").split("/", 1)[0]
                page = site_server.root / project / "404.html"
                if code != 404 or not project or not page.is_file():
                    super().send_error(code, message, explain)
                    return
                body = page.read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def build_for(url: str, destination: Path, config: Path = TEST_SITE) -> None:
    """`mkdocs build --strict` for a site published at `url` (SITE_URL), into `destination`."""
    result = subprocess.run(
        [
            *(sys.executable, "-m", "mkdocs", "build", "--strict"),
            *("-f", str(config), "-d", str(destination)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": url},
    )
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")


@dataclass
class SubpathSite:
    server: SiteServer
    site: Path  # the built site, served at `url`
    url: str  # http://127.0.0.1:<port>/regles/

    def page_url(self, relative: str) -> str:
        return self.url + relative.removesuffix("index.html")


@pytest.fixture(scope="session")
def subpath_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SubpathSite]:
    """The site as GitHub Pages serves a project: built with SITE_URL …/regles/ and served
    from a parent folder in which regles/ is the built site."""
    www = tmp_path_factory.mktemp("www")
    server = SiteServer(www)  # started first: SITE_URL needs its port
    url = f"{server.origin}/{SUBPATH}/"
    build_for(url, www / SUBPATH)
    yield SubpathSite(server, www / SUBPATH, url)
    server.close()


def site_files(site: Path) -> set[str]:
    """Every published file of a built site, as paths relative to its root."""
    return {
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(site).parts)
    }


def precached_files(site: Path) -> set[str]:
    """What the service worker must list: every published file but itself, the source maps,
    which only developer tools read, and the packs, which only carry listed files."""
    return {
        name
        for name in site_files(site)
        if name != "sw.js"
        and not name.endswith(".map")
        and not name.startswith(precache.PACK_FOLDER)
    }


def html_pages(site: Path) -> list[str]:
    return sorted(p for p in site_files(site) if p.endswith(".html"))


def page_title(site: Path, page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", (site / page).read_text("utf-8"), re.DOTALL)
    assert found, page
    return html.unescape(found.group(1).strip())


def sw_data(site: Path) -> dict[str, Any]:
    return offline.read_service_worker_data((site / "sw.js").read_text("utf-8"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def is_root_absolute(url: str) -> bool:
    return url.startswith("/") or bool(urlparse(url).scheme) or url.startswith("//")


# The build step, on a made-up site -------------------------------------------------------


def make_site(root: Path) -> Path:
    files = {
        "index.html": "<h1>Accueil</h1>",
        "jeu/combat/index.html": "<h1>Combat</h1>",
        "hors-ligne/index.html": "<h1>Hors ligne</h1>",
        "assets/pyodide/pyodide.asm.wasm": "\0asm" + "x" * 5000,
        "data/spells.json": "[]",
        "pagefind/fragment/fr_1 é.pf_fragment": "fragment",
        "sw.js": "ancien",
        ".nojekyll": "",
        "assets/javascripts/bundle.min.js.map": "{}",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_precache_lists_every_file_but_the_worker_and_dot_files(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    entries = precache.precache_entries(site)
    urls = [e.url for e in entries]
    assert sorted(unquote(u) for u in urls) == sorted(precached_files(site))
    assert "assets/javascripts/bundle.min.js.map" in site_files(site)
    assert not any(u.endswith(".map") for u in urls)
    assert "pagefind/fragment/fr_1%20%C3%A9.pf_fragment" in urls  # percent-encoded
    assert all(not is_root_absolute(u) for u in urls)
    wasm = next(e for e in entries if e.url.endswith(".wasm"))
    assert wasm.size == 5004 and wasm.integrity.startswith("sha256-")


def test_files_asked_for_later_are_marked_so(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    entries = precache.precache_entries(site, later=["assets/pyodide/", "data/spells.json"])
    later = sorted(e.url for e in entries if e.later)
    assert later == ["assets/pyodide/pyodide.asm.wasm", "data/spells.json"]
    # A path without its final slash names a file, never a folder of that name.
    assert not any(e.later for e in precache.precache_entries(site, later=["assets/pyodide"]))
    listed = {
        f["url"]: f for f in json.loads(offline._render_data("v", "w/", "f/", entries))["files"]
    }
    assert listed["data/spells.json"]["later"] is True
    assert "later" not in listed["index.html"]


def read_pack(path: Path) -> list[tuple[list[Any], bytes]]:
    """A pack's files as [url, size, Content-Type, revision] with their bytes."""
    data = gzip.decompress(path.read_bytes())
    length = int.from_bytes(data[:4], "big")
    at = 4 + length
    files = []
    for file in json.loads(data[4:at]):
        files.append((file, data[at : at + file[1]]))
        at += file[1]
    assert at == len(data)
    return files


def test_the_text_but_the_shell_goes_into_packs(tmp_path: Path, monkeypatch: Any) -> None:
    site = make_site(tmp_path)
    (site / "assets/site.css").write_text("body {}", encoding="utf-8")
    (site / "jeu/magie").mkdir()
    (site / "jeu/magie/index.html").write_text("<h1>Magie</h1>" + "x" * 40, encoding="utf-8")
    monkeypatch.setattr(precache, "PACK_TARGET", 60)  # bytes of files per pack
    listed = precache.mark_shell(precache.precache_entries(site, later=["assets/pyodide/"]))
    entries, packs = precache.write_packs(site, listed)
    shell = sorted(e.url for e in entries if e.shell)
    assert shell == ["assets/site.css", "hors-ligne/index.html"]
    packed = {e.url: e for e in entries if e.pack is not None}
    assert set(packed) == {e.url for e in entries if not e.shell and not e.later}
    assert len(packs) == 3 and len({p.url for p in packs}) == 3
    carried: dict[str, Any] = {}
    for number, pack in enumerate(packs):
        path = site / pack.url
        assert pack.url.startswith(precache.PACK_FOLDER) and pack.size == path.stat().st_size
        for (url, size, kind, revision), body in read_pack(path):
            entry = packed[url]
            assert (entry.pack, entry.size, entry.revision) == (number, size, revision)
            assert body == (site / unquote(url)).read_bytes()
            carried[url] = kind
    assert carried.keys() == packed.keys()
    assert carried["jeu/combat/index.html"] == "text/html; charset=utf-8"
    assert carried["data/spells.json"] == "application/json; charset=utf-8"
    assert carried["pagefind/fragment/fr_1%20%C3%A9.pf_fragment"] == "application/octet-stream"
    # The same files make the same packs; a new build leaves no pack of the previous one,
    # and the packs are never listed themselves.
    again, packs_again = precache.write_packs(site, listed)
    assert (again, packs_again) == (entries, packs)
    (site / "jeu/combat/index.html").write_text("<h1>Combat, revu</h1>", encoding="utf-8")
    listed = precache.mark_shell(precache.precache_entries(site, later=["assets/pyodide/"]))
    _, changed = precache.write_packs(site, listed)
    assert sorted((site / precache.PACK_FOLDER).iterdir()) == sorted(site / p.url for p in changed)
    assert len(set(changed) - set(packs)) == 1
    assert not any(e.url.startswith(precache.PACK_FOLDER) for e in listed)


def test_a_pack_whose_files_did_not_change_comes_from_the_build_cache(
    tmp_path: Path, monkeypatch: Any
) -> None:
    site, cache = make_site(tmp_path / "site"), tmp_path / "cache"
    monkeypatch.setattr(precache, "PACK_TARGET", 60)
    listed = precache.mark_shell(precache.precache_entries(site))
    entries, packs = precache.write_packs(site, listed, cache)
    compressed: list[bytes] = []
    compress = precache.gzip.compress
    monkeypatch.setattr(
        precache.gzip,
        "compress",
        lambda data, **kw: compressed.append(data) or compress(data, **kw),
    )
    # Another build of the same files: every pack from the cache, byte for byte.
    assert precache.write_packs(site, listed, cache) == (entries, packs)
    assert compressed == []
    # One page changed (its size kept, so that the packs hold the same files): its pack
    # alone is compressed again.
    page = site / "jeu/combat/index.html"
    page.write_text(page.read_text(encoding="utf-8").upper(), encoding="utf-8")
    listed = precache.mark_shell(precache.precache_entries(site))
    _, changed = precache.write_packs(site, listed, cache)
    assert len(compressed) == len(set(changed) - set(packs)) == 1
    # The cache keeps the last build's packs, not those of every build before.
    assert len(list((cache / precache.PACK_CACHE).iterdir())) == len(changed)


def test_revisions_follow_the_content(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    before = {e.url: e for e in precache.precache_entries(site)}
    (site / "jeu/combat/index.html").write_text("<h1>Combat, revu</h1>", encoding="utf-8")
    after = {e.url: e for e in precache.precache_entries(site)}
    changed = {u for u in before if before[u].revision != after[u].revision}
    assert changed == {"jeu/combat/index.html"}
    assert before["jeu/combat/index.html"].integrity != after["jeu/combat/index.html"].integrity
    versions = [precache.site_version(list(files.values())) for files in (before, after)]
    assert versions[0] != versions[1]
    # Same bytes, same revision: a rebuild with no change downloads nothing.
    (site / "jeu/combat/index.html").write_text("<h1>Combat</h1>", encoding="utf-8")
    again = {e.url: e for e in precache.precache_entries(site)}
    assert again == before


def test_unchanged_files_keep_their_hashes_from_the_cache(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    cache = tmp_path.with_name(tmp_path.name + "-cache")  # outside the site
    plain = precache.precache_entries(site)
    assert precache.precache_entries(site, cache=cache) == plain  # first build: all hashed
    assert (cache / precache.DIGEST_CACHE).is_file()
    # A rewritten file (a new time) is hashed again, even with the same size.
    page = site / "jeu/combat/index.html"
    old = page.read_bytes()
    page.write_bytes(old.upper())
    assert len(old.upper()) == len(old)
    after = {e.url: e for e in precache.precache_entries(site, cache=cache)}
    assert after == {e.url: e for e in precache.precache_entries(site)}
    assert (
        after["jeu/combat/index.html"].revision
        != plain[[e.url for e in plain].index("jeu/combat/index.html")].revision
    )
    # A file that kept its size and time is not read again: the cache's hashes are used
    # (here made false on purpose, to show that they are the ones taken).
    data = json.loads((cache / precache.DIGEST_CACHE).read_text(encoding="utf-8"))
    wasm = next(k for k in data if k.endswith(".wasm"))
    data[wasm][2] = "f" * 20
    (cache / precache.DIGEST_CACHE).write_text(json.dumps(data), encoding="utf-8")
    taken = {e.url: e for e in precache.precache_entries(site, cache=cache)}
    assert taken[wasm].revision == "f" * 20
    os.utime(site / wasm, ns=(0, 1))  # a new time: hashed again
    assert precache.precache_entries(site, cache=cache) == precache.precache_entries(site)


def test_a_new_build_of_the_same_pages_offers_readers_no_new_version(
    site_dir: Path, site_url: str, tmp_path: Path
) -> None:
    # Pagefind names some index files differently at each run: without the index kept in
    # the build cache (search.Indexer), each deploy changed the worker's version, and every
    # installed site said « Nouvelle version disponible ».
    again = tmp_path / "site"
    result = build_site(again, site_url=site_url)  # the address the test site is built for
    assert result.returncode == 0, result.stderr
    assert sw_data(again)["version"] == sw_data(site_dir)["version"]
    assert (again / "sw.js").read_bytes() == (site_dir / "sw.js").read_bytes()


def test_a_digest_cache_that_cannot_be_written_only_costs_time(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    blocked = tmp_path.with_name(tmp_path.name + "-fichier")
    blocked.write_text("un fichier à la place du dossier", "utf-8")
    plain = precache.precache_entries(site)
    assert precache.precache_entries(site, cache=blocked / "cache") == plain
    assert precache.precache_entries(site, cache=blocked / "cache") == plain


def fake_snapshots(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Snapshots made without starting Pyodide in Node (it takes seconds): the outputs."""
    from regles.features.calculators import pyodide as pyodide_assets

    made: list[str] = []

    def run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        Path(command[-1]).write_bytes(b"instantane")
        made.append(command[-1])
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(pyodide_assets.subprocess, "run", run)
    return made


def snapshot_of(site: Path) -> bytes:
    return next((site / "assets" / "pyodide").glob("*/snapshot-*.bin.gz")).read_bytes()


def test_the_pyodide_snapshot_is_made_once_and_kept_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regles.features.calculators import pyodide as pyodide_assets

    made = fake_snapshots(monkeypatch)
    source, cache = NODE_MODULES / "pyodide", tmp_path / "cache"
    for build in ("un", "deux"):
        site = tmp_path / build
        pyodide_assets.write_runtime(site, source, GENERIC_RULES, cache)
        assert snapshot_of(site) == b"instantane"
    assert len(made) == 1 and Path(made[0]).parent == cache
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [Path(made[0]).name.removesuffix(".part"), pyodide_assets.DIGESTS_CACHE]
    )


def test_pyodide_s_digest_is_kept_while_its_file_stays_the_same(tmp_path: Path) -> None:
    """The 9.6 MB of WebAssembly are read once, not at every build: their digest is kept
    with the file's size and time, and made again when either changes."""
    from regles.features.calculators import pyodide as pyodide_assets

    wasm, cache = tmp_path / "pyodide.asm.wasm", tmp_path / "cache"
    wasm.write_bytes(b"version A")
    os.utime(wasm, ns=(10**18, 10**18))
    first = pyodide_assets._file_digest(wasm, cache)
    assert first == pyodide_assets._digest(b"version A")
    wasm.write_bytes(b"version B")  # the same size, another time
    os.utime(wasm, ns=(10**18, 10**18))  # its time put back: taken as the same file
    assert pyodide_assets._file_digest(wasm, cache) == first
    os.utime(wasm, ns=(2 * 10**18, 2 * 10**18))
    assert pyodide_assets._file_digest(wasm, cache) == pyodide_assets._digest(b"version B")


def test_a_snapshot_cache_that_cannot_be_written_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regles.features.calculators import pyodide as pyodide_assets

    made = fake_snapshots(monkeypatch)
    blocked = tmp_path / "fichier"
    blocked.write_text("un fichier à la place du dossier", "utf-8")
    for build in ("un", "deux"):
        site = tmp_path / build
        pyodide_assets.write_runtime(
            site, NODE_MODULES / "pyodide", GENERIC_RULES, blocked / "cache"
        )
        assert snapshot_of(site) == b"instantane"
    assert len(made) == 2  # made again at each build, in a folder of its own
    assert not any(str(blocked) in output for output in made)


def test_pyodide_files_are_copied_with_their_times(tmp_path: Path) -> None:
    from regles.features.calculators import pyodide as pyodide_assets

    source = NODE_MODULES / "pyodide"
    target = tmp_path / "site"
    pyodide_assets.write_runtime(target, source, GENERIC_RULES, tmp_path, snapshot=False)
    copied = next((target / "assets" / "pyodide").iterdir())
    for name in pyodide_assets.PYODIDE_FILES:
        assert (copied / name).stat().st_mtime_ns == (source / name).stat().st_mtime_ns


def test_service_worker_written_from_the_template(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    workbox = offline.copy_workbox(NODE_MODULES, site)
    assert workbox == "assets/workbox-7.4.1/"
    summary = offline.write_service_worker(site, TEMPLATE, workbox=workbox)
    text = (site / "sw.js").read_text("utf-8")
    assert offline.PLACEHOLDER not in text
    data = offline.read_service_worker_data(text)
    assert data["version"] == summary.version
    assert data["workbox"] == workbox and data["fallback"] == "hors-ligne/"
    listed = {unquote(f["url"]) for f in data["files"]}
    assert listed == precached_files(site)
    assert f"{workbox}workbox-sw.js" in listed  # the runtime itself is precached
    assert summary.files == len(listed)
    # Changing one file changes its revision in the rewritten worker, and nothing else.
    (site / "data/spells.json").write_text('[{"nom": "Lumière"}]', encoding="utf-8")
    again = offline.write_service_worker(site, TEMPLATE, workbox=workbox)
    old = {f["url"]: f["revision"] for f in data["files"]}
    new = {f["url"]: f["revision"] for f in sw_data(site)["files"]}
    assert {u for u in old if old[u] != new[u]} == {"data/spells.json"}
    assert again.version != summary.version


def test_template_mistakes_are_errors(tmp_path: Path) -> None:
    entries = precache.precache_entries(make_site(tmp_path))
    with pytest.raises(offline.OfflineError):
        offline.render_service_worker("const x = 1;", entries, workbox="assets/wb/")
    with pytest.raises(offline.OfflineError):
        offline.render_service_worker(TEMPLATE.read_text("utf-8"), entries, workbox="/assets/wb/")
    with pytest.raises(offline.OfflineError):
        offline.read_service_worker_data(TEMPLATE.read_text("utf-8"))  # never filled in
    (tmp_path / "hors-ligne/index.html").unlink()
    with pytest.raises(offline.OfflineError, match="hors-ligne"):
        offline.write_service_worker(tmp_path, TEMPLATE, workbox="assets/workbox-7.4.1/")


def test_manifest_needs_its_icons(tmp_path: Path) -> None:
    with pytest.raises(offline.OfflineError, match="icône"):
        offline.write_web_manifest(tmp_path, App("Règles de la table", "Règles", "…", "#795548"))


# The built site -----------------------------------------------------------------------------


@pytest.mark.site
def test_manifest(site_dir: Path) -> None:
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text("utf-8"))
    # The site's own name and description (tests/site/mkdocs.yml).
    assert manifest["name"] == "Site d’essai"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["description"] == "Site d’essai du générateur de sites de règles."
    assert manifest["lang"] == "fr"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    # Its palette's primary colour as Material draws it (no `app:` settings there).
    assert manifest["short_name"] == "Site d’essai"
    assert manifest["theme_color"].lower() == "#795649"
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest["background_color"])
    purposes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    for size in ("192x192", "512x512"):
        assert (size, "any") in purposes and (size, "maskable") in purposes


@pytest.mark.site
def test_manifest_icons_have_their_pixel_sizes(site_dir: Path) -> None:
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text("utf-8"))
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(site_dir / icon["src"]) == (width, height), icon
    assert png_size(site_dir / "assets/icons/apple-touch-icon.png") == (180, 180)


@pytest.mark.site
def test_no_url_of_the_manifest_is_root_absolute(site_dir: Path) -> None:
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text("utf-8"))
    urls = [manifest["start_url"], manifest["scope"], manifest["id"]]
    urls += [i["src"] for i in manifest["icons"]]
    for url in urls:
        assert not is_root_absolute(url), url


@pytest.mark.site
def test_service_worker_precaches_every_file_with_its_hash(site_dir: Path) -> None:
    data = sw_data(site_dir)
    listed = {unquote(f["url"]): f for f in data["files"]}
    assert set(listed) == precached_files(site_dir)
    assert any(name.endswith(".map") for name in site_files(site_dir))  # Material's, left out
    for name in (
        "index.html",
        "data/bases/sorts.json",
        "manifest.webmanifest",
        "hors-ligne/index.html",
    ):
        assert name in listed, name
    for name, entry in listed.items():
        actual = precache.file_entry(site_dir, site_dir / name)
        assert (entry["revision"], entry["integrity"], entry["size"]) == (
            actual.revision,
            actual.integrity,
            actual.size,
        ), f"{name} a changé après l’écriture de sw.js : l’étape hors ligne doit être la dernière"


def test_the_calculators_runtime_comes_after_the_text(site_dir: Path) -> None:
    files = sw_data(site_dir)["files"]
    later = {unquote(f["url"]) for f in files if f.get("later")}
    assert later and all(
        name.startswith(("assets/pyodide/", "assets/calculators/")) for name in later
    ), later
    assert any(name.endswith("pyodide.asm.wasm") for name in later)
    text = {unquote(f["url"]) for f in files} - later
    assert {"index.html", "hors-ligne/index.html", "data/bases/sorts.json"} <= text
    assert any(name.startswith("pagefind/") for name in text)


@pytest.mark.site
def test_service_worker_uses_the_site_s_own_workbox(site_dir: Path) -> None:
    text = (site_dir / "sw.js").read_text("utf-8")
    data = sw_data(site_dir)
    assert data["workbox"] == "assets/workbox-7.4.1/"
    for name in ("workbox-sw.js", *(f"{m}.prod.js" for m in offline.WORKBOX_MODULES)):
        assert (site_dir / data["workbox"] / name).is_file(), name
    assert "importScripts(BUILD.workbox" in text
    assert "modulePathPrefix: BUILD.workbox" in text
    assert "skipWaiting()" in text and "SKIP_WAITING" in text  # only on the reader's request
    assert "cleanupOutdatedCaches()" in text
    assert not re.search(r"https?://", text.split("*/", 1)[1]), "une adresse absolue dans sw.js"


def test_service_worker_template_is_javascript(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js absent")
    site = make_site(tmp_path)
    workbox = offline.copy_workbox(NODE_MODULES, site)
    offline.write_service_worker(site, TEMPLATE, workbox=workbox)
    for script in (site / "sw.js", THEME_DIR / "assets" / "js" / "offline.js"):
        result = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


@pytest.mark.site
def test_every_page_declares_the_app_with_relative_urls(site_dir: Path) -> None:
    for page in html_pages(site_dir):
        soup = BeautifulSoup((site_dir / page).read_text("utf-8"), "html.parser")
        manifest = soup.select_one('link[rel="manifest"]')
        touch = soup.select_one('link[rel="apple-touch-icon"]')
        colour = soup.select_one('meta[name="theme-color"]')
        assert manifest and touch and colour, page
        assert colour["content"].lower() == "#795649"
        if page == "404.html":
            continue  # MkDocs gives 404.html site-absolute URLs: it is served at any address
        for link, target in (
            (manifest, "manifest.webmanifest"),
            (touch, "assets/icons/apple-touch-icon.png"),
        ):
            href = link["href"]
            assert not is_root_absolute(href), (page, href)
            resolved = (site_dir / page).parent.joinpath(href).resolve()
            assert resolved == (site_dir / target).resolve(), (page, href)


@pytest.mark.site
def test_offline_page_is_built_but_not_in_the_menu(site_dir: Path) -> None:
    page = (site_dir / "hors-ligne/index.html").read_text("utf-8")
    assert "Hors ligne" in page and "hors-ligne-reessayer" in page
    home = BeautifulSoup((site_dir / "index.html").read_text("utf-8"), "html.parser")
    assert not home.select('nav a[href$="hors-ligne/"]')


def test_the_data_page_is_the_generators_unless_the_site_has_one(tmp_path: Path) -> None:
    # The page where a reader saves what the browser keeps (backup.js): in the menu and the
    # search (tests/test_pages_words.py); an owner's donnees.md replaces it.
    build = SiteBuild(
        Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=tmp_path / "sans-paquet")
    )
    pages = {uri: (text, in_nav) for uri, text, in_nav in build.generated_pages(["index.md"])}
    text, in_nav = pages[BACKUP_SOURCE]
    assert in_nav is True and 'id="regles-donnees"' in text and "exclude: true" not in text
    assert "que dans ce navigateur" in text
    owned = build.generated_pages(["index.md", BACKUP_SOURCE])
    assert BACKUP_SOURCE not in [uri for uri, _, _ in owned]


@pytest.mark.site
def test_without_a_page_of_its_own_the_site_gets_the_generators_offline_page(
    site_dir: Path,
) -> None:
    # The test site has no hors-ligne.md: the page is the generator's, and leads to the home
    # page and to the spell index the site declares.
    assert not (TEST_SITE.parent / "content" / "hors-ligne.md").exists()
    soup = BeautifulSoup((site_dir / "hors-ligne/index.html").read_text("utf-8"), "html.parser")
    links = {a.get_text(): a["href"] for a in soup.select("article li a")}
    assert links == {"l’accueil": "../", "Index des sorts": "../sorts/index-des-sorts/"}
    assert soup.select_one("article .hors-ligne-adresse") is not None


@pytest.mark.site
def test_install_page_keeps_its_first_paragraph_and_has_the_button(site_dir: Path) -> None:
    soup = BeautifulSoup((site_dir / "installer/index.html").read_text("utf-8"), "html.parser")
    first = soup.select_one("article p")
    assert first is not None and first.get_text().startswith(
        "Cette app peut être installée sur PC ou smartphone."
    )
    assert soup.select_one("button.installer-bouton[hidden]") is not None
    assert soup.select_one(".installer-etat") is not None
    headings = " ".join(h.get_text() for h in soup.select("article h2"))
    for system in ("Android", "iPhone", "ordinateur"):
        assert system in headings


# Under a GitHub Pages project path -------------------------------------------------------


def local_targets(page: str, soup: BeautifulSoup, base: str) -> Iterator[tuple[str, str]]:
    for tag, attribute in (
        ("a", "href"),
        ("link", "href"),
        ("script", "src"),
        ("img", "src"),
        ("source", "src"),
    ):
        for element in soup.find_all(tag):
            value = element.get(attribute)
            if not value or value.startswith(("#", "mailto:", "data:", "javascript:")):
                continue
            if tag == "link" and element.get("rel") in (["canonical"], ["alternate"]):
                continue
            target = urljoin(base + page, value)
            if urlparse(target).netloc != urlparse(base).netloc:
                continue  # another site (credits, licences): not ours to serve
            yield value, target


@pytest.mark.site
def test_links_and_assets_resolve_under_the_subpath(subpath_site: SubpathSite) -> None:
    site, base = subpath_site.site, subpath_site.url
    files = site_files(site)
    broken: list[str] = []
    for page in html_pages(site):
        if page == "404.html":
            continue
        soup = BeautifulSoup((site / page).read_text("utf-8"), "html.parser")
        for value, target in local_targets(page, soup, base):
            path = urlparse(target).path
            if not path.startswith(urlparse(base).path):
                broken.append(f"{page}: {value} sort du sous-chemin")
                continue
            relative = unquote(path[len(urlparse(base).path) :])
            if (
                relative in files
                or relative.rstrip("/") + "/index.html" in files
                or (relative == "" and "index.html" in files)
            ):
                continue
            broken.append(f"{page}: {value} → {relative} absent")
    assert broken == [], "\n".join(sorted(set(broken))[:40])


@pytest.mark.site
def test_404_page_works_from_any_address_under_the_subpath(subpath_site: SubpathSite) -> None:
    soup = BeautifulSoup((subpath_site.site / "404.html").read_text("utf-8"), "html.parser")
    prefix = "/" + SUBPATH + "/"
    for element in soup.select("link[href], script[src]"):
        value = element.get("href") or element.get("src")
        if element.get("rel") in (["canonical"], ["alternate"]):
            continue
        assert value.startswith(prefix), value


@pytest.mark.site
def test_every_file_is_served_under_the_subpath(subpath_site: SubpathSite) -> None:
    types = {
        ".html": "text/html",
        ".js": "text/javascript",
        ".css": "text/css",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
        ".json": "application/json",
        ".png": "image/png",
    }
    for name in sorted(site_files(subpath_site.site)):
        with urllib.request.urlopen(subpath_site.url + name) as response:
            assert response.status == 200, name
            expected = types.get(Path(name).suffix)
            if expected:
                assert response.headers["Content-Type"].startswith(expected), name
    for page in ("", "jeu/combat/", "installer/", "hors-ligne/"):
        with urllib.request.urlopen(subpath_site.url + page) as response:
            assert response.status == 200, page
    # Nothing is published above the project path.
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(subpath_site.server.origin + "/sw.js")


@pytest.mark.site
def test_manifest_and_worker_resolve_inside_the_subpath(subpath_site: SubpathSite) -> None:
    url = subpath_site.url
    with urllib.request.urlopen(url + "manifest.webmanifest") as response:
        manifest = json.load(response)
    manifest_url = url + "manifest.webmanifest"
    assert urljoin(manifest_url, manifest["start_url"]) == url
    assert urljoin(manifest_url, manifest["scope"]) == url
    for icon in manifest["icons"]:
        assert urljoin(manifest_url, icon["src"]).startswith(url)
    # The worker sits at the project root, so its default scope is the project: /regles/.
    soup = BeautifulSoup((subpath_site.site / "jeu/combat/index.html").read_text(), "html.parser")
    root = soup.select_one('meta[name="regles-racine"]')
    assert root is not None and root["content"] == "../../"
    assert urljoin(url + "jeu/combat/", root["content"]) + "sw.js" == url + "sw.js"
    assert all(not is_root_absolute(f["url"]) for f in sw_data(subpath_site.site)["files"])


@pytest.mark.parametrize(
    ("owner", "home"),
    [
        ("index.md", "[l’accueil](index.md)"),
        ("README.md", "[l’accueil](README.md)"),
        ("a.md", None),
    ],
)
def test_the_generators_offline_page_leads_to_the_home_page_the_site_has(
    tmp_path: Path, owner: str, home: str | None
) -> None:
    # MkDocs makes the home page of index.md, or else of README.md; a site may have neither.
    build = SiteBuild(
        Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=tmp_path / "sans-paquet")
    )
    pages = {uri: (text, in_nav) for uri, text, in_nav in build.generated_pages([owner])}
    uri = offline.FALLBACK_SOURCE
    text, in_nav = pages[uri]
    assert in_nav is False
    assert (home in text) if home else ("accueil" not in text)
    build.index_pages([(owner, "# Page\n"), (uri, text)], [owner, uri], None, "")
    build.render_markdown(uri, text, text)
    assert build.report.problems == []  # no link to a page the site lacks


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("Chroniques des Brumes", "Chroniques"),
        ("Ombres de Lutèce", "Ombres"),  # not « Ombres de »
        ("L’Appel du large", "L’Appel"),
        ("Feu et Sang", "Feu et Sang"),
        ("Cendres", "Cendres"),
        ("Extraordinairement", "Extraordinai"),  # a first word too long is cut
    ],
)
def test_the_app_s_name_under_its_icon_ends_on_a_word_of_its_own(name: str, short: str) -> None:
    assert short_name_of(name) == short
