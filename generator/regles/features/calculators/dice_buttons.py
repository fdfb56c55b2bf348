"""Dice expressions in the rule texts (1d6, 1d6+6, 1d6x100…) become roll buttons."""

from __future__ import annotations

import html
import re

from regles.core.markdown_text import HEADING, PageText, sub_outside_protected

__all__ = ["DICE", "dice_buttons"]

# A count is required: a bare "d20" names the die ("un Test d20"), it is not a roll.
DICE = re.compile(
    r"(?<![\w/.\-])(\d{1,3}d(?:\d{1,4}|%)(?:\s?[x×]\s?\d{1,5})?(?:\s?[+\-−]\s?\d{1,4}(?![\w.,]\d))?)"
    r"(?![\w%])"
)


def _button(match: re.Match[str]) -> str:
    text = match.group(1)
    expression = html.escape(text.replace("−", "-").replace(" ", ""), quote=True)
    return (
        f'<button type="button" class="de" data-de="{expression}" '
        f'title="Lancer {expression}">{html.escape(text)}</button>'
    )


def dice_buttons(page: PageText) -> PageText:
    """The page with each dice expression of its prose turned into a button."""
    lines = list(page.lines)
    for number, line in page.prose():
        if HEADING.match(line) or not DICE.search(line):
            continue
        lines[number - 1] = sub_outside_protected(DICE, _button, line)
    return page.with_lines(lines)
