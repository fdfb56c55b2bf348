"""The reader's data page: everything the site keeps in the browser (lists, settings) saved
in one file and brought back (the theme's backup.js), with the reminder that it lives in this
browser only. The generator's page, unless the docs hold a page of that name."""

from __future__ import annotations

from regles.core.site import SiteContext
from regles.core.stages import GeneratedPage, Stages

__all__ = ["BACKUP_PAGE", "BACKUP_SOURCE", "BackupFeature", "backup_page"]

BACKUP_SOURCE = "donnees.md"
BACKUP_PAGE = "donnees/"  # its address


def backup_page() -> str:
    """The page's Markdown; backup.js fills div#regles-donnees."""
    return "\n".join(
        [
            "---",
            "hide:",
            "  - toc",
            "search:",
            "  exclude: true",
            "---",
            "",
            "# Vos données",
            "",
            "Ce que vous gardez sur ce site (vos listes, vos réglages) n’est enregistré que dans "
            "ce navigateur, sur cet appareil : aucun serveur n’en a de copie. Effacer les "
            "données du site, changer de navigateur ou d’appareil, ou un navigateur qui manque "
            "de place, et elles sont perdues. Exportez-les de temps en temps : le fichier les "
            "ramène ici, ou dans un autre navigateur.",
            "",
            '<div id="regles-donnees" markdown="0">'
            "<p>Cette page a besoin de JavaScript pour lire les données de ce navigateur.</p>"
            "</div>",
            "",
        ]
    )


class BackupFeature:
    def __init__(self, site: SiteContext) -> None:
        self.site = site

    def register(self, stages: Stages) -> None:
        stages.pages.append(self.page)

    def page(self, owner: frozenset[str]) -> list[GeneratedPage]:
        if BACKUP_SOURCE in owner:
            return []
        return [GeneratedPage(BACKUP_SOURCE, backup_page(), in_nav=False)]
