"""MkDocs adapter: turns MkDocs' events and objects into the steps of `core/build.py`."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from markupsafe import Markup
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page

from regles.config import ReglesConfig
from regles.core.build import BuildError, Settings, SiteBuild, as_written
from regles.core.slugs import slugify
from regles.features.assets import npm
from regles.features.assets.bundle import (
    BundleError,
    ScriptEntry,
    page_script,
    style_bundle,
    with_eager_hint,
)
from regles.features.assets.minify import MinifyError
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
from regles.features.offline.app import App, palette_color, short_name_of
from regles.features.search.index import searched
from regles.features.spells.book import SpellSettings

__all__ = ["ReglesPlugin"]


# Material's own script, "assets/javascripts/bundle.<hash>.min.js", and its source map.
THEME_BUNDLE_PREFIX = "assets/javascripts/bundle."
# Material's defaults (its mkdocs_theme.yml), which a site that sets nothing has.
MATERIAL_FAVICON = "assets/images/favicon.png"
MATERIAL_FONT = {"text": "Roboto", "code": "Roboto Mono"}


def nav_as_written(items: list[Any]) -> list[object]:
    """MkDocs' nav (sections, pages, links) as `nav:` is written in mkdocs.yml: `{title:
    page}`, `{title: [...]}`, `{title: url}`, a page's path alone when it has no title yet."""
    written: list[object] = []
    for item in items:
        if isinstance(item, Section):
            written.append({item.title: nav_as_written(item.children)})
        elif isinstance(item, Link):
            written.append({item.title: item.url})
        elif isinstance(item, Page):
            uri = item.file.src_uri
            written.append({item.title: uri} if item.title else uri)
    return written


class ReglesPlugin(BasePlugin[ReglesConfig]):  # type: ignore[no-untyped-call]
    """Spell pages, cross-links, computed tables and calculator widgets for the rules site."""

    def __init__(self) -> None:
        self.serving = False
        self.build: SiteBuild | None = None
        self.css_sources: list[str] = []
        self.js_sources: list[str] = []

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def _settings(self, config: MkDocsConfig) -> Settings:
        options = self.config
        config_file = Path(config.config_file_path).resolve()
        project = config_file.parent
        spells = None
        if options.spells is not None:
            export = Path(options.spells.export)
            spells = SpellSettings(
                export=export,
                export_name=as_written(export, project),
                folder=options.spells.folder,
                section=options.spells.section,
                index_title=options.spells.index_title,
                system=options.spells.system,
                fields_title=options.spells.fields_title,
                grimoire_title=options.spells.grimoire_title,
                terms=dict(options.spells.terms),
                config_name=config_file.name,
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
            spells=spells,
            glossaries=dict(options.glossaries),
            old_paths=dict(options.old_paths),
            calculators=Path(options.calculators),
            node_modules=node_modules,
            pyodide_dir=Path(options.pyodide_dir) if options.pyodide_dir else None,
            snapshot=options.snapshot,
            cache_dir=Path(options.cache_dir),
            report_file=Path(options.report_file),
            theme_dirs=tuple(Path(folder) for folder in config.theme.dirs),
            serving=self.serving,
        )

    def _app(self, config: MkDocsConfig) -> App:
        """The installed app: the `app:` settings, else the site's name and palette."""
        options = self.config.app
        name = (options.name or config.site_name).strip()
        return App(
            name=name,
            short_name=(options.short_name or short_name_of(name)).strip(),
            description=config.site_description or "",
            theme_color=(
                options.theme_color or palette_color(config.theme.get("palette"), config.theme.dirs)
            ).strip(),
        )

    def _build(self) -> SiteBuild:
        if self.build is None:
            raise PluginError("greffon regles : construction non commencée (on_config manquant)")
        return self.build

    # Settings, theme, spell export, nav -------------------------------------------------

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        self._add_theme(config)
        # A new build each time: `mkdocs serve` rebuilds with the same plugin object.
        try:
            self.build = SiteBuild(self._settings(config))
        except BuildError as error:
            raise PluginError(str(error)) from error
        # `mkdocs serve` rebuilds when the rules package changes (it is imported anew at
        # each build) and when the site's own theme overrides do.
        for folder in (self.build.rules.folder, config.theme.custom_dir):
            if folder is not None and str(folder) not in map(str, config.watch):
                config.watch.append(str(folder))
        self.build.extend_nav(config.nav)
        return config

    def _add_theme(self, config: MkDocsConfig) -> None:
        """The generator's theme, styles, scripts and Markdown settings, which a site's
        mkdocs.yml does not name (features/assets/theme.py); the site's own come after."""
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
        # The site's own stylesheets and scripts after the generator's; all are replaced by
        # their bundles in on_files.
        self.css_sources = [*STYLESHEETS, *(str(path) for path in config.extra_css)]
        self.js_sources = [ENTRY_SCRIPT, *(str(script) for script in config.extra_javascript)]
        for extension in MARKDOWN_EXTENSIONS:
            if extension not in config.markdown_extensions:
                config.markdown_extensions.append(extension)
        toc = config.mdx_configs.setdefault("toc", {})
        toc["slugify"] = slugify
        for key, value in TOC_SETTINGS.items():
            toc.setdefault(key, value)

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            try:
                self._build().start_search()
            except BuildError as error:
                raise PluginError(str(error)) from error

    # Files and the index of link targets ----------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        build = self._build()
        self._bundle_assets(files, config)
        export = build.export_path()
        for file in files.documentation_pages():
            self._check_file(file, build)
        for file in list(files):
            # The database's export, when it lies among the pages: read, not published.
            if export is not None and file.abs_src_path == str(export):
                files.remove(file)
        owner = [f.src_uri for f in files.documentation_pages()]
        for uri, content, in_nav in build.generated_pages(owner):
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
        return files

    def _bundle_assets(self, files: Files, config: MkDocsConfig) -> None:
        """One stylesheet and one deferred script in every page, minified, in place of the
        files they are made of (features/assets/bundle.py)."""
        settings = self._build().settings
        found = {source: files.get_file_from_path(source) for source in self.css_sources}
        texts = {s: f.content_string if f is not None else None for s, f in found.items()}
        try:
            css = style_bundle(self.css_sources, texts, settings.node_modules, settings.cache_dir)
        except (BundleError, MinifyError) as error:
            raise PluginError(f"extra_css : {error}") from error
        for file in found.values():
            if file is not None:
                files.remove(file)
        files.append(File.generated(config, css.path, content=css.content))
        config.extra_css = [css.path]
        entries = []
        for source in self.js_sources:
            script = files.get_file_from_path(source)
            if script is None or script.abs_src_path is None:
                raise PluginError(
                    f"extra_javascript : « {source} » n’est ni un fichier du thème ni une page "
                    "du contenu (un script d’un autre site ne serait pas servi hors ligne et "
                    "la politique de sécurité des pages le refuserait)"
                )
            path = Path(script.abs_src_path)
            folder = THEME_DIR if path.is_relative_to(THEME_DIR) else settings.project
            entries.append(ScriptEntry(path, folder))
        try:
            js, graph = page_script(entries, settings.node_modules, settings.cache_dir)
        except MinifyError as error:
            raise PluginError(f"extra_javascript : {error}") from error
        for file in list(files):
            if file.abs_src_path is not None and Path(os.path.normpath(file.abs_src_path)) in graph:
                files.remove(file)
        files.append(File.generated(config, js.path, content=js.content))
        script_value = ExtraScriptValue(js.path)
        script_value.defer = True
        config.extra_javascript = [script_value]
        self._hint_theme_bundle(files, config)

    def _hint_theme_bundle(self, files: Files, config: MkDocsConfig) -> None:
        """Material's bundle opened by V8's compile hint, as ours is (features/assets/bundle.py),
        its source map shifted by the line added."""
        for file in list(files):
            uri = file.src_uri
            if not (uri.startswith(THEME_BUNDLE_PREFIX) and uri.endswith(".min.js")):
                continue
            map_file = files.get_file_from_path(uri + ".map")
            source_map = map_file.content_string if map_file is not None else None
            script, shifted = with_eager_hint(file.content_string, source_map)
            files.remove(file)
            files.append(File.generated(config, uri, content=script))
            if map_file is not None and shifted is not None:
                files.remove(map_file)
                files.append(File.generated(config, map_file.src_uri, content=shifted))

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
            build = self._build()
            build.read_nav(nav_as_written(nav.items))
            build.order_pages(order)
        return nav

    # Pages ---------------------------------------------------------------------------

    # Before other plugins, so that they see links and tables, not our directives.
    @event_priority(50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return markdown
        return self._build().render_markdown(page.file.src_uri, markdown, page.file.content_string)

    # Each page's article as soon as its Markdown is converted: a child process cuts it
    # into records for Pagefind while the next pages are converted (on the other core), and
    # the index is written while MkDocs renders the templates.
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return html
        title = page.title or config.site_name
        try:
            return self._build().page_html(
                page.file.src_uri, page.file.dest_uri, html, title, searched=searched(page.meta)
            )
        except BuildError as error:
            raise PluginError(str(error)) from error

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if not self.config.enabled:
            return output
        return self._build().page_document(output, page.content, page.file.src_uri)

    # The theme's own pages (404.html): the same French spacing as the others.
    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str | None:
        if not self.config.enabled or not template_name.endswith(".html"):
            return output_content
        return self._build().template_document(output_content)

    # The report, once every page is converted and before any is written ----------------

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
        env.bytecode_cache = TemplateCache(Path(self.config.cache_dir) / "gabarits")
        env.globals["regles_nav_items"] = NavItems()  # partials/nav.html, per build
        # partials/search.html: the game's words for the search box, in the page itself
        # (no request of their own, offline as the page is), escaped for an attribute.
        words = json.dumps(self.config.search.synonyms, ensure_ascii=False, sort_keys=True)
        env.globals["regles_search_words"] = Markup(html.escape(words, quote=True))
        env.globals["regles_app"] = self._build().settings.app  # partials/pwa-head.html
        try:
            self._build().write_report(Path(config.site_dir))
        except BuildError as error:
            raise PluginError(str(error)) from error
        return env

    def on_build_error(self, *, error: Exception) -> None:
        if self.build is not None:
            self.build.abandon_search()

    # After every page is written ---------------------------------------------------------

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        try:
            self._build().post_build(Path(config.site_dir))
        except BuildError as error:
            raise PluginError(str(error)) from error
