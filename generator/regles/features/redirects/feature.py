"""A way back, as a feature of the build: the addresses the generated pages have had, read
from the site's file (addresses.py) once every page has its address, kept up to date, and a
page at each old address that leads to the new one."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from regles.core.report import Kind, Problem
from regles.core.site import SiteContext
from regles.core.stages import HtmlJob, Stages
from regles.features.redirects.addresses import (
    REDIRECT_SCRIPT,
    AddressesError,
    addresses_text,
    moves,
    page_file,
    read_addresses,
    redirect_page,
    remembered,
    url_of,
)

__all__ = ["RedirectsFeature"]

log = logging.getLogger("mkdocs.plugins.regles")


class RedirectsFeature:
    """`defaults` gives, by key, where the pages would be with the default words and titles
    (a file to start from); `document` passes a page the build writes itself through what
    every page's document goes through (French spacing, the security policy)."""

    def __init__(
        self,
        site: SiteContext,
        defaults: Callable[[], Mapping[str, str]],
        document: Callable[[str, str], str],
    ) -> None:
        self.site = site
        self.defaults = defaults
        self.document = document
        self.titles: dict[str, str] = {}  # each keyed page's title, as a reader reads it
        self.addresses: dict[str, list[str]] | None = None  # to write, when they changed
        self.redirects: dict[str, tuple[str, str]] = {}  # old → new address, its title

    def register(self, stages: Stages) -> None:
        stages.inline_scripts.add(REDIRECT_SCRIPT)
        stages.start.append(self.forget)
        stages.html.register(self.note_title, "moved_titles", 5)
        # Once every page has its address, before the report: what moved is in it.
        stages.converted.append(self.plan)
        # Before the offline copy, which lists every file: an old address works offline.
        stages.emitters.register(self.write, "redirects", 20)

    def forget(self) -> None:
        self.titles = {}
        self.addresses = None
        self.redirects = {}

    def note_title(self, html: str, job: HtmlJob) -> str:
        """A keyed page's title, which the page at its old address names."""
        if job.uri in self.site.page_keys:
            self.titles[job.uri] = job.title
        return html

    def _current(self) -> dict[str, str]:
        """The address of each keyed page now."""
        urls = self.site.page_urls
        return {key: urls[uri] for uri, key in self.site.page_keys.items() if uri in urls}

    def _recorded(self, current: Mapping[str, str]) -> dict[str, list[str]] | None:
        """The addresses the file keeps; without a file, where the pages would be with the
        default words; None (and an error in the report) when it cannot be read."""
        settings = self.site.settings
        path = settings.addresses_file
        shown = settings.shown(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            directory = any(url.endswith("/") for url in current.values())
            return {
                key: [url_of(uri, directory)]
                for key, uri in self.defaults().items()
                if key in current
            }
        except (OSError, UnicodeDecodeError) as error:
            self._unreadable(shown, None, str(getattr(error, "strerror", None) or error))
            return None
        try:
            return read_addresses(text)
        except AddressesError as error:
            self._unreadable(shown, error.line, str(error))
            return None

    def _unreadable(self, shown: str, line: int | None, reason: str) -> None:
        self.site.report.add(
            Problem(
                shown,
                line,
                "error",
                Kind.ADDRESSES_FILE,
                f"fichier des anciennes adresses des pages illisible : {reason}. Réparez-le "
                "(gardez les adresses de chaque côté d’un conflit) ou supprimez-le : la "
                "construction en écrit un nouveau, sans les adresses qu’il gardait",
            )
        )

    def plan(self, site_dir: Path) -> None:
        """What moved: the file's addresses with the current ones, the old addresses that
        lead to a new page, each noted in the report."""
        self.addresses, self.redirects = None, {}
        current = self._current()
        recorded = self._recorded(current)
        if recorded is None:
            return
        addresses = remembered(recorded, current)
        missing = not self.site.settings.addresses_file.exists()
        self.addresses = addresses if missing or addresses != recorded else None
        pages = set(self.site.page_urls.values())
        files = set(self.site.files)
        redirects, held = moves(
            addresses, current, lambda url: url in pages or page_file(url) in files
        )
        titles = self._titles()
        shown = self.site.settings.shown(self.site.settings.addresses_file)
        for old, new in sorted(redirects.items()):
            title = titles.get(new, new)
            self.redirects[old] = (new, title)
            message = f"« {old} » mène à « {new} » (« {title} »)"
            self.site.report.add(Problem(shown, None, "info", Kind.MOVED_ADDRESS, message, old))
        for old, key in sorted(held.items()):
            title = titles.get(current[key], current[key])
            message = (
                f"« {old} », une ancienne adresse de « {title} », est celle d’une autre page "
                "ou d’un autre fichier du site : elle y mène"
            )
            self.site.report.add(Problem(shown, None, "info", Kind.MOVED_ADDRESS, message, old))

    def _titles(self) -> dict[str, str]:
        """The title of each keyed page, by its address."""
        urls = self.site.page_urls
        return {urls[uri]: title for uri, title in self.titles.items() if uri in urls}

    def write(self, site_dir: Path) -> None:
        """A page at each old address, then the file, if its addresses changed."""
        for old, (new, title) in self.redirects.items():
            target = site_dir / page_file(old)
            if target.exists():  # written by this build after all: it stays
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            page = self.document(redirect_page(old, new, title), old)
            target.write_text(page, encoding="utf-8")
        if self.addresses is None:
            return
        path = self.site.settings.addresses_file
        try:
            # Whole or not at all: a build reading it meanwhile never finds half of it.
            partial = path.with_name(path.name + ".part")
            partial.write_text(addresses_text(self.addresses), encoding="utf-8")
            os.replace(partial, path)
        except OSError as error:
            log.warning(
                "%s non écrit (%s) : les adresses des pages de cette construction ne seront "
                "pas retenues, et une page qui changera d’adresse ne mènera plus de l’une à "
                "l’autre",
                self.site.settings.shown(path),
                error.strerror or type(error).__name__,
            )
