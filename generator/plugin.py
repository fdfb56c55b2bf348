"""MkDocs adapter: calls the core modules from MkDocs events, and nothing more."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import posixpath
from pathlib import Path
from typing import Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator import checks, search
from generator import spells as spellbook
from generator.bundle import BundleError, concatenate, script_bundle, with_eager_hint
from generator.config import ReglesConfig
from generator.content import ContentRenderer
from generator.csp import add_policy
from generator.links import SpellTarget, TargetIndex
from generator.minify import MinifyError, bundle_modules, minify
from generator.nav_cache import NavItems
from generator.pyodide_assets import write_runtime
from generator.report import BuildReport, Problem
from generator.search_worker import IndexWorker
from generator.template_cache import TemplateCache
from generator.wrapped_tables import wrap_tables

__all__ = ["ReglesPlugin"]

log = logging.getLogger("mkdocs.plugins.regles")


# Material's own script, "assets/javascripts/bundle.<hash>.min.js", and its source map.
THEME_BUNDLE_PREFIX = "assets/javascripts/bundle."


class ReglesPlugin(BasePlugin[ReglesConfig]):  # type: ignore[no-untyped-call]
    """Spell pages, cross-links, computed tables and calculator widgets for the rules site."""

    def __init__(self) -> None:
        self.report = BuildReport()
        self.spells: spellbook.ParseResult | None = None
        self.index = TargetIndex()
        self.renderer = ContentRenderer()
        self.college_of_page: dict[str, str] = {}
        self.serving = False
        self.site = checks.SiteMap()
        self.indexer: IndexWorker | None = None
        self.css_sources: list[str] = []
        self.js_sources: list[str] = []

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def _cache(self, config: MkDocsConfig) -> Path:
        """The build cache (`cache_dir`, from the project's folder), where every step keeps
        what it need not make again; it only saves time."""
        return Path(config.config_file_path).parent / self.config.cache_dir

    # Settings and spell export --------------------------------------------------------

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        self.report = BuildReport()  # `mkdocs serve` rebuilds with the same plugin object
        # The site's own stylesheets and scripts, replaced by their bundles in on_files.
        self.css_sources = [str(path) for path in config.extra_css]
        self.js_sources = [str(script) for script in config.extra_javascript]
        self.spells = None
        export = self.config.spells_export
        if export:
            path = Path(config.config_file_path).parent / export
            self.spells = self._read_spells(path, export)
            if self.spells is not None and config.nav is not None:
                self._extend_nav(config.nav, self.spells)
        return config

    def _read_spells(self, path: Path, name: str) -> spellbook.ParseResult | None:
        # --- Contrôles de l’export (generator/checks.py): absent, illisible, non UTF-8 ----
        try:
            text = spellbook.read_export(path)
        except FileNotFoundError:
            self.report.add(
                Problem(
                    name,
                    None,
                    "error",
                    "export-illisible",
                    "export des sorts introuvable : ce fichier (option spells_export du "
                    "greffon regles) n’existe pas",
                )
            )
            return None
        except OSError as error:
            reason = error.strerror or type(error).__name__
            self.report.add(
                Problem(name, None, "error", "export-illisible", f"export illisible : {reason}")
            )
            return None
        except spellbook.ExportError:
            # Every other fault of the export is listed too: read it with « � » in place.
            text, problems = checks.decode_source(path.read_bytes(), name)
            self.report.extend([dataclasses.replace(p, kind="export-illisible") for p in problems])
        # --- fin contrôles de l’export ---------------------------------------------------
        result = spellbook.parse_export(text, source=name)
        last = self._last_entry(result)
        for p in result.problems:
            # An uncertain split is for the owner to check, not a fault: it must not fail
            # a --strict build, so it goes to the report as information.
            uncertain = p.kind == spellbook.UNCERTAIN_KIND
            message, spell, college = p.message, p.spell, p.college
            if message.startswith("export tronqué") and last is not None:
                # The entry the export stops in is kept, cut short: name it.
                message += f" ; la dernière entrée, ligne {last[1]}, est sans doute coupée"
                spell, college = spell or last[0], college or last[2]
            self.report.add(
                Problem(
                    name,
                    p.line,
                    "info" if uncertain else p.severity,
                    p.kind if uncertain else "export-sorts",
                    f"colonne {p.column}, collège « {college or '?'} » : {message}",
                    spell,
                )
            )
        # On line 1: the report sorts problems by line, and this file has numbered ones.
        self.report.add(
            Problem(
                name,
                1,
                "info",
                "export-bilan",
                f"{len(result.colleges)} collège(s), {len(result.spells)} sort(s) publiés, "
                f"{len(result.rejected)} entrée(s) écartée(s) pour erreur",
            )
        )
        return result

    @staticmethod
    def _last_entry(result: spellbook.ParseResult) -> tuple[str, int, str | None] | None:
        """Name, line and college of the export's last `###` entry, kept or rejected."""
        entries: list[tuple[int, str, int, str | None]] = [
            (s.position.offset, s.name, s.position.line, s.college) for s in result.spells
        ]
        entries += [
            (r.position.offset, r.heading, r.position.line, r.college) for r in result.rejected
        ]
        if not entries:
            return None
        _, name, line, college = max(entries)
        return name, line, college

    def _college_uri(self, college: spellbook.College) -> str:
        return f"{self.config.spells_folder}/{college.slug}.md"

    def _index_uri(self) -> str:
        return f"{self.config.spells_folder}/tous-les-sorts.md"

    def _extend_nav(self, nav: list[Any], result: spellbook.ParseResult) -> None:
        """Append the generated spell pages to the section named in `spells_section`."""
        pages: list[Any] = [{"Tous les sorts": self._index_uri()}]
        pages += [{c.name: self._college_uri(c)} for c in result.colleges]
        for item in nav:
            if isinstance(item, dict) and self.config.spells_section in item:
                section = item[self.config.spells_section]
                if isinstance(section, list):
                    section.extend(pages)
                    return
        nav.append({self.config.spells_section: pages})

    # Files and the index of link targets ----------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        self._bundle_assets(files, config)
        # --- Contrôles des sources (generator/checks.py): encodage, page vide, en-tête ----
        for file in files.documentation_pages():
            self._check_file(file)
        # --- fin contrôles des sources -----------------------------------------------------
        spell_targets: list[SpellTarget] = []
        self.college_of_page = {}
        if self.spells is not None:
            files.append(
                File.generated(
                    config,
                    self._index_uri(),
                    content=spellbook.render_spell_index(self.spells, table_mark=True),
                )
            )
            for college in self.spells.colleges:
                uri = self._college_uri(college)
                self.college_of_page[uri] = college.name
                files.append(
                    File.generated(config, uri, content=spellbook.render_college_page(college))
                )
                spell_targets += [
                    SpellTarget(uri, spell.slug, spell.name, college.name)
                    for spell in college.spells
                ]
        pages = [
            (f.src_uri, checks.mask_front_matter(f.content_string))
            for f in files.documentation_pages()
            if f.src_uri not in self.college_of_page
        ]
        self.index = TargetIndex.build(pages, spell_targets)
        # --- Contrôles des sources: pages et ancres pour les liens, entrées de la nav ------
        documentation = files.documentation_pages()
        self.site = checks.SiteMap.build(
            ((f.src_uri, f.content_string) for f in documentation), (f.src_uri for f in files)
        )
        if config.nav is not None:
            config_path = Path(config.config_file_path)
            self.report.extend(
                checks.check_nav(
                    config.nav,
                    (f.src_uri for f in documentation),
                    config_path.read_text(encoding="utf-8", errors="replace"),
                    config_path.name,
                )
            )
        # --- fin contrôles des sources -----------------------------------------------------
        return files

    def _bundle_assets(self, files: Files, config: MkDocsConfig) -> None:
        """One stylesheet and one deferred script in every page, minified (generator/bundle.py,
        generator/minify.py)."""
        css = self._bundle(files, config, self.css_sources, "assets", "site", ".css")
        if css is not None:
            config.extra_css = [css]
        js = self._bundle_script(files, config, self.js_sources, "assets/js", "site")
        if js is not None:
            script = ExtraScriptValue(js)
            script.defer = True
            config.extra_javascript = [script]
        self._hint_theme_bundle(files, config)

    def _hint_theme_bundle(self, files: Files, config: MkDocsConfig) -> None:
        """Material's bundle opened by V8's compile hint, as ours is (generator/bundle.py),
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

    def _bundle(
        self,
        files: Files,
        config: MkDocsConfig,
        sources: list[str],
        folder: str,
        stem: str,
        suffix: str,
    ) -> str | None:
        """Replace the `sources` among `files` by their minified concatenation; its path."""
        if not sources:
            return None
        node_modules = Path(config.config_file_path).parent / "node_modules"
        cache = self._cache(config)
        found = {s: files.get_file_from_path(s) for s in sources}
        try:
            texts = {
                s: minify(f.content_string, s, node_modules, cache) if f is not None else None
                for s, f in found.items()
            }
            bundle = concatenate(sources, texts, folder, stem, suffix)
        except (BundleError, MinifyError) as error:
            raise PluginError(f"extra_css / extra_javascript : {error}") from error
        for file in found.values():
            if file is not None:
                files.remove(file)
        files.append(File.generated(config, bundle.path, content=bundle.content))
        return bundle.path

    def _bundle_script(
        self, files: Files, config: MkDocsConfig, sources: list[str], folder: str, stem: str
    ) -> str | None:
        """Replace the entry module (the one source) and every module of its import graph
        among `files` by their bundle; its path."""
        if not sources:
            return None
        found = files.get_file_from_path(sources[0])
        if len(sources) > 1 or found is None or found.abs_src_path is None:
            raise PluginError(
                "extra_javascript : un seul module d’entrée attendu, fichier du thème ou du "
                f"contenu (ses imports font le reste) ; reçu : {', '.join(sources)}"
            )
        project = Path(config.config_file_path).parent
        try:
            modules = bundle_modules(
                Path(found.abs_src_path), project, project / "node_modules", self._cache(config)
            )
        except MinifyError as error:
            raise PluginError(f"extra_javascript : {error}") from error
        graph = {os.path.normpath(project / name) for name in modules.inputs}
        for file in list(files):
            if file.abs_src_path is not None and os.path.normpath(file.abs_src_path) in graph:
                files.remove(file)
        bundle = script_bundle(modules.code, modules.inputs, folder, stem)
        files.append(File.generated(config, bundle.path, content=bundle.content))
        return bundle.path

    def _check_file(self, file: File) -> None:
        """Encoding, emptiness and front matter of one of the owner's pages."""
        try:
            data = file.content_bytes
        except OSError as error:
            reason = error.strerror or type(error).__name__
            self.report.add(
                Problem(file.src_uri, None, "error", "encodage", f"fichier illisible : {reason}")
            )
            file.content_string = ""
            return
        text, problems = checks.decode_source(data, file.src_uri)
        if problems:
            # MkDocs would stop on the first bad byte with a traceback: build the page from
            # the text read with « � », and fail at the end with every problem listed.
            file.content_string = text
        self.report.extend(problems)
        self.report.extend(checks.check_empty(text, file.src_uri))
        self.report.extend(checks.check_front_matter(text, file.src_uri))

    # Pages ---------------------------------------------------------------------------

    # Before other plugins, so that they see links and tables, not our directives.
    @event_priority(50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return markdown
        file = page.file.src_uri
        generated = file in self.college_of_page or file == self._index_uri()
        text, problems = self.renderer.render(
            markdown,
            file,
            self.index,
            college=self.college_of_page.get(file),
            site=None if generated else self.site,
        )
        # Problems are numbered from the Markdown MkDocs passes, after its front matter:
        # number them as the owner's file is.
        source = page.file.content_string
        cut = source[: len(source) - len(markdown)] if source.endswith(markdown) else ""
        self.report.extend(checks.shift_lines(problems, cut.count("\n")))
        return text

    # The report, once every page is converted and before any is written ----------------

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
        env.bytecode_cache = TemplateCache(self._cache(config) / "gabarits")
        env.globals["regles_nav_items"] = NavItems()  # partials/nav.html, per build
        if self.indexer is not None:
            try:
                self.indexer.start_writing(Path(config.site_dir) / search.INDEX_FOLDER)
            except search.SearchIndexError as error:
                self.indexer = None
                raise PluginError(f"recherche : {error}") from error
        report_path = Path(config.config_file_path).parent / self.config.report_file
        report_path.parent.mkdir(parents=True, exist_ok=True)
        report_path.write_text(self.report.to_json(), encoding="utf-8")
        info = self.report.format("info")
        if info:
            log.info("Rapport de construction :\n%s", info)
        warnings = self.report.format("warning")
        if warnings:
            log.warning("Rapport de construction, avertissements :\n%s", warnings)
        errors = self.report.of("error")
        if errors:
            listing = "\n".join(f"  {p}" for p in errors)
            raise PluginError(
                f"{len(errors)} erreur(s) dans les sources ; rapport complet : "
                f"{posixpath.normpath(self.config.report_file)}\n{listing}"
            )
        return env

    # Search index: Pagefind indexes each page as soon as it is converted ----------------

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self._abandon_index()
        if self.config.enabled:
            try:
                self.indexer = IndexWorker(cache=self._cache(config))
            except OSError as error:
                raise PluginError(f"recherche : {error}") from error

    # Each page's article as soon as its Markdown is converted: a child process cuts it
    # into records for Pagefind while the next pages are converted (on the other core), and
    # the index is written while MkDocs renders the templates.
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.config.enabled:
            if self.spells is not None and page.file.src_uri == self._index_uri():
                html = self._put_spell_table(html, self.spells)
            html = wrap_tables(html)  # Material's script would move them at load
        if self.indexer is not None:
            title = page.title or config.site_name
            self.indexer.add_page(page.file.dest_uri, search.article(html, title))
        return html

    @staticmethod
    def _put_spell_table(html: str, spells: spellbook.ParseResult) -> str:
        """The spell index's table where its Markdown left the mark (`render_spell_index`)."""
        if html.count(spellbook.SPELL_TABLE_MARK) != 1:
            raise PluginError(
                "« Tous les sorts » : la marque du tableau des sorts "
                f"({spellbook.SPELL_TABLE_MARK}) n’est pas une fois dans la page convertie"
            )
        return html.replace(spellbook.SPELL_TABLE_MARK, spellbook.render_spell_table(spells))

    def on_build_error(self, *, error: Exception) -> None:
        self._abandon_index()

    def _abandon_index(self) -> None:
        if self.indexer is not None:
            self.indexer.abandon()
            self.indexer = None

    # Data files -------------------------------------------------------------------------

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        site = Path(config.site_dir)
        project = Path(config.config_file_path).parent
        if self.spells is not None:
            data = site / "data" / "spells.json"
            data.parent.mkdir(parents=True, exist_ok=True)
            records = spellbook.spell_records(self.spells)
            data.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
        # The calculators' browser runtime: Pyodide, the packed package, the start snapshot.
        try:
            write_runtime(
                site,
                project / self.config.pyodide_dir,
                project / "calculators",
                self._cache(config),
                snapshot=self.config.snapshot,
            )
        except (OSError, RuntimeError) as error:
            raise PluginError(f"environnement Python du navigateur : {error}") from error
        # Every page gets the same Content-Security-Policy, once all pages are written;
        # not under `mkdocs serve`, whose injected live-reload script is inline.
        if not self.serving:
            add_policy(site)

        # --- Recherche (generator/search.py): the Pagefind index fed by on_post_page is -----
        # written into site/pagefind/ (pages unchanged); Material's unused lunr files go.
        # Waited for here, after the steps above, which the index child overlaps.
        indexer, self.indexer = self.indexer, None
        if indexer is not None:
            try:
                search.log_summary(indexer.finish())
            except search.SearchIndexError as error:
                raise PluginError(f"recherche : {error}") from error
            search.remove_material_search(site)
        # --- fin recherche -------------------------------------------------------------------

        # --- Hors ligne (generator/offline.py) — MUST STAY THE LAST STEP of on_post_build: ---
        # manifest, Workbox runtime, then sw.js listing every file of the site with its hash.
        from generator import offline

        try:
            offline.build_offline(
                site,
                project,
                name=config.site_name,
                description=config.site_description or "",
                cache=self._cache(config),
            )
        except (OSError, offline.OfflineError) as error:
            raise PluginError(f"hors ligne : {error}") from error
        # --- fin hors ligne ---------------------------------------------------------------
