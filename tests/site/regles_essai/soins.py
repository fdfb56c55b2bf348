"""Les soins : les points de vie récupérés s’ajoutent, sans dépasser le maximum.

For the generator's tests: values refused together (more hit points than the maximum: the
message names the field to correct), and a yes-or-no output. The wounds (« blessure ») name
two of its fields as it does (one value for a reader's character, typed once) and a third
alike but labelled otherwise (two values).
"""

from __future__ import annotations

from regles.kit import Calculator, CalculatorInputError, Field, JsonDict, Output, Values

__all__ = ["CALCULATORS", "HP_MAX"]

HP_MAX = 1000


# The hit points both calculators read, named and labelled alike: one value of a character.
_HIT_POINTS = (
    Field("hp", "Points de vie actuels", "int", default=14, min=0, max=HP_MAX, unit="PV"),
    Field("hp_max", "Maximum de points de vie", "int", default=20, min=1, max=HP_MAX),
)


def _hit_points(values: Values) -> tuple[int, int, int]:
    """The current hit points, their maximum and the amount, the first not above the second."""
    hp, hp_max, amount = values.get_int("hp"), values.get_int("hp_max"), values.get_int("amount")
    if hp > hp_max:
        raise CalculatorInputError(
            "hp", "Les points de vie actuels ne peuvent pas dépasser le maximum."
        )
    return hp, hp_max, amount


def _handle(values: Values) -> JsonDict:
    hp, hp_max, amount = _hit_points(values)
    after = min(hp_max, hp + amount)
    return {
        "hp": after,
        "healed": after - hp,
        "wasted": amount - (after - hp),
        "regains_consciousness": hp == 0 and after > 0,
    }


def _wound(values: Values) -> JsonDict:
    hp, _, amount = _hit_points(values)
    return {"hp": max(0, hp - amount), "down": hp - amount <= 0}


CALCULATORS = (
    Calculator(
        id="blessure",
        title="Appliquer des dégâts",
        description="Retire les dégâts subis des points de vie, sans descendre sous 0.",
        inputs=(
            *_HIT_POINTS,
            Field("amount", "Dégâts subis", "int", default=5, min=0, max=HP_MAX),
        ),
        outputs=(
            Output("hp", "Points de vie", "PV"),
            Output("down", "Hors de combat"),
        ),
        handler=_wound,
        headline=("hp",),
    ),
    Calculator(
        id="soins",
        title="Appliquer des soins",
        description="Ajoute des points de vie récupérés sans dépasser le maximum.",
        inputs=(
            *_HIT_POINTS,
            Field("amount", "Points de vie récupérés", "int", default=8, min=0, max=HP_MAX),
        ),
        outputs=(
            Output("hp", "Points de vie", "PV"),
            Output("healed", "Points de vie réellement récupérés", "PV"),
            Output("wasted", "Points de vie perdus (au-delà du maximum)", "PV"),
            Output("regains_consciousness", "Reprend connaissance"),
        ),
        handler=_handle,
        headline=("hp", "healed"),
    ),
)
