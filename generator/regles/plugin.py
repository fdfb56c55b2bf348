"""MkDocs adapter: maps MkDocs' events and objects to the stages of a build (core/build.py),
and the generator's theme into MkDocs' settings; it does nothing of its own beyond that."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from markupsafe import escape
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page

from regles.config import ReglesConfig
from regles.core.build import BuildError, Settings, SiteBuild, as_written
from regles.core.collector import set_aside_what_is_loaded
from regles.core.incremental import Stamp, scan_sources
from regles.core.slugs import slugify
from regles.core.stages import SiteFile
from regles.features.assets import npm
from regles.features.assets.nav import NavItems
from regles.features.assets.templates import TemplateCache
from regles.features.assets.theme import (
    ENTRY_SCRIPT,
    FAVICON,
    MARKDOWN_EXTENSIONS,
    STYLESHEETS,
    THEME_DIR,
    TOC_SETTINGS,
)
from regles.features.calculators.package import RulesLimits
from regles.features.databases.book import DatabaseSettings
from regles.features.offline.app import App, palette_color, readable_on, short_name_of, site_logo
from regles.features.search.records import searched
from regles.mkdocs_words import drop_reported_links, in_french
from regles.provenance import check_pin
from regles.serve import Rebuilder, ServedBuild, source_roots

if TYPE_CHECKING:  # imported by `mkdocs serve` only: a build does without it
    from mkdocs.livereload import LiveReloadServer

__all__ = ["ReglesPlugin"]

P = ParamSpec("P")
T = TypeVar("T")


# Material's defaults (its mkdocs_theme.yml), which a site that sets nothing has.
MATERIAL_FAVICON = "assets/images/favicon.png"
MATERIAL_FONT = {"text": "Roboto", "code": "Roboto Mono"}


# What mkdocs.yml says in words, which MkDocs' templates print as HTML: the site's text.
TEXT_SETTINGS = ("site_name", "site_description", "site_author")


def titles_as_html(nav: list[Any]) -> list[Any]:
    """`nav:` with every title escaped: MkDocs takes a title as HTML (a page's title from its
    heading is, entities and all), and a title written in mkdocs.yml, or made from a
    database's export, is text."""
    escaped: list[Any] = []
    for item in nav:
        if isinstance(item, dict):
            item = {
                escape(title): titles_as_html(value) if isinstance(value, list) else value
                for title, value in item.items()
            }
        escaped.append(item)
    return escaped


def title_text(title: str) -> str:
    """A title as MkDocs gives it (HTML, `titles_as_html`), as a reader reads it."""
    return html.unescape(str(title))


def nav_as_written(items: list[Any]) -> list[object]:
    """MkDocs' nav (sections, pages, links) as `nav:` is written in mkdocs.yml: `{title:
    page}`, `{title: [...]}`, `{title: url}`, a page's path alone when it has no title yet.
    Titles are text."""
    written: list[object] = []
    for item in items:
        if isinstance(item, Section):
            written.append({title_text(item.title): nav_as_written(item.children)})
        elif isinstance(item, Link):
            written.append({title_text(item.title): item.url})
        elif isinstance(item, Page):
            uri = item.file.src_uri
            written.append({title_text(item.title): uri} if item.title else uri)
    return written


class ReglesPlugin(BasePlugin[ReglesConfig]):  # type: ignore[no-untyped-call]
    """The `regles` plugin: one build of the site (core/build.py) per MkDocs build."""

    def __init__(self) -> None:
        self.serving = False
        self.build: SiteBuild | None = None
        # Under `mkdocs serve` (not --dirty): the last build that succeeded, which a page's
        # rebuild alone starts from (serve.py), and what the one under way has made so far.
        self.rebuilding = False
        self.served: ServedBuild | None = None
        self._making: dict[str, Any] = {}
        self._stamps: dict[Path, Stamp] = {}
        self._watched: tuple[str, ...] = ()
        self.rebuilder: Rebuilder | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        in_french(logging.getLogger("mkdocs"))
        self.serving = command == "serve"
        self.rebuilding = self.serving and not dirty

    def _build(self) -> SiteBuild:
        if self.build is None:
            raise PluginError("greffon regles : construction non commencée (on_config manquant)")
        return self.build

    # Settings, theme, nav -----------------------------------------------------------------

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        drop_reported_links(None)  # an earlier build's, until this one has its own
        if not self.config.enabled:
            return config
        set_aside_what_is_loaded()
        # `mkdocs serve` rebuilds when the rules package changes (it is imported anew at
        # each build), when the site's own theme overrides do, and when an export does.
        project = Path(config.config_file_path).parent
        # The generator the site pins is the one that builds it, or nothing is built.
        if mismatch := check_pin(project):
            raise PluginError(mismatch)
        watched = [project / self.config.calculators, config.theme.custom_dir]
        watched += [project / database.export for database in self.config.databases]
        for path in watched:
            if path is not None and Path(path).exists() and str(path) not in config.watch:
                config.watch.append(str(path))
        if self.rebuilding:
            # The sources as this build is about to read them: what a change is compared with.
            self.served = None
            roots = source_roots(config, self._watched)
            self._stamps = scan_sources(roots, self._stamps)
            self._making = {"config": config, "roots": roots, "sources": self._stamps}
        stylesheets, scripts = self._add_theme(config)
        # A new build each time: `mkdocs serve` rebuilds with the same plugin object.
        try:
            self.build = SiteBuild(self._settings(config, stylesheets, scripts))
        except BuildError as error:
            raise PluginError(str(error)) from error
        self.build.extend_nav(config.nav)
        # MkDocs' line about a broken link the build reports already (with its line) goes.
        drop_reported_links(self.build.reports_broken_link)
        if config.nav is not None:
            config.nav = titles_as_html(config.nav)
        for key in TEXT_SETTINGS:
            if config[key]:
                config[key] = escape(config[key])
        return config

    def _add_theme(self, config: MkDocsConfig) -> tuple[list[str], list[str]]:
        """The generator's theme and Markdown settings, which a site's mkdocs.yml does not
        name (features/assets/theme.py); the pages' stylesheets and scripts, the generator's
        then the site's own."""
        theme = config.theme
        if str(THEME_DIR) not in map(str, theme.dirs):
            # After the site's own overrides (its custom_dir, first), before Material's.
            theme.dirs.insert(1 if theme.custom_dir else 0, str(THEME_DIR))
        if theme["favicon"] == MATERIAL_FAVICON:
            theme["favicon"] = FAVICON
        font = theme["font"]
        if font == MATERIAL_FONT:
            theme["font"] = False  # Material would load Google's fonts: no third-party request
        elif font:
            raise PluginError(
                "theme.font : le site ne charge rien d’un autre domaine (Material prendrait ses "
                "polices chez Google) ; retirez ce réglage ou mettez « font: false »"
            )
        for extension in MARKDOWN_EXTENSIONS:
            if extension not in config.markdown_extensions:
                config.markdown_extensions.append(extension)
        toc = config.mdx_configs.setdefault("toc", {})
        toc["slugify"] = slugify
        for key, value in TOC_SETTINGS.items():
            toc.setdefault(key, value)
        return (
            [*STYLESHEETS, *(str(path) for path in config.extra_css)],
            [ENTRY_SCRIPT, *(str(script) for script in config.extra_javascript)],
        )

    def _settings(
        self, config: MkDocsConfig, stylesheets: list[str], scripts: list[str]
    ) -> Settings:
        options = self.config
        config_file = Path(config.config_file_path).resolve()
        project = config_file.parent
        databases = tuple(
            DatabaseSettings(
                export=Path(database.export),
                export_name=as_written(Path(database.export), project),
                folder=database.folder,
                section=database.section,
                # Both given by the config's validation when the site leaves them out.
                index_title=database.index_title or "",
                system=database.system,
                fields_title=database.fields_title,
                lists_title=database.lists_title or "",
                terms=dict(database.terms),
                words=database.game_words(),
                linked_from=tuple(database.linked_from),
                columns=None if database.columns is None else tuple(database.columns),
                filters=None if database.filters is None else tuple(database.filters),
                config_name=config_file.name,
            )
            for database in options.databases
        )
        try:
            node_modules = (
                Path(options.node_modules)
                if options.node_modules is not None
                else npm.installed(project / "build" / "npm")
            )
        except npm.NpmError as error:
            raise PluginError(str(error)) from error
        return Settings(
            project=project,
            config_name=config_file.name,
            app=self._app(config),
            systems=dict(options.systems),
            site_folders=tuple(options.site_folders),
            databases=databases,
            glossaries=dict(options.glossaries),
            old_paths=dict(options.old_paths),
            pages_with_scripts=frozenset(options.pages_with_scripts),
            synonyms=dict(options.search.synonyms),
            calculators=Path(options.calculators),
            rules_limits=RulesLimits(
                options.rules_limits.import_seconds,
                options.rules_limits.call_seconds,
                round(options.rules_limits.result_kb * 1000),
            ),
            node_modules=node_modules,
            pyodide_dir=Path(options.pyodide_dir) if options.pyodide_dir else None,
            snapshot=options.snapshot,
            cache_dir=Path(options.cache_dir),
            report_file=Path(options.report_file),
            addresses_file=Path(options.addresses_file),
            theme_dirs=tuple(Path(folder) for folder in config.theme.dirs),
            stylesheets=tuple(stylesheets),
            scripts=tuple(scripts),
            serving=self.serving,
        )

    def _app(self, config: MkDocsConfig) -> App:
        """The installed app: the `app:` settings, else the site's name, palette and logo."""
        options = self.config.app
        name = (options.name or config.site_name).strip()
        theme = config.theme
        color = (options.theme_color or palette_color(theme.get("palette"), theme.dirs)).strip()
        icon = theme.get("icon")
        logo = site_logo(
            options.icon,
            theme.get("logo"),
            icon.get("logo") if isinstance(icon, dict) else None,
            project=Path(config.config_file_path).parent,
            docs_dir=Path(config.docs_dir),
            theme_dirs=[Path(folder) for folder in theme.dirs],
        )
        return App(
            name=name,
            short_name=(options.short_name or short_name_of(name)).strip(),
            description=config.site_description or "",
            theme_color=color,
            text_color=readable_on(color),
            logo=logo,
        )

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            self._run(self._build().start)

    @staticmethod
    def _run(step: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A step of the build; its failure is MkDocs' error, with its message."""
        try:
            return step(*args, **kwargs)
        except BuildError as error:
            raise PluginError(str(error)) from error

    # Files, and every page read ---------------------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        build = self._build()
        site_files = {f.src_uri: _site_file(f) for f in files}
        changes = self._run(build.change_files, site_files)
        for file in list(files):
            if file.src_uri in changes.removed:
                files.remove(file)
        for path, content in changes.added.items():
            files.append(File.generated(config, path, content=content))
        if changes.stylesheets is not None:
            config.extra_css = list(changes.stylesheets)
        if changes.scripts is not None:
            config.extra_javascript = [_deferred(script) for script in changes.scripts]
        for file in files.documentation_pages():
            self._check_file(file, build)
        owner = [f.src_uri for f in files.documentation_pages()]
        for uri, content, in_nav in self._run(build.generated_pages, owner):
            inclusion = InclusionLevel.UNDEFINED if in_nav else InclusionLevel.NOT_IN_NAV
            files.append(File.generated(config, uri, content=content, inclusion=inclusion))
        documentation = files.documentation_pages()
        build.set_page_urls({f.src_uri: f.url for f in documentation})
        build.index_pages(
            [(f.src_uri, f.content_string) for f in documentation],
            (f.src_uri for f in files),
            config.nav,
            Path(config.config_file_path).read_text(encoding="utf-8", errors="replace"),
        )
        if self.rebuilding:
            self._making["files"] = files
        return files

    def _check_file(self, file: File, build: SiteBuild) -> None:
        """Encoding, emptiness and front matter of one of the owner's pages."""
        try:
            data = file.content_bytes
        except OSError as error:
            build.report_unreadable(file.src_uri, error)
            file.content_string = ""
            return
        # MkDocs would stop on the first bad byte with a traceback: the page is built from
        # the text read with « � », and the build fails at the end with every problem listed.
        # Otherwise MkDocs reads the page itself: setting the text would make MkDocs forget
        # the file's path (other plugins read it, `--dirty` compares its time).
        text = build.check_source_file(file.src_uri, data)
        if text is not None:
            file.content_string = text

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        if self.config.enabled:
            order = [page.file.src_uri for page in nav.pages]
            in_nav = set(order)
            order += [f.src_uri for f in files.documentation_pages() if f.src_uri not in in_nav]
            self._build().read_nav(nav_as_written(nav.items), order)
            if self.rebuilding:
                self._making["nav"] = nav
        return nav

    # Pages ---------------------------------------------------------------------------

    # Before other plugins, so that they see links and tables, not our directives.
    @event_priority(50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return markdown
        source = page.file.content_string
        return self._run(self._build().render_markdown, page.file.src_uri, markdown, source)

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return html
        title = title_text(page.title or config.site_name)
        uri, destination = page.file.src_uri, page.file.dest_uri
        return self._run(
            self._build().page_html, uri, destination, html, title, searched=searched(page.meta)
        )

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if not self.config.enabled:
            return output
        return self._run(self._build().page_document, output, page.content, page.file.src_uri)

    # The theme's own pages (404.html): the same French spacing as the others.
    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str | None:
        if not self.config.enabled or not template_name.endswith(".html"):
            return output_content
        return self._run(self._build().template_document, output_content, template_name)

    # Every page converted, none written yet ------------------------------------------------

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
        build = self._build()
        env.bytecode_cache = TemplateCache(build.settings.cache_dir / "gabarits")
        env.globals["regles_nav_items"] = NavItems()  # partials/nav.html, per build
        # First: a feature may set what the templates read once every page is converted.
        self._run(build.pages_converted, Path(config.site_dir))
        env.globals.update(build.stages.template_globals)
        if self.rebuilding:
            self._making["env"] = env
        return env

    def on_build_error(self, *, error: Exception) -> None:
        if self.build is not None:
            self.build.abandon()
        self.served = None
        self._making = {}

    # After every page is written ---------------------------------------------------------

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            self._run(self._build().emit, Path(config.site_dir))
            if self.rebuilding and self._making:
                self.served = ServedBuild(build=self._build(), **self._making)
            self._making = {}

    # Under `mkdocs serve` -------------------------------------------------------------

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[[], None]
    ) -> LiveReloadServer | None:
        """The server rebuilds what a change touches (serve.py) instead of the whole site."""
        if not (self.config.enabled and self.rebuilding):
            return server
        # What the server itself was told to watch (the theme, with --watch-theme).
        self._watched = tuple(getattr(server, "_watched_paths", {}))
        if self.served is not None:
            served = self.served
            served.roots = source_roots(config, self._watched)
            served.sources = self._stamps = scan_sources(served.roots, served.sources)
        self.rebuilder = Rebuilder(self, builder)
        server.builder = self.rebuilder
        return server

    def on_shutdown(self) -> None:
        drop_reported_links(None)
        if self.rebuilder is not None:
            self.rebuilder.settle(cancel=True)  # the search index, the offline copy: stopped


def _site_file(file: File) -> SiteFile:
    """A file of MkDocs' as the build sees it: read only if a feature asks."""
    source = Path(file.abs_src_path) if file.abs_src_path else None
    return SiteFile(file.src_uri, source, lambda: str(file.content_string))


def _deferred(path: str) -> ExtraScriptValue:
    script = ExtraScriptValue(path)
    script.defer = True
    return script
