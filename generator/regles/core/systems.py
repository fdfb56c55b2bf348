"""The site's game systems: which folder of the docs holds which system's pages.

Declared by the site's owner in mkdocs.yml (`systems:` of the `regles` plugin). A page at the
top of the docs, or in one of the `site_folders`, is a page of the site (home, tools, help);
a page in a folder belongs to the system declared for that folder, or to the spell
database's folder. Any other folder is a mistake the build names: its pages would have no
system in the search filters.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from regles.core.report import Kind, Problem

__all__ = ["Systems"]


@dataclass(frozen=True)
class Systems:
    names: Mapping[str, str] = field(default_factory=dict)  # folder → name readers see
    spells_folder: str | None = None
    config_name: str = "mkdocs.yml"
    spells_section: str | None = None  # the nav section of the spell pages
    site_folders: tuple[str, ...] = ()  # folders of pages that belong to no system
    spells_system: str | None = None  # the spells' system, as the search filters name it
    # Pages about the spell export rather than spells (its fields and abbreviations): the
    # search ranks them after the pages whose titles they share ("MJ", "Résistance").
    spells_annexes: tuple[str, ...] = ()
    # The systems (folders) whose pages may link to the database's entries (`linked_from`).
    spells_linked_from: tuple[str, ...] = ()
    # The database's entries as the search's type filter names them, in the game's words.
    spells_kind: str = "Sorts"

    def folder_of(self, page: str) -> str | None:
        """The system folder a page (path in the docs) lies in, the deepest one first."""
        return _deepest(page, self.names)

    def is_site_page(self, page: str) -> bool:
        """A page of the site, in no system: at the top of the docs or in a site folder."""
        return "/" not in page or _deepest(page, self.site_folders) is not None

    def name_of(self, page: str) -> str | None:
        folder = self.folder_of(page)
        return self.names[folder] if folder is not None else None

    def is_spell_page(self, page: str) -> bool:
        return self.spells_folder is not None and page.startswith(self.spells_folder + "/")

    def scope_of(self, page: str) -> str | None:
        """The system whose text a page is (its folder; the spell database is a system of
        its own), None for a page of the site or of an undeclared folder."""
        if self.is_spell_page(page):
            return self.spells_folder
        return None if self.is_site_page(page) else self.folder_of(page)

    def reaches(self, source: str | None, target: str | None) -> bool:
        """Whether a page of scope `source` may link to one of scope `target` (scopes as
        `scope_of` gives them): a page of the site reaches every page and every page
        reaches the site's; a system reaches itself, and the spell database when the
        database says it is linked from that system."""
        if source is None or target is None or source == target:
            return True
        return target == self.spells_folder and source in self.spells_linked_from

    def check(self, pages: Iterable[str]) -> list[Problem]:
        """A warning for each page in a folder that is neither a system's nor the spells'."""
        problems = []
        for page in pages:
            if self.is_site_page(page) or self.folder_of(page) or self.is_spell_page(page):
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
                    f"{declared}) ; la recherche ne pourrait pas la filtrer par système "
                    "(un dossier de pages du site, sans système, se déclare sous "
                    "« site_folders »)",
                    folder,
                )
            )
        return problems


def _deepest(page: str, folders: Iterable[str]) -> str | None:
    """The deepest of `folders` that holds `page` (a path in the docs)."""
    known = set(folders)
    parts = posixpath.dirname(page).split("/")
    for end in range(len(parts), 0, -1):
        folder = "/".join(parts[:end])
        if folder in known:
            return folder
    return None
