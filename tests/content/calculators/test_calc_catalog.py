"""Catalogue, validation des entrées JSON, robustesse de ``run`` et tables calculées."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators import catalog, rules, run
from regles.kit import (
    CalculatorError,
    CalculatorInputError,
    LimitExceededError,
    UnknownCalculatorError,
)
from regles.kit.schema import Field, validate

ROOT = Path(__file__).resolve().parents[3]

CALCULATOR_IDS = {
    *("ability_modifier", "proficiency_bonus", "d20_test", "damage", "healing"),
    *("death_saves", "grid", "dice", "encumbrance", "sentient_sword", "sword_control"),
    *("corruption", "alteration", "heroism_points", "ritual_time", "madness"),
}
ROLLING = {"dice", "sentient_sword", "alteration", "madness"}
TYPES = {"int", "float", "bool", "choice", "text", "list", "int_list"}
IDS = [entry["id"] for entry in catalog()]


def entry(calc_id: str) -> dict[str, object]:
    return next(e for e in catalog() if e["id"] == calc_id)


def test_catalog_ids() -> None:
    assert [e["id"] for e in catalog()] == sorted(CALCULATOR_IDS, key=IDS.index)
    assert set(IDS) == CALCULATOR_IDS


def test_an_optional_field_says_what_leaving_it_empty_means() -> None:
    # No hidden value: a field the reader may leave empty says so, and what happens then.
    for e in catalog():
        specs = [*e["inputs"], *(s for f in e["inputs"] for s in f.get("fields", []))]
        for spec in specs:
            if spec["required"] or spec["name"] == "seed" or spec["type"] == "bool":
                continue
            assert str(spec.get("help", "")).startswith("Facultatif"), (e["id"], spec["name"])


def test_catalog_is_json_and_fresh() -> None:
    data = catalog()
    assert json.loads(json.dumps(data)) == data
    data[0]["id"] = "changed"
    assert catalog()[0]["id"] != "changed"


def check_input(spec: dict[str, object]) -> None:
    for key in ("name", "label", "type", "min", "max", "default", "unit", "required"):
        assert key in spec, (spec.get("name"), key)
    assert isinstance(spec["name"], str) and spec["name"].isidentifier()
    assert isinstance(spec["label"], str) and spec["label"]
    assert spec["type"] in TYPES
    if spec["type"] == "choice":
        choices = spec["choices"]
        assert isinstance(choices, list) and choices
        assert all(set(c) == {"value", "label"} and c["label"] for c in choices)
        for start in ("default", "initial"):
            if spec.get(start) is not None:
                assert spec[start] in [c["value"] for c in choices], (spec["name"], start)
    if spec["type"] == "list":
        fields = spec["fields"]
        assert isinstance(fields, list) and fields
        assert isinstance(spec["max_items"], int)
        for sub in fields:
            check_input(sub)
    if spec["type"] == "int_list":
        assert isinstance(spec["max_items"], int)
    if spec["type"] in ("int", "float"):
        assert "step" in spec
    if spec["required"]:
        assert spec["default"] is not None, spec["name"]


@pytest.mark.parametrize("calc_id", IDS)
def test_catalog_entry_shape(calc_id: str) -> None:
    e = entry(calc_id)
    # No page: a calculator's home is wherever the site's content places its block.
    assert set(e) == {"id", "title", "description", "inputs", "outputs", "headline", "rolled"}
    names = [o["name"] for o in e["outputs"]]
    # What a reader looks for first, kept in view while the form is edited.
    assert e["headline"] and set(e["headline"]) <= set(names), e["headline"]
    # The draws of the dice are outputs of calculators that roll.
    assert set(e["rolled"]) <= set(names)
    assert not e["rolled"] or any(spec["name"] == "seed" for spec in e["inputs"])
    assert isinstance(e["title"], str) and e["title"]
    assert isinstance(e["description"], str) and e["description"].endswith(".")
    inputs = e["inputs"]
    assert isinstance(inputs, list) and inputs
    for spec in inputs:
        check_input(spec)
    names = [s["name"] for s in inputs]
    assert len(names) == len(set(names))
    assert ("seed" in names) == (calc_id in ROLLING)
    outputs = e["outputs"]
    assert isinstance(outputs, list) and outputs
    for out in outputs:
        assert set(out) - {"columns", "sentence", "chart"} == {"name", "label", "unit"}
        assert out["label"]
        assert out.get("sentence", True) is True
        for column in out.get("columns", []):
            assert set(column) == {"name", "label"} and column["label"]


@pytest.mark.parametrize("calc_id", IDS)
def test_table_outputs_name_keys_that_the_records_have(calc_id: str) -> None:
    entry = next(e for e in catalog() if e["id"] == calc_id)
    # What the form starts from: the worked example where there is one (an inventory).
    starts = {i["name"]: i.get("initial", i["default"]) for i in entry["inputs"]}
    result = run(calc_id, {k: v for k, v in starts.items() if v is not None})
    for out in entry["outputs"]:
        if "columns" not in out:
            continue
        records = result[out["name"]]
        assert isinstance(records, list) and records
        for record in records:
            assert {c["name"] for c in out["columns"]} <= set(record)


# The laws of chances the site draws as bar charts (regles/features/calculators/charts.py).
CHARTS = {
    "dice": "distribution",
    "death_saves": "outcomes",
    "sword_control": "will_gap",
    "corruption": "check_roll",
}


@pytest.mark.parametrize("calc_id", IDS)
def test_chart_outputs_describe_their_axes_and_chance(calc_id: str) -> None:
    charts = {o["name"]: o["chart"] for o in entry(calc_id)["outputs"] if "chart" in o}  # type: ignore[attr-defined]
    assert list(charts) == ([CHARTS[calc_id]] if calc_id in CHARTS else [])
    result = run(calc_id, {})
    for name, chart in charts.items():
        assert set(chart) == {"x_label", "y_label", "threshold", "chance", "chance_text", "at_most"}
        assert chart["at_most"] is False  # this site's games roll to reach a total
        assert chart["x_label"] and chart["y_label"] == "Chance"
        # What it names is in the answer: the chance (a probability), the threshold.
        assert chart["chance"] is None or (
            chart["chance"].startswith("p_") and chart["chance"] in result
        )
        assert chart["threshold"] is None or chart["threshold"] in result
        value = result[name]
        if value is None:
            continue
        assert isinstance(value, dict)
        assert set(value) in ({"totals", "p"}, {"labels", "p", "highlight"})
        keys = value.get("totals", value.get("labels"))
        assert isinstance(keys, list) and len(keys) == len(value["p"])
        assert abs(sum(value["p"]) - 1) < 1e-9
        if "totals" in value:
            assert value["totals"] == sorted(set(value["totals"]))


@pytest.mark.parametrize("calc_id", IDS)
def test_every_calculator_runs_with_its_defaults(calc_id: str) -> None:
    result = run(calc_id, {})
    text = json.dumps(result, allow_nan=False)
    assert json.loads(text) == result
    for out in entry(calc_id)["outputs"]:  # type: ignore[attr-defined]
        assert out["name"] in result


@pytest.mark.parametrize("calc_id", IDS)
def test_defaults_sent_explicitly_give_the_same_result(calc_id: str) -> None:
    specs = entry(calc_id)["inputs"]
    assert isinstance(specs, list)
    defaults: dict[str, object] = {s["name"]: s["default"] for s in specs}
    if "seed" in defaults:
        defaults["seed"] = 7
    defaults = {k: v for k, v in defaults.items() if v is not None}
    seeded: dict[str, object] = {"seed": 7} if calc_id in ROLLING else {}
    assert run(calc_id, defaults) == run(calc_id, seeded)


def test_unknown_calculator() -> None:
    with pytest.raises(UnknownCalculatorError) as info:
        run("fireball", {})
    assert "fireball" in info.value.message
    assert isinstance(info.value, CalculatorError)
    with pytest.raises(UnknownCalculatorError):
        run(None, {})  # type: ignore[arg-type]


def test_error_hierarchy() -> None:
    assert issubclass(LimitExceededError, CalculatorInputError)
    assert issubclass(CalculatorInputError, CalculatorError)
    assert issubclass(UnknownCalculatorError, CalculatorError)
    error = CalculatorInputError("score", "La valeur doit être comprise entre 1 et 30.")
    assert error.field == "score" and "score" in str(error)


@pytest.mark.parametrize(
    ("calc_id", "inputs", "field", "message"),
    [
        ("ability_modifier", {"score": 31}, "score", "La valeur doit être comprise entre 1 et 30."),
        ("ability_modifier", {"score": True}, "score", "La valeur doit être un nombre entier."),
        ("ability_modifier", {"score": 10.0}, "score", "La valeur doit être un nombre entier."),
        ("ability_modifier", {"score": "18"}, "score", "La valeur doit être un nombre entier."),
        ("ability_modifier", {"valeur": 18}, "valeur", "Champ inconnu."),
        ("proficiency_bonus", {"by": "class"}, "by", None),
        ("proficiency_bonus", {"level": 21}, "level", None),
        ("d20_test", {"mode": "double"}, "mode", None),
        ("d20_test", {"attack": "yes"}, "attack", None),
        ("d20_test", {"target": 0}, "target", None),
        ("damage", {"amount": -1}, "amount", None),
        ("damage", {"resistant": 0}, "resistant", None),
        ("healing", {"hp_max": 0}, "hp_max", None),
        ("death_saves", {"failures": -1}, "failures", None),
        ("grid", {"speed_m": []}, "speed_m", "La valeur doit être un nombre."),
        ("dice", {"expression": 2}, "expression", "La valeur doit être un texte."),
        ("dice", {"target": "5"}, "target", None),
        ("encumbrance", {"items": [{"qty": 1.5}]}, "items[0].qty", None),
        ("sentient_sword", {"special_purpose": None, "x": 1}, "x", None),
        ("sword_control", {"wielder_wis": 26}, "wielder_wis", None),
        ("corruption", {"spell_level": 0}, "spell_level", None),
        ("alteration", {"already_suffered": "1,2"}, "already_suffered", None),
        ("heroism_points", {"level": 0}, "level", None),
        ("ritual_time", {"spell_levels": [1, "2"]}, "spell_levels[1]", None),
        ("madness", {"seed": True}, "seed", None),
    ],
)
def test_bad_inputs(
    calc_id: str, inputs: dict[str, object], field: str, message: str | None
) -> None:
    with pytest.raises(CalculatorInputError) as info:
        run(calc_id, inputs)
    assert info.value.field == field
    assert info.value.message
    if message is not None:
        assert info.value.message == message


def test_inputs_must_be_an_object() -> None:
    bad: object
    for bad in ([], "score", 3, None):
        with pytest.raises(CalculatorInputError) as info:
            run("ability_modifier", bad)  # type: ignore[arg-type]
        assert info.value.field == "inputs"


def test_missing_required_field_without_default() -> None:
    specs = [Field("a", "A", "int", min=0, max=3), Field("b", "B", "int", required=False)]
    with pytest.raises(CalculatorInputError) as info:
        validate(specs, {})
    assert info.value.field == "a" and info.value.message == "Ce champ est obligatoire."
    values = validate(specs, {"a": 2})
    assert values.as_dict() == {"a": 2, "b": None}


def test_range_messages() -> None:
    with pytest.raises(CalculatorInputError) as info:
        validate([Field("n", "N", "int", min=-5)], {"n": -6})
    assert info.value.message == "La valeur doit être supérieure ou égale à −5."
    with pytest.raises(CalculatorInputError) as info:
        validate([Field("x", "X", "float", max=1.5)], {"x": 2})
    assert info.value.message == "La valeur doit être inférieure ou égale à 1,5."


# --- Fuzzing: any JSON gives a result or a CalculatorInputError ------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-40, 40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["2d6", "d%", "4d6kh3", "1/4", "0.5", "light_weapon", "advantage", "cr"]),
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def field_names(calc_id: str) -> list[str]:
    return [s["name"] for s in entry(calc_id)["inputs"]]  # type: ignore[attr-defined]


def check_run(calc_id: str, inputs: object) -> None:
    try:
        result = run(calc_id, inputs)  # type: ignore[arg-type]
    except CalculatorInputError as error:
        assert isinstance(error.field, str) and isinstance(error.message, str) and error.message
        return
    json.dumps(result, allow_nan=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(IDS), st.data())
def test_fuzz_run_with_known_fields(calc_id: str, data: st.DataObject) -> None:
    names = field_names(calc_id)
    inputs = data.draw(st.dictionaries(st.sampled_from(names), JSON, max_size=len(names)))
    check_run(calc_id, inputs)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(IDS), JSON)
def test_fuzz_run_with_any_json(calc_id: str, inputs: object) -> None:
    check_run(calc_id, inputs)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "name": JSON,
                "level": st.one_of(st.integers(-2, 9), JSON),
                "qty": st.one_of(st.integers(-1, 5000), JSON),
                "category": st.one_of(st.sampled_from(["coins", "ammo_container", "item"]), JSON),
                "size_steps": st.one_of(st.integers(-3, 3), JSON),
            },
        ),
        max_size=5,
    ),
    st.integers(-10, 40),
)
def test_fuzz_encumbrance_items(items: list[dict[str, object]], strength: int) -> None:
    check_run("encumbrance", {"items": items, "strength": strength})


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789dDkKhHlLxX×*+-−% %", max_size=30))
def test_fuzz_dice_expressions(text: str) -> None:
    check_run("dice", {"expression": text, "target": 10, "seed": 1})


# --- Stdlib only ------------------------------------------------------------------------


def test_package_imports_with_only_the_standard_library() -> None:
    code = (
        "import sys\n"
        "sys.path[:] = [p for p in sys.path if 'site-packages' not in p]"
        f" + [{str(ROOT)!r}, {str(ROOT / 'generator')!r}]\n"
        "import calculators, json\n"
        "out = calculators.run('dice', {'expression': '2d6+3'})\n"
        "json.dumps([calculators.catalog(), out, dict(calculators.rules.notes)])\n"
        "for t in calculators.rules.table_ids(): calculators.rules.table(t)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('hypothesis', 'pytest', 'yaml', 'mkdocs', 'markdown', 'jinja2')]\n"
        "assert not bad, bad\n"
        "print(out['min'], out['max'])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "5 15"


# --- Tables et notes ---------------------------------------------------------------------


def test_table_ids() -> None:
    assert rules.table_ids() == [
        "ability_modifiers",
        "proficiency_bonus",
        "encumbrance_limits",
        "sword_communication",
        "sword_powers",
        "corruption_tiers",
    ]
    with pytest.raises(KeyError):
        rules.table("nope")


@pytest.mark.parametrize("table_id", rules.table_ids())
def test_tables_are_rectangular_text(table_id: str) -> None:
    t = rules.table(table_id)
    assert t.caption and t.headers and t.rows
    for row in t.rows:
        assert len(row) == len(t.headers)
        assert all(isinstance(cell, str) and cell for cell in row)
    json.dumps(asdict(t))


def test_ability_modifiers_table_groups_like_the_srd() -> None:
    t = rules.table("ability_modifiers")
    assert t.headers == ["Valeur", "Modificateur"]
    assert t.rows[0] == ["1", "−5"]
    assert t.rows[1] == ["2–3", "−4"]
    assert t.rows[5] == ["10–11", "+0"]
    assert t.rows[-1] == ["30", "+10"]
    assert len(t.rows) == 16


def test_proficiency_table() -> None:
    t = rules.table("proficiency_bonus")
    assert [row[0] for row in t.rows[:5]] == ["1–4", "5–8", "9–12", "13–16", "17–20"]
    assert [row[-1] for row in t.rows[:5]] == ["+2", "+3", "+4", "+5", "+6"]


def test_encumbrance_limits_table() -> None:
    t = rules.table("encumbrance_limits")
    assert len(t.rows) == 8 and len(t.headers) == 2 + 5
    assert t.rows[2][:2] == ["2", "Léger"]
    assert t.rows[2][2:] == ["6/10/14", "7/11/15", "8/12/16", "9/13/17", "10/14/18"]


def test_notes() -> None:
    assert set(rules.notes) == {
        "encumbrance_strength_example",
        "corruption_tier_malus",
        "sword_languages_overlap",
    }
    for text in rules.notes.values():
        assert isinstance(text, str) and 0 < text.count(".") <= 3
    json.dumps(dict(rules.notes))
