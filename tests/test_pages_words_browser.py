"""Pages a player can find, in Chromium on a 360×800 phone with touch, on the test site
served under /regles/ as GitHub Pages serves it (its 404.html for any missing address):
« Vos données » from the menu, the footer and the search, whose export says it is done; the
error page's ways back from two folders deep; the install page without a link to itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.test_axe_browser import axe_on_parts, axe_source
from tests.test_entries_browser import PREFIX, Tab, base, served, tab
from tests.test_lists_browser import KEY

pytestmark = pytest.mark.browser

__all__ = ["base", "served", "tab"]

PHONE = {"has_touch": True, "is_mobile": True}
DATA_PATH = f"/{PREFIX}/donnees/"
MISSING = "nulle-part/plus-loin/"  # two folders deep, under the sub-path
LISTS = '{"version": 1, "last": "A", "lists": [{"name": "A", "spells": []}]}'


@pytest.fixture
def phone(tab: Callable[..., Tab]) -> Iterator[Tab]:
    yield tab(360, **PHONE, accept_downloads=True)


def path_of(page: Any) -> str:
    return urlsplit(page.url).path


def search_from_header(page: Any, query: str) -> None:
    """The header's magnifier tapped, `query` typed, until the box shows its results."""
    page.locator('header label.md-header__button[for="__search"]').tap()
    page.wait_for_function("document.activeElement.matches('[data-recherche-saisie]')")
    page.keyboard.type(query, delay=20)
    wait_for_results(page, query)


def wait_for_results(page: Any, query: str) -> None:
    page.wait_for_function(
        "(q) => document.querySelector('[data-recherche-etat]').textContent.includes(q)",
        arg=f"pour «\u00a0{query}\u00a0»",
    )
    page.locator("[data-recherche-liste] li").first.wait_for()


def data_result(page: Any) -> Any:
    """The search result that leads to the data page."""
    return page.locator(f'[data-recherche-liste] a[href*="{DATA_PATH}"]').first


def test_a_player_finds_their_data_and_the_export_says_it_is_done(phone: Tab) -> None:
    # The menu a phone opens: « Vos données » is in it, among the site's first items (from a
    # page of a section, the menu opens on the section's pages: its back arrow leads there,
    # as to every other item of the site's first level).
    page = phone.open("outils/")
    in_menu = page.locator("nav.md-nav--primary a", has_text="Vos données")
    page.get_by_role("button", name="Menu du site").tap()
    expect(in_menu).to_be_visible()
    page = phone.open("jeu/combat/")
    page.get_by_role("button", name="Menu du site").tap()
    back = page.locator("nav.md-nav--primary label.md-nav__title", has_text="Jeu d’essai")
    back.tap()
    expect(in_menu).to_be_in_viewport()
    in_menu.tap()
    page.wait_for_url(lambda url: urlsplit(url).path == DATA_PATH)
    expect(page.locator("article h1")).to_contain_text("Vos données")

    # The footer of any page.
    page = phone.open("jeu/actions/")
    in_footer = page.locator("footer a", has_text="Vos données")
    in_footer.scroll_into_view_if_needed()
    expect(in_footer).to_be_visible()
    in_footer.tap()
    page.wait_for_url(lambda url: urlsplit(url).path == DATA_PATH)

    # The search, with or without accents, and by what a player wants to do: first, before
    # the game's « jets de sauvegarde » and its rules that say « données ».
    for query in ("sauvegarde", "donnees", "données"):
        page = phone.open("jeu/actions/")
        search_from_header(page, query)
        first = page.locator("[data-recherche-liste] li a").first
        expect(first).to_have_attribute("href", re.compile(f"{DATA_PATH}#"))
        expect(first).to_be_in_viewport()
    data_result(page).tap()
    page.wait_for_url(lambda url: urlsplit(url).path == DATA_PATH)

    # « Tout exporter »: once the file is made, the page says so, and its name.
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, LISTS])
    page = phone.open("donnees/")
    page.locator("#regles-donnees[data-pret]").wait_for(state="attached")
    with page.expect_download() as download:
        page.get_by_role("button", name="Tout exporter").tap()
    name = download.value.suggested_filename
    assert name.endswith(".json")
    said = page.locator(".regles-donnees__message")
    expect(said).to_contain_text("C’est fait")
    expect(said).to_contain_text(f"«\u00a0{name}\u00a0»")
    # Its words are a player's: no jargon on the page.
    assert "JSON" not in page.locator("article").inner_text()


def github_pages_404(site: Path) -> Callable[[Any], None]:
    """A route that answers as GitHub Pages does: the file if there is one, else the site's
    404.html with the status 404, whatever the address's depth."""
    missing = (site / "404.html").read_bytes()

    def answer(route: Any) -> None:
        response = route.fetch()
        if response.status == 404:
            route.fulfill(status=404, body=missing, content_type="text/html; charset=utf-8")
        else:
            route.fulfill(response=response)

    return answer


def test_a_missing_address_gets_a_french_page_with_its_ways_back(
    phone: Tab, served: tuple[str, Path]
) -> None:
    page = phone.page
    page.route(f"{phone.base}{MISSING}**", github_pages_404(served[1]))
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    page.goto(phone.base + MISSING)
    expect(page.locator("article h1")).to_contain_text("Page introuvable")
    assert page.title().startswith("Page introuvable")
    assert "Not found" not in page.locator("body").inner_text()
    # Its stylesheets and scripts came from the site, not from the missing folders.
    page.wait_for_load_state("load")
    assert failed == [phone.base + MISSING]
    expect(page.locator(".md-header")).to_be_visible()
    # Its field, its link and the footer's link to the data page, for every reader.
    source = axe_source()
    page.route("**/__axe.min.js", lambda r: r.fulfill(body=source, content_type="text/javascript"))
    page.add_script_tag(url=phone.base + "__axe.min.js")
    found = axe_on_parts(page, "article", ".regles-pied-donnees")
    assert found["violations"] == [], found["violations"]
    assert "label" in found["passed"] and "link-name" in found["passed"]

    home = page.get_by_role("link", name="Retour à l’accueil")
    home.tap()
    page.wait_for_url(lambda url: urlsplit(url).path == f"/{PREFIX}/")

    # Its field hands the query to the header's box, whose result leads into the site.
    page.goto(phone.base + MISSING)
    field = page.locator("article [data-recherche-relais-saisie]")
    field.tap()
    field.fill("sauvegarde")
    field.press("Enter")
    wait_for_results(page, "sauvegarde")
    data_result(page).tap()
    page.wait_for_url(lambda url: urlsplit(url).path == DATA_PATH)

    # The menu of the error page leads into the site too.
    page.goto(phone.base + MISSING)
    page.get_by_role("button", name="Menu du site").tap()
    in_menu = page.locator("nav.md-nav--primary a", has_text="Vos données")
    expect(in_menu).to_be_visible()
    in_menu.tap()
    page.wait_for_url(lambda url: urlsplit(url).path == DATA_PATH)


def test_the_install_page_has_no_link_to_itself_nor_a_hidden_button_to_point_at(
    phone: Tab,
) -> None:
    page = phone.open("installer/")
    # No one-click install here (Chromium offers none to this page): in the hidden button's
    # place, a line says what to do.
    expect(page.locator(".installer-etat")).to_contain_text("suivez les instructions")
    here = page.url.split("#")[0]
    links = page.locator("article a[href]")
    to_itself = [
        links.nth(i).inner_text()
        for i in range(links.count())
        if (links.nth(i).evaluate("a => a.href").split("#")[0] == here)
        and not links.nth(i).evaluate("a => a.classList.contains('headerlink')")
    ]
    assert to_itself == []
    # The button is hidden, and the page's text names it « ci-dessus » only « s'il apparaît ».
    expect(page.locator(".installer-bouton")).to_be_hidden()
    text = page.locator("article").inner_text()
    assert "ci-dessus" in text
    assert re.findall(r"ci-dessus(?! s’il apparaît)", text) == []
