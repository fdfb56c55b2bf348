"""A calculator's form as the build writes it (features/calculators/forms.py): its number
fields are text that a phone types with its number pad, their values written the French way.
How the page reads what is typed (« 7,5 », « 7.5 ») is tested in Chromium
(test_calculators_browser.py)."""

from __future__ import annotations

import html
import json
import re

import markdown
import pytest

from regles.features.calculators.forms import (
    Followed,
    markdown_table,
    number_text,
    wide_table,
    widget_form,
)
from regles.features.calculators.memory import memory_keys


@pytest.mark.parametrize(
    ("value", "text"), [(9.0, "9"), (7.5, "7,5"), (12, "12"), (-1.25, "-1,25"), ("", "")]
)
def test_a_number_is_written_as_a_french_reader_types_it(value: object, text: str) -> None:
    assert number_text(value) == text


def test_number_fields_are_text_with_the_pad_that_fits_them() -> None:
    entry = {
        "id": "essai",
        "title": "Essai",
        "description": "",
        "inputs": [
            {"name": "vitesse", "type": "float", "default": 9.0, "min": 0},
            {"name": "force", "type": "int", "default": 10, "min": 1},
            {"name": "bonus", "type": "int", "default": -1},
        ],
        "outputs": [],
    }
    form = widget_form(entry)
    inputs = {m.group(1): m.group(0) for m in re.finditer(r'<input [^>]*name="(\w+)"[^>]*>', form)}
    assert 'type="number"' not in form
    assert 'inputmode="decimal"' in inputs["vitesse"] and 'value="9"' in inputs["vitesse"]
    assert 'inputmode="numeric"' in inputs["force"]
    # A value that may be negative: the pad with the decimal comma, and a « ± » beside it
    # (no iOS pad has « - »): test_table_small.py.
    assert 'inputmode="decimal"' in inputs["bonus"] and 'value="-1"' in inputs["bonus"]


def _entry(calc_id: str, *inputs: dict[str, object]) -> dict[str, object]:
    return {"id": calc_id, "title": calc_id, "inputs": list(inputs), "outputs": []}


def test_a_field_named_and_labelled_alike_is_one_value_of_a_character() -> None:
    hp = {"name": "hp", "label": "Points de vie actuels", "type": "int", "default": 10}
    wounds = _entry(
        "blessure", hp, {"name": "amount", "label": "Dégâts subis", "type": "int", "default": 1}
    )
    healing = _entry(
        "soins",
        hp,
        {"name": "amount", "label": "Points de vie récupérés", "type": "int", "default": 1},
        {"name": "seed", "label": "Graine", "type": "int", "default": None},
    )
    keys = memory_keys([wounds, healing])
    # Shared: its name first, its calculator's own key after (what it kept before sharing).
    assert keys["blessure"]["hp"] == keys["soins"]["hp"].replace("soins", "blessure")
    assert keys["soins"]["hp"] == "hp soins.hp"
    # One name, two labels: two values. A draw of the dice is never kept.
    assert keys["blessure"]["amount"] == "blessure.amount"
    assert keys["soins"]["amount"] == "soins.amount"
    assert "seed" not in keys["soins"]


def test_a_form_names_where_each_field_is_kept_and_its_value_without_the_example() -> None:
    entry = _entry(
        "charge",
        {"name": "strength", "label": "Force", "type": "int", "default": 10},
        {
            "name": "armor",
            "label": "Armure",
            "type": "choice",
            "default": "none",
            "initial": "medium",
            "choices": [
                {"value": "none", "label": "Aucune"},
                {"value": "medium", "label": "Intermédiaire"},
            ],
        },
        {
            "name": "items",
            "label": "Objets",
            "type": "list",
            "default": [],
            "initial": [{"name": "dague"}],
            "fields": [{"name": "name", "label": "Objet", "type": "text", "default": "objet"}],
        },
    )
    form = widget_form(entry, memory=memory_keys([entry])["charge"])
    strength = re.search(r'<input [^>]*name="strength"[^>]*>', form)
    armor = re.search(r'<select [^>]*name="armor"[^>]*>', form)
    items = re.search(r'<fieldset [^>]*data-liste="items"[^>]*>', form)
    assert strength and armor and items
    assert 'data-garde="charge.strength"' in strength.group(0)
    assert "data-sans-exemple" not in strength.group(0)  # it starts from its default
    assert 'data-sans-exemple="&quot;none&quot;"' in armor.group(0)
    assert 'data-sans-exemple="[]"' in items.group(0)
    assert 'value="dague"' in form  # the example's row is the one the form starts from
    assert "data-garde" not in widget_form(entry)  # without memory, nothing is kept


def test_a_list_offers_its_presets_by_name_and_shows_a_field_only_where_it_counts() -> None:
    fields = [
        {"name": "name", "label": "Objet", "type": "text", "default": "objet"},
        {
            "name": "kind",
            "label": "Sorte",
            "type": "choice",
            "default": "item",
            "choices": [{"value": "item", "label": "Objet"}, {"value": "coins", "label": "Pièces"}],
        },
        {
            "name": "level",
            "label": "Niveau",
            "type": "int",
            "default": 2,
            "shown_if": {"field": "kind", "values": ["item"]},
        },
    ]
    presets = [{"name": "pavois", "level": 5, "kind": "item"}, {"name": "or", "kind": "coins"}]
    entry = _entry(
        "sac",
        {
            "name": "items",
            "label": "Objets",
            "type": "list",
            "default": [{"name": "corde"}],
            "fields": fields,
            "presets": presets,
        },
    )
    form = widget_form(entry)
    datalist = re.search(r'<datalist id="([^"]+)" data-modeles="([^"]+)">(.*?)</datalist>', form)
    assert datalist is not None
    # Closed: a reader of the page (the search's indexer) must not see them left open.
    offered = re.findall(r'<option value="([^"]+)"></option>', datalist.group(3))
    assert offered == ["pavois", "or"]
    assert json.loads(html.unescape(datalist.group(2))) == presets
    # The rows' name field (the first text field) offers them, in the page and in new rows.
    names = re.findall(r'<input [^>]*name="name"[^>]*>', form)
    assert len(names) == 2 and all(f'list="{datalist.group(1)}"' in n for n in names)
    levels = re.findall(r'<div class="champ"([^>]*)><label[^>]*>Niveau', form)
    assert levels and all('data-si="kind"' in a and "[&quot;item&quot;]" in a for a in levels)


def test_a_computed_table_says_its_key_columns_and_the_value_it_follows() -> None:
    markdown = "| A | B | C |\n| --- | --- | --- |\n| 1 | 2 | 3 |"
    plain = wide_table(markdown)
    assert plain.startswith('<div class="table-calculee" data-cles="1" markdown="1">')
    assert markdown in plain and "data-selon" not in plain
    followed = wide_table(markdown, 2, Followed("charge.strength", {17: 2, 18: 2, 3: 1}, 18, 10))
    attrs = re.match(r"<div ([^>]*)>", followed)
    assert attrs is not None
    assert 'data-cles="2"' in attrs.group(1)
    assert 'data-selon="charge.strength"' in attrs.group(1)
    assert 'data-depart="18"' in attrs.group(1)
    assert 'data-sans-exemple="10"' in attrs.group(1)
    columns = re.search(r'data-colonnes="([^"]+)"', attrs.group(1))
    assert columns is not None
    assert json.loads(html.unescape(columns.group(1))) == {"17": 2, "18": 2, "3": 1}


def test_a_computed_tables_cells_are_text() -> None:
    """What the rules code computes is shown as it says it, never read as markup."""
    table = markdown_table(["Jet | total", "Dés"], [["<b>x</b> *y* _z_", "1d6+2"]])
    rendered = markdown.markdown(table, extensions=["tables"])
    cells = re.findall(r"<t[hd]>(.*?)</t[hd]>", rendered)
    assert [html.unescape(cell) for cell in cells] == [
        "Jet | total",
        "Dés",
        "<b>x</b> *y* _z_",
        "1d6+2",
    ]


def test_the_dice_calculator_offers_its_examples_as_dice_that_roll_at_once() -> None:
    # Each example is a die as the pages write it (dice_buttons.py): its terms and its law
    # as the kit gives them, so that it rolls, with its chances, before Python.
    from regles.features.calculators.dice_buttons import written_law, written_terms
    from regles.kit.generic import rules

    entry = next(e for e in rules.catalog() if e["id"] == "dice")
    field = next(spec for spec in entry["inputs"] if spec["name"] == "expression")
    examples = field["dice_examples"]
    assert {"1d20", "2d6+3", "4d6kh3", "d%"} <= set(examples)
    form = widget_form(entry)
    row = re.search(r'<p class="champ-des">.*?</p>', form)
    assert row is not None
    assert html.unescape(re.sub(r"<[^>]+>", "", row.group(0))).split() == [
        "Jets",
        "rapides",
        ":",
        *examples,
    ]
    dice = re.findall(r"<button [^>]*>", row.group(0))
    assert len(dice) == len(examples)
    for button, expression in zip(dice, examples, strict=True):
        attributes = {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', button)}
        assert attributes["class"] == "de" and attributes["data-de"] == expression
        assert attributes["data-de-termes"] == written_terms(expression)
        assert attributes["data-de-loi"] == written_law(expression)


def test_a_dice_example_the_kit_refuses_stops_the_calculator_at_its_definition() -> None:
    from regles.kit.schema import Field

    with pytest.raises(ValueError, match=r"« 2d6\+\+3 » est refusé : .*position 5"):
        Field("expression", "Expression", "text", dice_examples=("1d20", "2d6++3"))
    with pytest.raises(ValueError, match="demandent un texte"):
        Field("force", "Force", "int", dice_examples=("1d20",))
