"""The ways in to a page's calculators: the ```calculateurs list.

```calculateurs, which the owner puts where the list should go (at the top of a tools page),
becomes the list of the page's calculators, each a link to its form: on a phone, the reader
sees what the page holds and goes to a calculator in a tap. Each link names a form by its
id, `calc-<id>` (generator/render.py); rules.js opens a folded form that the address names."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["LIST_LABEL", "calculator_list"]

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
