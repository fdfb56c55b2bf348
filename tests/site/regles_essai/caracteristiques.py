"""Le modificateur d’une valeur de caractéristique, en calculateur et en table.

For the generator's tests: a number field with bounds (a value out of them is refused, by
the field's name), a headline, and a table the pages place (```` ```table modificateurs ````).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from regles.kit import Calculator, Field, JsonDict, Output, Table, Values, group_runs, span

__all__ = ["CALCULATORS", "SCORES", "TABLES", "modifier", "signed"]

SCORES = range(1, 31)


def modifier(score: int) -> int:
    """The modifier of a score: (score − 10) / 2, rounded down (10 and 11 give +0)."""
    return (score - 10) // 2


def signed(value: int) -> str:
    """A modifier as the rules print it: « +2 », « +0 », « −1 » (typographic minus)."""
    return f"+{value}" if value >= 0 else f"\u2212{-value}"


def _handle(values: Values) -> JsonDict:
    found = modifier(values.get_int("score"))
    return {"modifier": found, "modifier_text": signed(found)}


def _modifiers() -> Table:
    runs = group_runs(SCORES, modifier)
    rows = [[span(low, high), signed(modifier(low))] for low, high, _ in runs]
    return Table("Modificateurs de caractéristique", ["Valeur", "Modificateur"], rows)


CALCULATORS = (
    Calculator(
        id="modificateur",
        title="Modificateur de caractéristique",
        description="Donne le modificateur d’une valeur de caractéristique.",
        inputs=(
            Field(
                "score",
                "Valeur de caractéristique",
                "int",
                default=10,
                min=SCORES.start,
                max=SCORES.stop - 1,
                # The Force a reader's character keeps for the carrying calculator.
                offered=("charge.strength",),
            ),
        ),
        outputs=(Output("modifier_text", "Modificateur"),),
        handler=_handle,
        headline=("modifier_text",),
    ),
)

TABLES: Mapping[str, Callable[[], Table]] = MappingProxyType({"modificateurs": _modifiers})
