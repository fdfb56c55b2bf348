"""A calculator at the table, in Chromium: its answer is in the page before Python, kept in
view while its fields are edited, and never computed from a value the reader cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from regles.features.calculators.formatting import format_number, format_percent, format_value
from tests.conftest import assert_cells_within, rules_of_test_site, wait_for_python

pytestmark = [pytest.mark.browser, pytest.mark.python]

RULES = rules_of_test_site()  # tests/site/regles_essai, the test site's calculators
CATALOG = {str(entry["id"]): entry for entry in RULES.catalog()}
TEXTS = """(form) => Object.fromEntries([...form.querySelectorAll("dl output[name]")]
    .map((o) => [o.getAttribute("name"), o.textContent]))"""
WIDTH, HEIGHT = 360, 800


def default_inputs(entry: dict[str, Any]) -> dict[str, Any]:
    """The values a form starts from: the worked example's (`initial`), else the default."""
    starts = {s["name"]: s.get("initial", s["default"]) for s in entry["inputs"]}
    inputs = {name: value for name, value in starts.items() if value is not None}
    return {**inputs, **({"seed": 0} if any(s["name"] == "seed" for s in entry["inputs"]) else {})}


def expected_texts(calc_id: str) -> dict[str, str]:
    """What the page shows for a calculator's default values: its outputs as the page
    writes them, but for the draws of the dice, which wait for the reader to roll."""
    entry = CATALOG[calc_id]
    outputs = RULES.run(calc_id, default_inputs(entry))
    rolled = set(entry["rolled"])
    return {
        str(o["name"]): "—" if o["name"] in rolled else format_value(o["name"], outputs)
        for o in entry["outputs"]
        if not o.get("columns") and not o.get("chart")  # a table, a chart: no one value
    }


def forms_of_tools_page(page: Any, site_url: str) -> Iterator[tuple[str, Any]]:
    """Each calculator of the tools page, Python ready, brought into view and set up."""
    page.goto(site_url + "outils/")
    wait_for_python(page)
    for form in page.locator("form.calculateur").all():
        form.scroll_into_view_if_needed()
        form.and_(page.locator("[data-pret]")).wait_for()
        yield str(form.get_attribute("data-calculateur")), form


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


def test_every_form_reads_whole_without_javascript(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "outils/")
    forms = page.locator("form.calculateur")
    assert forms.count() == len(CATALOG)
    for form in forms.all():
        calc_id = str(form.get_attribute("data-calculateur"))
        assert form.get_attribute("data-resultat") == "defaut", calc_id
        assert form.evaluate(TEXTS) == expected_texts(calc_id), calc_id
        state = form.locator(".calculateur-etat").inner_text()
        assert state.startswith("Résultat des valeurs ci-dessus"), calc_id
    # A list's starting rows (the worked example) are in the page, with their values.
    (items,) = [i["initial"] for i in CATALOG["charge"]["inputs"] if i["type"] == "list"]
    rows = page.locator("form[data-calculateur='charge'] .liste-lignes > .liste-ligne")
    assert rows.count() == len(items) > 1
    for row, item in zip(rows.all(), items, strict=True):
        assert row.locator("input[name='name']").input_value() == item["name"]
        assert row.locator("input[name='qty']").input_value() == str(item["qty"])
    # A table of results too.
    detail = page.locator("form[data-calculateur='charge'] table tbody tr")
    assert detail.count() == len(RULES.run("charge", {"items": items})["groups"])
    context.close()


def test_the_page_computes_what_the_build_wrote(browser: Any, site_url: str) -> None:
    # The build writes the result with Python (regles/features/calculators/formatting.py), the page
    # with its script (rules.js): the same values give the same text, calculator by calculator.
    context = browser.new_context()
    page = context.new_page()
    for calc_id, form in forms_of_tools_page(page, site_url):
        built = form.evaluate(TEXTS)
        form.locator("[data-type]").first.dispatch_event("change")  # the same values again
        form.and_(page.locator("[data-resultat='1']")).wait_for(timeout=60000)
        computed = form.evaluate(TEXTS)
        rolled = set(CATALOG[calc_id]["rolled"])
        kept = {name: text for name, text in computed.items() if name not in rolled}
        assert kept == {name: text for name, text in built.items() if name not in rolled}
    context.close()


def test_numbers_are_written_alike_by_the_build_and_the_page(browser: Any, site_url: str) -> None:
    draw = random.Random(20261201)
    numbers = [0.0, -0.0, 0.5, 0.0005, 0.9995, 999.9995, 1e-7, 1e-6, 123456789.0, 1e21, 2.0]
    numbers += [draw.uniform(-1e6, 1e6) for _ in range(300)]
    numbers += [draw.random() for _ in range(300)]
    numbers += [round(draw.uniform(0, 100), draw.randint(0, 6)) for _ in range(300)]
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_function("() => window.rules?.format?.number")
    written = page.evaluate(
        "(xs) => xs.map((x) => [rules.format.number(x), rules.format.percent(x)])", numbers
    )
    assert [[format_number(x), format_percent(x)] for x in numbers] == written
    context.close()


def test_an_emptied_required_field_gets_its_message_and_no_result(
    phone: Any, site_url: str
) -> None:
    page = phone.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    checked = with_units = 0
    for form in page.locator("form.calculateur").all():
        form.scroll_into_view_if_needed()
        form.and_(page.locator("[data-pret]")).wait_for()
        required = form.locator(
            ".calculateur-champs [aria-required='true']:not(template [aria-required])"
        )
        for field in required.all()[:2]:
            before = field.input_value()
            field.fill("")
            error = field.locator(
                "xpath=ancestor::div[contains(@class,'champ')][1]//*[@class='erreur']"
            )
            error.filter(has_text="Indiquez une valeur").wait_for()
            assert field.get_attribute("aria-invalid") == "true"
            texts = form.evaluate(TEXTS)
            assert set(texts.values()) == {"—"}, texts  # nothing left of the old values
            units = form.locator(".sortie-unite")
            shown_units = "els => els.filter((e) => e.getClientRects().length > 0).length"
            assert units.evaluate_all(shown_units) == 0  # « — », never « — jours »
            field.fill(before)
            form.and_(page.locator("[data-resultat='1']")).wait_for(timeout=60000)
            assert field.get_attribute("aria-invalid") is None
            assert units.evaluate_all(shown_units) == units.count()
            with_units += units.count() > 0
            checked += 1
    # Every calculator but those whose fields may all be left empty (a draw: its seed and the
    # lines already drawn).
    assert checked >= len(CATALOG) - 1
    assert with_units >= 2  # the units were there to withdraw


def test_results_of_a_refused_value_are_taken_away(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    dice = page.locator("form[data-calculateur='dice']")
    expression = dice.locator("input[name='expression']")
    expression.fill("8d6")
    dice.locator("output[name='mean']").filter(has_text="28").wait_for(timeout=60000)
    expression.fill("8d6x")
    dice.locator("input[name='expression'][aria-invalid='true']").wait_for(timeout=60000)
    assert "Nombre attendu" in dice.locator(".champ .erreur").first.inner_text()
    assert set(dice.evaluate(TEXTS).values()) == {"—"}  # not the results of "8d6" beside it


def test_the_headline_stays_in_view_while_a_field_is_edited(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    for calc_id, form in forms_of_tools_page(page, site_url):
        # The form's first field, as a reader starts: the results are below.
        field = form.locator(".calculateur-champs [data-type]").first
        field.scroll_into_view_if_needed()
        page.evaluate("(y) => scrollBy(0, y)", field.bounding_box()["y"] - 60)
        field.focus()
        field.dispatch_event("change")
        form.and_(page.locator("[data-resultat='1']")).wait_for(timeout=60000)
        page.wait_for_timeout(100)
        for name in CATALOG[calc_id]["headline"]:
            shown = [
                page.locator(selector).first
                for selector in (
                    f"#calc-{calc_id} .sortie-principale output[name='{name}']",
                    f"#calc-{calc_id} .calculateur-resume [data-sortie='{name}'] b",
                )
            ]
            boxes = [s.bounding_box() for s in shown if s.is_visible()]
            assert any(b["y"] >= 0 and b["y"] + b["height"] <= HEIGHT for b in boxes if b), (
                calc_id,
                name,
                boxes,
            )
            texts = {s.inner_text() for s in shown}
            assert len(texts) == 1, (calc_id, name, texts)  # the summary says the same


def test_a_list_reads_as_a_player_fills_it_in(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    page.goto(site_url + "maison/poids-transportable/")
    wait_for_python(page)
    form = page.locator("form[data-calculateur='charge']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    # A number chosen by its name: the form offers the names, the rules receive the number.
    (items,) = [i for i in CATALOG["charge"]["inputs"] if i["type"] == "list"]
    (level,) = [f for f in items["fields"] if f["name"] == "level"]
    select = form.locator(".liste-ligne select[name='level']").first
    names = select.evaluate("(select) => [...select.options].map((o) => o.text)")
    assert names == [c["label"] for c in level["choices"]]
    heavy = level["choices"][5]
    select.select_option(label=heavy["label"])
    # A line added, and filled in.
    form.locator(".liste-ajouter").click()
    row = form.locator(".liste-ligne").last
    row.locator("input[name='name']").fill("lanterne")
    row.locator("select[name='level']").select_option(label=level["choices"][3]["label"])
    row.locator("input[name='qty']").fill("9")
    rows = [dict(r) for r in items["initial"]]
    rows[0]["level"] = int(heavy["value"])
    rows.append({"name": "lanterne", "level": 3, "qty": 9})
    expected = RULES.run("charge", {**default_inputs(CATALOG["charge"]), "items": rows})
    table = form.locator("table[data-sortie='groups']")
    table.filter(has_text="lanterne").wait_for(timeout=60000)
    groups = expected["groups"]
    assert isinstance(groups, list)
    form.locator("output[name='load_label']").filter(has_text=expected["load_label"]).wait_for()
    cells = [
        [c.inner_text() for c in r.locator("td").all()] for r in table.locator("tbody tr").all()
    ]
    (columns,) = [o["columns"] for o in CATALOG["charge"]["outputs"] if o.get("columns")]
    assert cells == [[format_value(c["name"], g) for c in columns] for g in groups]
    # At 360 px every cell, the load above all, is on the screen: nothing to scroll sideways.
    assert_cells_within(page, table, WIDTH)


def test_no_floating_button_covers_a_form_while_its_field_is_edited(
    phone: Any, site_url: str
) -> None:
    """Scrolling up shows Material's « Retour en haut » button over the page; while a
    calculator's field has the focus, it waits, and comes back once the field is left."""
    page = phone.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    form = page.locator("form.calculateur").first
    field = form.locator(".calculateur-champs [data-type]").first
    field.scroll_into_view_if_needed()
    page.evaluate("() => scrollBy(0, 400)")
    field.focus()
    top = page.locator(".md-top")
    for _ in range(6):  # scrolling up, as a reader goes back to the fields
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(100)
    assert not top.is_visible()
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(3):
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(100)
    expect(top).to_be_visible()  # the button itself still works elsewhere


# The frame after the focus moved: the page brings the field out from under the summary then.
NEXT_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))"
# The focused field's bottom, and the top of the line of results kept at the bottom of the
# screen (the screen's bottom while it is hidden).
COVER = """() => {
    const field = document.activeElement.getBoundingClientRect();
    const summary = document.activeElement.closest("form").querySelector(".calculateur-resume");
    const top = summary && !summary.hidden ? summary.getBoundingClientRect().top : innerHeight;
    const name = document.activeElement.id;
    return { bottom: field.bottom, top: Math.min(top, innerHeight), name };
}"""


def test_the_summary_never_covers_the_field_the_keyboard_moves_to(
    phone: Any, site_url: str
) -> None:
    """« Suivant » on a phone's keyboard (Tab) brings the next field into the screen: the
    browser stops at the screen's edge, under the results kept at the bottom; the page
    brings it above them."""
    page = phone.new_page()
    page.goto(site_url + "maison/poids-transportable/")
    form = page.locator("form[data-calculateur='charge']")  # rows of objects: a long form
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    first = form.locator(".calculateur-champs [data-type]").first
    first.scroll_into_view_if_needed()
    page.evaluate("(y) => scrollBy(0, y)", first.bounding_box()["y"] - 60)  # at the top
    first.tap()
    seen = []
    for _ in range(40):  # through the fields and the rows' buttons, to the form's end
        page.keyboard.press("Tab")
        if not page.evaluate("() => Boolean(document.activeElement.closest('form.calculateur'))"):
            break
        page.evaluate(NEXT_FRAMES)
        page.evaluate(NEXT_FRAMES)
        place = page.evaluate(COVER)
        seen.append(place["name"])
        assert place["bottom"] <= place["top"], place
    assert "calc-charge-armor" in seen, seen  # the keyboard went through the whole form
