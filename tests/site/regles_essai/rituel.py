"""La durée du rituel de préparation des sorts : une demi-heure par niveau de sort ; il tient
dans le repos de huit heures ou non.

For the generator's tests: a list of numbers with a default (`int_list`), a decimal output
with its unit, and a yes-or-no output in the headline.
"""

from __future__ import annotations

from fractions import Fraction

from regles.kit import Calculator, Field, JsonDict, Output, Values

__all__ = ["CALCULATORS", "REST_HOURS", "hours"]

REST_HOURS = 8


def hours(entry_levels: list[int]) -> Fraction:
    """Half an hour per level of each spell prepared."""
    return Fraction(sum(entry_levels), 2)


def _handle(values: Values) -> JsonDict:
    found = hours(values.get_int_list("spell_levels"))
    minutes = int(found * 60)
    return {
        "hours": float(found),
        "text": f"{minutes // 60} h" + (f" {minutes % 60:02d}" if minutes % 60 else ""),
        "fits_in_rest": found <= REST_HOURS,
    }


CALCULATORS = (
    Calculator(
        id="rituel",
        title="Durée des rituels",
        description="Donne la durée de préparation des sorts : une demi-heure par niveau.",
        inputs=(
            Field(
                "spell_levels",
                "Niveaux des sorts préparés",
                "int_list",
                default=(1, 1, 2),
                min=1,
                max=9,
                max_items=50,
                help="Un niveau par sort préparé, séparés par des virgules.",
            ),
        ),
        outputs=(
            Output("text", "Durée du rituel"),
            Output("hours", "Durée en heures", "h"),
            Output("fits_in_rest", "Tient dans le repos de huit heures"),
        ),
        handler=_handle,
        headline=("text", "fits_in_rest"),
    ),
)
