"""La charge d’un personnage : chaque objet a trois limites de quantité (légère,
intermédiaire, lourde) selon son niveau d’encombrement, ajustées par la Force ; la charge
finale est la plus lourde de celles des objets et de l’armure.

For the generator's tests: a list of rows (each with a text, a number chosen by its name and
a number) and a choice whose form starts from a worked example (`initial`), a sentence, a list
of records shown as a table (`columns`), a computed table too wide for a phone that follows
the reader's Force (`Follows`) and a reading note.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from regles.kit import (
    Calculator,
    Choice,
    Field,
    Follows,
    JsonDict,
    Output,
    Table,
    Values,
    frozen_record,
    group_runs,
)

from .caracteristiques import modifier, signed

__all__ = ["CALCULATORS", "LEVELS", "LOADS", "NOTES", "TABLES", "Group", "groups", "limits"]

# Each level: its name and its limits for a light, medium and heavy load.
LEVELS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("Insignifiant", (32, 48, 64)),
    ("Négligeable", (16, 24, 32)),
    ("Léger", (8, 12, 16)),
    ("Moyen", (4, 6, 8)),
    ("Important", (2, 3, 4)),
    ("Lourd", (0, 1, 2)),
    ("Très lourd", (0, 0, 1)),
    ("Impossible", (0, 0, 0)),
)
IMPOSSIBLE = len(LEVELS) - 1
# The loads, lightest first: « over » is more than the heavy limit.
LOADS = ("Légère", "Intermédiaire", "Lourde", "Impossible à transporter")
ARMOR_LOADS = MappingProxyType({"none": 0, "light": 0, "medium": 1, "heavy": 2})
MODIFIERS = range(-5, 11)

EXAMPLE_NOTE = (
    "La règle ajoute le modificateur de Force ÷ 4 (arrondi à l’inférieur) à toutes les "
    "limites, ce qui donne 9/13/17 pour un objet d’encombrement léger avec 18 en Force, alors "
    "que l’exemple du texte indique 9/13/16. Le calculateur applique la règle (9/13/17)."
)


def limits(level: int, strength_modifier: int) -> tuple[int, int, int]:
    """A level's limits, each raised (or lowered) by the Strength modifier ÷ 4 rounded down;
    none below 0, the heavy one not below 1. « Impossible » stays 0/0/0."""
    base = LEVELS[level][1]
    if level == IMPOSSIBLE:
        return base
    shift = strength_modifier // 4
    light, medium, heavy = (b + shift for b in base)
    return max(0, light), max(0, medium), max(1, heavy)


def load(quantity: int, allowed: tuple[int, int, int]) -> int:
    """The load (an index of LOADS) of carrying `quantity` under the limits `allowed`."""
    return next((i for i, limit in enumerate(allowed) if quantity <= limit), len(allowed))


@dataclass(frozen=True)
class Group:
    """The lines of one object (the same name, whatever its case and spacing), added up."""

    name: str
    level: int
    quantity: int
    limits: tuple[int, int, int]
    load: int


def _same(name: str) -> str:
    return " ".join(name.split()).casefold()


def groups(rows: list[tuple[str, int, int]], strength_modifier: int) -> list[Group]:
    """The objects of the lines (name, level, quantity), in the order they first appear;
    two lines of one object add up under its first line's level."""
    found: dict[str, Group] = {}
    for name, level, quantity in rows:
        key = _same(name)
        first = found.get(key)
        if first is not None:
            name, level, quantity = first.name, first.level, first.quantity + quantity
        allowed = limits(level, strength_modifier)
        found[key] = Group(
            " ".join(name.split()), level, quantity, allowed, load(quantity, allowed)
        )
    return list(found.values())


def _text(allowed: tuple[int, int, int]) -> str:
    return "/".join(str(limit) for limit in allowed)


def _handle(values: Values) -> JsonDict:
    strength_modifier = modifier(values.get_int("strength"))
    rows = [
        (r.get_str("name"), r.get_int("level"), r.get_int("qty")) for r in values.get_list("items")
    ]
    found = groups(rows, strength_modifier)
    armor = ARMOR_LOADS[values.get_str("armor")]
    final = max([armor, *(g.load for g in found if g.quantity > 0)])
    shift = strength_modifier // 4
    return {
        "load": final,
        "load_label": LOADS[final],
        "adjustment": shift,
        "adjustment_text": (
            ("aucun" if shift == 0 else f"{signed(shift)} à chaque limite")
            + f" (modificateur de Force {signed(strength_modifier)}, divisé par 4, arrondi à "
            "l’inférieur)"
        ),
        "groups": [
            {
                "name": g.name,
                "level_name": LEVELS[g.level][0],
                "quantity": g.quantity,
                "limits_text": _text(g.limits),
                "load_label": LOADS[g.load],
            }
            for g in found
        ],
    }


def _limits_table() -> Table:
    runs = group_runs(MODIFIERS, lambda m: m // 4)
    headers = ["Encombrement"] + [
        f"Mod. {signed(low)}" + ("" if low == high else f" à {signed(high)}")
        for low, high, _ in runs
    ]
    rows = [
        [name] + [_text(limits(level, low)) for low, _, _ in runs]
        for level, (name, _) in enumerate(LEVELS)
    ]
    # Too wide for a phone: the level and the column of the reader's own Force.
    column = {
        score: 1
        + next(i for i, (low, high, _) in enumerate(runs) if low <= modifier(score) <= high)
        for score in range(1, 31)
    }
    return Table(
        "Limites de quantité selon le modificateur de Force (légère/intermédiaire/lourde)",
        headers,
        rows,
        follows=Follows("charge", "strength", column),
    )


_ITEM_FIELDS = (
    Field("name", "Objet", "text", default="objet", max_length=60),
    Field(
        "level",
        "Encombrement",
        "int",
        default=2,
        min=0,
        max=IMPOSSIBLE,
        choices=tuple(Choice(str(i), name) for i, (name, _) in enumerate(LEVELS)),
    ),
    Field("qty", "Quantité", "int", default=1, min=0, max=10_000),
)

CALCULATORS = (
    Calculator(
        id="charge",
        title="Charge transportée",
        description="Donne les limites de chaque objet selon la Force, et la charge finale.",
        inputs=(
            Field("strength", "Force", "int", default=18, min=1, max=30),
            Field(
                "items",
                "Objets transportés",
                "list",
                default=(),  # nothing carried; the form starts from the text's example
                initial=(
                    frozen_record(name="dague", level=2, qty=10),
                    frozen_record(name="ration", level=2, qty=6),
                    frozen_record(name="potion", level=1, qty=30),
                ),
                fields=_ITEM_FIELDS,
                max_items=50,
            ),
            Field(
                "armor",
                "Armure équipée",
                "choice",
                # Left out: no armour; the form starts from the text's example, a medium one.
                default="none",
                initial="medium",
                choices=(
                    Choice("none", "Aucune"),
                    Choice("light", "Armure légère"),
                    Choice("medium", "Armure intermédiaire"),
                    Choice("heavy", "Armure lourde"),
                ),
            ),
        ),
        outputs=(
            Output("load_label", "Charge finale"),
            Output("adjustment_text", "Ajustement des limites par la Force", sentence=True),
            Output(
                "groups",
                "Détail par objet",
                columns=(
                    ("name", "Objet"),
                    ("level_name", "Encombrement"),
                    ("quantity", "Quantité"),
                    ("limits_text", "Limites"),
                    ("load_label", "Charge"),
                ),
            ),
        ),
        handler=_handle,
        headline=("load_label",),
    ),
)

TABLES: Mapping[str, Callable[[], Table]] = MappingProxyType({"limites_charge": _limits_table})
# How the text's example, which contradicts its rule, was settled (```` ```note ````).
NOTES: Mapping[str, str] = MappingProxyType({"exemple_force": EXAMPLE_NOTE})
