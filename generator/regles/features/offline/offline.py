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

The list, the shell and the packs are made by precache.py. The text that is not the shell
(pages, search fragments, data) also goes into a few packs (`write_packs`): a first visit
fetches and stores each one whole instead of hundreds of small files, whose cost in the
browser's storage, not the link, set the pace on a fast connection.
Each file of a pack is still checked against its own integrity hash, and whatever a pack
cannot bring is fetched on its own.

The size limit that people meet with Workbox (`maximumFileSizeToCacheInBytes`, 2 MiB by
default) belongs to workbox-build and its webpack plugin, which write the manifest for you.
We write our own manifest and hand it to `workbox.precaching.precacheAndRoute`, which has no
such limit: `pyodide.asm.wasm` (~10 MB) is precached like any other file.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regles.core.markdown_text import markdown_text
from regles.core.words import file_size
from regles.features.offline.app import App
from regles.features.offline.precache import (
    FALLBACK_PAGE,
    SERVICE_WORKER_FILE,
    Pack,
    PrecacheEntry,
    mark_shell,
    precache_entries,
    site_version,
    write_packs,
)

__all__ = [
    "FALLBACK_SOURCE",
    "MANIFEST_FILE",
    "PLACEHOLDER",
    "WORKBOX_MODULES",
    "OfflineError",
    "OfflineSummary",
    "build_offline",
    "copy_workbox",
    "fallback_page",
    "read_service_worker_data",
    "render_service_worker",
    "web_manifest",
    "workbox_folder",
    "write_listed",
    "write_service_worker",
    "write_web_manifest",
]

log = logging.getLogger("mkdocs.plugins.regles.offline")

MANIFEST_FILE = "manifest.webmanifest"
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
    encode = json.JSONEncoder(ensure_ascii=False).encode  # one encoder for every line
    files = [encode(e.to_json()) for e in entries]
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
        "Hors ligne : %d fichiers, %s précachés, dont %s de texte (%d paquet%s pour "
        "une première visite) ; version %s",
        summary.files,
        file_size(summary.size),
        file_size(summary.text_size),
        len(summary.packs),
        "s" if len(summary.packs) > 1 else "",
        summary.version,
    )
    return summary
