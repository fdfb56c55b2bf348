"""The JSON bridge the browser calls (regles.kit.bridge, `RulesPackage.run_json`): the same
results as `run`, every failure a French message, whatever the text sent; on a small rules
package made here (the kit's dice and an inventory with a list of rows)."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regles.kit import (
    Calculator,
    Field,
    JsonDict,
    Output,
    RulesPackage,
    Values,
    dice,
    frozen_record,
)
from regles.kit.bridge import MAX_DEPTH, MAX_REQUEST_CHARS
from tests.kit.json_answers import JSON_VALUES, answer_of, any_text


def _inventory(values: Values) -> JsonDict:
    rows = values.get_list("items")
    return {
        "names": [row.get_str("name") for row in rows],
        "count": sum(row.get_int("qty") for row in rows),
        "score": values.get_int("score"),
    }


INVENTORY = Calculator(
    id="inventaire",
    title="Inventaire",
    description="Compte les objets d’une liste.",
    inputs=(
        Field(
            "items",
            "Objets",
            "list",
            default=(frozen_record(name="corde", qty=1),),
            fields=(
                Field("name", "Objet", "text", default="objet", max_length=40),
                Field("qty", "Quantité", "int", default=1, min=0, max=100),
            ),
            max_items=20,
        ),
        Field("score", "Valeur", "int", default=10, min=1, max=30),
    ),
    outputs=(Output("count", "Nombre d’objets"),),
    handler=_inventory,
)


def package() -> RulesPackage:
    inventory = ModuleType("essai_pont.inventaire")
    inventory.CALCULATORS = (INVENTORY,)  # type: ignore[attr-defined]
    return RulesPackage("essai_pont", [dice, inventory])


RULES = package()


def answer(name: str, text: str) -> dict[str, Any]:
    return answer_of(RULES.run_json, name, text)


def test_bridge_returns_what_run_returns() -> None:
    for name, inputs in (
        ("dice", {"expression": "2d6+3", "seed": 7}),
        ("inventaire", {"items": [{"name": "torche", "qty": 3}, {"name": "corde"}]}),
    ):
        expected = json.loads(json.dumps(RULES.run(name, inputs)))
        assert answer(name, json.dumps(inputs)) == {"ok": True, "outputs": expected}


def test_input_errors_name_the_field() -> None:
    error = answer("inventaire", '{"score": 99}')["error"]
    assert error["kind"] == "input" and error["field"] == "score"
    assert "30" in error["message"]
    row = answer("inventaire", '{"items": [{"name": "corde", "qty": -1}]}')["error"]
    assert row["field"] == "items[0].qty"


def test_unknown_calculator_and_bad_json_are_messages() -> None:
    assert answer("nope", "{}")["error"]["kind"] == "calculator"
    assert answer("dice", "{")["error"]["kind"] == "input"
    assert answer("dice", "[1]")["error"]["kind"] == "input"
    too_long = "x" * (MAX_REQUEST_CHARS + 1)
    assert answer("dice", too_long)["error"]["kind"] == "input"


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1000 + "]" * 1000,  # 2,000 characters: a bare RecursionError before
        '{"expression": ' + "[" * 5000 + "]" * 5000 + "}",
        "[" * 99_000,
        '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
        '{"items": [' + "{" * 30,  # deep and not even closed
    ],
    ids=["list-1000", "value-5000", "open-99000", "objects-21", "unclosed"],
)
def test_deep_nesting_is_a_french_message(text: str) -> None:
    assert answer("inventaire", text) == {
        "ok": False,
        "error": {
            "kind": "input",
            "field": None,
            "message": f"Les valeurs envoyées sont trop imbriquées (au plus {MAX_DEPTH} niveaux "
            "de listes et d’objets).",
        },
    }


def test_nesting_up_to_the_limit_and_brackets_in_strings_are_read() -> None:
    at_limit = '{"a": ' * MAX_DEPTH + "1" + "}" * MAX_DEPTH
    assert answer("dice", at_limit)["error"] == {
        "kind": "input",
        "field": "a",
        "message": "Champ inconnu.",
    }
    # Brackets inside a string are text, not nesting.
    brackets = json.dumps({"expression": "[" * 40 + "{" * 40})
    error = answer("dice", brackets)["error"]
    assert error["field"] == "expression" and "position 1" in error["message"]
    items = [{"name": "]" * 5 + "[" * 30, "qty": 1}]
    assert answer("inventaire", json.dumps({"items": items}))["ok"] is True


@pytest.mark.parametrize(
    ("name", "text", "kind", "field"),
    [
        ("dice", '{"expression": "\\ud800"}', "input", "expression"),
        ("dice", '{"expression": "1d6+\\udfff"}', "input", "expression"),
        ("dice", '{"expression": "\ud800"}', "input", "expression"),  # the character itself
        (
            "inventaire",
            '{"items": [{"name": "dague \\ud83d", "qty": 1}]}',
            "input",
            "items[0].name",
        ),
        ("dice", '{"\\ud800": 1}', "input", "\ufffd"),
        ("\ud800", "{}", "calculator", None),
    ],
)
def test_lone_surrogates_are_a_french_message(
    name: str, text: str, kind: str, field: str | None
) -> None:
    found = answer(name, text)
    assert found["ok"] is False
    assert (found["error"]["kind"], found["error"]["field"]) == (kind, field)


def test_a_whole_surrogate_pair_is_a_character_like_any_other() -> None:
    items = [{"name": "dague \U0001f5e1", "qty": 1}]
    found = answer("inventaire", json.dumps({"items": items}))  # "\ud83d\udde1" in JSON
    assert found["ok"] is True
    assert found["outputs"]["names"] == ["dague \U0001f5e1"]


NAMES = st.sampled_from([str(entry["id"]) for entry in RULES.catalog()]) | any_text(8)


@settings(max_examples=200, deadline=None)
@given(name=NAMES, text=any_text(200))
def test_any_text_gets_a_structured_answer(name: str, text: str) -> None:
    answer(name, text)


@settings(max_examples=100, deadline=None)
@given(name=NAMES, inputs=st.dictionaries(any_text(10), JSON_VALUES))
def test_any_json_gets_a_structured_answer_never_an_internal_error(
    name: str, inputs: dict[str, object]
) -> None:
    found = answer(name, json.dumps(inputs))
    assert found["ok"] or found["error"]["kind"] != "internal", found


FIELDS = {str(e["id"]): [str(spec["name"]) for spec in e["inputs"]] for e in RULES.catalog()}


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(FIELDS)), data=st.data())
def test_any_values_of_known_fields_never_give_an_internal_error(
    name: str, data: st.DataObject
) -> None:
    inputs = data.draw(st.dictionaries(st.sampled_from(FIELDS[name]), JSON_VALUES))
    found = answer(name, json.dumps(inputs))
    assert found["ok"] or found["error"]["kind"] != "internal", (inputs, found)


def test_an_exception_of_the_rules_is_an_internal_error_never_a_traceback() -> None:
    def broken(values: Values) -> JsonDict:
        raise ZeroDivisionError("détail interne")

    module = ModuleType("essai_pont.casse")
    module.CALCULATORS = (  # type: ignore[attr-defined]
        Calculator("casse", "Cassé", "Toujours en erreur.", (), (), broken),
    )
    found = answer_of(RulesPackage("essai_pont", [module]).run_json, "casse", "{}")
    assert found["ok"] is False and found["error"]["kind"] == "internal"
    assert "détail interne" not in json.dumps(found, ensure_ascii=False)
