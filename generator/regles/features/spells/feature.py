"""A spell database, as a feature of the build: its export read once (book.py), its pages
added to the owner's and to the nav, its index's table, its entries as link targets, and
`data/spells.json`. A site without a `spells:` block has none of it."""

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
from regles.features.spells.book import DATA_FILE, SpellBook, read_spell_book

__all__ = ["SpellsFeature"]


class SpellsFeature:
    """The site's spell database (`book`, None without one, or when its export cannot be read:
    the report says why)."""

    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.book: SpellBook | None = None
        if site.settings.spells is not None:
            self.book, problems = read_spell_book(site.settings.spells, site.settings.cache_dir)
            site.report.extend(problems)
        self.college_pages: Mapping[str, str] = self.book.college_pages() if self.book else {}

    @property
    def index_uri(self) -> str | None:
        """The page of every spell, if the site has spells."""
        return self.book.settings.index_uri if self.book is not None else None

    def targets(self) -> list[SpellTarget]:
        return self.book.targets() if self.book is not None else []

    def register(self, stages: Stages) -> None:
        if self.site.settings.spells is None:
            return
        stages.nav.append(self.extend_nav)
        stages.indexed.append(partial(self.name_list_page, stages.template_globals))
        stages.files.register(self.leave_out_export, "spell_export", 90)
        stages.pages.append(self.pages)
        # First: its table is HTML already, and what follows reads it as the page's.
        stages.html.register(self.index_table, "spell_index_table", 90)
        stages.emitters.register(self.write_data, "spell_data", 90)

    def extend_nav(self, nav: list[Any]) -> None:
        if self.book is not None:
            self.book.extend_nav(nav)

    def name_list_page(self, template_globals: dict[str, object]) -> list[Problem]:
        """The readers' lists page, by its address in the site, for every page's scripts
        (main.html's `regles-listes`): known once every page has its address."""
        if self.book is not None:
            url = self.site.page_urls.get(self.book.settings.grimoire_uri)
            template_globals["regles_list_page"] = url
        return []

    def leave_out_export(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """The export, when it lies among the pages: read by the build, never published."""
        spells = self.site.settings.spells
        export = spells.export.resolve() if spells is not None else None
        return FileChanges(
            removed={
                path
                for path, file in files.items()
                if file.source is not None and file.source.resolve() == export
            }
        )

    def pages(self, owner: frozenset[str]) -> list[GeneratedPage]:
        return [GeneratedPage(uri, text) for uri, text in self.book.pages()] if self.book else []

    def index_table(self, html: str, job: HtmlJob) -> str:
        """The spell index's converted page with its table (book.with_table)."""
        if self.book is None or job.uri != self.book.settings.index_uri:
            return html
        try:
            return self.book.with_table(html)
        except ValueError as error:
            raise BuildError(str(error)) from error

    def write_data(self, site_dir: Path) -> None:
        """`data/spells.json`: every spell, for the spell index's descriptions and previews."""
        if self.book is None:
            return
        data = site_dir / DATA_FILE
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text(json.dumps(self.book.records(), ensure_ascii=False), encoding="utf-8")
