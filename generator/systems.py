"""The site's game systems: which folder of the docs holds which system's pages.

Declared by the site's owner in mkdocs.yml (`systems:` of the `regles` plugin). A page at the
top of the docs is a page of the site (home, tools, licences); a page in a folder belongs to
the system declared for that folder, or to the spell database's folder. Any other folder is
a mistake the build names: its pages would have no system in the search filters.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from generator.report import Kind, Problem

__all__ = ["Systems"]


@dataclass(frozen=True)
class Systems:
    names: Mapping[str, str] = field(default_factory=dict)  # folder → name readers see
    spells_folder: str | None = None
    config_name: str = "mkdocs.yml"
    spells_section: str | None = None  # the nav section of the spell pages

    def folder_of(self, page: str) -> str | None:
        """The system folder a page (path in the docs) lies in, the deepest one first."""
        parts = posixpath.dirname(page).split("/")
        for end in range(len(parts), 0, -1):
            folder = "/".join(parts[:end])
            if folder in self.names:
                return folder
        return None

    def name_of(self, page: str) -> str | None:
        folder = self.folder_of(page)
        return self.names[folder] if folder is not None else None

    def is_spell_page(self, page: str) -> bool:
        return self.spells_folder is not None and page.startswith(self.spells_folder + "/")

    def check(self, pages: Iterable[str]) -> list[Problem]:
        """A warning for each page in a folder that is neither a system's nor the spells'."""
        problems = []
        for page in pages:
            if "/" not in page or self.folder_of(page) or self.is_spell_page(page):
                continue
            folder = posixpath.dirname(page)
            declared = ", ".join(sorted(self.names)) or "aucun"
            problems.append(
                Problem(
                    page,
                    None,
                    "warning",
                    Kind.PAGE_OUTSIDE_SYSTEMS,
                    f"page hors de tout système : le dossier « {folder} » n’est pas déclaré "
                    f"sous « systems » du greffon regles ({self.config_name} ; déclarés : "
                    f"{declared}) ; la recherche ne pourrait pas la filtrer par système",
                    folder,
                )
            )
        return problems
