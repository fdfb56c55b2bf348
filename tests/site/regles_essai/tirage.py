"""Un tirage sur une table de d20 (une altération, un événement) : le dé est relancé tant
qu’il donne une ligne déjà sortie.

For the generator's tests: a draw of the dice (`rolled` outputs, shown once the reader has
rolled; the same `seed` gives the same draw in the build and in the browser), a list of
numbers (`int_list`), a sentence, and an input refused as a whole (every line drawn).
"""

from __future__ import annotations

import random
from fractions import Fraction

from regles.kit import (
    Calculator,
    CalculatorInputError,
    Field,
    JsonDict,
    Output,
    Values,
    probability,
    seed_field,
)

__all__ = ["CALCULATORS", "FACES", "draw"]

FACES = 20


def draw(drawn: set[int], rng: random.Random) -> list[int]:
    """The d20 rolls, the last one the first line not drawn yet."""
    rolls = [rng.randint(1, FACES)]
    while rolls[-1] in drawn:
        rolls.append(rng.randint(1, FACES))
    return rolls


def _handle(values: Values) -> JsonDict:
    drawn = set(values.get_int_list("already_drawn"))
    if len(drawn) >= FACES:
        raise CalculatorInputError("already_drawn", "Toutes les lignes de la table sont sorties.")
    seed = values.get_opt_int("seed")
    rolls = draw(drawn, random.Random(seed) if seed is not None else random.Random())
    result = rolls[-1]
    again = len(rolls) - 1
    return {
        "result": result,
        "rolls": rolls,
        "text": f"Le d20 donne {result} : appliquez la ligne {result} de la table"
        + (f", après {again} relance{'s' if again > 1 else ''}." if again else "."),
        **probability("p_each", Fraction(1, FACES - len(drawn))),
    }


CALCULATORS = (
    Calculator(
        id="tirage",
        title="Tirage sur une table de d20",
        description="Tire une ligne de la table, en relançant celles qui sont déjà sorties.",
        inputs=(
            Field(
                "already_drawn",
                "Lignes déjà sorties",
                "int_list",
                default=(),
                min=1,
                max=FACES,
                max_items=FACES,
                help="Numéros (1 à 20) des lignes déjà obtenues.",
            ),
            seed_field(),
        ),
        outputs=(
            Output("result", "Résultat du d20"),
            Output("text", "Ligne tirée", sentence=True),
            Output("p_each", "Chance de chaque ligne restante"),
        ),
        handler=_handle,
        headline=("result", "p_each"),
        rolled=("result", "text"),
    ),
)
