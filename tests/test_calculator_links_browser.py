"""The ways in to a page's calculators (regles/features/calculators/links.py, calculator-links.js):
the skip link, within a few presses of Tab from the top of the page, and the list of
calculators at the top of Outils, whose links open the forms they name."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

# The first field of the page's first form: the first input, list or text box a reader fills.
AT_FIRST_FIELD = """() => {
    const form = document.querySelector("form.calculateur");
    const field = form.querySelector("input:not([type=hidden]), select, textarea");
    return field !== null && document.activeElement === field;
}"""
FIELD_IN_VIEW = """() => {
    const box = document.activeElement.getBoundingClientRect();
    const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
    return box.top >= header && box.bottom <= innerHeight;
}"""
# What a keyboard user reads on the focused element.
FOCUSED = "() => [document.activeElement.tagName, document.activeElement.textContent.trim()]"
MAX_KEYS = 5


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("path", ["outils/", "jeu/tests-d20/", "maison/poids-transportable/"])
def test_the_first_field_is_a_few_keys_from_the_top(
    browser: Any, site_url: str, path: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    # A reader presses Tab from the top of the page, and Enter on a link that says it goes to
    # the calculator; every key counts.
    keys: list[str] = []
    while len(keys) < MAX_KEYS + 1 and not page.evaluate(AT_FIRST_FIELD):
        page.keyboard.press("Tab")
        keys.append("Tab")
        tag, text = page.evaluate(FOCUSED)
        if tag == "A" and re.fullmatch(r"Aller au (premier )?calculateur", text):
            page.keyboard.press("Enter")
            keys.append("Entrée")
    assert page.evaluate(AT_FIRST_FIELD), (keys, page.evaluate(FOCUSED))
    assert len(keys) <= MAX_KEYS, keys
    assert page.evaluate(FIELD_IN_VIEW)
    context.close()


def test_a_page_without_a_calculator_has_no_skip_link_to_one(browser: Any, site_url: str) -> None:
    page = browser.new_page()
    page.goto(site_url + "licences/")
    assert page.locator("form.calculateur").count() == 0
    assert page.locator("a.md-skip").count() >= 1  # Material's own
    assert page.locator("a.md-skip", has_text="calculateur").count() == 0
    page.close()


LIST = "nav.calculateurs-liste a"


def test_the_list_names_each_calculator_of_outils_in_order(browser: Any, site_url: str) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 800})
    page.goto(site_url + "outils/")
    links = page.locator(LIST)
    forms = page.locator("form.calculateur")
    assert links.count() == forms.count() > 1
    hrefs = [a.evaluate("(a) => a.hash") for a in links.all()]  # main.html writes it in full
    assert hrefs == ["#" + f.get_attribute("id") for f in forms.all()]
    titles = [f.locator(".calculateur-titre").inner_text() for f in forms.all()]
    assert [a.inner_text() for a in links.all()] == titles
    # The list is at the top: its first link is on the first screen.
    assert links.first.bounding_box()["y"] < 800
    page.close()


FOLDED = "(form) => Boolean(form.querySelector('.calculateur-corps').hidden)"


@pytest.mark.parametrize("how", ["tap", "keyboard"])
def test_a_link_of_the_list_opens_its_folded_form(browser: Any, site_url: str, how: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=how == "tap")
    page = context.new_page()
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    link = page.locator(LIST).last
    target = link.evaluate("(a) => a.hash")
    form = page.locator(target)
    assert form.evaluate(FOLDED)  # far down the page: folded until the reader comes near
    if how == "tap":
        link.tap()
    else:
        link.focus()
        page.keyboard.press("Enter")
    page.wait_for_function(
        "(form) => !form.querySelector('.calculateur-corps').hidden", arg=form.element_handle()
    )
    top = form.bounding_box()["y"]
    assert 0 <= top < 800
    field = form.locator("input:not([type=hidden]), select, textarea").first
    if how == "keyboard":
        assert field.evaluate("(field) => document.activeElement === field")
    else:  # no phone keyboard over the form: the focus on the form, the next Tab in it
        assert form.evaluate("(form) => document.activeElement === form")
        page.keyboard.press("Tab")
        assert form.evaluate("(form) => form.contains(document.activeElement)")
    context.close()
