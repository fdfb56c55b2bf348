"""Règle maison du poids transportable : limites, Force, catégories et charge finale."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import catalog, rules, run
from calculators.encumbrance import (
    LEVELS,
    PRESET_CATEGORIES,
    PRESET_ITEMS,
    Item,
    effective_level,
    final_load,
    group_items,
    limits,
    load_for,
    strength_adjustment,
)
from regles.kit import CalculatorInputError, LimitExceededError


def item(name: str, level: int, qty: int, **extra: object) -> dict[str, object]:
    return {"name": name, "level": level, "qty": qty, **extra}


def test_base_limits_are_those_of_the_document(seed_lines: Callable[[str], list[str]]) -> None:
    text = "\n".join(seed_lines("004"))
    for level in LEVELS:
        light, medium, heavy = level.base
        assert f"{light}/{medium}/{heavy}" in text
    assert [str(limits(n, 0)) for n in range(8)] == [
        "32/48/64",
        "16/24/32",
        "8/12/16",
        "4/6/8",
        "2/3/4",
        "0/1/2",
        "0/0/1",
        "0/0/0",
    ]


@pytest.mark.parametrize(
    ("modifier", "adjustment"),
    [(-5, -2), (-4, -1), (-1, -1), (0, 0), (3, 0), (4, 1), (7, 1), (8, 2), (10, 2)],
)
def test_strength_adjustment_is_floor_of_quarter(modifier: int, adjustment: int) -> None:
    assert strength_adjustment(modifier) == adjustment


def test_strength_18_light_object_follows_the_rule_9_13_17() -> None:
    # The document's example says 9/13/16; the rule text gives 9/13/17 (see rules.notes).
    assert str(limits(2, 4)) == "9/13/17"
    assert "9/13/17" in rules.notes["encumbrance_strength_example"]
    assert "9/13/16" in rules.notes["encumbrance_strength_example"]


def test_penalty_keeps_maximum_at_least_one() -> None:
    assert str(limits(4, -5)) == "0/1/2"
    assert str(limits(5, -5)) == "0/0/1"
    assert str(limits(6, -1)) == "0/0/1"


def test_level_7_stays_impossible() -> None:
    assert str(limits(7, 10)) == "0/0/0"
    assert str(limits(7, -5)) == "0/0/0"
    assert load_for(1, limits(7, 10)) == "over"


def test_bonus_applies_to_zero_limits() -> None:
    assert str(limits(5, 4)) == "1/2/3"
    assert str(limits(6, 8)) == "2/2/3"


def test_document_example_loads() -> None:
    # 10 daggers (medium), 6 rations (light), 30 potions (heavy), scale mail (medium).
    result = run(
        "encumbrance",
        {
            "strength": 18,
            "items": [
                item("dague", 2, 10, category="light_weapon"),
                item("ration", 2, 6),
                item("potion", 1, 30),
            ],
            "armor": "medium",
        },
    )
    groups = result["groups"]
    assert isinstance(groups, list)
    loads = {g["label"]: g["load"] for g in groups}
    assert loads == {"Armes légères": "medium", "ration": "light", "potion": "heavy"}
    assert result["load"] == "heavy"
    assert result["load_label"] == "Lourde"
    assert result["adjustment"] == 1


def test_document_example_without_strength() -> None:
    # "8 armes légères ... 8 rations, 8 flasques d'eau et 8 torches en restant en charge légère"
    items = [
        item("dague", 2, 2, category="light_weapon"),
        item("hache de lancer", 2, 2, category="light_weapon"),
        item("épée courte", 2, 4, category="light_weapon"),
        item("ration", 2, 8),
        item("flasque d’eau", 2, 8),
        item("torche", 2, 8),
    ]
    result = run("encumbrance", {"strength": 10, "items": items, "armor": "none"})
    assert result["load"] == "light"
    groups = result["groups"]
    assert isinstance(groups, list)
    weapons = [g for g in groups if g["category"] == "light_weapon"]
    assert len(weapons) == 1 and weapons[0]["units"] == 8
    # One more light weapon tips the shared limit into medium load.
    items.append(item("dague", 2, 1, category="light_weapon"))
    assert run("encumbrance", {"strength": 10, "items": items, "armor": "none"})["load"] == "medium"


def test_items_are_limited_per_line() -> None:
    items = [item("corde", 3, 4), item("lanterne", 3, 4)]
    assert run("encumbrance", {"strength": 10, "items": items, "armor": "none"})["load"] == "light"


def test_coins_count_one_unit_per_hundred_under_one_limit() -> None:
    def load(*quantities: int) -> object:
        items = [item(f"po{i}", 0, q, category="coins") for i, q in enumerate(quantities)]
        return run("encumbrance", {"strength": 10, "items": items, "armor": "none"})["load"]

    assert load(1600) == "light"
    assert load(1000, 600) == "light"
    assert load(1000, 601) == "medium"
    assert load(3200) == "heavy"
    assert load(3201) == "over"


def test_ammunition_containers_are_medium_under_one_limit() -> None:
    items = [
        item("carquois de flèches", 0, 2, category="ammo_container"),
        item("sac de billes", 0, 2, category="ammo_container"),
    ]
    result = run("encumbrance", {"strength": 10, "items": items, "armor": "none"})
    groups = result["groups"]
    assert isinstance(groups, list)
    assert [g["level"] for g in groups] == [3]
    assert result["load"] == "light"
    items.append(item("carquois de carreaux", 0, 1, category="ammo_container"))
    assert run("encumbrance", {"strength": 10, "items": items, "armor": "none"})["load"] == "medium"


def test_size_steps_shift_levels() -> None:
    longsword = Item("épée longue", 3, 1, "one_handed_weapon")
    assert effective_level(longsword) == 3
    assert effective_level(Item("épée longue", 3, 1, "one_handed_weapon", size_steps=1)) == 4
    assert effective_level(Item("épée longue", 3, 1, "one_handed_weapon", size_steps=-1)) == 2
    assert effective_level(Item("coffre", 6, 1, size_steps=2)) == 7
    assert effective_level(Item("plume", 0, 1, size_steps=-2)) == 0


def test_category_fixes_the_level() -> None:
    assert effective_level(Item("armure de cuir", 0, 1, "light_armor")) == 4
    assert effective_level(Item("cotte de mailles", 0, 1, "heavy_armor")) == 6


def test_armor_alone_sets_the_load() -> None:
    for armor, load in (
        ("none", "light"),
        ("light", "light"),
        ("medium", "medium"),
        ("heavy", "heavy"),
    ):
        assert run("encumbrance", {"items": [], "armor": armor})["load"] == load


def test_a_call_that_names_no_armor_means_none() -> None:
    # Absent is "no armour", as final_load's own default: nothing weighs but what is carried.
    result = run("encumbrance", {"items": []})
    assert result["load"] == "light"
    assert result["armor_load"] == "light" and result["armor_load_label"] == "Légère"
    assert run("encumbrance", {"items": []}) == run("encumbrance", {"items": [], "armor": "none"})
    light = [item("dague", 2, 1)]
    assert run("encumbrance", {"items": light, "armor": None})["load"] == "light"


def test_the_form_starts_from_the_worked_example() -> None:
    from regles.features.calculators.forms import widget_form

    entry = next(e for e in catalog() if e["id"] == "encumbrance")
    armor = next(spec for spec in entry["inputs"] if spec["name"] == "armor")
    # run() without the field: no armour; the form: the document's "armure d'écaille".
    assert armor["default"] == "none" and armor["initial"] == "medium"
    form = widget_form(entry)
    select = form[form.index('<select id="calc-encumbrance-armor"') :]
    select = select[: select.index("</select>")]
    assert re.findall(r'<option value="(\w+)"[^>]* selected>', select) == ["medium"]


def test_final_load_is_the_highest_not_a_sum() -> None:
    groups = group_items([Item("a", 2, 9), Item("b", 2, 9)], 0)
    assert final_load(groups, "medium") == "medium"


def test_strength_modifier_override() -> None:
    result = run("encumbrance", {"strength": 3, "strength_modifier": 8, "items": []})
    assert result["strength_modifier"] == 8 and result["adjustment"] == 2


def test_zero_quantity_does_not_count() -> None:
    assert final_load(group_items([Item("rien", 7, 0)], 0)) == "light"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 7), st.integers(-5, 9))
def test_limits_never_decrease_with_strength(level: int, modifier: int) -> None:
    weaker, stronger = limits(level, modifier), limits(level, modifier + 1)
    assert weaker.light <= stronger.light
    assert weaker.medium <= stronger.medium
    assert weaker.heavy <= stronger.heavy
    assert weaker.light <= weaker.medium <= weaker.heavy


def test_encumbrance_errors() -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"strength": 0}, "strength"),
        ({"strength": True}, "strength"),
        ({"items": "dague"}, "items"),
        ({"items": ["dague"]}, "items[0]"),
        ({"items": [item("dague", 8, 1)]}, "items[0].level"),
        ({"items": [item("dague", 2, -1)]}, "items[0].qty"),
        ({"items": [item("dague", 2, 1, category="sword")]}, "items[0].category"),
        ({"items": [item("dague", 2, 1, size_steps=3)]}, "items[0].size_steps"),
        ({"items": [item("dague", 2, 1, colour="red")]}, "items[0].colour"),
        ({"armor": "mithril"}, "armor"),
        ({"strength_modifier": 11}, "strength_modifier"),
    ]
    for inputs, field in cases:
        with pytest.raises(CalculatorInputError) as info:
            run("encumbrance", inputs)
        assert info.value.field == field, inputs


def test_too_many_items_is_a_limit() -> None:
    with pytest.raises(LimitExceededError) as info:
        run("encumbrance", {"items": [item("x", 0, 1)] * 101})
    assert info.value.field == "items"


def test_lines_of_the_same_object_count_under_one_limit() -> None:
    # Two lines of 8 torches are 16 torches: over the medium limit of 12 (Force 10), heavy.
    items = [item("torche", 2, 8), item("Torche ", 2, 8), item("corde", 2, 8)]
    result = run("encumbrance", {"strength": 10, "items": items, "armor": "none"})
    groups = result["groups"]
    assert isinstance(groups, list)
    assert [(g["names_text"], g["units"], g["load"]) for g in groups] == [
        ("torche", 16, "heavy"),
        ("corde", 8, "light"),
    ]
    assert result["load"] == "heavy"


def test_detail_keeps_the_names_and_counts_coins_as_coins() -> None:
    items = [
        item("dague", 2, 2, category="light_weapon"),
        item("épée courte", 2, 1, category="light_weapon"),
        item("po", 0, 150, category="coins"),
        item("pa", 0, 50, category="coins"),
    ]
    result = run("encumbrance", {"strength": 10, "items": items, "armor": "none"})
    groups = result["groups"]
    assert isinstance(groups, list)
    shown = {g["names_text"]: g["quantity_text"] for g in groups}
    assert shown == {
        "dague, épée courte (armes légères)": "3",
        "po, pa (pièces)": "200 pièces : 2 unités de 100",
    }
    one = run("encumbrance", {"strength": 10, "items": [item("po", 0, 40, category="coins")]})
    assert isinstance(one["groups"], list)
    assert one["groups"][0]["quantity_text"] == "40 pièces : 1 unité de 100"


@pytest.mark.parametrize(
    ("strength", "text"),
    [
        (18, "+1 à chaque limite (modificateur de Force +4, divisé par 4, arrondi à l’inférieur)"),
        (14, "aucun (modificateur de Force +2, divisé par 4, arrondi à l’inférieur)"),
        (
            8,
            "\u22121 à chaque limite (modificateur de Force \u22121, divisé par 4, "
            "arrondi à l’inférieur)",
        ),
    ],
)
def test_adjustment_is_explained_in_words(strength: int, text: str) -> None:
    assert run("encumbrance", {"strength": strength, "items": []})["adjustment_text"] == text


def test_level_is_chosen_by_its_name_and_stays_a_number() -> None:
    (entry,) = [c for c in catalog() if c["id"] == "encumbrance"]
    items = next(spec for spec in entry["inputs"] if spec["name"] == "items")
    level = next(spec for spec in items["fields"] if spec["name"] == "level")
    assert level["type"] == "int"
    assert [c["label"] for c in level["choices"]] == [lv.name for lv in LEVELS]
    assert [c["value"] for c in level["choices"]] == [str(lv.number) for lv in LEVELS]
    with pytest.raises(CalculatorInputError) as info:
        run("encumbrance", {"strength": 10, "items": [item("x", 8, 1)]})
    assert info.value.field == "items[0].level"


def _mention(name: str) -> re.Pattern[str]:
    """A name as the document may write it: any case, each word singular or plural
    (« bijou », « bijoux », « haches de lancer »), « d’ » or « d' »."""
    words = name.lower().replace("’", "'").split()
    return re.compile(r"\s+".join(re.escape(w.rstrip("sx")) + "[sx]?" for w in words))


def test_objects_offered_by_name_are_the_documents_examples(
    seed_lines: Callable[[str], list[str]],
) -> None:
    lines = seed_lines("004")
    text = "\n".join(lines).lower().replace("’", "'")
    for level, names in PRESET_ITEMS.items():
        # The examples follow the level's heading line (« 3) Encombrement moyen… »).
        (heading,) = [i for i, line in enumerate(lines) if line.startswith(f"{level}) ")]
        examples = " ".join(lines[heading + 1 : heading + 3]).lower().replace("’", "'")
        for name in names:
            assert _mention(name).search(examples), (level, name)
    for category, names in PRESET_CATEGORIES.items():
        for name in names:
            assert _mention(name).search(text), (category, name)


def test_an_object_typed_by_name_counts_as_the_document_says() -> None:
    entry = next(e for e in catalog() if e["id"] == "encumbrance")
    (items,) = [i for i in entry["inputs"] if i["name"] == "items"]
    presets = {p["name"]: p for p in items["presets"]}
    assert presets["pavois"] == {"name": "pavois", "level": 5, "category": "item"}
    assert presets["targe"]["level"] == 3 and presets["écu"]["level"] == 4
    assert presets["dague"]["category"] == "light_weapon"
    # A weapon's level is its category's: the form shows the level only for plain objects.
    (level,) = [f for f in items["fields"] if f["name"] == "level"]
    assert level["shown_if"] == {"field": "category", "values": ["item"]}
    shield = {**presets["pavois"], "qty": 1}
    assert run("encumbrance", {"strength": 10, "items": [shield], "armor": "none"})["load"] == (
        "medium"
    )
