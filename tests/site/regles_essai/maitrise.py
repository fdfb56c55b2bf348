"""Le bonus de maîtrise selon le niveau du personnage, en calculateur et en table.

For the generator's tests: one more rule placed with its table on its own page
(```` ```table bonus_maitrise ````), and one more form on the tools page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from regles.kit import Calculator, Field, JsonDict, Output, Table, Values, group_runs, span

from .caracteristiques import signed

__all__ = ["CALCULATORS", "LEVELS", "TABLES", "bonus"]

LEVELS = range(1, 21)


def bonus(level: int) -> int:
    """+2 from level 1 to 4, then one more every four levels (+6 at 17–20)."""
    return 2 + (level - 1) // 4


def _handle(values: Values) -> JsonDict:
    found = bonus(values.get_int("level"))
    return {"bonus": found, "bonus_text": signed(found)}


def _bonus_table() -> Table:
    runs = group_runs(LEVELS, bonus)
    rows = [[span(low, high), signed(bonus(low))] for low, high, _ in runs]
    return Table("Bonus de maîtrise", ["Niveau", "Bonus de maîtrise"], rows)


CALCULATORS = (
    Calculator(
        id="maitrise",
        title="Bonus de maîtrise",
        description="Donne le bonus de maîtrise d’un personnage selon son niveau.",
        inputs=(Field("level", "Niveau", "int", default=1, min=LEVELS.start, max=LEVELS.stop - 1),),
        outputs=(Output("bonus_text", "Bonus de maîtrise"),),
        handler=_handle,
        headline=("bonus_text",),
    ),
)

TABLES: Mapping[str, Callable[[], Table]] = MappingProxyType({"bonus_maitrise": _bonus_table})
