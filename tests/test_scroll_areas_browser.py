"""Tables wider than the screen (scroll-areas.js, regles.css): a content table or a result
table cut by a phone's screen is a named region the keyboard reaches and scrolls, and fades
out on the side where there is more to see; a table that fits is left as it was."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

AREAS = ".md-typeset .md-typeset__scrollwrap, .md-typeset .calculateur .sortie-table > dd"
# Each area: is it cut, and what the page made of it.
STATES = """(selector) => [...document.querySelectorAll(selector)].map((area) => ({
    cut: area.scrollWidth > area.clientWidth + 1,
    tabindex: area.getAttribute("tabindex"),
    role: area.getAttribute("role"),
    label: area.getAttribute("aria-label"),
    sides: area.dataset.defile || "",
    mask: getComputedStyle(area).maskImage,
}))"""
# A page with a table written in its text wider than a phone, not than a desktop, whose
# head has two rows (its other wide tables are narrowed to fit instead:
# test_table_columns_browser.py); the name that table takes from its heading.
WIDE_TABLE_PAGE = "maison/poids-transportable/"
WIDE_TABLE = "Tableau défilant : Allures en voyage"
OPEN_ALL = """async () => {
    dispatchEvent(new Event("beforeprint"));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def states(page: Any) -> list[dict[str, Any]]:
    page.evaluate(OPEN_ALL)
    return list(page.evaluate(STATES, AREAS))


def check(state: dict[str, Any]) -> None:
    if state["cut"]:
        assert state["tabindex"] == "0" and state["role"] == "region", state
        assert state["label"].startswith("Tableau défilant : "), state
        assert len(state["label"]) > len("Tableau défilant : "), state
        assert "fin" in state["sides"].split() and state["mask"] != "none", state
    else:
        assert state["tabindex"] is None and state["role"] is None, state
        assert state["sides"] == "" and state["mask"] == "none", state


def test_a_table_cut_by_a_phone_says_so_and_takes_the_keyboard(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(site_url + WIDE_TABLE_PAGE)
    page.wait_for_load_state("load")
    found = states(page)
    assert any(s["cut"] for s in found), found  # the page holds a table wider than a phone
    for state in found:
        check(state)
    area = page.locator(f"[aria-label='{WIDE_TABLE}']").element_handle()
    area.focus()  # a tab stop
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(area) => area.scrollLeft > 0", arg=area)
    # The page marks the sides on the scroll event that follows, maybe a frame later.
    page.wait_for_function("(area) => area.dataset.defile === 'debut fin'", arg=area)
    area.evaluate("(area) => area.scrollTo({ left: area.scrollWidth })")
    page.wait_for_function("(area) => area.dataset.defile === 'debut'", arg=area)
    # Wide enough, the same table fits: no tab stop, no fading any more.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("(area) => !area.hasAttribute('tabindex')", arg=area)
    for state in states(page):
        check(state)
    context.close()


def test_on_a_desktop_the_tables_fit_and_stay_as_they_were(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(site_url + WIDE_TABLE_PAGE)
    page.wait_for_load_state("load")
    found = states(page)
    assert found and not any(s["cut"] for s in found)
    for state in found:
        check(state)
    context.close()


def test_a_result_table_that_grows_past_the_screen_becomes_a_region(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    found = states(page)
    for state in found:
        check(state)
    area = page.locator("#calc-charge .sortie-table > dd").first.element_handle()
    label = area.evaluate("(dd) => dd.previousElementSibling.textContent.trim()")
    # Refilled with wider rows (longer names, more columns), its table outgrows the screen.
    area.evaluate("(dd) => { dd.querySelector('table').style.minWidth = '40rem'; }")
    page.wait_for_function("(dd) => dd.getAttribute('tabindex') === '0'", arg=area)
    assert area.get_attribute("aria-label") == f"Tableau défilant : {label}"
    assert area.get_attribute("role") == "region"
    assert area.get_attribute("data-defile") == "fin"
    area.evaluate("(dd) => { dd.querySelector('table').style.minWidth = ''; }")
    page.wait_for_function("(dd) => !dd.hasAttribute('tabindex')", arg=area)
    assert area.get_attribute("role") is None and area.get_attribute("data-defile") is None
    context.close()
