"""The JSON bridge the browser calls: same results as run(), errors as French messages."""

from __future__ import annotations

import json

from calculators import run, run_json


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
