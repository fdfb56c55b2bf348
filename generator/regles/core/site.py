"""The site being built: its settings, and what the build knows of it as the stages go,
which every feature reads (no MkDocs import)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regles.core.cache import KeptResults
from regles.core.link_checks import SiteMap
from regles.core.markdown_text import PageText
from regles.core.report import BuildReport
from regles.core.systems import Database, Systems
from regles.core.words import capitalized
from regles.features.calculators.package import RulesLimits
from regles.features.databases.book import DatabaseSettings
from regles.features.offline.app import App

__all__ = ["BuildError", "Settings", "SiteContext", "as_written"]


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
    databases: Sequence[DatabaseSettings] = ()  # spells, prayers, a bestiary…
    glossaries: Mapping[str, str] = field(default_factory=dict)  # system folder → its page
    old_paths: Mapping[str, str] = field(default_factory=dict)  # /old/site/path/ → a page
    # The pages whose scripts run (features/assets/csp.py): in any other, a script is an error.
    pages_with_scripts: frozenset[str] = frozenset()
    # The game's words a reader types for others (`search: synonyms:`): both ways.
    synonyms: Mapping[str, Sequence[str]] = field(default_factory=dict)
    calculators: Path = Path("calculators")  # the rules package's folder (may not exist)
    rules_limits: RulesLimits = field(default_factory=RulesLimits)  # what its code may take
    node_modules: Path = Path("build/npm/node_modules")  # the generator's npm packages
    pyodide_dir: Path | None = None  # default: node_modules' pyodide
    snapshot: bool = True
    cache_dir: Path = Path("build/cache")
    report_file: Path = Path("build/rapport-construction.json")
    # Every address the generated pages have had, kept by the build beside mkdocs.yml and
    # committed with the site: an old one leads to the new (features/redirects).
    addresses_file: Path = Path("adresses.json")
    theme_dirs: Sequence[Path] = ()  # where templates are looked for, the site's own first
    # The pages' stylesheets and entry scripts, the generator's then the site's own: each is
    # a file of the site, by its path (features/assets).
    stylesheets: Sequence[str] = ()
    scripts: Sequence[str] = ()
    serving: bool = False  # `mkdocs serve`: its live-reload script is inline

    def __post_init__(self) -> None:
        for name in (
            *("calculators", "node_modules", "pyodide_dir"),
            *("cache_dir", "report_file", "addresses_file"),
        ):
            path: Path | None = getattr(self, name)
            if path is not None and not path.is_absolute():
                object.__setattr__(self, name, self.project / path)  # frozen: set once here

    @property
    def pyodide(self) -> Path:
        """Pyodide's npm package: the option's folder, else the generator's."""
        return self.pyodide_dir or self.node_modules / "pyodide"

    @property
    def system_folders(self) -> Systems:
        databases = tuple(
            Database(
                d.folder,
                d.section,
                d.system_name,
                (d.fields_uri,),
                tuple(d.linked_from),
                capitalized(d.words.entry.many),
            )
            for d in self.databases
        )
        return Systems(self.systems, databases, self.config_name, tuple(self.site_folders))

    def theme_file(self, name: str) -> Path:
        """A file of the theme, as the templates are looked for."""
        for folder in self.theme_dirs:
            if (folder / name).is_file():
                return folder / name
        folders = ", ".join(map(str, self.theme_dirs))
        raise BuildError(f"« {name} » introuvable dans les dossiers du thème ({folders})")

    def shown(self, path: Path) -> str:
        """A path of the build as the report names it: from the folder of mkdocs.yml."""
        return as_written(path, self.project)


@dataclass
class SiteContext:
    """What the build knows of the site, shared by every feature, filled by the build
    (core/build.py) stage by stage: a feature reads it, and keeps its own state itself."""

    settings: Settings
    systems: Systems
    report: BuildReport = field(default_factory=BuildReport)
    # Once every page is known (after the `pages` stage):
    owner_pages: frozenset[str] = frozenset()  # the owner's pages, by path in the docs
    generated: frozenset[str] = frozenset()  # the pages the generator wrote
    page_keys: dict[str, str] = field(default_factory=dict)  # path → `GeneratedPage.key`
    page_urls: dict[str, str] = field(default_factory=dict)  # path → site path "jeu/combat/"
    files: list[str] = field(default_factory=list)  # every file of the site, pages included
    # Once every page is read (the `indexed` stage): each page read once, front matter
    # blanked, and its `#` title.
    pages: list[tuple[str, PageText]] = field(default_factory=list)
    page_titles: dict[str, str] = field(default_factory=dict)
    site_map: SiteMap = field(default_factory=SiteMap)  # the pages' anchors and files
    # Once MkDocs has read the nav: as mkdocs.yml writes it, and the pages in reading order.
    nav: list[object] = field(default_factory=list)
    reading_order: list[str] = field(default_factory=list)
    # The pages that are not searched each on their own (a system's print page).
    not_searched: set[str] = field(default_factory=set)
    # What the build's pure steps gave, kept for the next build, by cache entry (`kept`).
    kept_results: dict[str, KeptResults[Any]] = field(default_factory=dict)

    def kept(self, name: str) -> KeptResults[Any]:
        """The results kept in the build cache's entry `name` (core/cache.py `KeptResults`),
        kept again at the end of the build (`SiteBuild.emit`)."""
        if name not in self.kept_results:
            self.kept_results[name] = KeptResults(self.settings.cache_dir / name)
        return self.kept_results[name]
