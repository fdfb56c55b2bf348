"""This site's calculators in Chromium, on the site built from mkdocs.yml: Pyodide gives what
CPython gives on the documents' worked examples, and the encumbrance form reads as a player
fills it in. (The calculators' machinery is the generator's, tested on its own test site:
tests/test_calculators_browser.py, tests/test_calculators_answer_browser.py.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

import calculators
from tests.conftest import assert_cells_within, browser_run, wait_for_python

pytestmark = [pytest.mark.browser, pytest.mark.python]

CATALOG = {str(entry["id"]): entry for entry in calculators.catalog()}
WIDTH, HEIGHT = 360, 800

# Inputs shared by CPython and the browser: defaults, the documents' worked examples,
# and seeded rolls (the same seed gives the same roll in both). The kit's dice are tried on
# their costliest laws by tests/test_calculators_browser.py.
SHARED_INPUTS: list[tuple[str, dict[str, Any]]] = [
    *[
        (entry["id"], {})
        for entry in calculators.catalog()
        if not any(i["name"] == "seed" for i in entry["inputs"])
    ],
    *[
        (entry["id"], {"seed": 12345})
        for entry in calculators.catalog()
        if any(i["name"] == "seed" for i in entry["inputs"])
    ],
    ("ability_modifier", {"score": 18}),
    (
        "damage",
        {
            "hp": 30,
            "hp_max": 30,
            "amount": 28,
            "adjustment": -5,
            "resistant": True,
            "vulnerable": True,
        },
    ),
    ("damage", {"hp": 6, "hp_max": 12, "amount": 18}),
    ("damage", {"hp": 20, "hp_max": 20, "temp_hp": 5, "amount": 7}),
    ("healing", {"hp": 14, "hp_max": 20, "amount": 8}),
    ("grid", {"speed_m": 9}),
    ("heroism_points", {"level": 5}),
    ("ritual_time", {"spell_levels": [1, 1, 2]}),
    ("d20_test", {"modifier": 5, "target": 15, "mode": "advantage", "attack": True}),
    ("death_saves", {"successes": 1, "failures": 2}),
    (
        "sword_control",
        {
            "sword_int": 12,
            "ego": 12,
            "extraordinary_powers": 1,
            "alignments_differ": True,
            "wielder_str": 16,
            "wielder_wis": 9,
            "wounded": "below_half",
        },
    ),
    (
        "encumbrance",
        {
            "strength": 18,
            "items": [
                {"name": "dague", "level": 2, "qty": 10},
                {"name": "ration", "level": 2, "qty": 6},
                {"name": "potion", "level": 1, "qty": 30},
            ],
            "armor": "medium",
        },
    ),
    ("madness", {"situation": "insoutenable", "current_points": 9, "wis": 10, "seed": 3}),
]


@pytest.fixture(scope="module")
def page(tools_page: Any) -> Any:
    return tools_page


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


@pytest.mark.parametrize(("name", "inputs"), SHARED_INPUTS, ids=lambda v: str(v)[:40])
def test_browser_gives_what_cpython_gives(page: Any, name: str, inputs: dict[str, Any]) -> None:
    expected = json.loads(json.dumps(calculators.run(name, inputs)))
    assert browser_run(page, name, inputs) == {"ok": True, "outputs": expected}


def test_every_calculator_is_covered_by_the_shared_inputs() -> None:
    assert {name for name, _ in SHARED_INPUTS} == set(CATALOG)


def test_encumbrance_reads_as_a_player_fills_it_in(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    page.goto(site_url + "maison/poids-transportable/")
    wait_for_python(page)
    form = page.locator("form[data-calculateur='encumbrance']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    # A weapon's level is its category's: its row does not show one.
    expect(form.locator(".liste-ligne").first.locator("select[name='level']")).to_be_hidden()
    # An object of the rules typed by its name takes its level (chosen by its name, the
    # rules receive its number) and its category.
    form.locator(".liste-ajouter").tap()
    shield = form.locator(".liste-ligne").last
    # The new row's name has the focus, its default selected: typing replaces it.
    expect(shield.locator("input[name='name']")).to_be_focused()
    page.keyboard.type("Pavois")
    expect(shield.locator("input[name='name']")).to_have_value("Pavois")
    level = shield.locator("select[name='level']")
    expect(level).to_have_value("5")
    names = level.evaluate("(select) => [...select.options].map((o) => o.text)")
    assert names[:3] == ["Insignifiant", "Négligeable", "Léger"]
    expect(shield.locator("select[name='category']")).to_have_value("item")
    form.locator(".liste-ajouter").click()
    row = form.locator(".liste-ligne").last
    row.locator("input[name='name']").fill("po")
    row.locator("select[name='category']").select_option("coins")
    expect(row.locator("select[name='level']")).to_be_hidden()
    row.locator("input[name='qty']").fill("150")
    table = form.locator("table[data-sortie='groups']")
    table.filter(has_text="150 pièces").wait_for(timeout=60000)
    items = [dict(r) for r in CATALOG["encumbrance"]["inputs"][2]["initial"]]
    items.append({"name": "Pavois", "level": 5, "qty": 1, "category": "item", "size_steps": 0})
    items.append({"name": "po", "level": 2, "qty": 150, "category": "coins", "size_steps": 0})
    expected = calculators.run("encumbrance", {"strength": 18, "items": items, "armor": "medium"})
    groups = expected["groups"]
    assert isinstance(groups, list)
    rows = table.locator("tbody tr").all()
    assert [r.locator("td").first.inner_text() for r in rows] == [g["names_text"] for g in groups]
    assert "dague (armes légères)" in table.inner_text()  # names, not only categories
    assert "150 pièces : 2 unités de 100" in table.inner_text()
    # At 360 px every cell, the load above all, is on the screen: nothing to scroll sideways.
    assert_cells_within(page, table, WIDTH)
    adjustment = form.locator("output[name='adjustment_text']").inner_text()
    assert adjustment == expected["adjustment_text"] and "Force +4" in adjustment
