"""The site's game systems: which folder of the docs holds which system's pages.

Declared by the site's owner in mkdocs.yml (`systems:` of the `regles` plugin). A page at the
top of the docs, or in one of the `site_folders`, is a page of the site (home, tools, help);
a page in a folder belongs to the system declared for that folder, or to a database's
(entries, prayers…). Any other folder is a mistake the build names: its pages would have no
system in the search filters.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from regles.core.report import Kind, Problem

__all__ = ["Database", "Systems"]


@dataclass(frozen=True)
class Database:
    """A database's folder, and what the search and the links know of it."""

    folder: str
    section: str | None = None  # the nav section of its pages
    system: str | None = None  # its system, as the search filters name it
    # Pages about its export rather than its entries (its fields and abbreviations): the
    # search ranks them after the pages whose titles they share ("MJ", "Résistance").
    annexes: tuple[str, ...] = ()
    # The systems (folders) whose pages may link to its entries (`linked_from`).
    linked_from: tuple[str, ...] = ()
    # Its entries as the search's type filter names them, in the game's words.
    kind: str = "Sorts"


@dataclass(frozen=True)
class Systems:
    names: Mapping[str, str] = field(default_factory=dict)  # folder → name readers see
    databases: tuple[Database, ...] = ()
    config_name: str = "mkdocs.yml"
    site_folders: tuple[str, ...] = ()  # folders of pages that belong to no system

    # Asked for every mention of every page: the folders as sets, and each page's scope,
    # found once per build.
    @cached_property
    def _system_folders(self) -> frozenset[str]:
        return frozenset(self.names)

    @cached_property
    def _site_folders(self) -> frozenset[str]:
        return frozenset(self.site_folders)

    @cached_property
    def _scopes(self) -> dict[str, str | None]:
        return {}

    def folder_of(self, page: str) -> str | None:
        """The system folder a page (path in the docs) lies in, the deepest one first."""
        return _deepest(page, self._system_folders)

    def is_site_page(self, page: str) -> bool:
        """A page of the site, in no system: at the top of the docs or in a site folder."""
        return "/" not in page or _deepest(page, self._site_folders) is not None

    def name_of(self, page: str) -> str | None:
        folder = self.folder_of(page)
        return self.names[folder] if folder is not None else None

    def database_of(self, page: str) -> Database | None:
        """The database whose pages hold `page` (a path in the docs), if any."""
        return next((d for d in self.databases if page.startswith(d.folder + "/")), None)

    def is_database_page(self, page: str) -> bool:
        """A page of a database: an entry's group, its index, its fields, its lists."""
        return self.database_of(page) is not None

    def scope_of(self, page: str) -> str | None:
        """The system whose text a page is (its folder; a database is a system of its own),
        None for a page of the site or of an undeclared folder."""
        scopes = self._scopes
        if page not in scopes:
            database = self.database_of(page)
            if database is not None:
                scopes[page] = database.folder
            else:
                scopes[page] = None if self.is_site_page(page) else self.folder_of(page)
        return scopes[page]

    def reaches(self, source: str | None, target: str | None) -> bool:
        """Whether a page of scope `source` may link to one of scope `target` (scopes as
        `scope_of` gives them): a page of the site reaches every page and every page
        reaches the site's; a system reaches itself, and a database that says it is linked
        from that system."""
        if source is None or target is None or source == target:
            return True
        return source in self._linked_from.get(target, ())

    @cached_property
    def _linked_from(self) -> dict[str, frozenset[str]]:
        """Each database's folder, with the systems its entries are linked from."""
        return {d.folder: frozenset(d.linked_from) for d in self.databases}

    def by_folder(self) -> dict[str, str]:
        """Each folder of a system or a database, with the name the search filters give it
        (its results' « systeme »): what the search's script reads to know the reader's game
        from a page's address (`rules.systems`)."""
        folders = dict(self.names)
        folders |= {d.folder: d.system for d in self.databases if d.system}
        return folders

    def served_by(self) -> dict[str, list[str]]:
        """Each database the systems' pages link to (`linked_from`), by the name the search
        gives it, with the names of those systems: its entries are of their game too (the
        search ranks them with the reader's and names the games they serve)."""
        return {
            d.system: [self.names[f] for f in d.linked_from if f in self.names]
            for d in self.databases
            if d.system and d.linked_from
        }

    def check(self, pages: Iterable[str]) -> list[Problem]:
        """A warning for each page in a folder that is neither a system's nor a database's."""
        problems = []
        for page in pages:
            if self.is_site_page(page) or self.folder_of(page) or self.is_database_page(page):
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


def _deepest(page: str, known: frozenset[str]) -> str | None:
    """The deepest of the folders `known` that holds `page` (a path in the docs)."""
    parts = posixpath.dirname(page).split("/")
    for end in range(len(parts), 0, -1):
        folder = "/".join(parts[:end])
        if folder in known:
            return folder
    return None
