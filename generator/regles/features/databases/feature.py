"""The site's databases (spells, prayers, a bestiary…), as a feature of the build: each
export read once (book.py), its pages added to the owner's and to the nav, its index's
table, its entries as link targets, and its data file (`DatabaseSettings.data_file`). A site
without databases has none of it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from regles.core.config_file import setting_line
from regles.core.report import Kind, Problem
from regles.core.site import BuildError, SiteContext
from regles.core.stages import FileChanges, GeneratedPage, HtmlJob, SiteFile, Stages
from regles.features.databases.book import Book, DatabaseSettings, read_book
from regles.features.databases.export import ends_as_export
from regles.features.links.targets import EntryTarget

__all__ = ["DatabasesFeature"]


# The files an export is written as: one of them that no database declares, lying among the
# pages, would be published as it is.
EXPORT_SUFFIXES = (".txt", ".text")


class DatabasesFeature:
    """The site's databases (`books`, in the order the site declares them; one whose export
    cannot be read has none: the report says why)."""

    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.books: list[Book] = []
        for settings in site.settings.databases:
            book, problems = read_book(settings, site.settings.cache_dir)
            site.report.extend(problems)
            if book is not None:
                self.books.append(book)
                if not book.result.groups and not book.result.rejected:
                    site.report.add(self._empty(settings))
        self.group_pages: Mapping[str, str] = {
            page: group for book in self.books for page, group in book.group_pages().items()
        }

    @property
    def index_uris(self) -> tuple[str, ...]:
        """The page of every entry of each database."""
        return tuple(book.settings.index_uri for book in self.books)

    def targets(self) -> list[EntryTarget]:
        return [target for book in self.books for target in book.targets()]

    def _empty(self, settings: DatabaseSettings) -> Problem:
        """A database whose export has no group (and so no entry): its pages would be empty,
        and its export is likely not the file the owner meant."""
        project = self.site.settings.project
        export = settings.export.resolve()
        try:
            text = (project / self.site.settings.config_name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        line = setting_line(text, "export", lambda given: (project / given).resolve() == export)
        words = settings.words
        return Problem(
            settings.config_name,
            line,
            "warning",
            Kind.EMPTY_DATABASE,
            f"la base « {settings.folder} » n’a {words.group.count(0)} ni "
            f"{words.entry.count(0)} : son export « {settings.export_name} » n’a aucun titre "
            "« ## … » ; ses pages seraient vides (est-ce le bon fichier ?)",
            settings.folder,
        )

    def register(self, stages: Stages) -> None:
        # Even without a database: an export that none declares is a mistake to name.
        stages.files.register(self.leave_out_exports, "database_exports", 90)
        if not self.site.settings.databases:
            return
        stages.nav.append(self.extend_nav)
        stages.indexed.append(partial(self.name_list_pages, stages.template_globals))
        stages.pages.append(self.pages)
        # First: its table is HTML already, and what follows reads it as the page's.
        stages.html.register(self.index_table, "entry_index_table", 90)
        stages.emitters.register(self.write_data, "database_data", 90)

    def extend_nav(self, nav: list[Any]) -> None:
        for book in self.books:
            book.extend_nav(nav)

    def name_list_pages(self, template_globals: dict[str, object]) -> list[Problem]:
        """Each database's readers' lists page, by its folder and its address in the site,
        for every page's scripts (main.html's `regles-listes`): known once every page has
        its address."""
        template_globals["regles_list_pages"] = [
            (book.settings.folder, self.site.page_urls.get(book.settings.lists_uri))
            for book in self.books
        ]
        return []

    def leave_out_exports(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """The exports, when they lie among the pages: read by the build, never published.
        A file among them that ends as an export does and that no database declares (one
        dropped from mkdocs.yml) is an error: it would be published as it is."""
        exports = {settings.export.resolve() for settings in self.site.settings.databases}
        # A file is an export if it has an export's name, or links to one: `resolve`, which
        # asks the system about each folder of a path, only for those.
        names = {export.name for export in exports}
        removed = set()
        for path, file in files.items():
            if file.source is None:
                continue
            named = file.source.name in names or file.source.is_symlink()
            if named and file.source.resolve() in exports:
                removed.add(path)
            elif path.lower().endswith(EXPORT_SUFFIXES) and ends_as_export(file_end(file.source)):
                self.site.report.add(
                    Problem(
                        path,
                        None,
                        "error",
                        Kind.RAW_EXPORT,
                        "ce fichier finit comme l’export d’une base (« --- Fin du fichier ») "
                        "mais aucune base ne le déclare : il serait publié tel quel dans le "
                        "site. Déclarez sa base sous « databases » du greffon regles dans "
                        f"{self.site.settings.config_name}, ou sortez-le du dossier des pages",
                        path,
                    )
                )
        return FileChanges(removed=removed)

    def pages(self, owner: frozenset[str]) -> list[GeneratedPage]:
        pages = []
        for book in self.books:
            keys, written = book.page_keys(), book.pages()
            sources = book.line_sources(written)
            pages += [
                GeneratedPage(uri, text, key=keys.get(uri), sources=sources.get(uri, ()))
                for uri, text in written
            ]
        return pages

    def default_uris(self) -> dict[str, str]:
        """Where each database's index, fields and lists pages would be with the default
        words and titles, by their keys (`GeneratedPage.key`)."""
        return {key: uri for book in self.books for key, uri in book.default_uris().items()}

    def index_table(self, html: str, job: HtmlJob) -> str:
        """A database's index, converted, with its table (book.with_table)."""
        for book in self.books:
            if job.uri == book.settings.index_uri:
                try:
                    return book.with_table(html)
                except ValueError as error:
                    raise BuildError(str(error)) from error
        return html

    def write_data(self, site_dir: Path) -> None:
        """Each database's data file: every entry, for its index's descriptions, the
        previews and the readers' lists."""
        for book in self.books:
            data = site_dir / book.settings.data_file
            data.parent.mkdir(parents=True, exist_ok=True)
            data.write_text(book.data, encoding="utf-8")


def file_end(path: Path, size: int = 256) -> str:
    """The last characters of a file (about `size` bytes), as text; "" when it cannot be
    read."""
    try:
        with path.open("rb") as stream:
            length = stream.seek(0, 2)
            stream.seek(max(0, length - size))
            return stream.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
