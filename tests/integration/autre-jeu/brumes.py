"""Le test des Brumes : 2d6 plus un trait, contre un seuil."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from regles.kit import Calculator, Field, JsonDict, Output, Values, probability

__all__ = ["CALCULATORS", "chances"]


def chances(trait: int, threshold: int) -> tuple[Fraction, Fraction]:
    """The chances of a success (2d6 + trait ≥ threshold) and of a brilliant one (≥ 12)."""
    totals = [a + b + trait for a, b in product(range(1, 7), repeat=2)]
    success = Fraction(sum(t >= threshold for t in totals), 36)
    brilliant = Fraction(sum(t >= 12 for t in totals), 36)
    return success, brilliant


def _handle(values: Values) -> JsonDict:
    success, brilliant = chances(values.get_int("trait"), values.get_int("seuil"))
    return {**probability("p_reussite", success), **probability("p_eclatante", brilliant)}


CALCULATORS = (
    Calculator(
        id="test_brumes",
        title="Test des Brumes",
        description="Donne la chance de réussir un test : 2d6 plus votre trait, contre un seuil.",
        inputs=(
            Field("trait", "Trait", "int", default=1, min=-3, max=5),
            Field("seuil", "Seuil", "int", default=8, min=2, max=17),
        ),
        outputs=(
            Output("p_reussite", "Chance de réussir"),
            Output("p_eclatante", "Chance d’une réussite éclatante (12 ou plus)"),
        ),
        handler=_handle,
        headline=("p_reussite",),
    ),
)
