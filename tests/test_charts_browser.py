"""The bar charts in Chromium, on a phone (360×800, touch): the page's script draws what the build
draws (regles/features/calculators/charts.py and assets/js/charts.js, element by element), the bars
are the exact law the test site's calculators give (tests/site/regles_essai), the table holds
every value, and the chart of a dice expression of the text opens beside it, by a tap or the
keyboard."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from regles.features.calculators.charts import chart_html
from tests.conftest import RULES_RUNTIME, rules_of_test_site, wait_for_python

pytestmark = [pytest.mark.browser, pytest.mark.python]

RULES = rules_of_test_site()
CATALOG = {str(e["id"]): e for e in RULES.catalog()}
CHARTS = {
    calc_id: next(o for o in entry["outputs"] if "chart" in o)
    for calc_id, entry in CATALOG.items()
    if any("chart" in o for o in entry["outputs"])
}
BARS = """(root) => [...root.querySelectorAll("rect.barre")].map((r) => ({
    p: Number(r.dataset.p), de: r.dataset.de ?? null, a: r.dataset.a ?? null,
    seuil: r.classList.contains("barre-seuil"), height: Number(r.getAttribute("height"))}))"""
ROWS = """(root) => [...root.querySelectorAll(".graphique-donnees tbody th")]
    .map((t) => t.textContent)"""

# Laws of every kind: one bar per total, sparse totals, negative ones, ranges with and
# without a threshold, tails left out, outcomes; a null chance, a threshold outside.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("dice", {"expression": "2d6+3"}),
    ("dice", {"expression": "8d6", "target": 30}),
    ("dice", {"expression": "1d6x100", "target": 300}),
    ("dice", {"expression": "1d6-10", "target": -6}),
    ("dice", {"expression": "1d100-50", "target": 0}),
    ("dice", {"expression": "10d6", "target": 59}),
    ("dice", {"expression": "100d20", "target": 1100}),
    ("dice", {"expression": "100d20"}),
    ("dice", {"expression": "20d6x10", "target": 705}),
    ("dice", {"expression": "99d11kh90-1d6x100", "target": 500}),
    ("dice", {"expression": "4d6kh3", "target": 2}),
    ("dice", {"expression": "1d100"}),  # ranges from its lowest total: 1 to 5 … 96 to 100
    ("dice", {"expression": "1d20x5+5"}),  # the same, its totals 5 apart
    ("survie", {}),
    ("survie", {"successes": 2, "failures": 1}),
    ("volonte", {}),
    ("volonte", {"wounded": "below_half"}),
    ("volonte", {"sword_int": 7, "ego": 1, "wielder_str": 18, "wielder_wis": 18}),
    ("volonte", {"alignments_differ": False, "wounded": "wounded", "ego": 12}),
]


def run(calc_id: str, inputs: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(RULES.run(calc_id, inputs)))


@pytest.fixture(scope="module")
def any_page(browser: Any, site_url: str) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_function("() => window.rules?.charts")
    yield page
    context.close()


@pytest.mark.parametrize(("calc_id", "inputs"), CASES, ids=lambda v: str(v)[:40])
def test_the_script_draws_what_the_build_draws(
    any_page: Any, calc_id: str, inputs: dict[str, Any]
) -> None:
    output = CHARTS[calc_id]
    outputs = run(calc_id, inputs)
    built = chart_html(output["chart"], outputs[output["name"]], outputs)
    assert built
    same = any_page.evaluate(
        """([built, spec, name, outputs]) => {
            const holder = document.createElement("template");
            holder.innerHTML = built;
            const drawn = window.rules.charts.draw(spec, outputs[name], outputs);
            return [holder.content.firstElementChild.outerHTML, drawn.outerHTML];
        }""",
        [built, output["chart"], output["name"], outputs],
    )
    assert same[1] == same[0]


@pytest.mark.parametrize(
    ("expression", "target"), [("3d6", 12), ("1d100", 45), ("100d20", 1000), ("1d6", 0)]
)
def test_the_script_draws_what_the_build_draws_up_to_a_threshold(
    any_page: Any, expression: str, target: int
) -> None:
    # A threshold not to go over (a game that rolls under a score): the bars up to it.
    output = CHARTS["dice"]
    spec = {**output["chart"], "at_most": True, "chance": "p_at_most"}
    outputs = run("dice", {"expression": expression, "target": target})
    law = outputs["distribution"]
    outputs["p_at_most"] = sum(
        p for t, p in zip(law["totals"], law["p"], strict=True) if t <= target
    )
    built = chart_html(spec, law, outputs)
    assert "barre-seuil" in built or target < law["totals"][0]
    same = any_page.evaluate(
        """([built, spec, law, outputs]) => {
            const holder = document.createElement("template");
            holder.innerHTML = built;
            return [holder.content.firstElementChild.outerHTML,
                window.rules.charts.draw(spec, law, outputs).outerHTML];
        }""",
        [built, spec, law, outputs],
    )
    assert same[1] == same[0]


def test_the_script_labels_the_outcomes_the_build_labels(any_page: Any) -> None:
    # Ten long labels, every second one under its bar, as charts.py draws them.
    from tests.test_charts import TENTHS

    spec = {"x_label": "Tirage", "y_label": "Chance"}
    built = chart_html(spec, TENTHS, {})
    same = any_page.evaluate(
        """([built, spec, law]) => {
            const holder = document.createElement("template");
            holder.innerHTML = built;
            return [holder.content.firstElementChild.outerHTML,
                window.rules.charts.draw(spec, law, {}).outerHTML];
        }""",
        [built, spec, TENTHS],
    )
    assert same[1] == same[0]


def test_the_inline_dice_chart_is_the_dice_calculators(any_page: Any) -> None:
    assert any_page.evaluate("window.rules.charts.dice") == CHARTS["dice"]["chart"]


def expected_bars(
    outputs: dict[str, Any], name: str, threshold: int | None
) -> list[dict[str, Any]]:
    law = outputs[name]
    if "labels" in law:
        return [
            {"p": p, "de": None, "a": None, "seuil": h}
            for p, h in zip(law["p"], law["highlight"], strict=True)
        ]
    return [
        {"p": p, "de": str(t), "a": str(t), "seuil": threshold is not None and t >= threshold}
        for t, p in zip(law["totals"], law["p"], strict=True)
    ]


def check_chart(root: Any, outputs: dict[str, Any], calc_id: str) -> None:
    """The bars of the chart under `root` are the law in `outputs`, one per value; the
    heights are in proportion to the chances; the table lists every value."""
    output = CHARTS[calc_id]
    spec = output["chart"]
    threshold = outputs.get(spec["threshold"]) if spec["threshold"] else None
    drawn = root.evaluate(BARS)
    heights = [b.pop("height") for b in drawn]
    assert drawn == expected_bars(outputs, output["name"], threshold)
    ratio = max(heights) / max(b["p"] for b in drawn)
    assert all(abs(h - b["p"] * ratio) <= 0.01 for h, b in zip(heights, drawn, strict=True))
    law = outputs[output["name"]]
    keys = law.get("labels") or [str(t) for t in law["totals"]]
    assert root.evaluate(ROWS) == keys
    label = root.locator("svg[role='img']").get_attribute("aria-label")
    assert label and label.startswith("Graphique en barres")


def test_the_dice_calculator_draws_the_exact_law_with_its_threshold(
    phone: Any, site_url: str
) -> None:
    page = phone.new_page()
    page.goto(site_url + "outils/")
    wait_for_python(page)
    form = page.locator("form#calc-dice")
    form.locator("input[name=expression]").fill("8d6")
    form.locator("input[name=target]").fill("30")
    chance = form.locator(".graphique-chance")
    chance.filter(has_text="au moins 30").wait_for(timeout=30000)
    outputs = run("dice", {"expression": "8d6", "target": 30})
    assert chance.text_content() == "38\u00a0% d’obtenir au moins 30"
    check_chart(form.locator(".graphique-place"), outputs, "dice")
    # On the phone, the chart fits the screen's width and its words are readable.
    box = form.locator(".graphique-svg").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["width"] >= 260
    size = form.locator(".graphique-svg text").first.evaluate(
        "(t) => t.getBoundingClientRect().height"
    )
    assert size >= 9
    # The table of every total, opened by a tap, stays open when the law changes.
    form.locator(".graphique-donnees summary").tap()
    form.locator("input[name=target]").fill("40")
    chance.filter(has_text="au moins 40").wait_for(timeout=30000)
    assert form.locator(".graphique-donnees[open]").count() == 1
    check_chart(
        form.locator(".graphique-place"), run("dice", {"expression": "8d6", "target": 40}), "dice"
    )


@pytest.mark.parametrize(
    ("calc_id", "field", "value", "inputs"),
    [
        ("survie", "failures", "2", {"failures": 2}),
        ("volonte", "wounded", "below_half", {"wounded": "below_half"}),
        ("volonte", "ego", "12", {"ego": 12}),
    ],
)
def test_each_law_of_chances_is_drawn_as_calculators_run_gives_it(
    phone: Any, site_url: str, calc_id: str, field: str, value: str, inputs: dict[str, Any]
) -> None:
    page = phone.new_page()
    page.goto(site_url + "outils/")
    form = page.locator(f"form#calc-{calc_id}")
    form.scroll_into_view_if_needed()
    # Before Python: the build's chart of the default values.
    check_chart(form.locator(".graphique-place"), run(calc_id, {}), calc_id)
    wait_for_python(page)
    control = form.locator(f"[name={field}]")
    if control.evaluate("(c) => c.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)
    outputs = run(calc_id, inputs)
    spec = CHARTS[calc_id]["chart"]
    expected = expected_bars(outputs, CHARTS[calc_id]["name"], outputs.get(spec["threshold"] or ""))
    page.wait_for_function(
        f"""(expected) => JSON.stringify(({BARS})(document.querySelector("#calc-{calc_id}"))
            .map(({{height, ...bar}}) => bar)) === JSON.stringify(expected)""",
        arg=expected,
        timeout=30000,
    )
    check_chart(form.locator(".graphique-place"), outputs, calc_id)


def test_without_javascript_the_default_charts_are_in_the_page(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "outils/")
    for calc_id in CHARTS:
        entry = CATALOG[calc_id]
        inputs = {"seed": 0} if any(i["name"] == "seed" for i in entry["inputs"]) else {}
        check_chart(
            page.locator(f"form#calc-{calc_id} .graphique-place"), run(calc_id, inputs), calc_id
        )
    context.close()


def paragraph_height(page: Any, button: Any) -> float:
    return float(button.evaluate("(b) => b.closest('p, li').getBoundingClientRect().height"))


def test_a_dice_expression_rolls_on_a_tap_and_shows_its_chances_beside_the_text(
    phone: Any, site_url: str
) -> None:
    page = phone.new_page()
    page.goto(site_url + "epees/epees-intelligentes/")
    dice = page.locator("button.de[data-de='1d6+6']").first
    chances = page.locator("button.de-chances[data-de='1d6+6']").first
    chances.wait_for()
    assert chances.get_attribute("aria-label") == "Chances de 1d6+6"
    target = chances.bounding_box()
    assert target and target["width"] >= 24 and target["height"] >= 24
    # A tap on the expression rolls it (tests/test_dice_log_browser.py tests its tray): its
    # total in the badge after it.
    dice.tap()
    result = page.locator("button.de[data-de='1d6+6'] ~ output.de-resultat[data-jet]").first
    result.wait_for(state="attached", timeout=60000)
    assert 7 <= int(result.inner_text()) <= 12
    wait_for_python(page)
    page.keyboard.press("Escape")  # its tray
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
    before = paragraph_height(page, chances)
    chances.tap()
    popover = page.locator(".de-pop")
    popover.locator(".graphique-svg").wait_for(timeout=30000)
    assert popover.evaluate("(p) => p.matches(':popover-open')")
    assert chances.get_attribute("aria-expanded") == "true"
    # Over the page, not inserted in the sentence: the paragraph keeps its height.
    assert paragraph_height(page, chances) == before
    # Beside the button, within the screen.
    box, anchor = popover.bounding_box(), chances.bounding_box()
    assert box and anchor
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800
    assert (
        abs(box["y"] - (anchor["y"] + anchor["height"])) <= 12
        or abs(box["y"] + box["height"] - anchor["y"]) <= 12
    )
    assert "moyenne 9,5" in popover.inner_text() and "de 7 à 12" in popover.inner_text()
    check_chart(popover, run("dice", {"expression": "1d6+6"}), "dice")
    # A threshold: its bars highlighted, its chance written on the chart.
    popover.locator("input").fill("10")
    popover.locator(".graphique-chance").filter(has_text="au moins 10").wait_for(timeout=30000)
    assert popover.locator(".graphique-chance").text_content() == "50\u00a0% d’obtenir au moins 10"
    check_chart(popover, run("dice", {"expression": "1d6+6", "target": 10}), "dice")
    # A tap outside closes it.
    page.locator("h1").first.tap()
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
    assert chances.get_attribute("aria-expanded") == "false"
    # A tap on the button opens it; a second one closes it.
    chances.tap()
    page.wait_for_function("() => document.querySelector('.de-pop').matches(':popover-open')")
    chances.tap()
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")


def test_a_dice_s_chances_are_drawn_offline_before_python(phone: Any, site_url: str) -> None:
    # Python's files never came and the link is down: the law the build wrote on the die
    # (dice_buttons.py's written_law) is drawn as the dice calculator draws it.
    asked: list[str] = []
    phone.route(RULES_RUNTIME, lambda route: route.abort("internetdisconnected"))
    page = phone.new_page()
    page.on("request", lambda request: asked.append(request.url))
    page.goto(site_url + "epees/epees-intelligentes/")
    chances = page.locator("button.de-chances[data-de='1d6+6']").first
    chances.wait_for()
    phone.set_offline(True)
    try:
        chances.tap()
        popover = page.locator(".de-pop")
        popover.locator(".graphique-svg").wait_for(timeout=10_000)
        assert "Chances de 1d6+6 : moyenne 9,5, de 7 à 12" in popover.inner_text()
        check_chart(popover, run("dice", {"expression": "1d6+6"}), "dice")
        for typed, expected in (("10", "50\u00a0%"), ("3", "100\u00a0%"), ("13", "0\u00a0%")):
            popover.locator("input").press_sequentially(typed)
            chance = popover.locator(".graphique-chance")
            expect(chance).to_have_text(f"{expected} d’obtenir au moins {typed}")
            check_chart(popover, run("dice", {"expression": "1d6+6", "target": int(typed)}), "dice")
            popover.locator("input").fill("")
        # This page's calculators asked for Python, which never came: the law was the page's.
        assert page.evaluate("() => window.rules.status().state") == "unavailable"
    finally:
        phone.set_offline(False)
    # A page with dice and no calculator: its « Chances » do not start Python.
    asked.clear()
    page.goto(site_url + "licences/")
    page.locator("button.de-chances").first.tap()
    page.locator(".de-pop .graphique-svg").wait_for(timeout=10_000)
    assert page.evaluate("() => window.rules.status().state") == "idle"
    assert [url for url in asked if "rules-runtime" in url or "pyodide" in url] == []


def test_a_player_who_rolls_under_a_score_reads_the_chance_up_to_it(
    phone: Any, site_url: str
) -> None:
    # « Au plus » beside the threshold: the chance of that total or less, the bars up to it;
    # the choice holds for the tab's other dice and pages, until the reader changes it.
    page = phone.new_page()
    page.goto(site_url + "epees/epees-intelligentes/")
    chances = page.locator("button.de-chances[data-de='1d6+6']").first
    chances.tap()
    popover = page.locator(".de-pop")
    popover.locator(".graphique-svg").wait_for(timeout=30_000)
    way = popover.get_by_label("Au moins ou au plus")
    assert way.input_value() == ""  # « Au moins » first
    way.select_option(label="Au plus")
    popover.get_by_label("Seuil").tap()
    page.keyboard.type("9")
    chance = popover.locator(".graphique-chance")
    expect(chance).to_have_text("50\u00a0% d’obtenir au plus 9")
    lit = [b["de"] for b in popover.evaluate(BARS) if b["seuil"]]
    assert lit == ["7", "8", "9"]
    marked = popover.locator(".graphique-donnees tr.graphique-seuil th").all_text_contents()
    assert marked == ["7", "8", "9"]
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
    page.reload()
    page.locator("button.de-chances[data-de='1d6+6']").first.tap()
    popover.locator(".graphique-svg").wait_for(timeout=30_000)
    expect(popover.get_by_label("Au moins ou au plus")).to_have_value("au-plus")


def test_the_chances_open_from_the_keyboard_and_close_with_escape(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(site_url + "epees/epees-intelligentes/")
    wait_for_python(page)
    dice = page.locator("button.de[data-de='1d6+6']").first
    dice.focus()
    page.keyboard.press("Tab")  # the next stop after the expression: its « Chances »
    assert page.evaluate("document.activeElement.classList.contains('de-chances')")
    popover = page.locator(".de-pop")
    for key in ("Enter", "Space"):
        page.keyboard.press(key)
        popover.locator(".graphique-svg").wait_for(timeout=30000)
        assert popover.evaluate("(p) => p.matches(':popover-open')")
        assert popover.evaluate("(p) => p.contains(document.activeElement)")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
        # Back on the button it was opened from.
        assert page.evaluate("document.activeElement.classList.contains('de-chances')")
    # « Fermer » too.
    page.keyboard.press("Enter")
    popover.locator(".graphique-svg").wait_for(timeout=30000)
    popover.get_by_role("button", name="Fermer").click()
    page.wait_for_function("() => !document.querySelector('.de-pop').matches(':popover-open')")
    context.close()
