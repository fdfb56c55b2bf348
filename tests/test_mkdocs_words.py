"""MkDocs' own lines in a build's log, in French (regles/mkdocs_words.py): the lines of
`mkdocs build` and `mkdocs serve` as MkDocs 1.6 writes them, run through the filter the
plugin puts on MkDocs' log; another line is left as it is."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from regles.mkdocs_words import in_french


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
