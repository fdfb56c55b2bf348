"""Les règles des Chroniques des Brumes : le paquet de calculateurs d’une autre table.

Un paquet de règles pour le générateur : `catalog()` décrit ses calculateurs (les formulaires
en sont faits), `run_json(nom, entrées)` les calcule, à la construction comme dans le
navigateur (Pyodide). Bibliothèque standard seulement."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from typing import Any

__all__ = ["catalog", "run", "run_json"]

TEST = {
    "id": "test_brumes",
    "title": "Test des Brumes",
    "description": "Donne la chance de réussir un test : 2d6 plus votre trait, contre un seuil.",
    "inputs": [
        {"name": "trait", "label": "Trait", "type": "int", "default": 1, "min": -3, "max": 5},
        {"name": "seuil", "label": "Seuil", "type": "int", "default": 8, "min": 2, "max": 17},
    ],
    "outputs": [
        {"name": "p_reussite", "label": "Chance de réussir"},
        {"name": "p_eclatante", "label": "Chance d’une réussite éclatante (12 ou plus)"},
    ],
}


class InputError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def catalog() -> list[dict[str, Any]]:
    return [TEST]


def _integer(inputs: dict[str, Any], spec: dict[str, Any]) -> int:
    value = inputs.get(spec["name"], spec["default"])
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(spec["name"], f"{spec['label']} : un nombre entier est attendu.")
    if not spec["min"] <= value <= spec["max"]:
        raise InputError(spec["name"], f"{spec['label']} : entre {spec['min']} et {spec['max']}.")
    return value


def _chance(name: str, value: Fraction) -> dict[str, Any]:
    return {name: float(value), f"{name}_exact": f"{value.numerator}/{value.denominator}"}


def run(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    if name != TEST["id"]:
        raise InputError("", f"calculateur inconnu « {name} »")
    trait, seuil = (_integer(inputs, spec) for spec in TEST["inputs"])
    totals = [a + b + trait for a, b in product(range(1, 7), repeat=2)]
    return {
        **_chance("p_reussite", Fraction(sum(t >= seuil for t in totals), 36)),
        **_chance("p_eclatante", Fraction(sum(t >= 12 for t in totals), 36)),
    }


def run_json(name: str, inputs_json: str) -> str:
    try:
        inputs = json.loads(inputs_json)
        if not isinstance(inputs, dict):
            raise InputError("", "Les valeurs doivent former un objet JSON.")
        outputs = run(name, inputs)
    except InputError as error:
        failure = {"kind": "input", "field": error.field or None, "message": error.message}
        return json.dumps({"ok": False, "error": failure}, ensure_ascii=False)
    except ValueError:
        failure = {"kind": "input", "field": None, "message": "JSON invalide."}
        return json.dumps({"ok": False, "error": failure}, ensure_ascii=False)
    return json.dumps({"ok": True, "outputs": outputs}, ensure_ascii=False)
