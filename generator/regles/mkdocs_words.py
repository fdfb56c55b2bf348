"""MkDocs' own lines in a build's log (« Cleaning site directory », « Serving on … », its
checks of links and of the nav), and the line it ends on when it stops (« Aborted with … »),
said in French like the generator's, for the owner who runs `make site` or `make serve`.

A line MkDocs writes differently after an upgrade is left as it comes, in English: nothing
is lost, and the tables below are the one place to follow it."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence

from click import ClickException
from mkdocs.exceptions import Abort

__all__ = [
    "ABORT_LINES",
    "MKDOCS_LINES",
    "PAGES_LOGGER",
    "FrenchLines",
    "ReportedLinks",
    "drop_reported_links",
    "in_french",
    "said_in_french",
]

Said = str | Callable[[re.Match[str]], str]


def _seconds(match: re.Match[str]) -> str:
    return f"Site construit en {match.group(1).replace('.', ',')} s"


# (MkDocs' words, as mkdocs/commands/ and mkdocs/livereload/ write them; the French ones).
MKDOCS_LINES: tuple[tuple[re.Pattern[str], Said], ...] = (
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
    (
        re.compile(
            r"An error happened during the rebuild\. The server will appear stuck until build "
            r"errors are resolved\.$"
        ),
        "Erreur pendant la reconstruction : les pages servies restent celles d’avant jusqu’à "
        "ce que les sources se construisent sans erreur",
    ),
    (
        re.compile(r"The directory contains stale files\. Use --clean to remove them\.$"),
        "Le dossier du site garde des fichiers d’une construction précédente ; --clean les efface",
    ),
    (
        re.compile(r"Page skipped: '(.*)'\. Generated empty output\.$"),
        r"Page « \1 » non écrite : elle est vide",
    ),
    # MkDocs' checks of the links (mkdocs/structure/pages.py) and of the nav (nav.py).
    (
        re.compile(
            r"Doc file '(.*)' contains a link '(.*)', but the target '(.*)' is not found "
            r"among documentation files\.$"
        ),
        r"Page \1, lien vers « \2 » : aucun fichier « \3 » dans le dossier des pages",
    ),
    (
        re.compile(
            r"Doc file '(.*)' contains a link '(.*)', but the target is not found among "
            r"documentation files\.$"
        ),
        r"Page \1, lien vers « \2 » : aucun fichier de ce nom dans le dossier des pages",
    ),
    (
        re.compile(
            r"Doc file '(.*)' contains an unrecognized relative link '(.*)', it was left as is\.$"
        ),
        r"Page \1, lien vers « \2 » : ni une page ni un fichier du dossier des pages, "
        "laissé tel quel",
    ),
    (
        re.compile(r"Doc file '(.*)' contains an absolute link '(.*)', it was left as is\.$"),
        r"Page \1, lien absolu vers « \2 » : laissé tel quel",
    ),
    (
        re.compile(
            r"Doc file '(.*)' contains a link to '(.*)' which is excluded from the built site\.$"
        ),
        r"Page \1, lien vers « \2 » : ce fichier est exclu du site",
    ),
    (
        re.compile(
            r"Doc file '(.*)' contains a link '(.*)', but the doc '(.*)' does not contain an "
            r"anchor '(#.*)'\.$"
        ),
        r"Page \1, lien « \2 » : la page « \3 » n’a pas d’ancre « \4 »",
    ),
    (
        re.compile(
            r"Doc file '(.*)' contains a link '(.*)', but there is no such anchor on this page\."
            r"( This seems to be a footnote that is never referenced\.)?$"
        ),
        lambda m: (
            f"Page {m[1]}, lien « {m[2]} » : la page n’a pas cette ancre"
            + (" (une note de bas de page jamais appelée, semble-t-il)" if m[3] else "")
        ),
    ),
    (
        re.compile(
            r"The following pages exist in the docs directory, but are not included in the "
            r'"nav" configuration:(\n.*)$',
            re.S,
        ),
        r"Pages du dossier des pages absentes de la navigation : ajoutez-les à nav: dans "
        r"mkdocs.yml, ou à not_in_nav: pour qu’elles restent hors du menu :\1",
    ),
    (
        re.compile(
            r"A reference to '(.*)' is included in the 'nav' configuration, which is not "
            r"found in the documentation files\.$"
        ),
        r"La navigation (nav de mkdocs.yml) nomme « \1 », absent du dossier des pages",
    ),
    (
        re.compile(
            r"A reference to '(.*)' is included in the 'nav' configuration, but this file is "
            r"excluded from the built site\.$"
        ),
        r"La navigation (nav de mkdocs.yml) nomme « \1 », exclu du site",
    ),
    (
        re.compile(
            r"An absolute path to '(.*)' is included in the 'nav' configuration, which "
            r"presumably points to an external resource\.$"
        ),
        r"La navigation (nav de mkdocs.yml) nomme le chemin absolu « \1 », sans doute hors "
        "du site",
    ),
)

# MkDocs' line for a relative link to no file (mkdocs/structure/pages.py, its logger).
PAGES_LOGGER = "mkdocs.structure.pages"
_NOT_FOUND = re.compile(
    r"Doc file '(.*)' contains a link '(.*)', but the target (?:'.*' )?is not found among "
    r"documentation files\."
)


class ReportedLinks(logging.Filter):
    """Drops MkDocs' line about a link to no file when `reported(page, link)` says that the
    build's checks report that link already, with its line: one message for a broken link,
    not two. Any other line, a link the checks do not report (one they do not read), and
    every line while `reported` is None, are let through: nothing MkDocs finds is lost."""

    def __init__(self) -> None:
        super().__init__()
        self.reported: Callable[[str, str], bool] | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if self.reported is None or not isinstance(record.msg, str):
            return True
        found = _NOT_FOUND.match(record.getMessage())
        return found is None or not self.reported(found[1], found[2])


# The one filter on MkDocs' page logger, whichever build runs (`mkdocs serve` rebuilds, a
# process that builds several sites): each build gives its own `reported`, and takes it back.
_REPORTED_LINKS = ReportedLinks()


def drop_reported_links(reported: Callable[[str, str], bool] | None) -> None:
    """MkDocs' lines about broken links that `reported` says the build reports, dropped from
    now on (None: none dropped)."""
    logging.getLogger(PAGES_LOGGER).addFilter(_REPORTED_LINKS)  # once: the same object
    _REPORTED_LINKS.reported = reported


# What MkDocs adds to a link's line when it finds the page meant (« Did you mean … »).
_SUGGESTION = re.compile(r" Did you mean '(.*)'\?$")


def _counts(match: re.Match[str]) -> str:
    """« 2 warnings, 1 errors » (MkDocs' count of a strict build's faults) in French."""
    words = {"warning": "avertissement(s)", "error": "erreur(s)"}
    counted = re.findall(r"(\d+) (warning|error)s", match.group(1))
    listed = ", ".join(f"{n} {words[kind]}" for n, kind in counted) or match.group(1)
    return f"Construction arrêtée : {listed}, et le mode strict n’en admet aucun"


# The line MkDocs ends on when it stops (mkdocs/commands/build.py, config/base.py): printed,
# not logged.
ABORT_LINES: tuple[tuple[re.Pattern[str], Said], ...] = (
    (
        re.compile(r"Aborted with a BuildError!$"),
        "Construction arrêtée : voir les messages plus haut",
    ),
    (re.compile(r"Aborted with (.*) in strict mode!$"), _counts),
    (
        re.compile(r"Aborted with a configuration error!$"),
        "Construction arrêtée : erreur dans les réglages (mkdocs.yml), dite plus haut",
    ),
    (
        re.compile(r"Aborted with (\d+) configuration warnings in 'strict' mode!$"),
        r"Construction arrêtée : \1 avertissement(s) sur les réglages (mkdocs.yml), et le mode "
        "strict n’en admet aucun",
    ),
)


def said_in_french(
    message: str, table: Sequence[tuple[re.Pattern[str], Said]], start: int = 0
) -> str | None:
    """`message` from `start` in French, by the first line of `table` it matches (the page
    MkDocs suggests, if it does, said after it), None if none does."""
    suggestion = _SUGGESTION.search(message, start)
    end = suggestion.start() if suggestion else len(message)
    for english, french in table:
        match = english.match(message, start, end)
        if match is not None:
            said = french(match) if callable(french) else match.expand(french)
            if suggestion:
                said += f" ; vouliez-vous dire « {suggestion.group(1)} » ?"
            return said
    return None


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
        said = said_in_french(message, MKDOCS_LINES, start)
        if said is not None:
            record.msg, record.args = message[:start] + said, ()
        return True


def _abort_message(self: ClickException) -> str:
    english = str(self.message)
    return said_in_french(english, ABORT_LINES) or english


def in_french(logger: logging.Logger) -> None:
    """MkDocs' lines in French on each handler of `logger` (the "mkdocs" logger, which its
    command line gives one), and the line it stops on, once however often it is asked.
    MkDocs prints that line itself (with click, or `print` under `mkdocs serve`): it is its
    message that is said in French."""
    for handler in logger.handlers:
        if not any(isinstance(f, FrenchLines) for f in handler.filters):
            handler.addFilter(FrenchLines())
    # click prints its format_message(); `mkdocs serve` prints the exception itself.
    Abort.format_message = _abort_message  # type: ignore[method-assign]
    Abort.__str__ = _abort_message  # type: ignore[method-assign]
