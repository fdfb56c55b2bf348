"""What the entry lists sort and filter by that is not the fields' text as written: a
duration's order (« 1 minute » before « 1 heure » before « permanent »), a distance's
(« contact » before « 10 m » before « 1 km »), and whether a casting time is « long » (a
ritual).

Computed once, here, and written by the build into the index's rows (`data-tri-*`,
`data-long`) and into the database's data file, `data/bases/<folder>.json` (`tri`, `long`):
the page scripts sort by these values and never read a duration themselves.
"""

from __future__ import annotations

import re

from regles.core.slugs import fold

__all__ = ["distance_order", "duration_order", "is_long", "is_measured"]

_UNITS = (
    (re.compile(r"s(?:ec|econde)?s?"), 1),
    (re.compile(r"min(?:ute)?s?"), 60),
    (re.compile(r"h(?:eure)?s?"), 3_600),
    (re.compile(r"(?:jour|journee)s?"), 86_400),
    (re.compile(r"semaines?"), 604_800),
    (re.compile(r"mois"), 2_592_000),
    (re.compile(r"(?:an|annee)s?"), 31_536_000),
)
_MEASURED = re.compile(r"^(\d+(?:[.,]\d+)?|une?|quelques)\s+([a-z]+)")
# Ranks: a measured time, then « court » and « long », then endless, then anything else.
_RANK = 10**15  # above any measured time in seconds (some 30 million years), exact in a float


def duration_order(value: str) -> float:
    """A number that orders durations as a reader does: measured ones by their length in
    seconds (« quelques » counts 3, « un » 1), then « court », then « long », then endless
    ones (« permanent », « indéfini », « jusqu’à… »), then every other text."""
    text = fold(value)
    measured = _MEASURED.match(text)
    if measured:
        count, word = measured.groups()
        if count[0].isdigit():
            number = float(count.replace(",", "."))
        else:
            number = 3.0 if count == "quelques" else 1.0
        for unit, seconds in _UNITS:
            if unit.fullmatch(word):
                return min(number * seconds, _RANK - 1)
    if text.startswith("court"):
        return float(1 * _RANK)
    if text.startswith("long"):
        return float(1 * _RANK + 1)
    if text.startswith(("permanent", "indefini", "jusqu")):
        return float(2 * _RANK)
    return float(3 * _RANK)


_METRES = (
    (re.compile(r"c(?:m|entimetres?)"), 0.01),
    (re.compile(r"m(?:etres?)?"), 1),
    (re.compile(r"k(?:m|ilometres?)"), 1_000),
)
_DISTANCE = re.compile(r"^(\d+(?:[.,]\d+)?)\s*([a-z]+)")


def distance_order(value: str) -> float:
    """A number that orders distances as a reader does: oneself and a touch first, then
    measured ones by their length in metres, then « à vue », « illimitée », then every other
    text."""
    text = fold(value)
    if text.startswith(("personnel", "soi", "contact", "toucher")):
        return 0.0
    measured = _DISTANCE.match(text)
    if measured:
        count, word = measured.groups()
        for unit, metres in _METRES:
            if unit.fullmatch(word):
                return min(float(count.replace(",", ".")) * metres, _RANK - 1)
    if text.startswith(("a vue", "vue", "illimit", "infini")):
        return float(2 * _RANK)
    return float(3 * _RANK)


def is_measured(order: float) -> bool:
    """Whether an order (`duration_order`, `distance_order`) is that of a time or a distance
    the function read, rather than of any other text."""
    return order < 3 * _RANK


def is_long(casting_time: str) -> bool:
    """Whether a casting time is « long », the export's word for a ritual."""
    return casting_time.strip().split(" ", 1)[0].rstrip(",.").casefold() == "long"
