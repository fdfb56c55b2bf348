"""The reader's data page: everything the site keeps in the browser (lists, settings) saved
in one file and brought back (the theme's backup.js), with the reminder that it lives in this
browser only. The generator's page, unless the docs hold a page of that name; either way it is
in the menu, the footer (partials/copyright.html) and the search, where a player looks."""

from __future__ import annotations

from functools import partial
from typing import Any

from regles.core.report import Problem
from regles.core.site import SiteContext
from regles.core.stages import GeneratedPage, Stages

__all__ = ["BACKUP_PAGE", "BACKUP_SOURCE", "BACKUP_TITLE", "BackupFeature", "backup_page"]

BACKUP_SOURCE = "donnees.md"
BACKUP_PAGE = "donnees/"  # its address
BACKUP_TITLE = "Vos données"


def backup_page() -> str:
    """The page's Markdown; backup.js fills div#regles-donnees. Its sections' titles begin
    with « Données » and « Sauvegarde »: the words a player types in the search to find it,
    which a game's rules (« jet de sauvegarde », « les données par… ») would otherwise bury
    (search.js ranks a title that begins with the query first)."""
    return "\n".join(
        [
            "---",
            "hide:",
            "  - toc",
            "---",
            "",
            f"# {BACKUP_TITLE}",
            "",
            "## Données gardées dans ce navigateur",
            "",
            "Ce que vous gardez sur ce site (vos listes, vos réglages) n’est enregistré que dans "
            "ce navigateur, sur cet appareil : aucun serveur n’en a de copie. Effacer les "
            "données du site, changer de navigateur ou d’appareil, ou un navigateur qui manque "
            "de place, et elles sont perdues.",
            "",
            "## Sauvegarde de vos données",
            "",
            "Faites-en une sauvegarde de temps en temps : « Tout exporter » les enregistre dans "
            "un fichier, « Importer une sauvegarde » les ramène de ce fichier, ici ou dans un "
            "autre navigateur.",
            "",
            '<div id="regles-donnees" markdown="0">'
            "<p>Cette page a besoin de JavaScript, que ce navigateur n’exécute pas ici, pour "
            "lire et sauvegarder vos données.</p>"
            "</div>",
            "",
        ]
    )


def names_page(nav: list[Any], uri: str) -> bool:
    """Whether `nav:` (as mkdocs.yml writes it) already names the page `uri`."""
    for item in nav:
        values = item.values() if isinstance(item, dict) else [item]
        for value in values:
            if value == uri or (isinstance(value, list) and names_page(value, uri)):
                return True
    return False


class BackupFeature:
    def __init__(self, site: SiteContext) -> None:
        self.site = site

    def register(self, stages: Stages) -> None:
        stages.pages.append(self.page)
        stages.nav.append(self.extend_nav)
        stages.indexed.append(partial(self.name_page, stages.template_globals))

    def page(self, owner: frozenset[str]) -> list[GeneratedPage]:
        if BACKUP_SOURCE in owner:
            return []
        return [GeneratedPage(BACKUP_SOURCE, backup_page())]

    def extend_nav(self, nav: list[Any]) -> None:
        """The page last in the menu, unless the owner's nav places it."""
        if not names_page(nav, BACKUP_SOURCE):
            nav.append({BACKUP_TITLE: BACKUP_SOURCE})

    def name_page(self, template_globals: dict[str, object]) -> list[Problem]:
        """The page's address for the footer's link (partials/copyright.html), known once
        every page has one."""
        template_globals["regles_data_page"] = self.site.page_urls.get(BACKUP_SOURCE)
        return []
