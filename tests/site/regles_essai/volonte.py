"""Le test de contrôle d’une épée intelligente : la Volonté de l’épée (INT + Ego + 1 par
pouvoir extraordinaire, + 1d10 si les alignements diffèrent) contre celle du porteur (FOR +
SAG, − 1d4 s’il est blessé, − 2d4 sous la moitié de ses points de vie) ; l’épée prend le
contrôle si la sienne est plus élevée.

For the generator's tests: the exact law of a difference of dice (computed with the kit's
dice), drawn as a chart of totals whose bars from a threshold on are highlighted, with the
chance it writes; no chart when no die is rolled (the outcome is certain).
"""

from __future__ import annotations

from fractions import Fraction

from regles.kit import Calculator, Chart, Choice, Field, JsonDict, Output, Values, probability
from regles.kit.dice import distribution, parse

__all__ = ["CALCULATORS", "WOUNDS", "gap_law"]

# The wielder's wounds and the dice they take off their Will.
WOUNDS = {"healthy": "", "wounded": "1d4", "below_half": "2d4"}


def gap_law(base: int, differ: bool, wounded: str) -> dict[int, Fraction] | None:
    """The law of the sword's Will minus the wielder's, `base` without the dice: the
    wielder's wound dice add to the gap, as the sword's 1d10 does. None without a die."""
    dice = [d for d in ("1d10" if differ else "", WOUNDS[wounded]) if d]
    if not dice:
        return None
    law = distribution(parse("+".join(dice) + (f"+{base}" if base >= 0 else f"-{-base}")))
    return dict(law.items())


def _handle(values: Values) -> JsonDict:
    sword = values.get_int("sword_int") + values.get_int("ego") + values.get_int("powers")
    wielder = values.get_int("wielder_str") + values.get_int("wielder_wis")
    law = gap_law(sword - wielder, values.get_bool("alignments_differ"), values.get_str("wounded"))
    if law is None:
        chance = Fraction(1 if sword > wielder else 0)
    else:
        chance = sum((p for gap, p in law.items() if gap >= 1), Fraction(0))
    return {
        **probability("p_control", chance),
        "sword_will": sword,
        "wielder_will": wielder,
        # For the chart: the law of the gap, and the least gap at which the sword wins.
        "will_gap": None
        if law is None
        else {"totals": list(law), "p": [float(p) for p in law.values()]},
        "control_gap": 1,
    }


CALCULATORS = (
    Calculator(
        id="volonte",
        title="Test de contrôle d’une épée intelligente",
        description="Donne la chance exacte que la Volonté de l’épée dépasse celle du porteur.",
        inputs=(
            Field("sword_int", "INT de l’épée", "int", default=10, min=7, max=12),
            Field("ego", "Ego de l’épée", "int", default=6, min=1, max=12),
            Field("powers", "Pouvoirs extraordinaires", "int", default=0, min=0, max=10),
            Field(
                "alignments_differ",
                "Alignements différents",
                "bool",
                default=True,
                help="L’épée ajoute alors 1d10 à sa Volonté.",
            ),
            Field("wielder_str", "FOR du porteur", "int", default=10, min=3, max=18),
            Field("wielder_wis", "SAG du porteur", "int", default=10, min=3, max=18),
            Field(
                "wounded",
                "Points de vie du porteur",
                "choice",
                default="healthy",
                choices=(
                    Choice("healthy", "Au maximum"),
                    Choice("wounded", "Sous le maximum (−1d4)"),
                    Choice("below_half", "Sous la moitié du maximum (−2d4)"),
                ),
            ),
        ),
        outputs=(
            Output("p_control", "Chance que l’épée prenne le contrôle"),
            Output("sword_will", "Volonté de l’épée, sans les dés"),
            Output("wielder_will", "Volonté du porteur, sans les dés"),
            Output(
                "will_gap",
                "Chances de chaque écart de Volonté",
                chart=Chart(
                    "Volonté de l’épée − Volonté du porteur",
                    threshold="control_gap",
                    chance="p_control",
                    chance_text="que l’épée prenne le contrôle",
                ),
            ),
        ),
        handler=_handle,
        headline=("p_control",),
    ),
)
