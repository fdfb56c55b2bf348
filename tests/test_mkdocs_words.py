"""MkDocs' own lines in a build's log, in French (regles/mkdocs_words.py): the lines of
`mkdocs build` and `mkdocs serve` as MkDocs 1.6 writes them, run through the filter the
plugin puts on MkDocs' log, and the line it stops on; another line is left as it is.
(test_bad_content.py reads some of them in a real build's output.)"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from mkdocs.exceptions import Abort

from regles.mkdocs_words import PAGES_LOGGER, ReportedLinks, in_french


@pytest.fixture
def log() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger like MkDocs' ("mkdocs", a handler of its own), in French, and what it wrote."""
    logger = logging.getLogger("mkdocs.essai-des-mots")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    logger.addHandler(handler)
    in_french(logger)
    in_french(logger)  # asked twice (`mkdocs serve` starts the plugin again): one filter
    yield logger, written
    logger.removeHandler(handler)


def test_mkdocs_lines_are_said_in_french(log: tuple[logging.Logger, io.StringIO]) -> None:
    logger, written = log
    logger.info("Cleaning site directory")
    logger.info("Building documentation to directory: /home/mj/jeu/site")
    logger.info("Documentation built in 1.37 seconds")
    logger.info("Building documentation...")
    logger.info("[21:04:05] Watching paths for changes: 'content', 'mkdocs.yml'")
    logger.info("[21:04:05] Serving on http://127.0.0.1:8000/jeu/")
    logger.info("[21:04:09] Detected file changes")
    logger.info("[21:04:09] Reloading browsers")
    logger.info("Browser connected: http://127.0.0.1:8000/jeu/combat/")
    logger.error(
        "An error happened during the rebuild. The server will appear stuck until build errors "
        "are resolved."
    )
    assert written.getvalue().splitlines() == [
        "Nettoyage du dossier du site",
        "Construction du site dans /home/mj/jeu/site",
        "Site construit en 1,37 s",
        "Construction du site…",
        "[21:04:05] Fichiers et dossiers suivis : 'content', 'mkdocs.yml'",
        "[21:04:05] Site servi à l’adresse http://127.0.0.1:8000/jeu/",
        "[21:04:09] Fichiers changés",
        "[21:04:09] Pages ouvertes rechargées",
        "Navigateur connecté : http://127.0.0.1:8000/jeu/combat/",
        "Erreur pendant la reconstruction : les pages servies restent celles d’avant jusqu’à "
        "ce que les sources se construisent sans erreur",
    ]
    assert len(logger.handlers[0].filters) == 1


def test_another_line_is_left_as_it_comes(log: tuple[logging.Logger, io.StringIO]) -> None:
    logger, written = log
    logger.warning("Doc file '%s' contains a link '%s', but the target is not found.", "a.md", "b")
    logger.info("Cleaning site directory, then more")
    assert written.getvalue().splitlines() == [
        "Doc file 'a.md' contains a link 'b', but the target is not found.",
        "Cleaning site directory, then more",
    ]


def test_mkdocs_checks_of_links_and_nav_are_said_in_french(
    log: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, written = log
    # As mkdocs/structure/pages.py and nav.py write them.
    logger.warning(
        "Doc file 'jeu/a.md' contains a link 'b.md', but the target 'jeu/b.md' is not found "
        "among documentation files. Did you mean 'c.md'?"
    )
    logger.warning(
        "Doc file 'a.md' contains a link 'b.png', but the target is not found among "
        "documentation files."
    )
    logger.info("Doc file 'a.md' contains an unrecognized relative link 'b/', it was left as is.")
    logger.info("Doc file 'a.md' contains an absolute link '/b.md', it was left as is.")
    logger.info("Doc file 'a.md' contains a link to 'b.md' which is excluded from the built site.")
    logger.warning(
        "Doc file 'a.md' contains a link 'b.md#x', but the doc 'b.md' does not contain an "
        "anchor '#x'."
    )
    logger.warning(
        "Doc file 'a.md' contains a link '#fnref:1', but there is no such anchor on this page. "
        "This seems to be a footnote that is never referenced."
    )
    logger.info(
        'The following pages exist in the docs directory, but are not included in the "nav" '
        "configuration:\n  - a.md\n  - b.md"
    )
    logger.warning(
        "A reference to 'b.md' is included in the 'nav' configuration, which is not found in "
        "the documentation files."
    )
    logger.info(
        "An absolute path to '/b/' is included in the 'nav' configuration, which presumably "
        "points to an external resource."
    )
    assert written.getvalue().splitlines() == [
        "Page jeu/a.md, lien vers « b.md » : aucun fichier « jeu/b.md » dans le dossier des "
        "pages ; vouliez-vous dire « c.md » ?",
        "Page a.md, lien vers « b.png » : aucun fichier de ce nom dans le dossier des pages",
        "Page a.md, lien vers « b/ » : ni une page ni un fichier du dossier des pages, laissé "
        "tel quel",
        "Page a.md, lien absolu vers « /b.md » : laissé tel quel",
        "Page a.md, lien vers « b.md » : ce fichier est exclu du site",
        "Page a.md, lien « b.md#x » : la page « b.md » n’a pas d’ancre « #x »",
        "Page a.md, lien « #fnref:1 » : la page n’a pas cette ancre (une note de bas de page "
        "jamais appelée, semble-t-il)",
        "Pages du dossier des pages absentes de la navigation : ajoutez-les à nav: dans "
        "mkdocs.yml, ou à not_in_nav: pour qu’elles restent hors du menu :",
        "  - a.md",
        "  - b.md",
        "La navigation (nav de mkdocs.yml) nomme « b.md », absent du dossier des pages",
        "La navigation (nav de mkdocs.yml) nomme le chemin absolu « /b/ », sans doute hors du site",
    ]


def test_the_line_mkdocs_stops_on_is_said_in_french(
    log: tuple[logging.Logger, io.StringIO],
) -> None:
    # As mkdocs/commands/build.py and config/base.py write them; click prints the message.
    said = {
        "Aborted with a BuildError!": "Construction arrêtée : voir les messages plus haut",
        "Aborted with 2 warnings, 1 errors in strict mode!": (
            "Construction arrêtée : 2 avertissement(s), 1 erreur(s), et le mode strict n’en "
            "admet aucun"
        ),
        "Aborted with 3 configuration warnings in 'strict' mode!": (
            "Construction arrêtée : 3 avertissement(s) sur les réglages (mkdocs.yml), et le "
            "mode strict n’en admet aucun"
        ),
        "Aborted with something new!": "Aborted with something new!",
    }
    for english, french in said.items():
        assert Abort(english).format_message() == french  # as click prints it
        assert str(Abort(english)) == french  # as `mkdocs serve` prints it


def test_a_link_the_build_reports_is_not_said_again_by_mkdocs() -> None:
    reported = {("jeu/combat.md", "absente.md")}
    drop = ReportedLinks()
    drop.reported = lambda page, link: (page, link) in reported
    logger = logging.getLogger(PAGES_LOGGER)

    def kept(message: str) -> bool:
        return drop.filter(
            logger.makeRecord(PAGES_LOGGER, logging.WARNING, "", 0, message, (), None)
        )

    assert not kept(
        "Doc file 'jeu/combat.md' contains a link 'absente.md', but the target "
        "'jeu/absente.md' is not found among documentation files. Did you mean 'a.md'?"
    )
    # Another link, another page, another kind of line: MkDocs says them.
    assert kept(
        "Doc file 'jeu/combat.md' contains a link 'autre.md', but the target 'jeu/autre.md' "
        "is not found among documentation files."
    )
    assert kept(
        "Doc file 'index.md' contains a link 'absente.md', but the target is not found "
        "among documentation files."
    )
    assert kept(
        "Doc file 'jeu/combat.md' contains an unrecognized relative link 'absente.md', "
        "it was left as is."
    )
    # Without a build's word, MkDocs says every line.
    drop.reported = None
    assert kept(
        "Doc file 'jeu/combat.md' contains a link 'absente.md', but the target "
        "'jeu/absente.md' is not found among documentation files."
    )
