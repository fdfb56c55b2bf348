"""The site under its Content-Security-Policy, and untrusted input shown as text, never run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.conftest import RULES_RUNTIME, rules_of_test_site, wait_for_python

pytestmark = pytest.mark.browser

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(e.violatedDirective + " " + e.blockedURI));
"""


def page_paths(site_dir: Path) -> list[str]:
    paths = []
    for page in sorted(site_dir.rglob("index.html")):
        relative = page.parent.relative_to(site_dir).as_posix()
        paths.append("" if relative == "." else relative + "/")
    return paths


def test_every_page_has_the_policy(site_dir: Path) -> None:
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert 'http-equiv="Content-Security-Policy"' in text, page
        assert "'unsafe-eval'" not in text


@pytest.mark.python
def test_no_page_breaks_the_policy(browser: Any, site_url: str, site_dir: Path) -> None:
    context = browser.new_context()
    context.route(RULES_RUNTIME, lambda route: None)  # Python held back until outils/
    context.add_init_script(WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    violations: dict[str, list[str]] = {}
    for path in page_paths(site_dir):
        page.goto(site_url + path)
        page.wait_for_load_state("load")
        found = page.evaluate("window.__csp")
        if found:
            violations[path] = found
    # Python on a calculator page starts under the policy too.
    context.unroute(RULES_RUNTIME)
    page.goto(site_url + "outils/")
    wait_for_python(page)
    assert page.evaluate("window.__csp") == []
    context.close()
    assert violations == {}
    assert errors == []


@pytest.mark.python
def test_calculator_inputs_from_the_address_are_text(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    # A text field keeps the hostile text as text and the calculator explains it.
    hostile = "<img src=x onerror=window.__pwned=1>"
    shared = json.dumps({"expression": hostile})
    page.goto(f"{site_url}outils/?dice={quote(shared)}")
    form = page.locator("form[data-calculateur='dice']")
    assert form.locator("[name='expression']").input_value() == hostile
    form.locator(".erreur").first.wait_for(state="visible", timeout=60000)
    # So does a number field (text, read as a number only when it is one): its message
    # says a number is wanted.
    number = json.dumps({"score": hostile})
    page.goto(f"{site_url}jeu/caracteristiques/?modificateur={quote(number)}")
    widget = page.locator("form[data-calculateur='modificateur']")
    assert widget.locator("[name='score']").input_value() == hostile
    message = widget.locator(".erreur").first
    message.wait_for(state="visible", timeout=60000)
    assert "nombre" in message.inner_text()
    assert page.evaluate("window.__pwned") is None
    assert page.locator("form.calculateur img").count() == 0
    context.close()


def test_damaged_shared_link_keeps_the_defaults(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site_url}jeu/caracteristiques/?modificateur=%7Bnot-json")
    form = page.locator("form[data-calculateur='modificateur']")
    form.scroll_into_view_if_needed()  # unfolded as the reader comes near (no link to follow)
    inputs = rules_of_test_site().calculator("modificateur").inputs
    default = next(field.default for field in inputs if field.name == "score")
    assert form.locator("[name='score']").input_value() == str(default)
    context.close()
