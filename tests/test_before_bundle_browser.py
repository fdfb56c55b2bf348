"""What main.html does while the page is parsed, so that Material's bundle, when it runs,
finds it done and does not make the browser restyle the whole page: the relative addresses
written out in full, as its instant navigation wants them, and the page root's classes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup

from tests.conftest import is_the_marked_document, mark_the_document

pytestmark = pytest.mark.browser

# Counts the changes of an address of a link or an `a`, before and after Material's bundle
# has run (it defines `document$`, then rewrites the relative addresses it finds).
WATCH_ADDRESSES = """window.__adresses = {avant: 0, apres: []};
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target.tagName !== "A" && record.target.tagName !== "LINK") continue;
    if (window.document$) window.__adresses.apres.push(record.target.outerHTML.slice(0, 80));
    else window.__adresses.avant += 1;
  }
}).observe(document, {attributes: true, attributeFilter: ["href"], subtree: true});"""

ABSOLUTE = ("http:", "https:", "//", "mailto:")


def relative_addresses(html: Path) -> list[str]:
    soup = BeautifulSoup(html.read_text("utf-8"), "html.parser")
    return [
        str(tag["href"])
        for tag in soup.select("a[href], link[href]")
        if not str(tag["href"]).startswith(ABSOLUTE)
    ]


@pytest.mark.parametrize("path", ["", "jeu/combat/", "outils/", "sorts/acoustique/"])
def test_relative_addresses_are_written_out_before_materials_bundle_runs(
    browser: Any, site_url: str, site_dir: Path, path: str
) -> None:
    relative = relative_addresses(site_dir / path / "index.html")
    assert len(relative) > 20  # navigation, cross-links, stylesheets
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.add_init_script(WATCH_ADDRESSES)
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    changes = page.evaluate("window.__adresses")
    assert changes["apres"] == []  # Material found nothing left to rewrite
    assert changes["avant"] == len(relative)
    # The same addresses, written out in full from the page's own.
    live = page.evaluate(
        "[...document.querySelectorAll('a[href], link[href]')].map((e) => e.getAttribute('href'))"
    )
    assert {urljoin(site_url + path, href) for href in relative} <= set(live)
    assert all(href.startswith(ABSOLUTE) for href in live)
    context.close()


def test_instant_navigation_follows_a_link_written_out_in_full(browser: Any, site_url: str) -> None:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.wait_for_load_state("load")
    mark_the_document(page)
    link = page.locator("article a[href$='/jeu/degats-et-soins/']").first
    assert link.get_attribute("href") == site_url + "jeu/degats-et-soins/"
    link.click()
    # Now and then the click lands on the neighbouring link, to a section of the same page
    # (Playwright clicks where the link was when it scrolled to it): either is followed.
    page.wait_for_url(re.compile(r".*/jeu/degats-et-soins/(#.*)?$"))
    assert is_the_marked_document(page)  # the same document: instant
    context.close()


ROOT_CLASSES = "[...document.documentElement.classList].sort()"


def test_the_root_has_the_classes_the_bundle_gives_it_before_the_bundle_runs(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.wait_for_load_state("load")
    with_bundle = page.evaluate(ROOT_CLASSES)
    # A new class on the root makes the browser restyle the whole page: the bundle must find
    # every class it adds already there (if Material adds one more, list it in main.html).
    page.route("**/assets/javascripts/bundle.*.js", lambda route: route.abort())
    page.reload()
    assert page.evaluate(ROOT_CLASSES) == with_bundle == ["js", "js-focus-visible"]
    context.close()


def test_without_javascript_the_root_keeps_no_js(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    assert page.locator("html.no-js").count() == 1
    context.close()


def test_keyboard_focus_is_still_shown(browser: Any, site_url: str) -> None:
    # The class "js-focus-visible" is given early; Material's polyfill must still mark the
    # element reached with the keyboard, which its stylesheet outlines.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.wait_for_load_state("load")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.md-typeset a')"):
            break
    assert page.evaluate("document.activeElement.classList.contains('focus-visible')")
    context.close()
