"""The search index, as a feature of the build: each page cut into records and given to
Pagefind as soon as it is converted, in a process of its own (worker.py), while MkDocs
converts the next ones; the index asked for once every page is converted, written while the
templates are rendered, and taken into the site after every page is written (index.py)."""

from __future__ import annotations

import html
import json
import threading
from pathlib import Path

from markupsafe import Markup

from regles.core.site import BuildError, SiteContext
from regles.core.stages import HtmlJob, Stages
from regles.features.databases.phrases import search_badges, site_phrases
from regles.features.search import index as search_index
from regles.features.search import kept as search_kept
from regles.features.search import records as search
from regles.features.search.update import IndexChanges, IndexUpdate, RecordCache
from regles.features.search.worker import IndexWorker

__all__ = ["SearchFeature"]


class SearchFeature:
    """The index being made (`indexer`), from the build's start to its end."""

    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.indexer: IndexWorker | None = None
        # Under `mkdocs serve`: each page as the index got it (path in the site → article,
        # area), and the index written, for a page rebuilt alone to update it (update.py).
        self.pages: dict[str, tuple[str, search.Area | None]] = {}
        self.update: IndexUpdate | None = None

    def register(self, stages: Stages) -> None:
        stages.start.append(self.start)
        stages.abandon.append(self.abandon)
        # Last: the page as the site writes it, French spacing and all (core/build.py).
        stages.html.register(self.add_page, "search_index", 30)
        stages.converted.append(self.ask_for_index)
        stages.emitters.register(self.finish, "search_index", 50)
        # partials/search.html: the game's words for the search box, in the page itself (no
        # request of their own, offline as the page is), escaped for an attribute.
        words = json.dumps(self.site.settings.synonyms, ensure_ascii=False, sort_keys=True)
        stages.template_globals["regles_search_words"] = Markup(html.escape(words, quote=True))
        # Its labels, filters and badges, in the database's words (features/databases/phrases.py).
        databases = self.site.settings.databases
        stages.template_globals["regles_phrases"] = site_phrases(databases)
        badges = json.dumps(search_badges(databases), ensure_ascii=False, sort_keys=True)
        stages.template_globals["regles_search_badges"] = Markup(html.escape(badges, quote=True))

    def start(self) -> None:
        self.abandon()
        try:
            self.indexer = IndexWorker(cache=self.site.settings.cache_dir)
        except OSError as error:
            raise BuildError(f"recherche : {error}") from error

    def abandon(self) -> None:
        if self.indexer is not None:
            self.indexer.abandon()
            self.indexer = None

    def add_page(self, html: str, job: HtmlJob) -> str:
        """The page's article to the index, unless its front matter says `search: exclude:
        true` or it is searched otherwise (a print page: its pages each on their own)."""
        if job.searched and job.uri not in self.site.not_searched:
            area = search.area_of(self.site.systems, job.uri)
            text = search.article(html, job.title)
            if self.site.settings.serving:
                self.pages[job.destination] = (text, area)
            if self.indexer is not None:
                self.indexer.add_page(job.destination, text, area)
        return html

    def ask_for_index(self, site_dir: Path) -> None:
        """Every page is converted: Pagefind writes the index while the templates render."""
        if self.indexer is None:
            return
        try:
            self.indexer.start_writing(site_dir / search.INDEX_FOLDER)
        except search.SearchIndexError as error:
            self.indexer = None
            raise BuildError(f"recherche : {error}") from error

    def finish(self, site_dir: Path) -> None:
        """The index asked for, written into `pagefind/`; the files of Material's own search,
        unused, removed."""
        indexer, self.indexer = self.indexer, None
        if indexer is None:
            return
        try:
            entries = [d.words.entry for d in self.site.settings.databases]
            search_index.log_summary(indexer.finish(), entries)
        except search.SearchIndexError as error:
            raise BuildError(f"recherche : {error}") from error
        search_index.remove_material_search(site_dir)
        if self.site.settings.serving:
            digests = tuple(
                search_kept.page_digest(path, text, area)
                for path, (text, area) in self.pages.items()
                if search.is_indexed(path)
            )
            self.update = IndexUpdate(site_dir, self.site.settings.cache_dir, digests)

    def update_index(self, records: RecordCache, cancel: threading.Event) -> IndexChanges:
        """The index made again of the pages as they are now (a page was rebuilt alone),
        written into the site where it changed; Cancelled once `cancel` is set (and
        `self.update.stop()` called)."""
        if self.update is None:
            raise BuildError("recherche : index jamais écrit, rien à mettre à jour")
        pages = [(path, text, area) for path, (text, area) in self.pages.items()]
        try:
            return self.update.run(pages, records, cancel)
        except search.SearchIndexError as error:
            raise BuildError(f"recherche : {error}") from error
