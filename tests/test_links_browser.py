"""The page's relative addresses are written out in full while it is parsed (main.html), as
Material's instant navigation wants them, so that Material does not rewrite them, and make
the browser restyle the page, once it is loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup

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


@pytest.mark.parametrize("path", ["", "dnd5e/combat/", "outils/", "magie/acoustique/"])
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
    page.goto(site_url + "dnd5e/combat/")
    page.wait_for_load_state("load")
    page.evaluate("window.__meme_document = true")
    link = page.locator("article a[href$='/dnd5e/degats-et-soins/']").first
    assert link.get_attribute("href") == site_url + "dnd5e/degats-et-soins/"
    link.click()
    page.wait_for_url("**/dnd5e/degats-et-soins/")
    assert page.evaluate("window.__meme_document") is True  # the same document: instant
    context.close()
