"""The JSON bridge the browser calls: same results as run(), errors as French messages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import catalog, run, run_json
from regles.kit.bridge import MAX_DEPTH


def test_bridge_returns_what_run_returns() -> None:
    inputs = {"expression": "2d6+3", "seed": 7}
    expected = json.loads(json.dumps(run("dice", inputs)))
    assert json.loads(run_json("dice", json.dumps(inputs))) == {"ok": True, "outputs": expected}


def test_input_errors_name_the_field() -> None:
    answer = json.loads(run_json("ability_modifier", '{"score": 99}'))
    assert answer["ok"] is False
    assert answer["error"]["kind"] == "input"
    assert answer["error"]["field"] == "score"
    assert "30" in answer["error"]["message"]


def test_unknown_calculator_and_bad_json_are_messages() -> None:
    assert json.loads(run_json("nope", "{}"))["error"]["kind"] == "calculator"
    assert json.loads(run_json("dice", "{"))["error"]["kind"] == "input"
    assert json.loads(run_json("dice", "[1]"))["error"]["kind"] == "input"
    assert json.loads(run_json("dice", "x" * 200_000))["error"]["kind"] == "input"


def answer_of(name: str, text: str) -> dict[str, Any]:
    """run_json's answer, checked to be what the worker can always carry and read."""
    answer = run_json(name, text)
    answer.encode("utf-8")  # no lone surrogate: the worker and the page get UTF-8
    parsed = json.loads(answer)
    assert isinstance(parsed, dict) and isinstance(parsed["ok"], bool)
    if not parsed["ok"]:
        error = parsed["error"]
        assert set(error) == {"kind", "field", "message"}
        assert error["kind"] in ("input", "calculator", "internal")
        assert isinstance(error["message"], str) and error["message"]
    return parsed


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
    answer = answer_of("encumbrance", text)
    assert answer == {
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
    assert answer_of("dice", at_limit)["error"] == {
        "kind": "input",
        "field": "a",
        "message": "Champ inconnu.",
    }
    # Brackets inside a string are text, not nesting.
    brackets = json.dumps({"expression": "[" * 40 + "{" * 40})
    error = answer_of("dice", brackets)["error"]
    assert error["field"] == "expression" and "position 1" in error["message"]
    items = [{"name": "]" * 5 + "[" * 70, "level": 1, "qty": 1}]
    assert answer_of("encumbrance", json.dumps({"items": items}))["ok"] is True


@pytest.mark.parametrize(
    ("name", "text", "kind", "field"),
    [
        ("dice", '{"expression": "\\ud800"}', "input", "expression"),
        ("dice", '{"expression": "1d6+\\udfff"}', "input", "expression"),
        ("dice", '{"expression": "\ud800"}', "input", "expression"),  # the character itself
        (
            "encumbrance",
            '{"items": [{"name": "dague \\ud83d", "level": 2, "qty": 1}]}',
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
    answer = answer_of(name, text)
    assert answer["ok"] is False
    assert (answer["error"]["kind"], answer["error"]["field"]) == (kind, field)


def test_a_whole_surrogate_pair_is_a_character_like_any_other() -> None:
    items = [{"name": "dague \U0001f5e1", "level": 2, "qty": 1}]
    answer = answer_of("encumbrance", json.dumps({"items": items}))  # "\ud83d\udde1" in JSON
    assert answer["ok"] is True
    assert answer["outputs"]["groups"][0]["label"] == "dague \U0001f5e1"


# Any character, with lone surrogates and JSON's own characters drawn often (text() of
# such an alphabet seldom keeps a surrogate: the characters are drawn one by one).
ANY_CHARACTER = (
    st.characters(codec=None, exclude_categories=())
    | st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"])
    | st.sampled_from('[]{}":,\\ 0123456789d+-')
)


def any_text(max_size: int) -> st.SearchStrategy[str]:
    return st.lists(ANY_CHARACTER, max_size=max_size).map("".join)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | any_text(12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(any_text(8), children, max_size=4)
    ),
    max_leaves=12,
)
NAMES = st.sampled_from([entry["id"] for entry in catalog()]) | any_text(8)


@settings(max_examples=300, deadline=None)
@given(name=NAMES, text=any_text(200))
def test_any_text_gets_a_structured_answer(name: str, text: str) -> None:
    answer_of(name, text)


@settings(max_examples=150, deadline=None)
@given(name=NAMES, inputs=st.dictionaries(any_text(10), JSON_VALUES))
def test_any_json_gets_a_structured_answer_never_an_internal_error(
    name: str, inputs: dict[str, object]
) -> None:
    answer = answer_of(name, json.dumps(inputs))
    assert answer["ok"] or answer["error"]["kind"] != "internal", answer


FIELDS = {entry["id"]: [spec["name"] for spec in entry["inputs"]] for entry in catalog()}


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(sorted(FIELDS)), data=st.data())
def test_any_values_of_known_fields_never_give_an_internal_error(
    name: str, data: st.DataObject
) -> None:
    inputs = data.draw(st.dictionaries(st.sampled_from(FIELDS[name]), JSON_VALUES))
    answer = answer_of(name, json.dumps(inputs))
    assert answer["ok"] or answer["error"]["kind"] != "internal", (inputs, answer)
