"""Dice expressions in the rule texts (1d6, 1d6+6, 1d6x100…) become roll buttons.

Each button carries its expression's terms as the kit parses them (`data-de-termes`), so that
the page rolls it at once, before Python has come (theme/assets/js/dice-roll.js): the kit
stays the one definition of an expression. One it refuses (past its limits) gets none, and
is rolled by the rules code, which says why. The first button of each expression on a page
also carries its law of chances as the kit computes it (`data-de-loi`), for its « Chances »
without Python; a law of more than `MAX_WRITTEN_TOTALS` totals waits for Python."""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import re

from regles.core.markdown_text import HEADING, LineKind, PageText, sub_outside_protected
from regles.kit.dice import Term, distribution, parse
from regles.kit.errors import CalculatorInputError

__all__ = [
    "DICE",
    "MAX_WRITTEN_TOTALS",
    "dice_button",
    "dice_buttons",
    "dice_lines",
    "prose_of",
    "with_lines_changed",
    "written_law",
    "written_terms",
]

# A count is required: a bare "d20" names the die ("un Test d20"), it is not a roll. The dice
# kept or dropped follow the faces, as the kit reads them: « 3d10kh2 », « 2d20kl1 »,
# « 4d6dl1 ».
DICE = re.compile(
    # After « / » only where it joins two rolls (« 1d3/1d10 », « 1/1d6+1 »: a loss of sanity
    # on a success or a failure), not in a path (« images/1d6.png »).
    r"(?<![\w.\-])(?<![^\d\s]/)"
    r"(\d{1,3}d(?:\d{1,4}|%)(?:k[hl]?\d{0,3}|d[hl]\d{0,3})?(?:\s?[x×]\s?\d{1,5})?"
    r"(?:\s?[+\-−]\s?\d{1,4}(?![\w.,]\d))?)"
    r"(?![\w%])"
)


_DEFAULT_TERM = Term(sign=1)
# A law of more totals than this is not written on its button: its « Chances » wait for
# Python (20d6 has 101 totals, about 4 kB written; 10d100, 991).
MAX_WRITTEN_TOTALS = 200


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


# The same expressions come back on many pages (2d6, 1d20): each law is computed once a build.
@functools.lru_cache(maxsize=1024)
def written_law(expression: str) -> str | None:
    """The law of chances of `expression` as a button carries it (JSON: its `totals` in
    increasing order, the chance `p` of each and the chance `at_least` of each or more, and
    its `mean`), as the dice calculator gives them (kit/dice.py); None when the kit refuses
    the expression or its law has more than MAX_WRITTEN_TOTALS totals."""
    try:
        law = distribution(parse(expression))
    except CalculatorInputError:
        return None
    if len(law.ways) > MAX_WRITTEN_TOTALS:
        return None
    return json.dumps(
        {
            "totals": [total for total, _ in law.ways],
            "p": [ways / law.total_ways for _, ways in law.ways],
            # The kit's own chance of each total or more, as its dice calculator gives it.
            "at_least": [float(law.at_least(total)) for total, _ in law.ways],
            "mean": float(law.mean()),
        },
        separators=(",", ":"),
    )


def dice_button(text: str, expression: str, with_law: bool) -> str:
    """A die as the pages show it (`text`, rolling `expression`): its terms written when the
    kit reads it, so that it rolls at once, and its law of chances with `with_law`."""
    terms = written_terms(expression)
    data = f' data-de-termes="{html.escape(terms, quote=True)}"' if terms else ""
    law = written_law(expression) if terms and with_law else None
    if law:
        data += f' data-de-loi="{html.escape(law, quote=True)}"'
    escaped = html.escape(expression, quote=True)
    return (
        f'<button type="button" class="de" data-de="{escaped}"{data} '
        f'title="Lancer {escaped}">{html.escape(text)}</button>'
    )


def dice_buttons(page: PageText) -> PageText:
    """The page with each dice expression of its prose turned into a button; the first of
    each expression with its law of chances."""
    return with_lines_changed(page, dice_lines(prose_of(page)))


def with_lines_changed(page: PageText, changed: tuple[tuple[int, str], ...]) -> PageText:
    """The page with those lines (by their 1-based numbers) written instead."""
    if not changed:
        return page
    lines = list(page.lines)
    for number, line in changed:
        lines[number - 1] = line
    return page.with_lines(lines)


def prose_of(page: PageText) -> str:
    """The page's prose lines, what `dice_lines` reads: every other line left empty, so
    that each keeps its number."""
    kinds = zip(page.lines, page.kinds, strict=True)
    return "\n".join(line if kind is LineKind.PROSE else "" for line, kind in kinds)


def dice_lines(prose: str) -> tuple[tuple[int, str], ...]:
    """The lines of `prose` (`prose_of`) that have dice, with them made buttons, by their
    1-based numbers: a function of the text alone, which the build keeps (feature.py)."""
    written: set[str] = set()

    def button(match: re.Match[str]) -> str:
        text = match.group(1)
        expression = text.replace("−", "-").replace(" ", "")
        first = expression not in written
        written.add(expression)
        return dice_button(text, expression, first)

    changed = []
    for number, line in enumerate(prose.split("\n"), 1):
        if HEADING.match(line) or not DICE.search(line):
            continue
        changed.append((number, sub_outside_protected(DICE, button, line)))
    return tuple(changed)
