"""A search result tapped lands on its heading, on the page being read or another, and Back
returns to the page left with its own address: Chromium at 360×800 with touch and at
1280×800, with Material's instant navigation on (the test site's setting) and off.

The player's case (issue #42): from « Combat », « opportunite », the first result « Attaques
d’Opportunité », a heading some 12,000 px below on a phone. The same built site serves both
settings: for « off », the test strips `navigation.instant` from the configuration that each
page hands Material (its #__config), as a site without it would."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.conftest import (
    is_the_marked_document,
    mark_the_document,
    wait_for_page,
    wait_for_still_scroll,
)

pytestmark = pytest.mark.browser

QUERY = "opportunite"
TITLE = "Attaques d’Opportunité"
ANCHOR = "attaques-d-opportunite"
READ = "jeu/combat/"  # the page that holds the heading, far below its top
OTHER = "licences/"  # a page without it
READING_AT = 1500  # where the reader is on READ before searching, in px from its top
SCREENS = (  # (width, a phone with touch)
    (360, True),
    (1280, False),
)


def without_instant_navigation(route: Any) -> None:
    """The page as a site without `navigation.instant` would serve it; other files as they are."""
    if route.request.resource_type != "document":
        route.fallback()
        return
    response = route.fetch()
    body = response.text()
    assert '"navigation.instant", ' in body, "la configuration de Material a changé de forme"
    route.fulfill(response=response, body=body.replace('"navigation.instant", ', ""))


def open_page(browser: Any, url: str, width: int, phone: bool, instant: bool) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, has_touch=phone, is_mobile=phone
    )
    if not instant:
        context.route("**/*", without_instant_navigation)
    page = context.new_page()
    page.goto(url)
    if instant:
        mark_the_document(page)  # instant navigation takes over the taps from now on
    else:
        page.evaluate("window.__sameDocument = true")
    return page


def search_and_tap_first(
    page: Any,
    phone: bool,
    query: str = QUERY,
    title: str = TITLE,
    anchor: str = ANCHOR,
    read: str = READ,
) -> str:
    """Types `query` in the header's box as a reader does, and taps the first result, once
    it is `title` at `anchor` of the page `read` (not the first result of a query typed
    halfway); gives the text the result showed."""
    if phone:
        page.tap('header label.md-header__button[for="__search"]')  # the magnifier
    else:
        page.click("[data-recherche-saisie]")
    page.wait_for_function("document.activeElement.matches('[data-recherche-saisie]')")
    page.keyboard.type(query, delay=20)
    first = page.locator("[data-recherche-liste] a").first
    page.wait_for_function(
        """([title, anchor, read]) => {
            const link = document.querySelector('[data-recherche-liste] a');
            return link && link.querySelector('h1').textContent === title
                && link.hash === '#' + anchor && link.pathname.endsWith('/' + read);
        }""",
        arg=[title, anchor, read],
    )
    shown = first.inner_text()
    if phone:
        first.tap()
    else:
        first.click()
    return str(shown)


def assert_heading_on_top(
    page: Any, where: str, read: str = READ, anchor: str = ANCHOR, *, named: bool = True
) -> None:
    """The heading (or form) at the top of the screen, just under Material's sticky header:
    not under it, not lower than one header's height below it, once the page has stopped
    moving; the address names it (`named`; a form's is the section that holds it, which
    Material's navigation.tracking writes there once the page is still)."""
    on_top = """(id) => {
        const heading = document.getElementById(id);
        const header = document.querySelector('header.md-header').getBoundingClientRect();
        const top = heading ? heading.getBoundingClientRect().top : -1;
        return top >= header.bottom && top <= header.bottom + header.height;
    }"""
    wait_for_page(page, read)
    with contextlib.suppress(PlaywrightTimeoutError):  # the assertion below says where it is
        page.wait_for_function(on_top, arg=anchor, timeout=10_000)
    wait_for_still_scroll(page)
    header = page.locator("header.md-header").bounding_box()
    heading = page.locator(f"[id='{anchor}']").bounding_box()
    assert header is not None and heading is not None
    below = header["y"] + header["height"]
    assert below <= heading["y"] <= below + header["height"], (where, heading, header)
    if named:
        assert page.url.endswith(f"{read}#{anchor}"), (where, page.url)
    else:
        assert page.url.split("#")[0].endswith(read), (where, page.url)
    assert not page.evaluate("document.getElementById('__search').checked"), where


def assert_back_to(page: Any, url: str, where: str) -> None:
    """Back: the page left, at its own address, without the section of the page just left."""
    page.go_back()
    page.wait_for_function("(path) => location.href.split('#')[0] === path", arg=url)
    wait_for_still_scroll(page)
    assert page.url.split("#")[0] == url, (where, page.url)
    assert not page.url.endswith(f"#{ANCHOR}"), (where, page.url)


def lands_and_goes_back(browser: Any, site_url: str, instant: bool) -> None:
    for width, phone in SCREENS:
        where = f"{width} px, navigation instantanée {'active' if instant else 'coupée'}"
        # On the page being read, some way down it: Back returns there.
        page = open_page(browser, site_url + READ, width, phone, instant)
        try:
            page.evaluate(f"window.scrollTo(0, {READING_AT})")
            wait_for_still_scroll(page)
            page.evaluate("(id) => { window.__heading = document.getElementById(id); }", ANCHOR)
            search_and_tap_first(page, phone)
            assert_heading_on_top(page, f"même page, {where}")
            assert is_the_marked_document(page), where  # no reload, whichever the setting
            # Nor the page fetched again and put in place of the one read (instant
            # navigation taking the fragment's `popstate` for Back): the heading landed on is
            # the one the reader had, and the calculators above it are as they were.
            assert page.evaluate("window.__heading.isConnected"), where
            assert_back_to(page, site_url + READ, f"même page, retour, {where}")
            # Where the reader was, not at the top nor at the heading: within half a screen,
            # as a calculator form near there may open (and grow) while the page is away.
            assert abs(page.evaluate("scrollY") - READING_AT) < 400, where
        finally:
            page.context.close()
        # From another page.
        page = open_page(browser, site_url + OTHER, width, phone, instant)
        try:
            search_and_tap_first(page, phone)
            assert_heading_on_top(page, f"autre page, {where}")
            assert is_the_marked_document(page) is instant, where  # the setting meant
            assert_back_to(page, site_url + OTHER, f"autre page, retour, {where}")
        finally:
            page.context.close()


def test_a_result_lands_on_its_heading_with_instant_navigation(browser: Any, site_url: str) -> None:
    lands_and_goes_back(browser, site_url, instant=True)


def test_a_result_lands_on_its_heading_without_instant_navigation(
    browser: Any, site_url: str
) -> None:
    lands_and_goes_back(browser, site_url, instant=False)


# The calculator is also on the tools page (outils/), a page of the site: from a page of the
# game, its result on the game's page comes first, the site's pages ranking as the game's.
CALCULATOR = ("chance de reussir", "Chance de réussir une épreuve", "calc-chance")
CALCULATOR_PAGE = "jeu/tests-d20/"


def test_a_calculator_found_by_search_opens_in_view(browser: Any, site_url: str) -> None:
    """« chance de réussir » finds the calculator by its title, named as one; tapped, on a
    phone, from another page and from its own, it lands open under the header."""
    for start in ("jeu/combat/", CALCULATOR_PAGE):
        page = open_page(browser, site_url + start, 360, True, instant=True)
        try:
            shown = search_and_tap_first(page, True, *CALCULATOR, CALCULATOR_PAGE)
            where = f"depuis {start}"
            assert "Calculateur" in shown, (where, shown)
            assert_heading_on_top(page, where, CALCULATOR_PAGE, CALCULATOR[2], named=False)
            form = page.locator(f"form#{CALCULATOR[2]}")
            assert form.locator("[data-type]").first.is_visible(), where  # opened
        finally:
            page.context.close()
