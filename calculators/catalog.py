"""Catalogue des calculateurs et point d’entrée JSON ``run``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import dice, dnd5e, encumbrance, lankhmar, sentient_sword
from .errors import UnknownCalculatorError
from .schema import Calculator, JsonDict, validate

__all__ = ["CALCULATORS", "calculator", "catalog", "run"]

CALCULATORS: Mapping[str, Calculator] = MappingProxyType(
    {
        calc.id: calc
        for calc in (
            *dice.CALCULATORS,
            *dnd5e.CALCULATORS,
            *encumbrance.CALCULATORS,
            *sentient_sword.CALCULATORS,
            *lankhmar.CALCULATORS,
        )
    }
)


def calculator(name: object) -> Calculator:
    """Return the calculator ``name`` or raise :class:`UnknownCalculatorError`."""
    calc = CALCULATORS.get(name) if isinstance(name, str) else None
    if calc is None:
        raise UnknownCalculatorError(str(name) if isinstance(name, str) else repr(type(name)))
    return calc


def run(name: str, inputs: Mapping[str, object]) -> JsonDict:
    """Validate JSON ``inputs`` for calculator ``name`` and return its JSON result.

    Raises :class:`UnknownCalculatorError` for an unknown name and
    :class:`CalculatorInputError` (``.field``, French ``.message``) for bad
    inputs; no other exception whatever JSON is sent.
    """
    calc = calculator(name)
    return calc.handler(validate(calc.inputs, inputs))


def catalog() -> list[JsonDict]:
    """Describe every calculator (inputs, outputs) for the forms the site generates."""
    return [calc.to_json() for calc in CALCULATORS.values()]
