"""One build of the site, stage by stage, in terms of text and paths (no MkDocs import).

`SiteBuild` makes the features (features/<name>/feature.py), each from what the site is
(`SiteContext`), lets each register what it does at each stage (core/stages.py), and runs
the stages. It knows what a site is made of (its pages, their reading, the report), and
nothing of what a feature does. The MkDocs plugin (`plugin.py`) calls one method per event;
another engine would need only another such adapter:

1. `SiteBuild(settings)`: the features made (the entry export read, the rules imported);
   `extend_nav`: the nav as written, which features extend;
2. `start`; `change_files`: the site's files, which features replace (bundles);
3. `generated_pages`, `index_pages`: the pages the features add, then every page read once,
   the nav and the folders checked;
4. `read_nav`: the nav as MkDocs made it, and the pages in its reading order;
5. `render_markdown`, `page_html`: each page's Markdown, then its HTML;
6. `pages_converted`: every page converted; the report written, the build stopped if it
   has errors;
7. `page_document`, `template_document`: each page's whole document;
8. `emit`: the files made from all the pages, the offline copy last.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from regles.core import checks, link_checks
from regles.core.cache import KeptResults
from regles.core.config_file import duplicate_keys, inherited_files
from regles.core.directives import Directive, DirectiveError, expand_directives
from regles.core.incremental import Change, face_change, page_face
from regles.core.markdown_text import PageText, segment
from regles.core.report import Kind, Problem
from regles.core.site import BuildError, Settings, SiteContext, as_written
from regles.core.stages import (
    DocumentJob,
    Feature,
    FileChanges,
    HtmlJob,
    LineSource,
    PageJob,
    SiteFile,
    Stages,
    at_source,
)
from regles.core.typography import Edit, apply_edits, spacing_edits
from regles.features.assets.feature import AssetsFeature
from regles.features.backup.feature import BackupFeature
from regles.features.calculators.feature import CalculatorsFeature
from regles.features.calculators.package import LoadedRules
from regles.features.databases.feature import DatabasesFeature
from regles.features.glossary.feature import GlossaryFeature
from regles.features.links.feature import LinksFeature
from regles.features.offline.feature import OfflineFeature
from regles.features.printing.feature import PrintingFeature
from regles.features.redirects.feature import RedirectsFeature
from regles.features.search.feature import SearchFeature

__all__ = ["BuildError", "Settings", "SiteBuild", "as_written", "spaced_around"]

log = logging.getLogger("mkdocs.plugins.regles")

SPACING_CACHE = "espacements.pickle"  # in the build cache: what French spacing changed


class SiteBuild:
    """The state of one build, from the settings read to the last file written: the site
    (`site`, which the features read), the features, and what they registered."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.site = SiteContext(settings, settings.system_folders)
        self.report = self.site.report
        # Made in an order where each one's inputs are made before it; they register in the
        # order their pages should be added (the databases', the offline page, the print pages).
        self.databases = DatabasesFeature(self.site)
        groups = self.databases.group_pages
        indexes = self.databases.index_uris
        sections = {b.settings.section: b.settings.index_uri for b in self.databases.books}
        self.links = LinksFeature(self.site, self.databases.targets, groups, indexes, sections)
        self.calculators = CalculatorsFeature(self.site, groups)
        books = self.databases.books
        offline_links = [(b.settings.index_title, b.settings.index_uri) for b in books]
        # Those whose files a page's rebuild alone updates (regles/serve.py), by name.
        self.glossary = GlossaryFeature(self.site)
        self.offline = OfflineFeature(self.site, offline_links)
        self.printing = PrintingFeature(self.site, self.links, self.databases.targets)
        self.search = SearchFeature(self.site)
        self.features: list[Feature] = [
            self.links,
            self.calculators,
            self.databases,
            self.glossary,
            self.offline,
            BackupFeature(self.site),
            self.printing,
            self.search,
            RedirectsFeature(self.site, self.databases.default_uris, self.template_document),
            AssetsFeature(self.site),
        ]
        # The problems each page's own checks ("source") and passes ("passes") added to the
        # report, and under `mkdocs serve` the Markdown its passes gave: for a rebuild of
        # some pages alone to replace them (regles/serve.py).
        self.page_problems: dict[tuple[str, str], list[Problem]] = {}
        # Where the lines of the pages written from the owner's files come from, by page.
        self.line_sources: dict[str, tuple[LineSource, ...]] = {}
        self.rendered: dict[str, str] = {}
        # French spacing is a function of the text alone: what the last build gave, kept.
        self.spacing: KeptResults[tuple[Edit, ...]] = self.site.kept(SPACING_CACHE)
        self.stages = Stages()
        self._register_core(self.stages)
        for feature in self.features:
            feature.register(self.stages)

    @property
    def rules(self) -> LoadedRules:
        """The site's rules, as the browser gets them too."""
        return self.calculators.rules

    def _register_core(self, stages: Stages) -> None:
        """What the build does itself: the owner's sources checked, the directive blocks
        expanded, French spacing."""
        # After the link syntax (60): what the owner wrote, before anything is linked.
        stages.markdown.register(self._source_checks, "source_checks", 50)
        # Last: what directives render is no owner's text for another pass to read.
        stages.markdown.register(self._directives, "directives", 10)
        # Before the search index and the glossary read the text, so that all agree.
        stages.html.register(self._spacing, "french_spacing", 60)
        stages.documents.register(self._spaced_document, "french_spacing", 90)

    # Settings, nav, files ---------------------------------------------------------------

    def extend_nav(self, nav: list[Any] | None) -> None:
        """The nav as mkdocs.yml writes it, before MkDocs reads it."""
        if nav is not None:
            for extend in self.stages.nav:
                extend(nav)

    def start(self) -> None:
        for start in self.stages.start:
            start()

    def abandon(self) -> None:
        """The build failed: what runs beside it stops."""
        for abandon in self.stages.abandon:
            abandon()

    def change_files(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """Every change the features make to the site's files, in one, each pass seeing the
        files as the previous ones left them."""
        current = dict(files)
        total = FileChanges()
        for files_pass in self.stages.files:
            changes = files_pass(current)
            for path in changes.removed:
                current.pop(path, None)
                total.added.pop(path, None)
                if path in files:
                    total.removed.add(path)
            for path, text in changes.added.items():
                current[path] = SiteFile.made(path, text)
                total.added[path] = text
            total.stylesheets = changes.stylesheets or total.stylesheets
            total.scripts = changes.scripts or total.scripts
        return total

    def check_source_file(self, uri: str, data: bytes) -> str | None:
        """Encoding, emptiness and front matter of one of the owner's pages; the text to build
        the page from instead of MkDocs' own reading when that would fail (not UTF-8: read
        with « � »), else None."""
        text, problems = checks.decode_source(data, uri)
        found = problems + checks.check_empty(text, uri) + checks.check_front_matter(text, uri)
        self._page_report(uri, "source", found)
        return text if problems else None

    def _page_report(self, uri: str, stage: str, problems: list[Problem]) -> None:
        sources = self.line_sources.get(uri)
        if sources:
            problems = [at_source(p, sources) for p in problems]
        before = len(self.report.problems)
        self.report.extend(problems)
        self.page_problems.setdefault((uri, stage), []).extend(self.report.problems[before:])

    def reports_broken_link(self, uri: str, link: str) -> bool:
        """Whether the checks of page `uri` report its link `link` (as written, or decoded)
        as an error for a target that does not exist, with its line: MkDocs' own line about
        that link then says it a second time (plugin.py drops it)."""
        written = {link, unquote(link)}
        return any(
            p.kind is Kind.MISSING_LINK_TARGET and p.severity == "error" and p.subject in written
            for p in self.page_problems.get((uri, "passes"), ())
        )

    def forget_pages(
        self, uris: Iterable[str], stages: Iterable[str] = ("source", "passes")
    ) -> None:
        """The report without what those pages' own checks and passes found: they are run
        again (`reread_page`, `render_markdown`). The report is made again once, whatever
        the number of pages."""
        stages = tuple(stages)
        old = {
            p for uri in uris for stage in stages for p in self.page_problems.pop((uri, stage), ())
        }
        if old:
            kept = [p for p in self.report.problems if p not in old]
            self.report.clear()
            self.report.extend(kept)

    def report_unreadable(self, uri: str, error: OSError) -> None:
        reason = error.strerror or type(error).__name__
        self.report.add(Problem(uri, None, "error", Kind.ENCODING, f"fichier illisible : {reason}"))

    # Pages ---------------------------------------------------------------------------------

    def generated_pages(self, owner_pages: Iterable[str]) -> list[tuple[str, str, bool]]:
        """(path, Markdown, in the nav) of the pages the features add to the owner's."""
        owner = frozenset(owner_pages)
        pages = [page for add in self.stages.pages for page in add(owner)]
        self.site.owner_pages = owner
        self.site.generated = frozenset(page.uri for page in pages)
        self.site.page_keys = {page.uri: page.key for page in pages if page.key is not None}
        self.line_sources = {page.uri: page.sources for page in pages if page.sources}
        return [(page.uri, page.markdown, page.in_nav) for page in pages]

    def set_page_urls(self, urls: Mapping[str, str]) -> None:
        """Each page's site path (MkDocs' `File.url`: "jeu/combat/"), by its source path."""
        self.site.page_urls = dict(urls)

    def index_pages(
        self,
        pages: Sequence[tuple[str, str]],
        files: Iterable[str],
        nav: object | None,
        config_text: str,
    ) -> None:
        """Every page read once (the owner's and the generated ones), what the features make
        of them all, then the nav and the system folders checked."""
        site = self.site
        # Each page read once, front matter blanked: lines keep the file's numbers.
        site.pages = [(uri, segment(text, front_matter=True)) for uri, text in pages]
        site.files = list(files)
        site.site_map = link_checks.SiteMap.build(site.pages, site.files)
        site.page_titles = {
            uri: heading.text
            for uri, page in site.pages
            for heading in page.headings[:1]
            if heading.level == 1
        }
        for indexed in self.stages.indexed:
            self.report.extend(indexed())
        uris = [uri for uri, _ in pages]
        config_name = self.settings.config_name
        if nav is not None:
            self.report.extend(checks.check_nav(nav, uris, config_text, config_name))
        self.report.extend(site.systems.check(uris))
        self.report.extend(duplicate_keys(config_text, config_name))
        for parent, text in inherited_files(config_text, self.settings.project):
            self.report.extend(duplicate_keys(text, self.settings.shown(parent)))

    def reread_page(self, uri: str, text: str) -> Change:
        """One of the owner's pages read anew (its whole file), for a rebuild of some pages
        alone: how what the other pages read of it (its face, core/incremental.py) changed.
        Unless the page itself changed ("page": its title, its calculators, its scripts;
        nothing is changed then), the site's reading of it is updated; after "sections",
        `reindex` makes what every page reads of all of them again."""
        site = self.site
        at = next((i for i, (known, _) in enumerate(site.pages) if known == uri), None)
        if at is None or uri in site.generated:
            return "page"
        page = segment(text, front_matter=True)
        scripts = uri in self.settings.pages_with_scripts
        # Another page's link to one of its twin headings names their lines.
        lines = any(p.kind is Kind.AMBIGUOUS_LINK and p.file != uri for p in self.report.problems)
        change = face_change(
            page_face(site.pages[at][1], scripts, lines), page_face(page, scripts, lines)
        )
        if change != "page":
            site.pages[at] = (uri, page)
            site.site_map.headings[uri] = page.headings  # their lines, at least, moved
            site.site_map.anchors[uri] = {anchor for anchor, _ in link_checks.page_ids(page)}
        return change

    def reindex(self) -> None:
        """What is made of every page read once (the `indexed` stage) made again, after
        `reread_page` found a page's sections changed."""
        for indexed in self.stages.indexed:
            self.report.extend(indexed())

    def read_nav(self, nav: Sequence[object], order: Sequence[str]) -> None:
        """The site's nav as MkDocs made it, written as `nav:` is (`{title: page}`,
        `{section: [...]}`, a bare page for one without a title), and every page in reading
        order (the nav's, then the others)."""
        self.site.nav = list(nav)
        self.site.reading_order = list(order)

    def render_markdown(self, uri: str, markdown: str, source: str) -> str:
        """The Markdown MkDocs converts for a page; `source` is the page's whole file, front
        matter included, so that problems carry the file's own line numbers."""
        generated = uri in self.site.generated  # not the owner's text: no source checks
        page = segment(markdown)
        job = PageJob(uri, None if generated else self.site.site_map)
        problems: list[Problem] = []
        for markdown_pass in self.stages.markdown:
            page, found = markdown_pass(page, job)
            problems += found
        cut = source[: len(source) - len(markdown)] if source.endswith(markdown) else ""
        self._page_report(uri, "passes", checks.shift_lines(problems, cut.count("\n")))
        if self.settings.serving:
            self.rendered[uri] = page.text
        return page.text

    def _source_checks(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        if job.site is None:
            return page, []
        problems = checks.check_source(page, job.file, job.site)
        if job.file not in self.settings.pages_with_scripts:
            problems += checks.check_scripts(page, job.file)
        return page, problems

    def _directives(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        """Each directive block replaced by what the feature of its kind renders."""

        def render(directive: Directive) -> str:
            renderer = self.stages.directives.get(directive.kind)
            if renderer is None:
                message = f"bloc « ```{directive.kind} » : aucune fonctionnalité ne le rend"
                raise DirectiveError(Kind.MALFORMED_DIRECTIVE, message)
            return renderer(directive, page)

        return expand_directives(page, job.file, render)

    def page_html(
        self, uri: str, destination: str, html: str, title: str, *, searched: bool = True
    ) -> str:
        """A page's converted HTML, as the site writes it; `searched` is False when its front
        matter says `search: exclude: true` (as Material reads it)."""
        job = HtmlJob(uri, destination, title, searched)
        for html_pass in self.stages.html:
            html = html_pass(html, job)
        return html

    def _spacing(self, html: str, job: HtmlJob) -> str:
        return self.spaced(html)

    def spaced(self, html: str) -> str:
        """`html` with French spacing (core/typography.py), the same text spaced once for
        this build and the next."""
        return apply_edits(html, self.spacing.get(html, spacing_edits))

    # Every page converted ------------------------------------------------------------------

    def pages_converted(self, site_dir: Path) -> None:
        """What the features do once every page is converted (the search index asked for,
        written while the templates render), then the report."""
        for converted in self.stages.converted:
            converted(site_dir)
        self.write_report()

    def write_report(self) -> None:
        """Write the report and log it: the faults in full first (errors, warnings), then
        the rest of the information, then the notes for the owner in a few lines (every
        line in the JSON report, and at the debug level: `mkdocs build -v`); stop the build
        if it lists errors."""
        path = self.settings.report_file
        shown = self.settings.shown(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Whole or not at all: the report of the last build stays readable while one runs.
        partial = path.with_name(path.name + ".part")
        partial.write_text(self.report.to_json(), encoding="utf-8")
        partial.replace(path)
        errors = self.report.of("error")
        if errors:
            listing = "\n".join(f"  {p}" for p in errors)
            log.error(
                "%d erreur(s) dans les sources ; rapport complet : %s\n%s",
                len(errors),
                shown,
                listing,
            )
        warnings = self.report.format("warning")
        if warnings:
            log.warning("Rapport de construction, avertissements :\n%s", warnings)
        info = self.report.format("info")
        if info:
            log.info("Rapport de construction :\n%s", info)
        summary = self.report.summary()
        if summary:
            log.info(
                "Rapport de construction, notes (ni erreurs ni avertissements ; chaque "
                "ligne dans %s, ou avec mkdocs build -v) :\n%s",
                shown,
                summary,
            )
            log.debug("Rapport de construction, notes :\n%s", self.report.format_notes())
        if errors:
            raise BuildError(
                f"construction arrêtée : {len(errors)} erreur(s) dans les sources, "
                f"listées plus haut ; rapport complet : {shown}"
            )

    # Whole documents ---------------------------------------------------------------------

    def page_document(self, document: str, content: str | None, uri: str) -> str:
        """A page's whole HTML document, as the site writes it."""
        job = DocumentJob(uri, content)
        for document_pass in self.stages.documents:
            document = document_pass(document, job)
        return document

    def _spaced_document(self, document: str, job: DocumentJob) -> str:
        return spaced_around(document, job.content, self.spaced)

    def template_document(self, document: str, name: str) -> str:
        """A page the theme makes without content (the error page, `name` its template):
        the same passes as a page's document, French spacing and the security policy."""
        return self.page_document(document, None, name)

    # After every page is written -----------------------------------------------------------

    def emit(self, site_dir: Path) -> None:
        for emitter in self.stages.emitters:
            emitter(site_dir)
        for kept in self.site.kept_results.values():
            kept.keep()


def spaced_around(document: str, content: str | None, spaced: Callable[[str], str]) -> str:
    """A page's document with French spacing (`spaced`) outside its converted content,
    which `page_html` spaced already (the pass is idempotent; the content is most of the
    page)."""
    start = document.find(content) if content else -1
    if content is None or start == -1:
        return spaced(document)
    end = start + len(content)
    return spaced(document[:start]) + content + spaced(document[end:])
