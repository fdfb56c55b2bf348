"""The page script's modules keep their state in the bundle's own scope (esbuild's function),
not on the page: no global of theirs but window.rules, no property of theirs on the page's
elements; main.html's fold script and rules.js talk through window.rules.fold and an event."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGES = ["outils/", "sorts/index-des-sorts/", "jeu/combat/", "installer/"]
GLOBALS = "() => Object.getOwnPropertyNames(window)"
# Properties given to the page's nodes by a script (`element.something = …`), apart from
# what the browser shows there itself: a form's fields by index or name, document.location.
EXPANDOS = """() => {
  const browsers = (value) => [Node, HTMLCollection, RadioNodeList, Location].some(
    (kind) => value instanceof kind);
  return [document, ...document.querySelectorAll("*")].flatMap((node) =>
    Object.keys(node)
      .filter((key) => !/^\\d+$/.test(key) && !browsers(node[key]))
      .map((key) => `${node.nodeName}.${node.className || node.id}.${key}`));
}"""
BUNDLE = "**/assets/js/site.*.js"
FIELDS = "(body) => body.querySelectorAll('input, select, textarea').length"


def settled(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # the set-ups, each in a task of its own


@pytest.mark.parametrize("path", PAGES)
def test_the_bundle_declares_no_global(browser: Any, site_url: str, path: str) -> None:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    settled(page, site_url + path)
    with_bundle = set(page.evaluate(GLOBALS))
    api = set(page.evaluate("() => Object.keys(window.rules)"))
    assert {"fold", "run", "boot", "status", "worker", "format", "search"} <= api
    page.route(BUNDLE, lambda route: route.abort())
    settled(page, site_url + path)
    without = set(page.evaluate(GLOBALS))
    assert page.evaluate("() => Object.keys(window.rules)") == [  # main.html's head
        "followFragment",
        "fold",
    ]
    assert with_bundle - without == set()
    assert [name for name in with_bundle if "regles" in name.lower()] == []
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_no_state_is_kept_on_the_pages_elements(browser: Any, site_url: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, service_workers="block")
    page = context.new_page()
    settled(page, site_url + path)
    assert page.evaluate(EXPANDOS) == []
    # Every calculator unfolded and set up, the search box used: still none.
    page.keyboard.press("End")
    page.wait_for_timeout(500)
    page.evaluate("() => window.rules.search('feu')")
    page.goto(site_url + path + "?q=feu")
    page.wait_for_timeout(500)
    assert page.evaluate(EXPANDOS) == []
    context.close()


def test_the_fold_script_gives_the_fields_back_on_the_unfold_event(
    browser: Any, site_url: str
) -> None:
    # Without the bundle, main.html's head script alone folds the far forms: rules.js only
    # asks it, by an event on the form's body, to put the fields back.
    context = browser.new_context(viewport={"width": 360, "height": 640}, service_workers="block")
    page = context.new_page()
    page.route(BUNDLE, lambda route: route.abort())
    settled(page, site_url + "outils/")
    body = page.locator("form[data-calculateur='tirage'] .calculateur-corps")  # the last
    assert body.get_attribute("hidden") == "until-found"
    assert body.evaluate(FIELDS) == 0
    held = body.evaluate("(b) => [...b.querySelectorAll('span[id]')].map((s) => s.id)")
    assert "calc-tirage-already_drawn" in held
    body.evaluate("(b) => b.dispatchEvent(new CustomEvent('rules:unfold'))")
    assert body.evaluate(FIELDS) > 0
    assert body.evaluate("(b) => b.querySelectorAll('.saisie > span:empty').length") == 0
    assert page.locator("#calc-tirage-already_drawn").evaluate("(e) => e.tagName") == "INPUT"
    assert body.get_attribute("hidden") == "until-found"  # showing it is rules.js's part
    body.evaluate("(b) => b.dispatchEvent(new CustomEvent('rules:unfold'))")  # once only
    assert page.locator("#calc-tirage-already_drawn").count() == 1
    context.close()
