"""The test site's home page in Chromium (the ```accueil block, regles/features/links/home.py,
search.js): on a 360 × 800 phone the search field and every quick link are on the first
screen, each a tap target of 48 px at least; tapping the field and typing searches in the
header's box; the links work without JavaScript, and the field, which needs it, is hidden."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import is_the_marked_document, mark_the_document
from tests.test_axe_browser import axe_on_parts, axe_source

pytestmark = pytest.mark.browser

FIELD = "#regles-accueil-saisie"
LINKS = "nav.regles-accueil-liens a"
TARGET = 48  # px, both ways
# The field's box and each quick link's.
BOXES = """() => [...document.querySelectorAll(
        "form.regles-accueil-recherche, nav.regles-accueil-liens a")].map((node) => {
        const box = node.getBoundingClientRect();
        return { name: node.textContent.trim() || node.className, top: box.top,
                 bottom: box.bottom, width: box.width, height: box.height };
    })"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 360, "height": 800},
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    yield context
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_field_and_every_quick_link_are_on_a_phones_first_screen(
    browser: Any, site_url: str, scheme: str
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 800},
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
        service_workers="block",
    )
    page = context.new_page()
    page.goto(site_url)
    page.wait_for_load_state("load")
    boxes = page.evaluate(BOXES)
    assert page.locator(LINKS).count() >= 6
    assert len(boxes) == page.locator(LINKS).count() + 1
    for box in boxes:
        assert box["top"] >= 0 and box["bottom"] <= 800, box
        assert box["height"] >= TARGET and box["width"] >= TARGET, box
    # Two columns: the links are not one long list down the screen.
    lefts = {round(a.bounding_box()["x"]) for a in page.locator(LINKS).all()}
    assert len(lefts) == 2, lefts
    context.close()


def test_tapping_the_field_and_typing_shows_the_headers_results(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url)
    page.wait_for_function("() => window.rules && typeof window.rules.search === 'function'")
    page.tap(FIELD)
    # The header's box is open, with the focus, where the reader goes on typing.
    page.wait_for_function("() => document.getElementById('__search').checked")
    assert page.evaluate("document.activeElement.matches('[data-recherche-saisie]')")
    page.keyboard.type("combat")
    results = page.locator("[data-recherche-liste] a[data-recherche-lien]")
    results.first.wait_for(state="visible")
    titles = [t.lower() for t in page.locator("[data-recherche-liste] h1").all_inner_texts()]
    assert any("combat" in title for title in titles), titles
    # The same results as the header's own search gives for that query.
    expected = page.evaluate("async () => (await window.rules.search('combat')).map((r) => r.url)")
    shown = [a.evaluate("(a) => a.href") for a in results.all()]
    assert shown == expected
    # Closed, the box leaves its query in the home field.
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('__search').checked")
    assert page.input_value(FIELD) == "combat"
    assert errors == []


def test_typing_from_the_keyboard_carries_the_first_letters_over(
    browser: Any, site_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(site_url)
    page.wait_for_function("() => window.rules && typeof window.rules.search === 'function'")
    page.focus(FIELD)  # as from Tab: the box stays closed until the reader types
    assert not page.evaluate("document.getElementById('__search').checked")
    page.keyboard.type("sorts")
    page.wait_for_function("() => document.getElementById('__search').checked")
    header = "[data-recherche] [data-recherche-saisie]"
    page.wait_for_function(f"() => document.querySelector('{header}').value === 'sorts'")
    page.locator("[data-recherche-liste] a[data-recherche-lien]").first.wait_for()
    page.close()


def test_the_field_works_again_after_an_instant_navigation(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    page.goto(site_url)
    page.wait_for_function("() => window.rules && typeof window.rules.search === 'function'")
    mark_the_document(page)
    page.locator(f"{LINKS}[href$='licences/']").tap()
    page.wait_for_url(re.compile(r".*/licences/(#.*)?$"))
    page.go_back()
    page.wait_for_url(site_url)
    page.locator(FIELD).wait_for()
    assert is_the_marked_document(page)  # there and back without a reload
    # Material closes the search 125 ms after every navigation (bundle.ts, delay(125)): a
    # timer set now, longer, fires after that one, however busy the machine.
    page.evaluate("new Promise((done) => setTimeout(done, 150))")
    page.wait_for_function(
        "() => document.querySelector('[data-recherche-relais]').dataset.rechercheLiee === '1'"
    )
    page.tap(FIELD)
    page.wait_for_function("() => document.getElementById('__search').checked")
    page.keyboard.type("combat")
    page.locator("[data-recherche-liste] a[data-recherche-lien]").first.wait_for()


def test_without_javascript_the_links_work_and_no_dead_field_shows(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url)
    assert not page.locator("form.regles-accueil-recherche").is_visible()
    links = page.locator(LINKS)
    assert links.count() >= 6
    for box in (a.bounding_box() for a in links.all()):
        assert box["y"] + box["height"] <= 800, box
    links.first.click()
    page.wait_for_load_state("load")
    assert page.url != site_url
    context.close()


@pytest.mark.parametrize(("width", "scheme"), [(360, "light"), (360, "dark"), (1280, "light")])
def test_axe_finds_nothing_in_the_block(
    browser: Any, site_url: str, width: int, scheme: str
) -> None:
    axe = axe_source()
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.route(
        "**/__axe.min.js", lambda route: route.fulfill(body=axe, content_type="text/javascript")
    )
    page.goto(site_url)
    page.wait_for_load_state("load")
    page.add_script_tag(url=site_url + "__axe.min.js")
    found = axe_on_parts(page, "form.regles-accueil-recherche", "nav.regles-accueil-liens")
    assert found["violations"] == [], json.dumps(found["violations"], ensure_ascii=False, indent=1)
    # The block was read: its field's label and its links' names and contrast were checked.
    assert {"label", "link-name", "color-contrast"} <= set(found["passed"]), found["passed"]
    context.close()


def test_the_install_button_stays_hidden_where_the_browser_offers_no_install(
    phone: Any, site_url: str
) -> None:
    """Headless Chromium offers no install: the page says what to do instead, and shows no
    button that would do nothing when tapped (Material's .md-button beat `hidden`)."""
    page = phone.new_page()
    page.goto(site_url + "installer/")
    status = page.locator(".installer-etat")
    expect(status).to_contain_text("ne propose pas l’installation en un clic")
    button = page.locator(".installer-bouton")
    assert button.get_attribute("hidden") is not None
    expect(button).to_be_hidden()
    page.close()
