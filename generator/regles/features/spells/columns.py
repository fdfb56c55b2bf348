"""The index's columns, from the fields an export actually uses: which fields, in which
order, under which key, and how each one sorts.

A database's index shows the fields that enough of its entries fill (`SHOWN_SHARE` of them),
in the order the export writes them within an entry; `columns:` (a database's settings)
names and orders them instead. A column sorts by its value when its values describe a time
(« 10 minutes », « long ») or a distance (« 10 m », « contact »): sorting.py computes that
order once, for the index's rows (`data-tri-<key>`) and the data file's records (`tri`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from regles.core.slugs import slugify
from regles.features.spells.sorting import distance_order, duration_order, is_measured

__all__ = ["FIXED_KEYS", "SHOWN_SHARE", "Column", "field_order", "index_columns"]

# A field shown by default: filled by this share of the entries at least (this site's
# « Zone », in 23 spells of 422, is on each spell's page and in the search, not a column).
SHOWN_SHARE = 0.2
# A column sorted by its value: that share of its values are times (or distances) at least.
MEASURED_SHARE = 0.6
# The keys the index and its address use for something else than a field.
FIXED_KEYS = frozenset(
    {"nom", "college", "niveaux", "texte", "min", "max", "long", "desc", "tri", "ordre"}
)


@dataclass(frozen=True)
class Column:
    """A column of the index: the export's `field`, its `key` in the page's attributes and
    addresses (« duree »), and how it sorts: `sort` is "temps", "distance" or "" (text)."""

    field: str
    key: str
    sort: str = ""


def field_order(entries: Iterable[Sequence[str]]) -> list[str]:
    """The fields of `entries` (each entry's field names, in its order) in the order the
    export writes them: a field comes before another when the entries that have both put it
    first more often; otherwise in the order they first appear."""
    first: dict[str, int] = {}
    before: Counter[tuple[str, str]] = Counter()
    for fields in entries:
        for i, name in enumerate(fields):
            first.setdefault(name, len(first))
            for later in fields[i + 1 :]:
                before[name, later] += 1
    left = sorted(first, key=first.__getitem__)
    order: list[str] = []
    while left:
        free = [
            name
            for name in left
            if not any(before[other, name] > before[name, other] for other in left)
        ]
        chosen = free[0] if free else left[0]  # a cycle: the first seen
        order.append(chosen)
        left.remove(chosen)
    return order


def _sort_of(values: Sequence[str]) -> str:
    """« temps » or « distance » when most of `values` measure one, else « » (text)."""
    for sort, order in (("temps", duration_order), ("distance", distance_order)):
        measured = sum(is_measured(order(value)) for value in values)
        if values and measured >= MEASURED_SHARE * len(values):
            return sort
    return ""


def _key(field: str, taken: set[str]) -> str:
    """The field's key in the page: its slug without hyphens (« Temps d'incantation » →
    « tempsdincantation »), never one of `FIXED_KEYS` nor another column's."""
    key = slugify(field).replace("-", "") or "champ"
    if key in FIXED_KEYS:
        key = f"champ{key}"
    base, n = key, 2
    while key in taken:
        key, n = f"{base}{n}", n + 1
    return key


def index_columns(
    entries: Sequence[dict[str, str]], chosen: Sequence[str] | None = None
) -> tuple[Column, ...]:
    """The index's columns for `entries` (each entry's fields, in the export's order):
    `chosen` fields, in that order, else those filled by `SHOWN_SHARE` of the entries at
    least, in the export's order."""
    counts = Counter(name for fields in entries for name in fields)
    if chosen is None:
        least = SHOWN_SHARE * len(entries)
        names = [n for n in field_order(list(f) for f in entries) if counts[n] >= least]
    else:
        names = list(chosen)
    taken: set[str] = set()
    columns = []
    for name in names:
        key = _key(name, taken)
        taken.add(key)
        values = [fields[name] for fields in entries if fields.get(name)]
        columns.append(Column(name, key, _sort_of(values)))
    return tuple(columns)
