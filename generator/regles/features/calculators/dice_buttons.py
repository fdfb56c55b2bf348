"""Dice expressions in the rule texts (1d6, 1d6+6, 1d6x100…) become roll buttons.

Each button carries its expression's terms as the kit parses them (`data-de-termes`), so that
the page rolls it at once, before Python has come (theme/assets/js/dice-roll.js): the kit
stays the one definition of an expression. One it refuses (past its limits) gets none, and
is rolled by the rules code, which says why."""

from __future__ import annotations

import dataclasses
import html
import json
import re

from regles.core.markdown_text import HEADING, PageText, sub_outside_protected
from regles.kit.dice import Term, parse
from regles.kit.errors import CalculatorInputError

__all__ = ["DICE", "dice_buttons", "written_terms"]

# A count is required: a bare "d20" names the die ("un Test d20"), it is not a roll.
DICE = re.compile(
    r"(?<![\w/.\-])(\d{1,3}d(?:\d{1,4}|%)(?:\s?[x×]\s?\d{1,5})?(?:\s?[+\-−]\s?\d{1,4}(?![\w.,]\d))?)"
    r"(?![\w%])"
)


_DEFAULT_TERM = Term(sign=1)


def written_terms(expression: str) -> str | None:
    """The terms of `expression` as a button carries them (JSON: each Term's fields but
    those at their default), or None when the kit refuses it."""
    try:
        terms = parse(expression).terms
    except CalculatorInputError:
        return None
    return json.dumps(
        [
            {
                field.name: getattr(term, field.name)
                for field in dataclasses.fields(Term)
                if getattr(term, field.name) != getattr(_DEFAULT_TERM, field.name)
            }
            for term in terms
        ],
        separators=(",", ":"),
    )


def _button(match: re.Match[str]) -> str:
    text = match.group(1)
    expression = text.replace("−", "-").replace(" ", "")
    terms = written_terms(expression)
    data = f' data-de-termes="{html.escape(terms, quote=True)}"' if terms else ""
    escaped = html.escape(expression, quote=True)
    return (
        f'<button type="button" class="de" data-de="{escaped}"{data} '
        f'title="Lancer {escaped}">{html.escape(text)}</button>'
    )


def dice_buttons(page: PageText) -> PageText:
    """The page with each dice expression of its prose turned into a button."""
    lines = list(page.lines)
    for number, line in page.prose():
        if HEADING.match(line) or not DICE.search(line):
            continue
        lines[number - 1] = sub_outside_protected(DICE, _button, line)
    return page.with_lines(lines)
