"""The ways in to a page's calculators: the ```calculateurs list, and a skip link.

- ```calculateurs, which the owner puts where the list should go (at the top of a tools
  page), becomes the list of the page's calculators, each a link to its form: on a phone, the
  reader sees what the page holds and goes to a calculator in a tap.
- A page that holds a calculator gets a skip link « Aller au premier calculateur » beside
  Material's « Aller au contenu », shown when it has the focus: from the top of the page, the
  keyboard reaches the first form in two presses of Tab and Enter, before the header, the
  navigation and the text.

Each link names a form by its id, `calc-<id>` (features/calculators/forms.py). The site's scripts
open a folded form that a link names (rules.js), and put the focus in its first field when the link
is followed from the keyboard (calculator-links.js)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["LIST_LABEL", "calculator_list", "with_skip_link"]

LIST_LABEL = "Calculateurs de la page"


def calculator_list(entries: Sequence[Mapping[str, Any]]) -> str:
    """The list of `entries` (catalogue entries, in the page's order), one HTML block."""
    items = "".join(
        f'<li><a href="#calc-{html.escape(str(entry["id"]), quote=True)}">'
        f"{html.escape(str(entry['title']))}</a></li>"
        for entry in entries
    )
    return (
        f'<nav class="calculateurs-liste" aria-label="{LIST_LABEL}" markdown="0">'
        f"<ul>{items}</ul></nav>"
    )


# A calculator's form as features/calculators/forms.py writes it, and Material's skip-link
# container, which its instant navigation replaces with the next page's: the link goes in
# there.
FORM = re.compile(r'<form class="calculateur" id="(calc-[\w-]+)"')
SKIP_CONTAINER = re.compile(r'(<div data-md-component="skip">.*?)(\s*</div>)', re.S)
SKIP_CLASS = "md-skip regles-saut"


def with_skip_link(page: str) -> str:
    """A built page (the whole HTML document) with a skip link to its first calculator in
    Material's skip-link container; a page without a calculator, or without that container
    (another theme), as it is."""
    forms = FORM.findall(page)
    container = SKIP_CONTAINER.search(page)
    if not forms or container is None:
        return page
    text = "Aller au premier calculateur" if len(forms) > 1 else "Aller au calculateur"
    link = f'<a href="#{forms[0]}" class="{SKIP_CLASS}">{text}</a>'
    at = container.start(2)
    return page[:at] + link + page[at:]
