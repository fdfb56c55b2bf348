"""Offline build step: web app manifest, Workbox runtime, precache list and service worker.

Pure functions over the built site folder (no MkDocs import). The plugin calls
`build_offline` as the very last post-build step, once every other step has written its
files (Pyodide runtime, search index…), so that the precache list covers the whole site:
every file of `site/` except the service worker itself, dot files (which GitHub Pages does
not publish) and source maps (which only developer tools read).

Each precache entry carries a content-hash revision and a Subresource Integrity hash, and
`later` when it belongs to what another feature asked to come after the text (`later` paths:
the calculators' Python runtime, 90 % of the bytes): the service worker stores every page,
the search index and what pages need first, so that a slow first visit has the whole text
offline long before the rest has arrived.
Workbox keys its cache by URL + revision, so a deploy only downloads the files that changed,
and the integrity check makes the browser refuse a stale copy served by a CDN under a new
revision: the new service worker then fails to install and the old version stays in use,
rather than mixing old and new files.

The text that is not the shell (pages, search fragments, data) also goes into a few packs
(`write_packs`): a first visit fetches and stores each one whole instead of hundreds of small
files, whose cost in the browser's storage, not the link, set the pace on a fast connection.
Each file of a pack is still checked against its own integrity hash, and whatever a pack
cannot bring is fetched on its own.

The size limit that people meet with Workbox (`maximumFileSizeToCacheInBytes`, 2 MiB by
default) belongs to workbox-build and its webpack plugin, which write the manifest for you.
We write our own manifest and hand it to `workbox.precaching.precacheAndRoute`, which has no
such limit: `pyodide.asm.wasm` (~10 MB) is precached like any other file.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import gzip
import hashlib
import json
import logging
import mimetypes
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

from regles.core.cache import keep_bytes, keep_text
from regles.core.markdown_text import markdown_text
from regles.features.offline.app import App

__all__ = [
    "FALLBACK_PAGE",
    "FALLBACK_SOURCE",
    "MANIFEST_FILE",
    "PACK_FOLDER",
    "PLACEHOLDER",
    "SERVICE_WORKER_FILE",
    "WORKBOX_MODULES",
    "OfflineError",
    "OfflineSummary",
    "Pack",
    "PrecacheEntry",
    "build_offline",
    "copy_workbox",
    "fallback_page",
    "file_entry",
    "is_later",
    "is_shell",
    "mark_shell",
    "media_type",
    "precache_entries",
    "read_service_worker_data",
    "render_service_worker",
    "site_version",
    "web_manifest",
    "workbox_folder",
    "write_listed",
    "write_packs",
    "write_service_worker",
    "write_web_manifest",
]

log = logging.getLogger("mkdocs.plugins.regles.offline")

SERVICE_WORKER_FILE = "sw.js"
MANIFEST_FILE = "manifest.webmanifest"
# Page shown for a navigation that is neither cached nor reachable: the generator's own
# (`fallback_page`), unless the docs hold a page of that name, which replaces it.
FALLBACK_PAGE = "hors-ligne/"
FALLBACK_SOURCE = "hors-ligne.md"
# The one spot of the template that receives the build data (a JSON object).
PLACEHOLDER = "/* @rules:build */ null"
DATA_PREFIX = "const BUILD = "
# workbox-sw loads these on demand with importScripts(modulePathPrefix + name + ".prod.js").
WORKBOX_MODULES = ("workbox-core", "workbox-routing", "workbox-strategies", "workbox-precaching")

ICONS_FOLDER = "assets/icons"
ICON_SIZES = (192, 512)


class OfflineError(Exception):
    """The offline step cannot produce a consistent service worker."""


@dataclass(frozen=True)
class PrecacheEntry:
    url: str  # relative to the site root, percent-encoded, never starting with "/"
    revision: str  # content hash (hex)
    integrity: str  # Subresource Integrity: "sha256-<base64>"
    size: int  # bytes
    later: bool = False  # downloaded after the text (see the module's docstring)
    shell: bool = False  # stored at install, before the worker takes the pages (`is_shell`)
    pack: int | None = None  # the pack that also carries it (`write_packs`)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "url": self.url,
            "revision": self.revision,
            "integrity": self.integrity,
            "size": self.size,
        }
        if self.later:
            data["later"] = True
        if self.shell:
            data["shell"] = True
        if self.pack is not None:
            data["pack"] = self.pack
        return data


@dataclass(frozen=True)
class Pack:
    url: str  # relative to the site root, like an entry's
    size: int  # bytes of the pack file (gzip)

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "size": self.size}


@dataclass(frozen=True)
class OfflineSummary:
    version: str
    entries: tuple[PrecacheEntry, ...]
    packs: tuple[Pack, ...] = ()

    @property
    def files(self) -> int:
        return len(self.entries)

    @property
    def size(self) -> int:
        return sum(e.size for e in self.entries)

    @property
    def text_size(self) -> int:
        """Bytes of what comes first: everything but the `later` files."""
        return sum(e.size for e in self.entries if not e.later)


# Fallback page -----------------------------------------------------------------------------


def fallback_page(home: str | None, links: Sequence[tuple[str, str]]) -> str:
    """The Markdown of the offline fallback page: `home` is the home page's file in the docs
    (None without one), `links` are (words, page in the docs) of what else it points the
    reader to. The address asked for and the retry link are filled in by the page's script
    (offline.js)."""
    menu = "et les autres pages, depuis le menu ;"
    items = [f"- [l’accueil]({home}) {menu}" if home else "- les pages du site, depuis le menu ;"]
    items += [f"- [{markdown_text(words)}]({page}) ;" for words, page in links]
    items[-1] = items[-1].removesuffix(" ;") + "."
    return "\n".join(
        [
            "---",
            "hide:",
            "  - toc",
            "---",
            "",
            "# Hors ligne",
            "",
            "Cette page n’est pas enregistrée sur cet appareil et le réseau ne répond pas.",
            "",
            '<p class="hors-ligne-depuis" markdown="0" hidden>Adresse demandée : '
            '<code class="hors-ligne-adresse"></code> — '
            '<a class="hors-ligne-reessayer" href="./">réessayer</a></p>',
            "",
            "Tout le texte du site est disponible sans connexion une fois son premier "
            "téléchargement terminé (l’indicateur en bas de page affiche alors « Pages et "
            "recherche : hors ligne ») :",
            "",
            *items,
            "",
            '<div class="hors-ligne-enregistrees" markdown="0" hidden>'
            "<p>Pages déjà enregistrées sur cet appareil :</p><ul></ul></div>",
            "",
        ]
    )


# Precache list ------------------------------------------------------------------------------


def _url(relative: str) -> str:
    """A path inside the site as the precache list writes it: percent-encoded, relative."""
    return quote(relative, safe="/-_.~")


def file_entry(site_dir: Path, path: Path) -> PrecacheEntry:
    """The precache entry of one file of the site, hashed from its bytes."""
    with path.open("rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        raw = hashlib.file_digest(stream, "sha256").digest()
    relative = path.relative_to(site_dir).as_posix()
    return PrecacheEntry(
        url=_url(relative),
        revision=raw.hex()[:20],
        integrity="sha256-" + base64.b64encode(raw).decode("ascii"),
        size=size,
    )


def _is_published(relative: PurePosixPath) -> bool:
    return not any(part.startswith(".") for part in relative.parts)


# Files that only a browser's developer tools ask for: Material's source maps (1.1 MB, as
# much as all the rule pages together). Published, but not downloaded by every reader who
# installs the site.
DEVELOPER_ONLY_SUFFIXES = (".map",)


def _is_precached(relative: PurePosixPath) -> bool:
    return (
        _is_published(relative)
        and not relative.name.endswith(DEVELOPER_ONLY_SUFFIXES)
        and not str(relative).startswith(PACK_FOLDER)
    )


DIGEST_CACHE = "precache-digests.json"


def _read_digests(cache: Path | None) -> dict[str, list[Any]]:
    if cache is None:
        return {}
    try:
        data = json.loads((cache / DIGEST_CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def is_later(relative: str, later: Iterable[str]) -> bool:
    """Whether a file (its path in the site) is one of `later`: paths of files, or of folders
    when they end with "/"."""
    return any(
        relative.startswith(path) if path.endswith("/") else relative == path for path in later
    )


def precache_entries(
    site_dir: Path,
    exclude: Iterable[str] = (SERVICE_WORKER_FILE,),
    cache: Path | None = None,
    later: Iterable[str] = (),
) -> list[PrecacheEntry]:
    """Every file of the site but `exclude` (paths relative to the root), dot files and
    source maps; those of `later` (see `is_later`) are marked to come after the others.

    With a `cache` folder, a file whose path, size and modification time (in nanoseconds)
    are those of the previous build keeps its hashes. Only files given with their times are
    in that case: Pyodide's, copied (pyodide_assets.py), 20 MB not read again on every build,
    and a search index kept from an earlier build (search.py). Every file written by the
    build has a new time, so it is hashed again. A cache folder that cannot be written only
    means hashing every file again at the next build."""
    skipped = set(exclude)
    later = tuple(later)
    known = _read_digests(cache)
    seen: dict[str, list[Any]] = {}
    entries = []
    for path in sorted(site_dir.rglob("*")):
        if not path.is_file():
            continue
        relative = PurePosixPath(path.relative_to(site_dir).as_posix())
        if str(relative) in skipped or not _is_precached(relative):
            continue
        stat = path.stat()
        old = known.get(str(relative))
        if isinstance(old, list) and len(old) == 4 and old[:2] == [stat.st_size, stat.st_mtime_ns]:
            entry = PrecacheEntry(
                url=_url(str(relative)),
                revision=str(old[2]),
                integrity=str(old[3]),
                size=stat.st_size,
            )
        else:
            entry = file_entry(site_dir, path)
        seen[str(relative)] = [stat.st_size, stat.st_mtime_ns, entry.revision, entry.integrity]
        if is_later(str(relative), later):
            entry = dataclasses.replace(entry, later=True)
        entries.append(entry)
    if cache is not None and seen != known:
        keep_text(cache / DIGEST_CACHE, json.dumps(seen))
    return entries


def site_version(entries: Sequence[PrecacheEntry]) -> str:
    """One hash for the whole list: changes as soon as any file or file name changes."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(f"{entry.url}\0{entry.revision}\n".encode())
    return digest.hexdigest()[:16]


# The shell and the packs --------------------------------------------------------------------

# What every page needs to look and work as it should: with the offline page, what the install
# stores, one file at a time, before the worker takes the pages over (a few hundred kB).
SHELL_SUFFIXES = (".css", ".js", ".mjs", ".woff", ".woff2", ".svg", ".png", ".ico", ".webmanifest")


def is_shell(entry: PrecacheEntry, fallback: str = FALLBACK_PAGE) -> bool:
    return not entry.later and (
        entry.url == _url(fallback + "index.html") or entry.url.endswith(SHELL_SUFFIXES)
    )


def mark_shell(
    entries: Iterable[PrecacheEntry], fallback: str = FALLBACK_PAGE
) -> list[PrecacheEntry]:
    return [dataclasses.replace(e, shell=True) if is_shell(e, fallback) else e for e in entries]


# Where the packs go (rewritten at each build; never listed themselves: they only carry files).
PACK_FOLDER = "assets/offline/"
# Bytes of files per pack, before compression. This site's 4.7 MB of packed text makes ten
# packs: enough to keep the link busy while the worker stores what has arrived, and an
# interrupted pack only leaves its own files to fetch one by one.
PACK_TARGET = 512 * 1024
# Python's own table, not the build machine's (/etc/mime.types): the same packs everywhere.
_MEDIA_TYPES = mimetypes.MimeTypes()
_UTF8_TYPES = ("application/json", "application/xml", "text/javascript", "application/javascript")


def media_type(url: str) -> str:
    """The Content-Type a file of the site is stored with when it comes out of a pack, as
    GitHub Pages serves it."""
    kind = _MEDIA_TYPES.guess_type(url, strict=False)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind in _UTF8_TYPES else kind


def _pack_groups(entries: Sequence[PrecacheEntry]) -> list[list[PrecacheEntry]]:
    groups: list[list[PrecacheEntry]] = []
    size = PACK_TARGET
    for entry in entries:
        if size + entry.size > PACK_TARGET and size > 0:
            groups.append([])
            size = 0
        groups[-1].append(entry)
        size += entry.size
    return groups


PACK_CACHE = "paquets"  # the packs a build made, in the build cache, by their header's hash


def write_packs(
    site_dir: Path, entries: Sequence[PrecacheEntry], cache: Path | None = None
) -> tuple[list[PrecacheEntry], list[Pack]]:
    """Write the text that is not the shell (pages, search fragments, data) into packs, and
    return the entries, each packed one with its pack's number, and the packs.

    A pack is gzip of: the length of its header (4 bytes, big-endian), its header (JSON, a
    list of [url, size, Content-Type, revision] in the order of the files), then the files'
    bytes one after the other. Its name holds its hash: a CDN never serves one deploy's pack
    to another. The service worker stores a pack whole and serves its files out of it (sw.js,
    "Packs"), and an update keeps the packs that still hold files of the new version, known
    by address and revision.

    A pack's header names each of its files with its revision (the hash of its bytes): the
    same header, the same pack. Compressing the text is most of this step, so each pack is
    kept in `cache` under its header's hash and taken from there by the next build, which
    compresses only the packs whose files changed.
    """
    folder = site_dir / PACK_FOLDER
    shutil.rmtree(folder, ignore_errors=True)
    groups = _pack_groups([e for e in entries if not e.later and not e.shell])
    if groups:
        folder.mkdir(parents=True)
    numbers: dict[str, int] = {}
    packs = []
    used: set[Path] = set()
    for number, group in enumerate(groups):
        files = [[e.url, e.size, media_type(e.url), e.revision] for e in group]
        header = json.dumps(files).encode()
        key = hashlib.sha256(header).hexdigest()[:32]
        kept = cache / PACK_CACHE / f"{key}.bin" if cache is not None else None
        data = _kept_pack(kept)
        if kept is not None:
            used.add(kept)
        if data is None:
            parts = [len(header).to_bytes(4, "big"), header]
            parts += [(site_dir / unquote(e.url)).read_bytes() for e in group]
            data = gzip.compress(b"".join(parts), compresslevel=9, mtime=0)
            if kept is not None:
                keep_bytes(kept, data)
        name = f"{PACK_FOLDER}text-{hashlib.sha256(data).hexdigest()[:16]}.bin"
        (site_dir / name).write_bytes(data)
        packs.append(Pack(name, len(data)))
        numbers.update((e.url, number) for e in group)
    if cache is not None:  # the packs of older builds: the cache keeps the last one's only
        with contextlib.suppress(OSError):
            for old in (cache / PACK_CACHE).glob("*.bin"):
                if old not in used:
                    old.unlink()
    packed = [
        dataclasses.replace(e, pack=numbers[e.url]) if e.url in numbers else e for e in entries
    ]
    return packed, packs


def _kept_pack(path: Path | None) -> bytes | None:
    try:
        return path.read_bytes() if path is not None else None
    except OSError:
        return None


# Web app manifest --------------------------------------------------------------------------


def web_manifest(app: App) -> dict[str, Any]:
    """The manifest, with every URL relative to its own address (the site root)."""
    icons: list[dict[str, str]] = []
    for purpose, stem in (("any", "icone"), ("maskable", "icone-masquable")):
        icons += [
            {
                "src": f"{ICONS_FOLDER}/{stem}-{size}.png",
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for size in ICON_SIZES
        ]
    return {
        "name": app.name,
        "short_name": app.short_name,
        "description": app.description,
        "lang": "fr",
        "dir": "ltr",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": app.theme_color,
        "background_color": app.background_color,
        "categories": ["games", "books", "entertainment"],
        "icons": icons,
    }


def write_web_manifest(site_dir: Path, app: App) -> Path:
    manifest = web_manifest(app)
    for icon in manifest["icons"]:
        if not (site_dir / icon["src"]).is_file():
            raise OfflineError(f"icône du manifeste absente du site : {icon['src']}")
    path = site_dir / MANIFEST_FILE
    path.write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


# Workbox runtime ---------------------------------------------------------------------------


def workbox_version(node_modules: Path) -> str:
    package = node_modules / "workbox-sw" / "package.json"
    try:
        version = json.loads(package.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError) as error:
        raise OfflineError(f"workbox-sw introuvable ({package}) : lancez `npm ci`") from error
    return str(version)


def workbox_folder(node_modules: Path) -> str:
    """Where the site serves the Workbox runtime, relative to the root, with a final "/"."""
    return f"assets/workbox-{workbox_version(node_modules)}/"


def _without_source_map(text: str) -> str:
    # The .map files are not shipped: drop the comment that would make DevTools ask for them.
    lines = text.rstrip("\n").split("\n")
    if lines and lines[-1].startswith("//# sourceMappingURL="):
        lines.pop()
    return "\n".join(lines) + "\n"


def copy_workbox(node_modules: Path, site_dir: Path) -> str:
    """Copy workbox-sw and the production builds of the modules the service worker uses."""
    folder = workbox_folder(node_modules)
    target = site_dir / folder
    target.mkdir(parents=True, exist_ok=True)
    sources = [node_modules / "workbox-sw" / "build" / "workbox-sw.js"]
    sources += [node_modules / m / "build" / f"{m}.prod.js" for m in WORKBOX_MODULES]
    for source in sources:
        if not source.is_file():
            raise OfflineError(f"module Workbox introuvable : {source} (lancez `npm ci`)")
        text = source.read_text(encoding="utf-8")
        (target / source.name).write_text(_without_source_map(text), encoding="utf-8")
    licence = node_modules / "workbox-sw" / "LICENSE"
    if licence.is_file():
        shutil.copyfile(licence, target / "LICENSE.txt")
    return folder


# Service worker ----------------------------------------------------------------------------


def _render_data(
    version: str,
    workbox: str,
    fallback: str,
    entries: Sequence[PrecacheEntry],
    packs: Sequence[Pack] = (),
) -> str:
    head = {
        "version": version,
        "workbox": workbox,
        "fallback": fallback,
        "packs": [p.to_json() for p in packs],
    }
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    files = [json.dumps(e.to_json(), ensure_ascii=False) for e in entries]
    body = ",\n".join(f"    {f}" for f in files)
    return "{\n" + "\n".join(lines) + '\n  "files": [\n' + body + "\n  ]\n}"


def render_service_worker(
    template: str,
    entries: Sequence[PrecacheEntry],
    *,
    workbox: str,
    fallback: str = FALLBACK_PAGE,
    packs: Sequence[Pack] = (),
) -> str:
    """The template with its placeholder replaced by the build data."""
    if template.count(PLACEHOLDER) != 1:
        raise OfflineError(f"le gabarit du service worker doit contenir une fois « {PLACEHOLDER} »")
    for url in (workbox, fallback):
        if url.startswith("/") or "//" in url or not url.endswith("/"):
            raise OfflineError(f"chemin relatif au site attendu, terminé par « / » : {url!r}")
    data = _render_data(site_version(entries), workbox, fallback, entries, packs)
    return template.replace(PLACEHOLDER, data)


def read_service_worker_data(text: str) -> dict[str, Any]:
    """The build data written into a service worker by `render_service_worker`."""
    start = text.find(DATA_PREFIX)
    if start < 0:
        raise OfflineError(f"« {DATA_PREFIX.strip()} » absent du service worker")
    try:
        data, _ = json.JSONDecoder().raw_decode(text, start + len(DATA_PREFIX))
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise OfflineError("le service worker n’a pas été généré (données absentes)")
    return data


def write_service_worker(
    site_dir: Path,
    template: Path,
    *,
    workbox: str,
    fallback: str = FALLBACK_PAGE,
    cache: Path | None = None,
    later: Iterable[str] = (),
) -> OfflineSummary:
    """Hash every file of the site, pack its text and write `sw.js` at its root. Run after
    every other step."""
    if not (site_dir / fallback / "index.html").is_file():
        raise OfflineError(f"page hors ligne de secours absente du site : {fallback}index.html")
    if not (site_dir / workbox / "workbox-sw.js").is_file():
        raise OfflineError(f"Workbox absent du site : {workbox}workbox-sw.js")
    entries = precache_entries(site_dir, cache=cache, later=later)
    return write_listed(
        site_dir, entries, template, workbox=workbox, fallback=fallback, cache=cache
    )


def write_listed(
    site_dir: Path,
    entries: Sequence[PrecacheEntry],
    template: Path,
    *,
    workbox: str,
    fallback: str = FALLBACK_PAGE,
    cache: Path | None = None,
) -> OfflineSummary:
    """The packs and `sw.js` of the site's files `entries` lists: `sw.js` replaced whole,
    so that a server never gives half of it (`mkdocs serve` serves while it is written)."""
    listed = mark_shell(entries, fallback)
    packed, packs = write_packs(site_dir, listed, cache)
    text = render_service_worker(
        template.read_text(encoding="utf-8"),
        packed,
        workbox=workbox,
        fallback=fallback,
        packs=packs,
    )
    target = site_dir / SERVICE_WORKER_FILE
    partial = target.with_name(target.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, target)
    return OfflineSummary(site_version(packed), tuple(packed), tuple(packs))


# The whole step ----------------------------------------------------------------------------


def build_offline(
    site_dir: Path,
    *,
    node_modules: Path,
    service_worker: Path,
    app: App,
    cache: Path | None = None,
    later: Iterable[str] = (),
) -> OfflineSummary:
    """Manifest, Workbox runtime, then the service worker (made from the template
    `service_worker`) with the list of every file, `later` ones marked."""
    write_web_manifest(site_dir, app)
    workbox = copy_workbox(node_modules, site_dir)
    summary = write_service_worker(
        site_dir, service_worker, workbox=workbox, cache=cache, later=later
    )
    log.info(
        "Hors ligne : %d fichiers, %.1f Mo précachés, dont %.1f Mo de texte (%d paquet%s pour "
        "une première visite) ; version %s",
        summary.files,
        summary.size / 1e6,
        summary.text_size / 1e6,
        len(summary.packs),
        "s" if len(summary.packs) > 1 else "",
        summary.version,
    )
    return summary
