"""The navigation drawer of narrow screens (regles.css, regles/theme/partials/header.html):
not drawn while closed, out of the tab order then, and opened and closed from the keyboard
by the header's menu button; without JavaScript, and on a wide screen, the navigation is
drawn as in Material."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import is_the_marked_document, mark_the_document

pytestmark = pytest.mark.browser

PAGE = "jeu/combat/"
PHONE = {"width": 412, "height": 823}
BUTTON = ".md-header button.regles-menu"
LINK = ".md-sidebar--primary a.md-nav__link[href$='actions/']"  # a page of the same section
DRAWN = '() => document.querySelector("' + LINK + '").checkVisibility()'
OPEN = "() => document.getElementById('__drawer').checked"
ON_BUTTON = "() => document.activeElement.matches('.md-header button.regles-menu')"
IN_DRAWER = "() => !!document.activeElement.closest('.md-sidebar--primary')"
SCROLLWRAP = (
    "getComputedStyle(document.querySelector('.md-sidebar--primary .md-sidebar__scrollwrap'))"
)
CONTENT_VISIBILITY = f"() => {SCROLLWRAP}.contentVisibility"
SLID_OUT = f"() => {SCROLLWRAP}.contentVisibility === 'hidden'"  # the drawer, once closed


@pytest.fixture
def phone(browser: Any, site_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.goto(site_url + PAGE)
    page.wait_for_load_state("load")
    yield page
    context.close()


def test_the_closed_drawer_is_not_drawn_nor_in_the_tab_order(phone: Any) -> None:
    assert phone.evaluate(OPEN) is False
    assert phone.evaluate(CONTENT_VISIBILITY) == "hidden"
    assert phone.evaluate(DRAWN) is False
    # From the top of the page, the keyboard goes from the header to the page's text.
    reached_text = False
    for _ in range(15):
        phone.keyboard.press("Tab")
        assert phone.evaluate(IN_DRAWER) is False
        if phone.evaluate("() => !!document.activeElement.closest('.md-typeset')"):
            reached_text = True
            break
    assert reached_text


def test_the_menu_button_opens_and_closes_the_drawer_from_the_keyboard(phone: Any) -> None:
    button = phone.locator(BUTTON)
    assert button.evaluate("(b) => b.type") == "button"
    assert button.get_attribute("aria-label") == "Menu du site"
    assert button.get_attribute("aria-expanded") == "false"
    button.focus()
    phone.keyboard.press("Enter")
    assert phone.evaluate(OPEN) is True
    assert button.get_attribute("aria-expanded") == "true"
    assert phone.evaluate(DRAWN) is True
    phone.locator(LINK).wait_for(state="visible")  # slid in

    phone.keyboard.press("Escape")
    assert phone.evaluate(OPEN) is False
    assert button.get_attribute("aria-expanded") == "false"
    assert phone.evaluate(ON_BUTTON) is True

    # Space too, without scrolling the page.
    phone.keyboard.press(" ")
    assert phone.evaluate(OPEN) is True
    assert phone.evaluate("() => scrollY") == 0


def test_closing_from_inside_the_drawer_gives_the_focus_back_to_the_button(phone: Any) -> None:
    phone.locator(BUTTON).focus()
    phone.keyboard.press("Enter")
    phone.locator(LINK).wait_for(state="visible")
    for _ in range(20):
        phone.keyboard.press("Tab")
        if phone.evaluate(IN_DRAWER):
            break
    assert phone.evaluate(IN_DRAWER) is True
    phone.keyboard.press("Escape")
    assert phone.evaluate(OPEN) is False
    assert phone.evaluate(ON_BUTTON) is True


def test_the_drawer_stays_drawn_while_it_slides_out(phone: Any) -> None:
    phone.locator(BUTTON).click()
    phone.locator(LINK).wait_for(state="visible")
    # Closed and read in the same task: Material's slide (0.25 s) has just begun.
    during = phone.evaluate(
        "() => { document.getElementById('__drawer').click();"
        f" return {SCROLLWRAP}.contentVisibility; }}"
    )
    assert during == "visible"
    phone.wait_for_function(SLID_OUT)
    assert phone.evaluate(DRAWN) is False


def test_a_wide_screen_draws_the_navigation_without_a_menu_button(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1350, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(site_url + PAGE)
    assert page.evaluate(CONTENT_VISIBILITY) == "visible"
    assert page.locator(LINK).is_visible()
    assert not page.locator(BUTTON).is_visible()
    context.close()


def test_without_javascript_the_label_opens_the_drawer_as_in_material(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + PAGE)
    assert page.locator(BUTTON).count() == 0
    assert page.evaluate(CONTENT_VISIBILITY) == "visible"  # evaluate runs without page scripts
    page.locator(".md-header label[for='__drawer']").click()
    page.locator(LINK).wait_for(state="visible")
    context.close()


def test_the_button_works_on_after_a_page_change_from_the_drawer(phone: Any) -> None:
    mark_the_document(phone)
    phone.locator(BUTTON).click()
    phone.locator(LINK).click()
    phone.wait_for_url(re.compile(r".*/jeu/actions/(#.*)?$"))
    assert is_the_marked_document(phone)  # Material's instant navigation
    phone.wait_for_function(OPEN.replace("=> ", "=> !", 1))  # Material closes the drawer
    assert phone.locator(BUTTON).get_attribute("aria-expanded") == "false"
    phone.wait_for_function(SLID_OUT)
    phone.locator(BUTTON).click()
    assert phone.evaluate(OPEN) is True
    assert phone.locator(BUTTON).get_attribute("aria-expanded") == "true"
    assert phone.evaluate(CONTENT_VISIBILITY) == "visible"
