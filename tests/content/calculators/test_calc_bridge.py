"""This site's calculators through the JSON bridge the browser calls: the same results as
run(), and a French message, never an internal error, whatever is sent to them. (The bridge
itself is the kit's: tests/kit/test_kit_bridge.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import catalog, run, run_json
from tests.kit.json_answers import JSON_VALUES, answer_of, any_text

IDS = [str(entry["id"]) for entry in catalog()]


def answer(name: str, text: str) -> dict[str, Any]:
    return answer_of(run_json, name, text)


@pytest.mark.parametrize("calc_id", IDS)
def test_bridge_returns_what_run_returns(calc_id: str) -> None:
    entry = next(e for e in catalog() if e["id"] == calc_id)
    inputs = {"seed": 7} if any(i["name"] == "seed" for i in entry["inputs"]) else {}
    expected = json.loads(json.dumps(run(calc_id, inputs)))
    assert answer(calc_id, json.dumps(inputs)) == {"ok": True, "outputs": expected}


def test_input_errors_name_the_field() -> None:
    found = answer("ability_modifier", '{"score": 99}')
    assert found["ok"] is False
    assert found["error"]["kind"] == "input"
    assert found["error"]["field"] == "score"
    assert "30" in found["error"]["message"]


def test_an_inventory_line_with_a_lone_surrogate_names_its_field() -> None:
    text = '{"items": [{"name": "dague \\ud83d", "level": 2, "qty": 1}]}'
    found = answer("encumbrance", text)
    assert found["ok"] is False
    assert (found["error"]["kind"], found["error"]["field"]) == ("input", "items[0].name")


def test_a_whole_surrogate_pair_is_a_character_like_any_other() -> None:
    items = [{"name": "dague \U0001f5e1", "level": 2, "qty": 1}]
    found = answer("encumbrance", json.dumps({"items": items}))  # "\ud83d\udde1" in JSON
    assert found["ok"] is True
    assert found["outputs"]["groups"][0]["label"] == "dague \U0001f5e1"


NAMES = st.sampled_from(IDS) | any_text(8)


@settings(max_examples=300, deadline=None)
@given(name=NAMES, text=any_text(200))
def test_any_text_gets_a_structured_answer(name: str, text: str) -> None:
    answer(name, text)


@settings(max_examples=150, deadline=None)
@given(name=NAMES, inputs=st.dictionaries(any_text(10), JSON_VALUES))
def test_any_json_gets_a_structured_answer_never_an_internal_error(
    name: str, inputs: dict[str, object]
) -> None:
    found = answer(name, json.dumps(inputs))
    assert found["ok"] or found["error"]["kind"] != "internal", found


FIELDS = {str(e["id"]): [str(spec["name"]) for spec in e["inputs"]] for e in catalog()}


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(sorted(FIELDS)), data=st.data())
def test_any_values_of_known_fields_never_give_an_internal_error(
    name: str, data: st.DataObject
) -> None:
    inputs = data.draw(st.dictionaries(st.sampled_from(FIELDS[name]), JSON_VALUES))
    found = answer(name, json.dumps(inputs))
    assert found["ok"] or found["error"]["kind"] != "internal", (inputs, found)
