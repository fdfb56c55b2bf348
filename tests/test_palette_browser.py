"""The light/dark toggle (regles/theme/partials/javascripts/palette.html), which replaces
Material's palette component: the system's scheme on a first visit, from the first paint;
a choice kept across pages and visits; the mouse and the keyboard."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import is_the_marked_document, mark_the_document

pytestmark = pytest.mark.browser

SCHEME = "document.body.getAttribute('data-md-color-scheme')"
META = "document.querySelector('meta[name=color-scheme]').content"
TO_DARK = "label[title='Passer au thème sombre']"
TO_LIGHT = "label[title='Passer au thème clair']"


@pytest.mark.parametrize(
    ("system", "scheme", "meta"), [("light", "default", "light"), ("dark", "slate", "dark")]
)
def test_a_first_visit_takes_the_system_scheme_before_any_bundle_runs(
    browser: Any, site_url: str, system: str, scheme: str, meta: str
) -> None:
    context = browser.new_context(color_scheme=system)
    page = context.new_page()
    # Without Material's bundle nor ours, only what the page parses: the scheme is set there.
    page.route("**/*.js", lambda route: route.abort())
    page.goto(site_url + "jeu/combat/")
    assert page.evaluate(SCHEME) == scheme
    assert page.evaluate(META) == meta
    shown = page.locator(TO_LIGHT if system == "dark" else TO_DARK)
    hidden = page.locator(TO_DARK if system == "dark" else TO_LIGHT)
    assert shown.is_visible() and not hidden.is_visible()
    assert page.locator("form[data-md-component='palette']").count() == 0  # not Material's
    context.close()


def test_the_toggle_switches_and_the_choice_is_kept(browser: Any, site_url: str) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.wait_for_load_state("load")
    assert page.evaluate(SCHEME) == "default"
    page.locator(TO_DARK).click()
    assert page.evaluate(SCHEME) == "slate"
    assert page.evaluate(META) == "dark"
    assert page.locator(TO_LIGHT).is_visible() and not page.locator(TO_DARK).is_visible()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 255, 255)"  # Material's slate colours apply
    # Kept on the next page (instant navigation) and on a new visit, against the system's.
    mark_the_document(page)
    page.locator("nav a[href$='caracteristiques/']").first.click()
    page.wait_for_url(re.compile(r".*/caracteristiques/(#.*)?$"))
    assert is_the_marked_document(page)
    assert page.evaluate(SCHEME) == "slate"
    page.reload()
    assert page.evaluate(SCHEME) == "slate"
    assert page.locator(TO_LIGHT).is_visible()
    page.locator(TO_LIGHT).click()
    assert page.evaluate(SCHEME) == "default"
    assert page.evaluate(META) == "light"
    page.reload()
    assert page.evaluate(SCHEME) == "default"
    context.close()


def test_the_keyboard_switches_the_palette(browser: Any, site_url: str) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.locator("#__palette_0").focus()  # the checked option, where Tab stops
    page.keyboard.press("Enter")
    assert page.evaluate(SCHEME) == "slate"
    assert page.evaluate("document.activeElement.id") == "__palette_1"
    page.keyboard.press("Enter")
    assert page.evaluate(SCHEME) == "default"
    context.close()
