"""The index's columns, from the fields an export actually uses: which fields, in which
order, under which key, how each one sorts, and which ones the index filters by.

A database's index shows the fields that enough of its entries fill (`SHOWN_SHARE` of them),
in the order the export writes them within an entry; `columns:` (a database's settings)
names and orders them instead. A column sorts by its value when its values describe a time
(« 10 minutes », « long ») or a distance (« 10 m », « contact »): ordering.py computes that
order once, for the index's rows (`data-tri-<key>`) and the data file's records (`tri`).
A column of a few values (« Zone », « Projectile »…), some of them shared by several entries,
gets a choice filter: each entry counts for the values its field holds (`choice_values`:
« Vol-3 » is « Vol », « Info Zone » both « Info » and « Zone » when both stand alone
elsewhere), written for the scripts in the rows (`data-choix-<key>`) and the records
(`choix`). A column of times that holds « long » (the export's word for a ritual's casting
time) gets the « long seulement » box.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from regles.core.slugs import slugify
from regles.features.databases.ordering import distance_order, duration_order, is_long, is_measured

__all__ = [
    "FIXED_KEYS",
    "SHOWN_SHARE",
    "Column",
    "choice_values",
    "field_order",
    "index_columns",
    "number_order",
]

# A field shown by default: filled by this share of the entries at least (this site's
# « Zone », in 23 entries of 422, is on each entry's page and in the search, not a column).
SHOWN_SHARE = 0.2
# A column sorted by its value: that share of its values are times (or distances, or
# numbers) at least.
MEASURED_SHARE = 0.6
# A column filtered by a choice list: this many values at most (and two at least).
MAX_CHOICES = 12
# « Vol-3 », « Vol+Magerie » → « Vol »: a modifier after the value.
_MODIFIER = re.compile(r"\s*[+\-−]\s*(?:\d+|[A-ZÀ-Ý][^\W\d_]*[’']?[^\W\d_]*)\s*$")
_NUMBER = re.compile(r"[+\-−]?\d+(?:[.,]\d+)?")
# The keys the index and its address use for something else than a field (« college »: the
# group's, in the addresses made before 0.4, which still read).
FIXED_KEYS = frozenset(
    {"nom", "groupe", "college", "niveaux", "texte", "min", "max", "long", "desc", "tri", "ordre"}
)


@dataclass(frozen=True)
class Column:
    """A column of the index: the export's `field`, its `key` in the page's attributes and
    addresses (« duree »), how it sorts (`sort`: "temps", "distance", "nombre" or "" for
    text), and its filter (`filter`: "choix", "long" or none); `alone`: the values that
    stand alone in a choice column, into which a value of several words may split."""

    field: str
    key: str
    sort: str = ""
    filter: str = ""
    alone: frozenset[str] = frozenset()


# After every number a column can hold, and finite: JSON has no infinity (the data file with
# « Infinity » in it could not be read, and every list of the database failed with it).
AFTER_NUMBERS = 1e300


def number_order(value: str) -> float:
    """A number as written (« 12 », « -1,5 »), for a column of numbers; any other text, or
    none, after every number."""
    text = value.strip().replace("−", "-").replace(",", ".")
    return float(text) if _NUMBER.fullmatch(value.strip()) else AFTER_NUMBERS


def _base(value: str) -> str:
    """A value without its modifiers and spaces: « Vol - 3 » → « Vol »."""
    base = value.strip()
    while True:
        shorter = _MODIFIER.sub("", base)
        if shorter == base or not shorter:
            return base.replace("|", "/")
        base = shorter


def choice_values(column: Column, value: str) -> list[str]:
    """What a value counts for in a choice filter: its base (« Vol-3 » → « Vol »), or, when
    each of its words is a value that stands alone, each word (« Info Zone »)."""
    base = _base(value)
    words = base.split()
    if len(words) > 1 and all(word in column.alone for word in words):
        return list(dict.fromkeys(words))
    return [base] if base else []


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
    """« temps », « distance » or « nombre » when most of `values` are one, else « »."""
    orders = (("temps", duration_order), ("distance", distance_order), ("nombre", number_order))
    for sort, order in orders:
        measured = sum(is_measured(order(value)) for value in values)
        if values and measured >= MEASURED_SHARE * len(values):
            return sort
    return ""


def _with_filter(column: Column, values: Sequence[str], wanted: bool | None) -> Column:
    """`column` with its filter: « long » for times that hold it, a choice list for a text
    of a few values; `wanted`: whether the site asks for a filter (`filters:`), None when
    it leaves the choice to its export."""
    if wanted is False:
        return column
    if column.sort == "temps" and any(is_long(value) for value in values):
        return replace(column, filter="long")
    if column.sort and not wanted:
        return column
    alone = frozenset(b for b in map(_base, values) if b and " " not in b)
    with_alone = replace(column, filter="choix", alone=alone)
    # Entries per choice: a list whose every choice picks one entry alone sorts nothing out
    # (the index's text field finds a name faster).
    choices = Counter(c for value in values for c in set(choice_values(with_alone, value)))
    few = 2 <= len(choices) <= MAX_CHOICES and max(choices.values()) >= 2
    return with_alone if wanted or few else column


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
    entries: Sequence[dict[str, str]],
    chosen: Sequence[str] | None = None,
    filtered: Sequence[str] | None = None,
) -> tuple[Column, ...]:
    """The index's columns for `entries` (each entry's fields, in the export's order):
    `chosen` fields, in that order, else those filled by `SHOWN_SHARE` of the entries at
    least, in the export's order. The columns of `filtered` fields have a filter, the
    others none; without `filtered`, those of a few values, and the times that hold
    « long »."""
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
        wanted = None if filtered is None else name in filtered
        columns.append(_with_filter(Column(name, key, _sort_of(values)), values, wanted))
    # One « long » box: the first column of times that holds « long ».
    longs = [c for c in columns if c.filter == "long"]
    return tuple(
        replace(c, filter="") if c.filter == "long" and c is not longs[0] else c for c in columns
    )
