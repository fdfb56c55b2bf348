"""MkDocs adapter: calls the core modules from MkDocs events, and nothing more."""

from __future__ import annotations

import json
import logging
import posixpath
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator import spells as spellbook
from generator.config import ReglesConfig
from generator.content import ContentRenderer
from generator.csp import add_policy
from generator.links import SpellTarget, TargetIndex
from generator.pyodide_assets import write_runtime
from generator.report import BuildReport, Problem

__all__ = ["ReglesPlugin"]

log = logging.getLogger("mkdocs.plugins.regles")
UNCERTAIN_PREFIX = spellbook.UNCERTAIN_SPLIT.split("{", 1)[0]


class ReglesPlugin(BasePlugin[ReglesConfig]):  # type: ignore[no-untyped-call]
    """Spell pages, cross-links, computed tables and calculator widgets for the rules site."""

    def __init__(self) -> None:
        self.report = BuildReport()
        self.spells: spellbook.ParseResult | None = None
        self.index = TargetIndex()
        self.renderer = ContentRenderer()
        self.college_of_page: dict[str, str] = {}

    # Settings and spell export --------------------------------------------------------

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        self.report = BuildReport()  # `mkdocs serve` rebuilds with the same plugin object
        self.spells = None
        export = self.config.spells_export
        if export:
            path = Path(config.config_file_path).parent / export
            self.spells = self._read_spells(path, export)
            if self.spells is not None and config.nav is not None:
                self._extend_nav(config.nav, self.spells)
        return config

    def _read_spells(self, path: Path, name: str) -> spellbook.ParseResult | None:
        try:
            text = spellbook.read_export(path)
        except (OSError, spellbook.ExportError) as error:
            self.report.add(Problem(name, None, "error", "export-illisible", str(error)))
            return None
        result = spellbook.parse_export(text, source=name)
        for p in result.problems:
            # An uncertain split is for the owner to check, not a fault: it must not fail
            # a --strict build, so it goes to the report as information.
            uncertain = p.message.startswith(UNCERTAIN_PREFIX)
            self.report.add(
                Problem(
                    name,
                    p.line,
                    "info" if uncertain else p.severity,
                    "decoupage-incertain" if uncertain else "export-sorts",
                    f"colonne {p.column}, collège « {p.college or '?'} » : {p.message}",
                    p.spell,
                )
            )
        return result

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
        spell_targets: list[SpellTarget] = []
        self.college_of_page = {}
        if self.spells is not None:
            files.append(
                File.generated(
                    config, self._index_uri(), content=spellbook.render_spell_index(self.spells)
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
            (f.src_uri, f.content_string)
            for f in files.documentation_pages()
            if f.src_uri not in self.college_of_page
        ]
        self.index = TargetIndex.build(pages, spell_targets)
        return files

    # Pages ---------------------------------------------------------------------------

    # Before other plugins, so that they see links and tables, not our directives.
    @event_priority(50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return markdown
        file = page.file.src_uri
        text, problems = self.renderer.render(
            markdown, file, self.index, college=self.college_of_page.get(file)
        )
        self.report.extend(problems)
        return text

    # The report, once every page is converted and before any is written ----------------

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
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
        # --- Recherche (generator/search.py): Pagefind index of the built pages -----------
        # into site/pagefind/ (pages unchanged); Material's unused lunr files are removed.
        from generator import search

        try:
            search.build_index(site)
        except search.SearchIndexError as error:
            raise PluginError(f"recherche : {error}") from error
        # --- fin recherche -------------------------------------------------------------------
        # The calculators' browser runtime: Pyodide, the packed package, the start snapshot.
        try:
            write_runtime(
                site,
                project / self.config.pyodide_dir,
                project / "calculators",
                project / self.config.cache_dir,
                snapshot=self.config.snapshot,
            )
        except (OSError, RuntimeError) as error:
            raise PluginError(f"environnement Python du navigateur : {error}") from error
        # Every page gets the same Content-Security-Policy, once all pages are written.
        add_policy(site)

        # --- Hors ligne (generator/offline.py) — MUST STAY THE LAST STEP of on_post_build: ---
        # manifest, Workbox runtime, then sw.js listing every file of the site with its hash.
        from generator import offline

        try:
            offline.build_offline(
                site, project, name=config.site_name, description=config.site_description or ""
            )
        except (OSError, offline.OfflineError) as error:
            raise PluginError(f"hors ligne : {error}") from error
        # --- fin hors ligne ---------------------------------------------------------------
