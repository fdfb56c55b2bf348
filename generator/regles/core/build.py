"""One build of the site, step by step, in terms of text and paths (no MkDocs import).

The MkDocs plugin (`plugin.py`) calls these steps from its events and turns MkDocs'
objects into what they take; another engine would need only another such adapter:

1. `SiteBuild(settings)`: the spell export read (`spell_pages`), problems collected;
2. `generated_pages`, `index_pages`: the pages the generator adds, and every page's titles,
   anchors and link targets, once all the owner's pages are read;
3. `read_nav`, `order_pages`: the nav (the home page's quick links), and the pages in its
   reading order (calculators' home pages);
4. `render_markdown`, `page_html`: each page's Markdown, then its HTML (French spacing,
   `typography`; search index fed);
5. `write_report`: the report written, the build stopped if it has errors;
6. `page_document`: each page's whole document, as the theme's templates made it;
7. `post_build`: the steps of `POST_BUILD`, in that order, over the written site.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from regles.core import checks
from regles.core.directives import directive_arguments
from regles.core.markdown_text import segment
from regles.core.passes import ContentRenderer, calculator_homes
from regles.core.report import BuildReport, Kind, Problem
from regles.core.systems import Systems
from regles.core.typography import french_spacing
from regles.features.assets.csp import add_policy
from regles.features.assets.wrapped_tables import wrap_tables
from regles.features.calculators.links import with_skip_link
from regles.features.calculators.package import LoadedRules, RulesPackageError, load_rules
from regles.features.calculators.pyodide import write_runtime
from regles.features.glossary.glossary import DATA_FILE as GLOSSARY_DATA
from regles.features.glossary.glossary import glossary_records
from regles.features.links.directions import annotate_directions
from regles.features.links.home import quick_links
from regles.features.links.references import TargetIndex
from regles.features.offline import offline
from regles.features.offline.app import App
from regles.features.printing.printing import (
    PrintSource,
    annotate_targets,
    fill_print_page,
    print_link,
    print_page_markdown,
    print_page_uri,
    relative_url,
)
from regles.features.search import index as search
from regles.features.search.worker import IndexWorker
from regles.features.spells.book import DATA_FILE, SpellBook, SpellSettings, read_spell_book

__all__ = ["POST_BUILD", "BuildError", "Settings", "SiteBuild", "as_written"]

log = logging.getLogger("mkdocs.plugins.regles")

def as_written(path: Path, project: Path) -> str:
    """A path as the owner would write it in mkdocs.yml: from its folder."""
    return Path(os.path.relpath(path, project)).as_posix()


class BuildError(Exception):
    """A step of the build that cannot be done; the message says which and why, in French."""


@dataclass(frozen=True)
class Settings:
    """What one site declares (mkdocs.yml). A relative path is taken from `project`, as
    MkDocs takes the plugin's paths from the folder of mkdocs.yml."""

    project: Path  # the folder of mkdocs.yml
    config_name: str  # mkdocs.yml's file name, for the report
    app: App  # the installed app's names and colours; its name is the site's
    systems: Mapping[str, str] = field(default_factory=dict)
    site_folders: Sequence[str] = ()  # folders of pages of the site, in no system
    spells: SpellSettings | None = None
    glossaries: Mapping[str, str] = field(default_factory=dict)  # system folder → its page
    old_paths: Mapping[str, str] = field(default_factory=dict)  # /old/site/path/ → a page
    calculators: Path = Path("calculators")  # the rules package's folder (may not exist)
    node_modules: Path = Path("build/npm/node_modules")  # the generator's npm packages
    pyodide_dir: Path | None = None  # default: node_modules' pyodide
    snapshot: bool = True
    cache_dir: Path = Path("build/cache")
    report_file: Path = Path("build/rapport-construction.json")
    theme_dirs: Sequence[Path] = ()  # where templates are looked for, the site's own first
    serving: bool = False  # `mkdocs serve`: its live-reload script is inline

    def __post_init__(self) -> None:
        for name in ("calculators", "node_modules", "pyodide_dir", "cache_dir", "report_file"):
            path: Path | None = getattr(self, name)
            if path is not None and not path.is_absolute():
                object.__setattr__(self, name, self.project / path)  # frozen: set once here

    @property
    def pyodide(self) -> Path:
        """Pyodide's npm package: the option's folder, else the generator's."""
        return self.pyodide_dir or self.node_modules / "pyodide"

    @property
    def system_folders(self) -> Systems:
        spells = self.spells
        return Systems(
            self.systems,
            spells.folder if spells else None,
            self.config_name,
            spells.section if spells else None,
            tuple(self.site_folders),
            spells.system_name if spells else None,
            (spells.fields_uri,) if spells else (),
        )

    def theme_file(self, name: str) -> Path:
        """A file of the theme overrides, as the templates are looked for."""
        for folder in self.theme_dirs:
            if (folder / name).is_file():
                return folder / name
        folders = ", ".join(map(str, self.theme_dirs))
        raise BuildError(f"« {name} » introuvable dans les dossiers du thème ({folders})")


@dataclass
class SiteBuild:
    """The state of one build, from the settings read to the last file written."""

    settings: Settings
    report: BuildReport = field(default_factory=BuildReport)
    spells: SpellBook | None = None
    rules: LoadedRules = field(init=False)
    renderer: ContentRenderer = field(init=False)
    index: TargetIndex = field(default_factory=TargetIndex)
    site: checks.SiteMap = field(default_factory=checks.SiteMap)
    college_of_page: dict[str, str] = field(default_factory=dict)
    generated: set[str] = field(default_factory=set)  # the pages the generator wrote
    systems: Systems = field(init=False)
    placements: list[tuple[str, str]] = field(default_factory=list)  # (page, calculator)
    page_titles: dict[str, str] = field(default_factory=dict)  # page → its `#` title
    glossary_entries: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    indexer: IndexWorker | None = None
    # Paper (features/printing/printing.py): each page's site path, the reading order, each system's
    # print page (its path → the system's folder) and the contents it is made of.
    page_urls: dict[str, str] = field(default_factory=dict)
    reading_order: list[str] = field(default_factory=list)
    print_pages: dict[str, str] = field(default_factory=dict)
    contents: dict[str, str] = field(default_factory=dict)
    _link_targets: tuple[dict[str, str], dict[tuple[str, str], str]] | None = None

    def __post_init__(self) -> None:
        self.systems = self.settings.system_folders
        try:
            self.rules = load_rules(self.settings.calculators)
        except RulesPackageError as error:
            raise BuildError(str(error)) from error
        self.renderer = ContentRenderer(self.rules.rules)
        if self.settings.spells is not None:
            self.spells, problems = read_spell_book(self.settings.spells)
            self.report.extend(problems)
        if self.spells is not None:
            self.college_of_page = self.spells.college_pages()

    # Pages ---------------------------------------------------------------------------

    def export_path(self) -> Path | None:
        """The database's export file, read by the build and never published."""
        return self.settings.spells.export.resolve() if self.settings.spells else None

    def extend_nav(self, nav: list[object] | None) -> None:
        if self.spells is not None and nav is not None:
            self.spells.extend_nav(nav)

    def generated_pages(self, owner_pages: Iterable[str]) -> list[tuple[str, str, bool]]:
        """(path, Markdown, in the nav) of the pages the generator adds to the owner's: the
        spell pages, and the offline fallback page unless the owner wrote one."""
        owner = set(owner_pages)
        pages: list[tuple[str, str, bool]] = []
        if self.spells is not None:
            pages += [(uri, text, True) for uri, text in self.spells.pages()]
        if offline.FALLBACK_SOURCE not in owner:
            # MkDocs makes the home page of index.md, or else of README.md.
            home = next((p for p in ("index.md", "README.md") if p in owner), None)
            links = []
            if self.spells is not None:
                settings = self.spells.settings
                links.append((settings.index_title, settings.index_uri))
            page = offline.fallback_page(home, links)
            pages.append((offline.FALLBACK_SOURCE, page, False))
        pages += self._print_pages(owner)
        self.generated = {uri for uri, _, _ in pages}
        return pages

    def _print_pages(self, owner: set[str]) -> list[tuple[str, str, bool]]:
        """A print page for each system that has pages, out of the nav
        (features/printing/printing.py); none where the owner wrote a page of that path."""
        folders = sorted({f for uri in owner if (f := self.systems.folder_of(uri)) is not None})
        pages = []
        for folder in folders:
            uri = print_page_uri(folder)
            if uri in owner:
                self.report.add(
                    Problem(
                        uri,
                        None,
                        "warning",
                        Kind.PRINT_PAGE_TAKEN,
                        f"le système « {self.systems.names[folder]} » n’a pas de page "
                        f"d’impression : « {uri} » est l’adresse qu’elle aurait, et cette page "
                        "du contenu la prend (renommez-la pour avoir les deux)",
                        uri,
                    )
                )
                continue
            self.print_pages[uri] = folder
            pages.append((uri, print_page_markdown(self.systems.names[folder]), False))
        return pages

    def set_page_urls(self, urls: Mapping[str, str]) -> None:
        """Each page's site path (MkDocs' `File.url`: "jeu/combat/"), by its source path."""
        self.page_urls = dict(urls)

    def check_source_file(self, uri: str, data: bytes) -> str | None:
        """Encoding, emptiness and front matter of one of the owner's pages; the text to build
        the page from instead of MkDocs' own reading when that would fail (not UTF-8: read
        with « � »), else None."""
        text, problems = checks.decode_source(data, uri)
        self.report.extend(problems)
        self.report.extend(checks.check_empty(text, uri))
        self.report.extend(checks.check_front_matter(text, uri))
        return text if problems else None

    def report_unreadable(self, uri: str, error: OSError) -> None:
        reason = error.strerror or type(error).__name__
        self.report.add(Problem(uri, None, "error", Kind.ENCODING, f"fichier illisible : {reason}"))

    def index_pages(
        self,
        pages: Sequence[tuple[str, str]],
        files: Iterable[str],
        nav: object | None,
        config_text: str,
    ) -> None:
        """Every page's headings and anchors, link targets and calculator blocks, once all
        pages (the owner's and the generated ones) are known; the nav and the system
        folders checked."""
        generated = set(self.college_of_page)
        # Each page read once, front matter blanked: lines keep the file's numbers.
        read = [(uri, segment(text, front_matter=True)) for uri, text in pages]
        owner = [(uri, page) for uri, page in read if uri not in generated]
        spell_targets = self.spells.targets() if self.spells is not None else []
        self.index = TargetIndex.build(
            owner,
            spell_targets,
            glossaries=self.settings.glossaries,
            old_paths=self.settings.old_paths,
            scope_of=self.systems.scope_of,
        )
        self.site = checks.SiteMap.build(read, files)
        self.placements = [
            (uri, calculator)
            for uri, page in owner
            for calculator in directive_arguments(page, "calculateur")
        ]
        self.page_titles = {
            uri: heading.text
            for uri, page in read
            for heading in page.headings[:1]
            if heading.level == 1
        }
        uris = [uri for uri, _ in pages]
        self.report.extend(self._check_configured_pages(uris))
        if nav is not None:
            self.report.extend(checks.check_nav(nav, uris, config_text, self.settings.config_name))
        self.report.extend(self.systems.check(uris))

    def read_nav(self, nav: Sequence[object]) -> None:
        """The site's nav as MkDocs made it (its `nav:`, or the folders' pages when there is
        none), written as `nav:` is (`{title: page}`, `{section: [...]}`, a bare page for
        one without a title): the links of the ```accueil block."""
        spell_index = self.spells.settings.index_uri if self.spells is not None else None
        self.renderer.quick_links = quick_links(nav, self.page_titles, spell_index)
        self.renderer.spells = self.spells is not None

    def _check_configured_pages(self, uris: Iterable[str]) -> list[Problem]:
        """A glossary or a new home of an old address that names no page of the docs."""
        known = set(uris)
        named = [
            (f"le glossaire du système « {folder} »", page)
            for folder, page in self.settings.glossaries.items()
        ] + [
            (f"l’adresse « {old} » (old_paths)", page)
            for old, page in self.settings.old_paths.items()
        ]
        return [
            Problem(
                self.settings.config_name,
                None,
                "error",
                Kind.SETTING_PAGE_MISSING,
                f"{what} nomme la page « {page} », qui n’est pas dans le contenu",
                page,
            )
            for what, page in named
            if page not in known
        ]

    def order_pages(self, order: Sequence[str]) -> None:
        """The pages in reading order (the nav's, then the others): each calculator's home
        is the first system page that places it."""
        self.reading_order = list(order)
        rank = {uri: i for i, uri in enumerate(order)}
        placements = sorted(self.placements, key=lambda p: rank.get(p[0], len(rank)))
        self.renderer.homes = calculator_homes(
            placements, lambda uri: self.systems.folder_of(uri) is not None
        )

    def render_markdown(self, uri: str, markdown: str, source: str) -> str:
        """The Markdown MkDocs converts for a page; `source` is the page's whole file, front
        matter included, so that problems carry the file's own line numbers."""
        generated = uri in self.generated  # not the owner's text: no source checks
        text, problems = self.renderer.render(
            markdown,
            uri,
            self.index,
            college=self.college_of_page.get(uri),
            site=None if generated else self.site,
        )
        cut = source[: len(source) - len(markdown)] if source.endswith(markdown) else ""
        self.report.extend(checks.shift_lines(problems, cut.count("\n")))
        return text

    def page_html(
        self, uri: str, destination: str, html: str, title: str, *, searched: bool = True
    ) -> str:
        """A page's converted HTML, as the site writes it; the search index gets it, unless
        its front matter says `search: exclude: true` (`searched`, as Material reads it)."""
        if self.spells is not None and self._is_spell_index(uri):
            try:
                html = self.spells.with_table(html)
            except ValueError as error:
                raise BuildError(str(error)) from error
        html = wrap_tables(html)  # Material's script would move them at load
        # « Le tableau à droite » annotated, French spacing: before the search index reads
        # the text, so that both agree.
        html = french_spacing(annotate_directions(html))
        html = self._for_paper(uri, html)
        if uri in self.print_pages:
            return html  # its pages are indexed each on its own
        if uri in self.index.glossary_pages:
            records = search.page_records(destination, search.article(html, title), None)
            self.glossary_entries[uri] = glossary_records(
                (r.url, r.title, r.body) for r in records if r.level > 1
            )
        if self.indexer is not None and searched:
            area = search.area_of(self.systems, uri)
            self.indexer.add_page(destination, search.article(html, title), area)
        return html

    def _for_paper(self, uri: str, html: str) -> str:
        """The page's links annotated with their targets; the first page of a system with a
        print page gets a link to it under its title; a system's page kept for its print
        page."""
        url = self.page_urls.get(uri)
        if url is None:
            return html
        titles, sections = self._targets()
        html = annotate_targets(html, url, titles, sections)
        folder = self.systems.folder_of(uri)
        if folder is None or uri in self.print_pages:
            return html
        print_uri = print_page_uri(folder)
        print_url = self.page_urls.get(print_uri)
        if print_uri not in self.print_pages or print_url is None:
            return html
        self.contents[uri] = html
        if self._system_pages(folder)[:1] == [uri]:
            link = print_link(self.systems.names[folder], relative_url(print_url, url))
            end = html.find("</h1>")
            at = end + len("</h1>") if end != -1 else 0
            html = html[:at] + link + html[at:]
        return html

    def _system_pages(self, folder: str) -> list[str]:
        """The pages of a system in reading order, its print page left out."""
        return [
            uri
            for uri in self.reading_order
            if self.systems.folder_of(uri) == folder and uri not in self.print_pages
        ]

    def _targets(self) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
        """Page titles by site path, section titles by site path and anchor."""
        if self._link_targets is None:
            titles = {
                self.page_urls[uri]: title
                for uri, title in self.page_titles.items()
                if uri in self.page_urls
            }
            sections: dict[tuple[str, str], str] = {}
            for uri, headings in self.index.headings.items():
                url = self.page_urls.get(uri)
                for heading in headings:
                    if url is not None and heading.anchor is not None:
                        sections[(url, heading.anchor)] = heading.title
            spells = self.spells.targets() if self.spells is not None else []
            for spell in spells:
                url = self.page_urls.get(spell.page)
                if url is not None:
                    sections[(url, spell.anchor)] = spell.name
            self._link_targets = titles, sections
        return self._link_targets

    def page_document(
        self, document: str, content: str | None = None, uri: str | None = None
    ) -> str:
        """A page's whole HTML document, as the site writes it: a page that holds a
        calculator gets a skip link to it beside the theme's own; the text the templates
        added around `content` (title, nav, table of contents) gets French spacing; a
        system's print page gets the system's pages (features/printing/printing.py)."""
        document = with_skip_link(spaced_around(document, content))
        if uri is not None and uri in self.print_pages:
            sources = [
                PrintSource(page, self.page_urls[page], self.contents[page])
                for page in self._system_pages(self.print_pages[uri])
                if page in self.contents
            ]
            document = fill_print_page(document, sources, self.page_urls[uri])
        return document

    def template_document(self, document: str) -> str:
        """A page the theme makes without content (the error page): French spacing."""
        return french_spacing(document)

    def _is_spell_index(self, uri: str) -> bool:
        return self.spells is not None and uri == self.spells.settings.index_uri

    # The report, once every page is converted ------------------------------------------

    def write_report(self, site_dir: Path) -> None:
        """Write the report and log it: the faults in full first (errors, warnings), then
        the rest of the information, then the notes for the owner in a few lines (every
        line in the JSON report, and at the debug level: `mkdocs build -v`); stop the build
        if it lists errors. The search index is asked for first: Pagefind writes it while
        the templates are rendered."""
        if self.indexer is not None:
            try:
                self.indexer.start_writing(site_dir / search.INDEX_FOLDER)
            except search.SearchIndexError as error:
                self.indexer = None
                raise BuildError(f"recherche : {error}") from error
        path = self.settings.report_file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.report.to_json(), encoding="utf-8")
        errors = self.report.of("error")
        if errors:
            listing = "\n".join(f"  {p}" for p in errors)
            log.error(
                "%d erreur(s) dans les sources ; rapport complet : %s\n%s",
                len(errors),
                self._shown(path),
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
                self._shown(path),
                summary,
            )
            log.debug("Rapport de construction, notes :\n%s", self.report.format_notes())
        if errors:
            raise BuildError(
                f"construction arrêtée : {len(errors)} erreur(s) dans les sources, "
                f"listées plus haut ; rapport complet : {self._shown(path)}"
            )

    def _shown(self, path: Path) -> str:
        return as_written(path, self.settings.project)

    # Search: Pagefind indexes each page as soon as it is converted ----------------------

    def start_search(self) -> None:
        self.abandon_search()
        try:
            self.indexer = IndexWorker(cache=self.settings.cache_dir)
        except OSError as error:
            raise BuildError(f"recherche : {error}") from error

    def abandon_search(self) -> None:
        if self.indexer is not None:
            self.indexer.abandon()
            self.indexer = None

    # After every page is written ---------------------------------------------------------

    def post_build(self, site_dir: Path) -> None:
        for step in POST_BUILD:
            step(self, site_dir)

    def write_spell_data(self, site_dir: Path) -> None:
        """`data/spells.json`: every spell, for the spell index's descriptions and previews."""
        if self.spells is None:
            return
        data = site_dir / DATA_FILE
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text(json.dumps(self.spells.records(), ensure_ascii=False), encoding="utf-8")

    def write_glossary_data(self, site_dir: Path) -> None:
        """`data/glossary.json`: every glossary entry's term and definition, for the
        previews over the links to them; absent when the site has no glossary."""
        if not self.settings.glossaries:
            return
        records = [r for page in sorted(self.glossary_entries) for r in self.glossary_entries[page]]
        data = site_dir / GLOSSARY_DATA
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")

    def write_calculator_runtime(self, site_dir: Path) -> None:
        """The calculators' browser runtime: Pyodide, the packed package, the start snapshot."""
        settings = self.settings
        try:
            write_runtime(
                site_dir,
                settings.pyodide,
                self.rules,
                settings.cache_dir,
                snapshot=settings.snapshot,
            )
        except (OSError, RuntimeError) as error:
            raise BuildError(f"environnement Python du navigateur : {error}") from error

    def add_security_policy(self, site_dir: Path) -> None:
        """Every page gets the same Content-Security-Policy; not under `mkdocs serve`, whose
        injected live-reload script is inline."""
        if not self.settings.serving:
            add_policy(site_dir)

    def finish_search(self, site_dir: Path) -> None:
        """The Pagefind index asked for in `write_report`, written into `pagefind/`; the
        files of Material's own search, unused, removed."""
        indexer, self.indexer = self.indexer, None
        if indexer is None:
            return
        try:
            search.log_summary(indexer.finish())
        except search.SearchIndexError as error:
            raise BuildError(f"recherche : {error}") from error
        search.remove_material_search(site_dir)

    def build_offline(self, site_dir: Path) -> None:
        """Manifest, Workbox runtime, then sw.js listing every file of the site with its hash."""
        settings = self.settings
        try:
            offline.build_offline(
                site_dir,
                node_modules=settings.node_modules,
                service_worker=settings.theme_file(offline.SERVICE_WORKER_FILE),
                app=settings.app,
                cache=settings.cache_dir,
            )
        except (OSError, offline.OfflineError) as error:
            raise BuildError(f"hors ligne : {error}") from error


def spaced_around(document: str, content: str | None) -> str:
    """A page's document with French spacing outside its converted content, which
    `page_html` spaced already (the pass is idempotent; the content is most of the page)."""
    start = document.find(content) if content else -1
    if content is None or start == -1:
        return french_spacing(document)
    end = start + len(content)
    return french_spacing(document[:start]) + content + french_spacing(document[end:])


# The steps after the pages are written, in this order. The offline step is last: it hashes
# every file of the site, so every other step's files must be there.
POST_BUILD: tuple[Callable[[SiteBuild, Path], None], ...] = (
    SiteBuild.write_spell_data,
    SiteBuild.write_glossary_data,
    SiteBuild.write_calculator_runtime,
    SiteBuild.add_security_policy,
    SiteBuild.finish_search,
    SiteBuild.build_offline,
)
