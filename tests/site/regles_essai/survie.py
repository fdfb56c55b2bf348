"""Les jets de survie d’un personnage à 0 point de vie : 1d20 par tour, 10 ou plus une
réussite, moins un échec, 1 deux échecs, 20 le relève avec 1 point de vie ; trois réussites
le stabilisent, trois échecs le tuent.

For the generator's tests: a chart of outcomes (`{"labels", "p", "highlight"}`) with the
chance it writes, and an exact value that is no probability (a mean: a number, its fraction).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from regles.kit import Calculator, Chart, Field, JsonDict, Output, Values, probability

__all__ = ["CALCULATORS", "OUTCOMES", "Odds", "odds"]

NEEDED = 3  # successes to be stable, failures to die
# The d20's faces: 1 → two failures, 2–9 → one, 10–19 → one success, 20 → up with 1 HP.
TWO_FAILURES = Fraction(1, 20)
ONE_FAILURE = Fraction(8, 20)
ONE_SUCCESS = Fraction(10, 20)
UP = Fraction(1, 20)

# The outcomes as the chart names them, surviving ones first.
OUTCOMES = ("Stabilisé", "Se relève (20)", "Mort")


@dataclass(frozen=True)
class Odds:
    """The exact chances of each outcome, and the mean number of rolls still to make."""

    stable: Fraction
    up: Fraction
    dead: Fraction
    rolls: Fraction


@cache
def odds(successes: int, failures: int) -> Odds:
    """The odds from `successes` and `failures` already rolled, by the rolls that follow."""
    if successes >= NEEDED:
        return Odds(Fraction(1), Fraction(0), Fraction(0), Fraction(0))
    if failures >= NEEDED:
        return Odds(Fraction(0), Fraction(0), Fraction(1), Fraction(0))
    after = (
        (TWO_FAILURES, odds(successes, failures + 2)),
        (ONE_FAILURE, odds(successes, failures + 1)),
        (ONE_SUCCESS, odds(successes + 1, failures)),
    )
    return Odds(
        stable=sum((p * o.stable for p, o in after), Fraction(0)),
        up=UP + sum((p * o.up for p, o in after), Fraction(0)),
        dead=sum((p * o.dead for p, o in after), Fraction(0)),
        rolls=1 + sum((p * o.rolls for p, o in after), Fraction(0)),
    )


def _handle(values: Values) -> JsonDict:
    found = odds(values.get_int("successes"), values.get_int("failures"))
    return {
        **probability("p_stable", found.stable),
        **probability("p_up", found.up),
        **probability("p_dead", found.dead),
        **probability("p_survive", found.stable + found.up),
        "outcomes": {
            "labels": list(OUTCOMES),
            "p": [float(found.stable), float(found.up), float(found.dead)],
            "highlight": [True, True, False],
        },
        "expected_rolls": float(found.rolls),
        "expected_rolls_exact": f"{found.rolls.numerator}/{found.rolls.denominator}",
    }


CALCULATORS = (
    Calculator(
        id="survie",
        title="Jets de survie",
        description=(
            "Donne les chances exactes d’être stabilisé, de se relever sur un 20 ou de mourir."
        ),
        inputs=(
            Field("successes", "Réussites déjà obtenues", "int", default=0, min=0, max=2),
            Field("failures", "Échecs déjà subis", "int", default=0, min=0, max=2),
        ),
        outputs=(
            Output("p_stable", "Chance d’être stabilisé"),
            Output("p_up", "Chance de se relever avec 1 point de vie"),
            Output("p_dead", "Chance de mourir"),
            Output("expected_rolls", "Nombre moyen de jets restants"),
            Output(
                "outcomes",
                "Chances de chaque issue",
                chart=Chart("Issue des jets", chance="p_survive", chance_text="de survivre"),
            ),
        ),
        handler=_handle,
        headline=("p_stable", "p_up", "p_dead"),
    ),
)
