"""Le déplacement sur un quadrillage de cases de 1,50 m : la Vitesse en cases, moitié moins
en terrain difficile.

For the generator's tests: a decimal number field (`float`, with its step and unit), a
checkbox (`bool`), an output with its unit.
"""

from __future__ import annotations

import math
from fractions import Fraction

from regles.kit import Calculator, Field, JsonDict, Output, Values

__all__ = ["CALCULATORS", "SQUARE_M", "squares"]

SQUARE_M = Fraction(3, 2)


def squares(speed_m: Fraction, difficult: bool = False) -> int:
    """The squares a Speed enters: one per 1.5 m, rounded down; a square of difficult
    terrain costs two."""
    movement = math.floor(speed_m / SQUARE_M)
    return movement // 2 if difficult else movement


def _handle(values: Values) -> JsonDict:
    # repr() is the shortest decimal of the float: 4.5 and 10.5 stay exact.
    speed = Fraction(repr(values.get_float("speed_m")))
    found = squares(speed, values.get_bool("difficult_terrain"))
    return {"squares": found, "distance_m": float(found * SQUARE_M)}


CALCULATORS = (
    Calculator(
        id="deplacement",
        title="Déplacement sur quadrillage",
        description="Convertit une Vitesse en cases de 1,50 m, en terrain difficile ou non.",
        inputs=(
            Field("speed_m", "Vitesse", "float", default=9.0, min=0, max=300, step=1.5, unit="m"),
            Field(
                "difficult_terrain",
                "Terrain difficile",
                "bool",
                default=False,
                help="Chaque case de terrain difficile coûte deux cases de déplacement.",
            ),
        ),
        outputs=(
            Output("squares", "Cases"),
            Output("distance_m", "Distance parcourue", "m"),
        ),
        handler=_handle,
        headline=("squares",),
    ),
)
