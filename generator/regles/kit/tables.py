"""Tables computed by the rules code, for the ```` ```table id ```` blocks of the pages.

A module of a rules package offers its tables in a `TABLES` mapping, id → a function that
builds the `Table` (the package's `rules` finds them, `regles.kit.discovery`): the page and
the calculator then read the same code and cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Follows", "Table", "group_runs", "span"]

_DASH = "\u2013"  # en dash, as in printed ranges ("2–3")


@dataclass(frozen=True)
class Follows:
    """The column of a table a reader's own value picks: the value of the field ``field`` of
    the calculator ``calculator``, as the reader's character keeps it, and for each value
    the index of its column in the table (« Force 14 » → the column of modifier +2)."""

    calculator: str
    field: str
    columns: Mapping[int, int]


@dataclass(frozen=True)
class Table:
    """A table to render: caption, header cells and rows of text cells.

    Too wide for a phone, it shows its first ``key_columns`` columns (what each row is) and
    one other, which the reader chooses; ``follows`` picks that one from the reader's own
    value (a character's Force), and keeps it in step when the value changes."""

    caption: str
    headers: list[str]
    rows: list[list[str]]
    key_columns: int = 1
    follows: Follows | None = field(default=None)


def span(low: int, high: int) -> str:
    """A range of whole numbers as printed rules write it: « 4 », « 2–3 »."""
    return str(low) if low == high else f"{low}{_DASH}{high}"


def group_runs(values: range, key: Callable[[int], object]) -> list[tuple[int, int, object]]:
    """Consecutive runs of ``values`` with the same ``key``: (first, last, key); the rows
    of a table such as « Valeur 2–3 : −4 »."""
    runs: list[tuple[int, int, object]] = []
    for v in values:
        k = key(v)
        if runs and runs[-1][2] == k and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v, k)
        else:
            runs.append((v, v, k))
    return runs
