"""The site's databases (spells, prayers, a bestiary…), as a feature of the build: each
export read once (book.py), its pages added to the owner's and to the nav, its index's
table, its entries as link targets, and its data file (`SpellSettings.data_file`). A site
without databases has none of it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from regles.core.report import Problem
from regles.core.site import BuildError, SiteContext
from regles.core.stages import FileChanges, GeneratedPage, HtmlJob, SiteFile, Stages
from regles.features.links.references import SpellTarget
from regles.features.spells.book import SpellBook, read_spell_book

__all__ = ["SpellsFeature"]


class SpellsFeature:
    """The site's databases (`books`, in the order the site declares them; one whose export
    cannot be read has none: the report says why)."""

    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.books: list[SpellBook] = []
        for settings in site.settings.databases:
            book, problems = read_spell_book(settings, site.settings.cache_dir)
            site.report.extend(problems)
            if book is not None:
                self.books.append(book)
        self.college_pages: Mapping[str, str] = {
            page: group for book in self.books for page, group in book.college_pages().items()
        }

    @property
    def index_uris(self) -> tuple[str, ...]:
        """The page of every entry of each database."""
        return tuple(book.settings.index_uri for book in self.books)

    def targets(self) -> list[SpellTarget]:
        return [target for book in self.books for target in book.targets()]

    def register(self, stages: Stages) -> None:
        if not self.site.settings.databases:
            return
        stages.nav.append(self.extend_nav)
        stages.indexed.append(partial(self.name_list_pages, stages.template_globals))
        stages.files.register(self.leave_out_exports, "spell_export", 90)
        stages.pages.append(self.pages)
        # First: its table is HTML already, and what follows reads it as the page's.
        stages.html.register(self.index_table, "spell_index_table", 90)
        stages.emitters.register(self.write_data, "spell_data", 90)

    def extend_nav(self, nav: list[Any]) -> None:
        for book in self.books:
            book.extend_nav(nav)

    def name_list_pages(self, template_globals: dict[str, object]) -> list[Problem]:
        """Each database's readers' lists page, by its folder and its address in the site,
        for every page's scripts (main.html's `regles-listes`): known once every page has
        its address."""
        template_globals["regles_list_pages"] = [
            (book.settings.folder, self.site.page_urls.get(book.settings.grimoire_uri))
            for book in self.books
        ]
        return []

    def leave_out_exports(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """The exports, when they lie among the pages: read by the build, never published."""
        exports = {settings.export.resolve() for settings in self.site.settings.databases}
        return FileChanges(
            removed={
                path
                for path, file in files.items()
                if file.source is not None and file.source.resolve() in exports
            }
        )

    def pages(self, owner: frozenset[str]) -> list[GeneratedPage]:
        return [GeneratedPage(uri, text) for book in self.books for uri, text in book.pages()]

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
            records = json.dumps(book.records(), ensure_ascii=False)
            data.write_text(records, encoding="utf-8")
