"""Offline reading, as a feature of the build: the page served for a page never downloaded
while the network is down (unless the owner wrote one), the installed app's icons made from
the site's logo (icons.py), and, after every other file of the site is written, the web app
manifest, Workbox's runtime and the service worker with every file and its hash (offline.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from regles.core.site import BuildError, SiteContext
from regles.core.stages import FileChanges, GeneratedPage, SiteFile, Stages
from regles.features.assets.theme import THEME_DIR
from regles.features.offline import icons, offline, precache
from regles.features.offline.update import update_offline

__all__ = ["OfflineFeature"]


class OfflineFeature:
    """`links` are (words, page in the docs) the offline page points to besides the home
    page (a database's index)."""

    def __init__(self, site: SiteContext, links: Sequence[tuple[str, str]] = ()) -> None:
        self.site = site
        self.links = list(links)
        self.later: Sequence[str] = ()
        self.summary: offline.OfflineSummary | None = None  # the last written, for `update`
        self.icons: dict[str, bytes] = {}  # the app's icons made from the logo, by path

    def register(self, stages: Stages) -> None:
        # Filled by other features as they register: read when the site is written.
        self.later = stages.offline_later
        stages.pages.append(self.fallback)
        stages.files.register(self.app_icons, "app_icons", 40)
        stages.emitters.register(self.write_icons, "app_icons", 20)  # before the offline copy
        # Last of all: it hashes every file of the site, so every other one must be there.
        stages.emitters.register(self.write, "offline", 10)
        stages.template_globals["regles_app"] = self.site.settings.app  # partials/pwa-head.html

    def fallback(self, owner: frozenset[str]) -> list[GeneratedPage]:
        if offline.FALLBACK_SOURCE in owner:
            return []
        # MkDocs makes the home page of index.md, or else of README.md.
        home = next((p for p in ("index.md", "README.md") if p in owner), None)
        page = offline.fallback_page(home, self.links)
        return [GeneratedPage(offline.FALLBACK_SOURCE, page, in_nav=False)]

    def app_icons(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """The app's icons made from the site's logo, in place of the generator's (written
        once every page is: `write_icons`); the site's own icon files stay as they are."""
        own = {
            path: not icons.is_generators(file.source, THEME_DIR)
            for path, file in files.items()
            if path.startswith(icons.ICONS_FOLDER + "/")
        }
        settings = self.site.settings
        try:
            self.icons = icons.site_icons(settings.app, own, settings.cache_dir)
        except icons.IconError as error:
            raise BuildError(f"icône de l’application : {error}") from error
        return FileChanges(removed={path for path in self.icons if path in files})

    def write_icons(self, site_dir: Path) -> None:
        for path, data in self.icons.items():
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)

    def write(self, site_dir: Path) -> None:
        """Manifest, Workbox runtime, then sw.js listing every file of the site with its hash."""
        settings = self.site.settings
        try:
            self.summary = offline.build_offline(
                site_dir,
                node_modules=settings.node_modules,
                service_worker=settings.theme_file(precache.SERVICE_WORKER_FILE),
                app=settings.app,
                cache=settings.cache_dir,
                later=self.later,
            )
        except (OSError, offline.OfflineError) as error:
            raise BuildError(f"hors ligne : {error}") from error

    def update(self, site_dir: Path, touched: Iterable[str]) -> None:
        """The packs and sw.js once those files of the site (paths in it) were written or
        removed since the last `write` or `update` (a page rebuilt alone, update.py)."""
        settings = self.site.settings
        if self.summary is None:
            raise BuildError("hors ligne : copie jamais écrite, rien à mettre à jour")
        try:
            self.summary = update_offline(
                site_dir,
                self.summary,
                touched,
                template=settings.theme_file(precache.SERVICE_WORKER_FILE),
                workbox=offline.workbox_folder(settings.node_modules),
                cache=settings.cache_dir,
                later=self.later,
            )
        except (OSError, offline.OfflineError) as error:
            raise BuildError(f"hors ligne : {error}") from error
