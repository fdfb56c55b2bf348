"""La chance de réussir une épreuve : 1d20 plus un modificateur, contre un DD, avec
l’avantage (le meilleur de deux d20) ou le désavantage (le moins bon).

For the generator's tests: a choice field, an exact probability (`p_…`, shown as a
percentage with its fraction), and an output that may have no value (« — »).
"""

from __future__ import annotations

from fractions import Fraction

from regles.kit import Calculator, Choice, Field, JsonDict, Output, Values, probability

__all__ = ["CALCULATORS", "FACES", "kept_die_law", "success_chance"]

FACES = range(1, 21)


def kept_die_law(mode: str) -> dict[int, Fraction]:
    """The chance of each face of the d20 kept: one die, the higher of two (« avantage ») or
    the lower of two (« desavantage »). With two dice, the higher is k in 2k − 1 of the 400
    pairs, the lower in 41 − 2k."""
    if mode == "avantage":
        return {k: Fraction(2 * k - 1, 400) for k in FACES}
    if mode == "desavantage":
        return {k: Fraction(41 - 2 * k, 400) for k in FACES}
    return {k: Fraction(1, 20) for k in FACES}


def success_chance(modifier: int, target: int, mode: str) -> Fraction:
    """The chance that the d20 kept plus `modifier` reaches `target`."""
    law = kept_die_law(mode)
    return sum((p for face, p in law.items() if face + modifier >= target), Fraction(0))


def _handle(values: Values) -> JsonDict:
    modifier, target = values.get_int("modifier"), values.get_int("target")
    mode = values.get_str("mode")
    least = max(FACES.start, target - modifier)
    return {
        **probability("p_success", success_chance(modifier, target, mode)),
        # The least face of the d20 that succeeds; none when even a 20 fails.
        "needed": least if least in FACES else None,
    }


CALCULATORS = (
    Calculator(
        id="chance",
        title="Chance de réussir une épreuve",
        description="Donne la chance exacte de réussir une épreuve d20 contre un DD.",
        inputs=(
            Field("modifier", "Modificateur total", "int", default=0, min=-10, max=20),
            Field("target", "DD", "int", default=15, min=1, max=40),
            Field(
                "mode",
                "Avantage",
                "choice",
                default="normal",
                choices=(
                    Choice("normal", "Normal"),
                    Choice("avantage", "Avantage"),
                    Choice("desavantage", "Désavantage"),
                ),
            ),
        ),
        outputs=(
            Output("p_success", "Chance de réussite"),
            Output("needed", "Résultat minimal du d20"),
        ),
        handler=_handle,
        headline=("p_success", "needed"),
    ),
)
