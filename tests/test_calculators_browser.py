"""Calculators in the page: Pyodide in a module worker gives exactly what CPython gives."""

from __future__ import annotations

import json
import random
import re
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from regles.features.calculators.formatting import format_number, format_percent, format_value
from regles.kit import CalculatorInputError
from tests.conftest import (
    HOLD_FRAMES,
    browser_run,
    hold_load,
    is_the_marked_document,
    mark_the_document,
    roll_inline_dice,
    rules_of_test_site,
    wait_for_python,
)

pytestmark = [pytest.mark.browser, pytest.mark.python]
# window.rules is there before the bundle has run (main.html's head script starts it).
# The test site's rules package (tests/site/regles_essai), as CPython runs it.
RULES = rules_of_test_site()
CATALOG = {str(entry["id"]): entry for entry in RULES.catalog()}

# Inputs shared by CPython and the browser: defaults, the pages' worked examples, every kind
# of field, and seeded rolls (the same seed gives the same roll in both).
SHARED_INPUTS: list[tuple[str, dict[str, Any]]] = [
    *[
        (calc_id, {})
        for calc_id, entry in CATALOG.items()
        if not any(i["name"] == "seed" for i in entry["inputs"])
    ],
    *[
        (calc_id, {"seed": 12345})
        for calc_id, entry in CATALOG.items()
        if any(i["name"] == "seed" for i in entry["inputs"])
    ],
    ("modificateur", {"score": 18}),
    ("modificateur", {"score": 1}),
    ("maitrise", {"level": 17}),
    ("soins", {"hp": 0, "hp_max": 10, "amount": 30}),
    ("rituel", {"spell_levels": [9, 9, 1]}),
    ("deplacement", {"speed_m": 10.5, "difficult_terrain": True}),
    ("chance", {"modifier": 5, "target": 15, "mode": "avantage"}),
    ("chance", {"modifier": -3, "target": 25, "mode": "desavantage"}),
    ("survie", {"successes": 1, "failures": 2}),
    ("volonte", {"powers": 2, "wielder_str": 16, "wielder_wis": 9, "wounded": "below_half"}),
    ("volonte", {"alignments_differ": False}),
    ("tirage", {"already_drawn": [1, 2, 3, 5, 8, 13], "seed": 3}),
    ("dice", {"expression": "2d6+3", "seed": 1}),
    ("dice", {"expression": "1d6x100", "target": 300, "seed": 2}),
    # The costliest accepted laws: Kronecker products and kept dice in Pyodide too.
    ("dice", {"expression": "50d20+50d20", "target": 1000, "seed": 3}),
    ("dice", {"expression": "99d1000kh1+1d1000", "seed": 4}),
    ("dice", {"expression": "99d11kh90-1d6x100", "target": 500, "seed": 5}),
    (
        "charge",
        {
            "strength": 7,
            "items": [
                {"name": "torche", "level": 2, "qty": 8},
                {"name": " Torche ", "level": 2, "qty": 8},
                {"name": "bouclier ⛨", "level": 4, "qty": 1},
            ],
            "armor": "heavy",
        },
    ),
]


@pytest.fixture(scope="module")
def page(tools_page: Any) -> Any:
    return tools_page


@pytest.mark.parametrize(("name", "inputs"), SHARED_INPUTS, ids=lambda v: str(v)[:40])
def test_browser_gives_what_cpython_gives(page: Any, name: str, inputs: dict[str, Any]) -> None:
    expected = json.loads(json.dumps(RULES.run(name, inputs)))
    assert browser_run(page, name, inputs) == {"ok": True, "outputs": expected}


def test_every_calculator_is_covered_by_the_shared_inputs() -> None:
    assert {name for name, _ in SHARED_INPUTS} == set(CATALOG)


def test_input_error_reaches_the_page_as_a_french_message(page: Any) -> None:
    answer = browser_run(page, "modificateur", {"score": 99})
    assert answer["ok"] is False and answer["field"] == "score" and answer["kind"] == "input"
    with pytest.raises(CalculatorInputError) as refused:
        RULES.run("modificateur", {"score": 99})
    assert answer["message"] == refused.value.message
    # The worker survives: the next calculation works.
    expected = RULES.run("modificateur", {"score": 18})["modifier"]
    assert browser_run(page, "modificateur", {"score": 18})["outputs"]["modifier"] == expected


# Built in the page, not sent through Playwright: 1,000 nested arrays (2,000 characters of
# JSON), a lone surrogate in a text field, and one in a key.
HOSTILE_INPUTS = {
    "nested": "({expression: JSON.parse('['.repeat(1000) + ']'.repeat(1000))})",
    "surrogate": "({expression: '1d6+' + String.fromCharCode(0xd800)})",
    "surrogate_key": "({[String.fromCharCode(0xdc00)]: 1})",
}
HOSTILE_IN_PYTHON = {
    "nested": '{"expression": ' + "[" * 1000 + "]" * 1000 + "}",
    "surrogate": '{"expression": "1d6+\\ud800"}',
    "surrogate_key": '{"\\udc00": 1}',
}


@pytest.mark.parametrize("case", sorted(HOSTILE_INPUTS))
def test_hostile_requests_get_the_french_message_cpython_gives(page: Any, case: str) -> None:
    answer = page.evaluate(
        f"""() => window.rules.run('dice', {HOSTILE_INPUTS[case]}).then(
            (outputs) => ({{ok: true, outputs}}),
            (e) => ({{ok: false, field: e.field, message: e.message, kind: e.kind}}))"""
    )
    expected = json.loads(RULES.run_json("dice", HOSTILE_IN_PYTHON[case]))
    assert expected["ok"] is False and expected["error"]["kind"] == "input"
    assert answer == {"ok": False, **expected["error"]}


def test_started_from_the_snapshot(page: Any) -> None:
    status = page.evaluate("window.rules.status()")
    assert status["mode"] == "snapshot", status


def test_round_trip_is_fast_once_ready(page: Any) -> None:
    took = page.evaluate(
        """async () => { const t = performance.now();
        for (let i = 0; i < 20; i++)
          await window.rules.run('modificateur', {score: 10 + i % 10});
        return (performance.now() - t) / 20; }"""
    )
    print(f"aller-retour d’un calcul : {took:.2f} ms")  # measured by make bench, never asserted


def test_falls_back_to_a_normal_start_when_the_snapshot_is_refused(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.route("**/snapshot-*.bin.gz", lambda route: route.abort())
    page.goto(site_url + "outils/")
    wait_for_python(page)
    status = page.evaluate("window.rules.status()")
    assert status["mode"] == "normal" and status["fallbackReason"]
    expected = RULES.run("deplacement", {"speed_m": 9})["squares"]
    assert browser_run(page, "deplacement", {"speed_m": 9})["outputs"]["squares"] == expected
    context.close()


@pytest.mark.parametrize(
    "stop",
    [
        # Ended from outside: the next call answers through a new worker, without waiting
        # for a timeout (which would fail it: `ne répond plus`).
        "(worker) => worker.terminate()",
        # A worker that gets nothing (as one that died without an event) never says
        # « started »: the liveness check replaces it and sends the call again, long
        # before the timeout.
        "(worker) => { worker.postMessage = () => {}; }",
    ],
    ids=["termine", "muet"],
)
def test_a_gone_worker_is_replaced_and_the_call_answered_by_a_new_one(page: Any, stop: str) -> None:
    page.evaluate(f"() => {{ window.ancien = window.rules.worker(); ({stop})(window.ancien); }}")
    expected = RULES.run("modificateur", {"score": 14})["modifier_text"]
    answer = browser_run(page, "modificateur", {"score": 14})
    assert answer["ok"] is True, answer
    assert answer["outputs"]["modifier_text"] == expected
    assert page.evaluate("() => window.rules.worker() !== window.ancien")


def test_a_call_that_cannot_be_sent_leaves_the_worker_alone(page: Any) -> None:
    page.evaluate("() => { window.rules.timeoutMs = 1000; window.avant = window.rules.worker(); }")
    refused = page.evaluate(
        """() => window.rules.run("deplacement", {speed_m: () => 1}).then(
            () => ({ok: true}), (e) => ({ok: false, kind: e.kind, message: e.message}))"""
    )
    assert refused == {
        "ok": False,
        "kind": "input",
        "message": "Ces valeurs ne peuvent pas être envoyées au calculateur.",
    }
    # Past the timeout a call would have had: no timer was left to end the worker.
    page.wait_for_timeout(1500)
    page.evaluate("() => { window.rules.timeoutMs = 30000; }")
    assert page.evaluate("() => window.rules.worker() === window.avant")
    expected = RULES.run("deplacement", {"speed_m": 9})["squares"]
    assert browser_run(page, "deplacement", {"speed_m": 9})["outputs"]["squares"] == expected


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN"])
def test_a_number_that_is_not_finite_gets_its_field_message(page: Any, number: str) -> None:
    answer = page.evaluate(
        f"""() => window.rules.run("deplacement", {{speed_m: {number}}}).then(
            () => ({{ok: true}}), (e) => ({{ok: false, kind: e.kind, field: e.field,
            message: e.message}}))"""
    )
    assert answer == {
        "ok": False,
        "kind": "input",
        "field": "speed_m",
        "message": "Nombre invalide : entrez un nombre fini.",
    }


def shown(calc_id: str, inputs: dict[str, Any], name: str) -> str:
    """What the page writes for the output `name` of these inputs, as CPython computes it."""
    return format_value(name, RULES.run(calc_id, inputs))


def test_widget_filled_through_its_form_shows_the_result(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "jeu/caracteristiques/")
    form = page.locator("form[data-calculateur='modificateur']")
    form.scroll_into_view_if_needed()  # far down the page, it is folded until the reader nears
    score = form.get_by_label("Valeur de caractéristique")
    score.fill("18")
    expect_text(
        form.locator("output[name='modifier_text']"),
        shown("modificateur", {"score": 18}, "modifier_text"),
    )
    score.fill("99")
    error = form.locator(".erreur").first
    error.wait_for(state="visible")
    highest = next(i["max"] for i in CATALOG["modificateur"]["inputs"] if i["name"] == "score")
    assert str(highest) in error.inner_text()
    assert score.get_attribute("aria-invalid") == "true"
    # The inputs are mirrored in the address, so a filled calculator can be shared.
    score.fill("14")
    fourteen = shown("modificateur", {"score": 14}, "modifier_text")
    expect_text(form.locator("output[name='modifier_text']"), fourteen)
    shared = page.url
    assert "modificateur=" in shared
    page.goto(shared)
    expect_text(
        page.locator("form[data-calculateur='modificateur'] output[name='modifier_text']"), fourteen
    )
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_a_decimal_is_read_as_typed_with_a_comma_or_a_point(
    browser: Any, site_url: str, locale: str
) -> None:
    """On a phone in either language, « 7,5 » and « 7.5 » typed with the keyboard are 7.5 m;
    what is not one number gets the field's message, never another number."""
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, locale=locale
    )
    try:
        page = context.new_page()
        page.goto(site_url + "jeu/combat/")
        form = page.locator("form[data-calculateur='deplacement']")
        form.scroll_into_view_if_needed()
        speed = form.get_by_label("Vitesse")
        assert speed.input_value() == "9"  # the default, as a French reader writes it
        squares = form.locator("output[name='squares']")
        for typed in ("7,5", "7.5"):
            speed.tap()
            speed.press("Control+A")
            page.keyboard.type(typed, delay=30)
            expect_text(squares, shown("deplacement", {"speed_m": 7.5}, "squares"))
            assert squares.inner_text() == "5"
        speed.press("Control+A")
        page.keyboard.type("7,5,2", delay=30)
        error = form.locator(".erreur").first
        error.wait_for(state="visible")
        assert "nombre" in error.inner_text()
        assert speed.get_attribute("aria-invalid") == "true"
    finally:
        context.close()


def expect_text(locator: Any, text: str) -> None:
    from playwright.sync_api import expect

    expect(locator).to_have_text(text, timeout=60000)


def test_widgets_survive_instant_navigation(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "jeu/caracteristiques/")
    page.locator("form[data-calculateur='modificateur']").scroll_into_view_if_needed()
    expect_text(
        page.locator("output[name='modifier_text']"), shown("modificateur", {}, "modifier_text")
    )
    mark_the_document(page)
    page.locator("nav a[href$='tests-d20/']").first.click()
    # Material may already write the section in view in the address (navigation.tracking).
    page.wait_for_url(re.compile(r".*/tests-d20/(#.*)?$"))
    assert is_the_marked_document(page)  # instant navigation, no reload
    form = page.locator("form[data-calculateur='chance']")
    form.scroll_into_view_if_needed()  # far down the page, it is folded until the reader nears
    form.locator("[name='target']").fill("11")
    expect_text(
        form.locator("output[name='p_success']"), shown("chance", {"target": 11}, "p_success")
    )
    page.go_back()
    page.wait_for_url(lambda url: "/caracteristiques/" in url)
    page.wait_for_timeout(500)  # longer than a widget's input delay
    assert "chance" not in page.url  # the other page's widget wrote nothing here
    form = page.locator("form[data-calculateur='modificateur']")
    form.locator("[name='score']").fill("20")
    expect_text(
        form.locator("output[name='modifier_text']"),
        shown("modificateur", {"score": 20}, "modifier_text"),
    )
    context.close()


def test_dice_button_rolls_and_shows_its_distribution(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "epees/epees-intelligentes/")
    assert 7 <= roll_inline_dice(page, "1d6+6") <= 12
    button = page.locator("button.de[data-de='1d6+6']").first
    # A long press (a right click) on the expression opens its chart too
    # (tests/test_charts_browser.py tests its « Chances » button).
    button.click(button="right")
    chart = page.locator(".de-pop")
    chart.locator(".graphique-svg").wait_for()
    assert "moyenne 9,5" in chart.inner_text() and "de 7 à 12" in chart.inner_text()
    # Drawn from the two arrays of the distribution: totals and their chances.
    titles = [bar.text_content() for bar in chart.locator("rect.barre title").all()]
    assert titles == [f"{total} : 16,7\u00a0%" for total in range(7, 13)]
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
    # Held down as a long press is: the chart opens once it is let go, and stays open.
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down(button="right")
    page.wait_for_timeout(300)
    page.mouse.up(button="right")
    chart.locator(".graphique-svg").wait_for()
    page.wait_for_timeout(300)
    assert chart.evaluate("pop => pop.matches(':popover-open')")
    page.keyboard.press("Escape")
    # The keyboard's context menu key opens it too.
    button.focus()
    page.keyboard.press("Shift+F10")
    chart.locator(".graphique-svg").wait_for()
    context.close()


def test_plain_rule_pages_never_load_pyodide(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site_url + "jeu/actions/")
    page.wait_for_timeout(1500)
    assert not [url for url in requested if "pyodide" in url or "rules-worker" in url]
    context.close()


def test_python_starts_once_the_page_has_been_painted(browser: Any, site_url: str) -> None:
    # jeu/combat/: calculators far down the page, so that none is computed at load.
    context = browser.new_context()
    try:
        context.add_init_script(HOLD_FRAMES)
        page = context.new_page()
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(site_url + "jeu/combat/")
        page.wait_for_timeout(1500)
        assert page.evaluate("() => window.rules.status().state") == "idle"
        assert not [url for url in requested if "pyodide" in url or "rules-worker" in url]
        page.evaluate("() => window.releaseHeldFrames()")
        wait_for_python(page)
    finally:
        context.close()


PYTHON_REQUESTS = ("pyodide", "rules-worker", "rules-runtime")


def test_python_waits_until_the_page_has_loaded(browser: Any, site_url: str) -> None:
    # outils/: its first calculator is on the screen and asks for its result at once.
    context = browser.new_context()
    try:
        held = hold_load(context)
        page = context.new_page()
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(site_url + "outils/", wait_until="domcontentloaded")
        page.wait_for_timeout(1000)  # less than boot's LOAD_WAIT_MS (rules.js)
        assert len(held) == 1, "l’image qui retient le chargement n’a pas été demandée"
        assert page.evaluate("() => window.rules.status().state") == "loading"
        assert not [url for url in requested if any(p in url for p in PYTHON_REQUESTS)]
        held[0].fulfill(status=404)
        wait_for_python(page)
    finally:
        context.close()


def test_python_starts_anyway_when_the_load_takes_long(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    try:
        held = hold_load(context)
        page = context.new_page()
        page.goto(site_url + "outils/", wait_until="domcontentloaded")
        wait_for_python(page)
        assert len(held) == 1
        assert page.evaluate("() => document.readyState") != "complete"
    finally:
        context.close()


def default_inputs(calc_id: str) -> dict[str, Any]:
    """The values a form starts from: the worked example's (`initial`), else the default."""
    starts = {i["name"]: i.get("initial", i["default"]) for i in CATALOG[calc_id]["inputs"]}
    return {name: value for name, value in starts.items() if value is not None}


def test_list_outputs_render_as_a_table(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "maison/poids-transportable/")
    form = page.locator("form[data-calculateur='charge']")
    form.scroll_into_view_if_needed()
    # Unfolded a screen before it comes into view: its rows are read once it is set up.
    form.and_(page.locator("[data-pret]")).wait_for()
    inputs = default_inputs("charge")
    outputs = RULES.run("charge", inputs)
    expect_text(form.locator("output[name='load_label']"), format_value("load_label", outputs))
    rows = form.locator("table[data-sortie='groups'] tbody tr")
    groups = outputs["groups"]
    assert isinstance(groups, list) and len(groups) == len(inputs["items"]) == 3
    assert rows.count() == len(groups)
    (table,) = [o for o in CATALOG["charge"]["outputs"] if o["name"] == "groups"]
    keys = [column["name"] for column in table["columns"]]
    for row, group in zip(rows.all(), groups, strict=True):
        assert row.inner_text().split("\t") == [format_value(key, group) for key in keys]
    # Removing the last line gives the load of the others, computed again at once.
    form.locator(".liste-ligne").nth(2).locator(".liste-retirer").click()
    fewer = RULES.run("charge", {**inputs, "items": inputs["items"][:2]})
    assert fewer["load_label"] != outputs["load_label"]  # the line removed made the load
    expect_text(form.locator("output[name='load_label']"), format_value("load_label", fewer))
    assert rows.count() == 2
    context.close()


def test_numbers_are_written_as_intl_writes_them_in_french(page: Any) -> None:
    # The page formats numbers without Intl (building an Intl formatter is a long task on a
    # phone); it must write exactly what Intl.NumberFormat("fr-FR") writes.
    rng = random.Random(20261129)
    values: list[float] = [0, -0.0, 1, -1, 0.5, 0.0005, 1.0005, 2.5e-7, 999.9995, 999_999.9996]
    values += [1e21, 123456789.125, 0.125, 0.0625, 1 / 3, 2 / 3, 0.3, -12.3456, 1e-7, 5e-324]
    values += [rng.uniform(-1, 1) for _ in range(1000)]
    values += [round(rng.uniform(-1e7, 1e7), rng.randint(0, 6)) for _ in range(1000)]
    values += [rng.randint(0, 10_000) / rng.choice([8, 16, 1000, 2000, 3]) for _ in range(1000)]
    mismatches = page.evaluate(
        """(values) => {
            const number = new Intl.NumberFormat("fr-FR", {maximumFractionDigits: 3});
            const percent = new Intl.NumberFormat("fr-FR",
                {style: "percent", maximumFractionDigits: 1});
            const wrong = [];
            for (const v of values) {
                const a = window.rules.format.number(v), b = number.format(v);
                if (a !== b) wrong.push(["nombre", v, a, b]);
                const c = window.rules.format.percent(v), d = percent.format(v);
                if (c !== d) wrong.push(["pourcentage", v, c, d]);
            }
            return wrong;
        }""",
        values,
    )
    assert mismatches == [], mismatches[:10]


def test_a_form_keeps_the_result_the_build_wrote_until_a_value_changes(
    browser: Any, site_url: str
) -> None:
    # Python is needed from the first change on: the page computes nothing before.
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    first = page.locator("form.calculateur").first
    first.and_(page.locator("[data-pret]")).wait_for()
    page.wait_for_timeout(500)
    assert first.get_attribute("data-resultat") == "defaut"
    assert first.locator(".calculateur-etat").inner_text() == ""
    first.locator("input[type=text]").first.dispatch_event("change")
    first.and_(page.locator("[data-resultat='1']")).wait_for(timeout=60000)
    context.close()


def test_exact_values_are_percentages_only_for_probabilities(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True)
    page = context.new_page()
    page.goto(site_url + "outils/")
    survival = page.locator("form[data-calculateur='survie']")
    survival.scroll_into_view_if_needed()
    outputs = RULES.run("survie", {})
    # A chance reads as a percentage, another exact value (a mean number of rolls) as a
    # number; their exact fractions are a tap away, not in the line.
    chance, rolls = (
        survival.locator("output[name='p_stable']"),
        survival.locator("output[name='expected_rolls']"),
    )
    expect_text(chance, format_percent(outputs["p_stable"]))
    expect_text(rolls, format_number(outputs["expected_rolls"]))
    assert "/" in str(outputs["expected_rolls_exact"])
    # Once the form is set up and unfolded (a form far down the page is folded until the
    # reader nears it), as a reader taps it.
    survival.and_(page.locator("[data-pret]")).wait_for(timeout=60_000)
    survival.locator(".calculateur-corps").wait_for(state="visible", timeout=60_000)
    after = "(o) => getComputedStyle(o, '::after').content"
    for output, exact in ((chance, "p_stable_exact"), (rolls, "expected_rolls_exact")):
        assert output.get_attribute("data-exacte") == outputs[exact]
        assert output.evaluate(after) in ("none", "normal")
        # In the middle of the screen: never under the download's notice at its bottom edge,
        # which a busy machine may show at the moment of the tap.
        output.evaluate("(o) => o.scrollIntoView({ block: 'center' })")
        output.tap()
        expect(output).to_be_focused()
        assert output.evaluate(after) == f'" = {outputs[exact]}"'
    dice = page.locator("form[data-calculateur='dice']")
    dice.scroll_into_view_if_needed()
    assert RULES.run("dice", {})["mean_exact"] == "10/1"  # 2d6+3, its default
    expect_text(dice.locator("output[name='mean']"), "10")  # a whole number: no fraction
    assert dice.locator("output[name='mean']").get_attribute("data-exacte") is None
    context.close()


# A field of the tools page's last form, far down the page: folded until the reader nears.
FAR_FIELD = "calc-tirage-already_drawn"
FOLD_STATE = """(forms) => forms.map((form) => ({
    id: form.dataset.calculateur,
    folded: form.querySelector(".calculateur-corps").hidden,
    top: form.getBoundingClientRect().top + scrollY,
}))"""
# Sums the page's layout shifts not caused by the reader, as Lighthouse's CLS does.
LAYOUT_SHIFTS = """window.__decalages = 0;
new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        if (!entry.hadRecentInput) window.__decalages += entry.value;
    }
}).observe({type: "layout-shift", buffered: true});"""


def test_forms_far_down_the_page_stay_folded_until_the_reader_comes_near(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.add_init_script(LAYOUT_SHIFTS)
    page.goto(site_url + "outils/")
    wait_for_python(page)
    forms = page.locator("form.calculateur")
    state = forms.evaluate_all(FOLD_STATE)
    folded = [s for s in state if s["folded"]]
    # Folded: those that start more than two screens down, and only those.
    assert folded, state
    assert all(s["top"] >= 2 * 640 for s in folded), state
    assert all(s["folded"] for s in state if s["top"] >= 2 * 640 + 700), state
    # The first screen's form is whole from the first paint: nothing shifted under the reader.
    assert not state[0]["folded"]
    assert page.evaluate("window.__decalages") < 0.05
    # A folded form holds its title and description only, and is not set up.
    last = forms.last
    assert last.locator(".calculateur-titre").is_visible()
    assert not last.locator(".calculateur-etat").is_visible()
    assert last.get_attribute("data-pret") is None
    last.scroll_into_view_if_needed()
    last.and_(page.locator("[data-pret]")).wait_for(timeout=60000)
    assert last.locator("input, select").first.is_visible()
    context.close()


def test_a_form_unfolded_above_the_reader_keeps_the_text_below_in_place(
    browser: Any, site_url: str
) -> None:
    # A reader who lands just below a folded form before the page's script has run (a link
    # to a heading, a quick scroll): the form, once unfolded, grows upwards, and the text
    # they are on does not move under their finger.
    context = browser.new_context(viewport={"width": 360, "height": 640})
    held: list[Any] = []
    context.route("**/assets/js/site.*.js", lambda route: held.append(route))
    page = context.new_page()
    page.goto(site_url + "outils/", wait_until="commit")
    form = page.locator("form[data-calculateur='survie']")
    form.wait_for(state="attached")
    page.wait_for_function("() => document.readyState !== 'loading'")
    assert form.evaluate("(f) => f.querySelector('.calculateur-corps').hidden")
    # The folded form ends a quarter down the screen; the reader is on what follows it.
    page.evaluate(
        "(f) => scrollBy(0, f.getBoundingClientRect().bottom - innerHeight / 4)",
        form.element_handle(),
    )
    after = """(f) => {
        let next = f.nextElementSibling;
        while (next.tagName === "SCRIPT") next = next.nextElementSibling;
        return next.getBoundingClientRect().top;
    }"""
    before = form.evaluate(after)
    while not held:  # the page's script, asked for once the page is parsed
        page.wait_for_timeout(50)
    for route in held:
        route.continue_()
    form.and_(page.locator("[data-pret]")).wait_for(timeout=60000)
    assert not form.evaluate("(f) => f.querySelector('.calculateur-corps').hidden")
    assert abs(form.evaluate(after) - before) <= 1
    context.close()


FIELDS = """(form) => [...form.querySelectorAll("input, select, textarea")].map(
    (field) => [field.tagName, field.id, field.name, field.type])"""


def test_a_folded_form_holds_no_field_until_it_is_unfolded(browser: Any, site_url: str) -> None:
    # At DOMContentLoaded, Chromium's form filling looks at every field of the page; a field
    # inside a folded form made it lay that form out (main.html takes them out meanwhile).
    plain = browser.new_context(viewport={"width": 360, "height": 640}, java_script_enabled=False)
    whole = plain.new_page()
    whole.goto(site_url + "outils/")
    expected = {
        form.get_attribute("data-calculateur"): form.evaluate(FIELDS)
        for form in whole.locator("form.calculateur").all()
    }
    plain.close()
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    forms = {f.get_attribute("data-calculateur"): f for f in page.locator("form.calculateur").all()}
    folded = [
        name
        for name, form in forms.items()
        if form.evaluate("(f) => f.querySelector('.calculateur-corps').hidden")
    ]
    assert len(folded) >= len(forms) // 2, folded  # most of the page's forms
    for name in folded:
        assert forms[name].evaluate(FIELDS) == [], name
        assert all(expected[name]), name  # the ids are held meanwhile (see the next test)
        ids = [field_id for _, field_id, _, _ in expected[name]]
        assert forms[name].evaluate("(f, ids) => ids.every((id) => f.querySelector('#' + id))", ids)
    for name, form in forms.items():
        if name not in folded:
            assert form.evaluate(FIELDS) == expected[name], name
    # Unfolded: the same fields, in the same places, and nothing left of what held them.
    last = page.locator("form.calculateur").last
    last.scroll_into_view_if_needed()
    last.and_(page.locator("[data-pret]")).wait_for(timeout=60000)
    name = last.get_attribute("data-calculateur")
    assert last.evaluate(FIELDS) == expected[name]
    assert last.evaluate("(f) => f.querySelectorAll('.saisie > span:empty').length") == 0
    label = last.locator("label[for]").first
    label.click()
    assert page.evaluate("document.activeElement.id") == label.get_attribute("for")
    context.close()


def test_a_shared_link_or_an_address_unfolds_a_folded_form_at_once(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(site_url + "outils/")
    survival = page.locator("form[data-calculateur='survie']")
    page.wait_for_load_state("load")
    assert survival.evaluate("(f) => f.querySelector('.calculateur-corps').hidden")
    # A shared link carries the inputs of a form far down: shown and computed without scrolling.
    page.goto(site_url + 'outils/?survie={"successes":1,"failures":2}')
    expected = shown("survie", {"successes": 1, "failures": 2}, "p_stable")
    assert expected != shown("survie", {}, "p_stable")  # not what the build wrote
    expect_text(survival.locator("output[name='p_stable']"), expected)
    assert survival.locator("[name='failures']").input_value() == "2"
    # An address that names a field of a folded form shows that field.
    page.goto(site_url + f"outils/#{FAR_FIELD}")
    field = page.locator(f"#{FAR_FIELD}")
    field.wait_for(state="visible")
    # Scrolled to once shown: on a loaded machine, a frame or two after it shows.
    page.wait_for_function(
        f"() => document.querySelector('#{FAR_FIELD}').getBoundingClientRect().top < innerHeight",
        timeout=5000,
    )
    context.close()


def test_printing_unfolds_every_form(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    count = "document.querySelectorAll('.calculateur-corps[hidden]').length"
    assert page.evaluate(count) > 0
    page.pdf()  # Chromium fires beforeprint, as when a reader prints
    assert page.evaluate(count) == 0
    # The page is printed as it is right after beforeprint, before any next frame: every
    # field is back by then, and nothing is left of what held its place while folded.
    again = context.new_page()
    again.goto(site_url + "outils/")
    again.wait_for_load_state("load")
    printed = """() => {
        dispatchEvent(new Event("beforeprint"));
        return document.querySelectorAll(".calculateur .saisie > span:empty").length;
    }"""
    assert again.evaluate(printed) == 0
    context.close()


def test_find_in_page_finds_the_fields_of_a_folded_form(browser: Any, site_url: str) -> None:
    # A link to a text goes through the browser's find in page: the same search, the same
    # unfolding of a hidden="until-found" form (main.html), as when a reader types the words.
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    last = page.locator("form[data-calculateur='tirage']")
    assert last.evaluate("(f) => f.querySelector('.calculateur-corps').hidden")
    words = "Lignes déjà sorties"  # the label of one of its fields, and nothing else's
    page.goto(site_url + "outils/?texte#:~:text=" + quote(words))
    label = last.get_by_text(words)
    label.wait_for(state="visible")
    assert label.evaluate("(e) => e.getBoundingClientRect().top < innerHeight")
    # Unfolded by the browser, then set up by rules.js.
    last.and_(page.locator("[data-pret]")).wait_for(timeout=60000)
    # Only the found form and those near it: the forms at the top of the page stay folded.
    assert page.locator(".calculateur-corps[hidden]").count() > 0
    # Ctrl+F needs no help in such a browser: it does not unfold every form.
    folded = page.locator(".calculateur-corps[hidden]").count()
    page.keyboard.press("Control+f")
    assert page.locator(".calculateur-corps[hidden]").count() == folded
    context.close()


# A browser that does not know hidden="until-found" (nor its beforematch event).
WITHOUT_UNTIL_FOUND = "delete HTMLElement.prototype.onbeforematch"


def test_where_find_in_page_cannot_search_folded_forms_ctrl_f_unfolds_them_all_in_place(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.add_init_script(WITHOUT_UNTIL_FOUND)
    # Reached by an address, far down: the forms between the top and this one stay folded.
    page.goto(site_url + f"outils/#{FAR_FIELD}")
    field = page.locator(f"#{FAR_FIELD}")
    field.wait_for(state="visible")
    page.wait_for_timeout(300)  # the forms near the screen are unfolded
    count = "document.querySelectorAll('.calculateur-corps[hidden]').length"
    above = """() => [...document.querySelectorAll('.calculateur-corps[hidden]')]
        .filter((b) => b.closest('form').getBoundingClientRect().bottom < 0).length"""
    assert page.evaluate(above) > 0  # folded forms above the reader: unfolding them moves text
    where = "(e) => Math.round(e.getBoundingClientRect().top)"
    before = field.evaluate(where)
    page.keyboard.press("Control+f")
    assert page.evaluate(count) == 0
    assert abs(field.evaluate(where) - before) <= 2  # what the reader sees has not moved
    context.close()


def test_without_javascript_every_form_is_whole(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "outils/")
    assert page.locator("form.calculateur").count() == len(CATALOG)
    assert page.locator(".calculateur-corps[hidden]").count() == 0
    assert page.locator("form.calculateur .calculateur-etat").first.is_visible()
    context.close()
