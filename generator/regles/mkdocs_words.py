"""MkDocs' own lines in a build's log (« Cleaning site directory », « Serving on … »), said
in French like the generator's, for the owner who runs `make site` or `make serve`.

A line MkDocs writes differently after an upgrade is left as it comes, in English: nothing
is lost, and the table below is the one place to follow it."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

__all__ = ["MKDOCS_LINES", "FrenchLines", "in_french"]


def _seconds(match: re.Match[str]) -> str:
    return f"Site construit en {match.group(1).replace('.', ',')} s"


# (MkDocs' words, as mkdocs/commands/ and mkdocs/livereload/ write them; the French ones).
MKDOCS_LINES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"Cleaning site directory$"), "Nettoyage du dossier du site"),
    (re.compile(r"Building documentation to directory: (.*)$"), r"Construction du site dans \1"),
    (re.compile(r"Documentation built in ([0-9.]+) seconds$"), _seconds),
    (re.compile(r"Building documentation\.\.\.$"), "Construction du site…"),
    (re.compile(r"Watching paths for changes: (.*)$"), r"Fichiers et dossiers suivis : \1"),
    (
        re.compile(r"Serving on (\S+) and opening it in a browser$"),
        r"Site servi à l’adresse \1, ouvert dans le navigateur",
    ),
    (re.compile(r"Serving on (\S+)$"), r"Site servi à l’adresse \1"),
    (re.compile(r"Detected file changes$"), "Fichiers changés"),
    (re.compile(r"Reloading browsers$"), "Pages ouvertes rechargées"),
    (re.compile(r"Browser connected: (.*)$"), r"Navigateur connecté : \1"),
    (re.compile(r"Shutting down\.\.\.$"), "Arrêt…"),
)


# The time `mkdocs serve` writes before its own lines: « [21:04:05] Serving on … ».
_CLOCK = re.compile(r"\[[0-9:]+\] ")


class FrenchLines(logging.Filter):
    """Rewrites a record whose message is one of `MKDOCS_LINES` (after its time, if it has
    one); lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            return True
        message = record.getMessage()
        clock = _CLOCK.match(message)
        start = clock.end() if clock else 0
        for english, french in MKDOCS_LINES:
            match = english.match(message, start)
            if match is not None:
                said = french(match) if callable(french) else match.expand(french)
                record.msg, record.args = message[:start] + said, ()
                break
        return True


def in_french(logger: logging.Logger) -> None:
    """MkDocs' lines in French on each handler of `logger` (the "mkdocs" logger, which its
    command line gives one), once however often it is asked."""
    for handler in logger.handlers:
        if not any(isinstance(f, FrenchLines) for f in handler.filters):
            handler.addFilter(FrenchLines())
