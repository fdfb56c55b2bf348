"""Phrases that place a table by the layout of the printed page: « voir le tableau à droite ».

A rules document laid out in columns puts its tables beside the text; the site puts them
in the flow, one under the other, and a phone has one column: « à droite » is false there.
The owner's words stay; after such a phrase the page gets a short note, visibly added,
that says where the tables are here (« (ici : plus bas) »), with a sentence for screen
readers saying that the note is the site's.

A phrase is found, not listed: « à droite », « à gauche » or « ci-contre » in a sentence that
names something laid out (a table, a column, a figure, an inset…) or sends the reader to it
(« voir »). « À droite de la barre d’adresse » places something else by something else: a
direction followed by « de » is left alone. Where « ici » is, is read from the page: the
first table after the phrase (« plus bas »), else the last one before it (« plus haut »).
"""

from __future__ import annotations

import html as html_lib
import re

from regles.core.typography import map_prose

__all__ = ["NOTE_CLASS", "annotate_directions"]

NOTE_CLASS = "regles-ici"
HIDDEN_CLASS = "regles-ici__aide"  # read by screen readers, not shown
EXPLANATION = "Note ajoutée par le site, la mise en page diffère de celle du document : "
TITLE = "Ajouté par le site : le document place ceci à côté du texte, le site dans son fil."

# The things a printed page places beside its text, and « voir », in the same sentence
# before the direction (no sentence end between them).
_LAID_OUT = (
    r"\b(?:tableaux?|tables?|colonnes?|encadrés?|figures?|illustrations?|images?|"
    r"schémas?|cartes?|plans?|listes?|voir|voyez)\b"
)
_DIRECTION = re.compile(
    r"(?P<cause>" + _LAID_OUT + r")[^.!?;:<]{0,80}?\b(?P<phrase>à (?:droite|gauche))\b"
    r"(?![ \u00a0]+d(?:e\b|u\b|es\b|’|'))"
    r"|(?P<opposite>\bci-contre\b)",
    re.I,
)
_TABLE = re.compile(r"<table\b", re.I)


def _note(where: str) -> str:
    return (
        f'<span class="{NOTE_CLASS}" title="{html_lib.escape(TITLE, quote=True)}">'
        f'<span class="{HIDDEN_CLASS}">{EXPLANATION}</span> (ici : {where})</span>'
    )


def annotate_directions(html: str) -> str:
    """A page's content with a note after each phrase that places a table by the printed
    page's layout."""
    if "à droite" not in html and "à gauche" not in html and "ci-contre" not in html.lower():
        return html
    tables = [m.start() for m in _TABLE.finditer(html)]

    def where(offset: int) -> str:
        if any(t > offset for t in tables):
            return "plus bas"
        return "plus haut" if tables else "ailleurs sur la page"

    def annotate(text: str, offset: int) -> str:
        def note(match: re.Match[str]) -> str:
            return match.group(0) + _note(where(offset + match.end()))

        return _DIRECTION.sub(note, text)

    return map_prose(html, annotate)
