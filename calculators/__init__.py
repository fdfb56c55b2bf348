"""Calculateurs de règles du site (D&D 5e, OSE, PMT Lankhmar, règle maison) en Python pur."""

from __future__ import annotations

from typing import Final

from . import tables
from .bridge import run_json
from .catalog import catalog, run
from .encumbrance import STRENGTH_EXAMPLE_NOTE
from .errors import (
    CalculatorError,
    CalculatorInputError,
    LimitExceededError,
    UnknownCalculatorError,
)
from .lankhmar import CORRUPTION_TIER_MALUS_NOTE
from .sentient_sword import LANGUAGES_OVERLAP_NOTE

__all__ = [
    "NOTES",
    "CalculatorError",
    "CalculatorInputError",
    "LimitExceededError",
    "UnknownCalculatorError",
    "catalog",
    "run",
    "run_json",
    "tables",
]

# How each contradiction of the documents was settled, shown on the rule pages.
# A plain dict because the site serialises it; nothing in the package mutates it.
NOTES: Final[dict[str, str]] = {
    "encumbrance_strength_example": STRENGTH_EXAMPLE_NOTE,
    "corruption_tier_malus": CORRUPTION_TIER_MALUS_NOTE,
    "sword_languages_overlap": LANGUAGES_OVERLAP_NOTE,
}
