"""A table too wide for a phone, in Chromium (table-columns.js): at 360 px a computed table
shows its key column and the column of the reader's own value, with nothing to scroll
sideways; the column follows the value as it is typed in a calculator, and any other is one
choice away. A table written in the text shows its first column and one the reader picks.
Where a table fits, it is whole and offers no choice."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import rules_of_test_site

pytestmark = [pytest.mark.browser, pytest.mark.python]

PAGE = "maison/poids-transportable/"  # the table « limites_charge », then « charge »
# Written in the same page's text, six columns: « Niveau », then what a level is.
WRITTEN = ["Niveau", "Poids", "Taille", "Rangement", "Manipulation", "Exemples"]
# A page whose written tables have three short columns: they fit a phone as they are.
FITTING_PAGE = "jeu/combat/"
TABLE = rules_of_test_site().table("limites_charge")
(STRENGTH,) = [f for f in rules_of_test_site().calculator("charge").inputs if f.name == "strength"]
START = int(str(STRENGTH.default))  # the Force the form starts from


def shown_headers(holder: Any) -> list[str]:
    return [h.inner_text().strip() for h in holder.locator("th").all() if h.is_visible()]


def column_of(score: int) -> str:
    assert TABLE.follows is not None
    return TABLE.headers[TABLE.follows.columns[score]]


def test_a_wide_table_shows_the_column_of_the_readers_force(phone_page: Any, site_url: str) -> None:
    page = phone_page
    page.goto(site_url + PAGE)
    holder = page.locator(".table-calculee").first
    holder.scroll_into_view_if_needed()
    picker = holder.get_by_label("Voir la colonne")
    expect(picker).to_be_visible()
    # The form's starting Force picks its column, beside the key column.
    expect(holder.locator("th", has_text=column_of(START))).to_be_visible()
    assert shown_headers(holder)[0] == TABLE.headers[0]
    assert len(shown_headers(holder)) < len(TABLE.headers)
    # Nothing to scroll sideways.
    area = holder.locator(".md-typeset__scrollwrap")
    assert area.evaluate("(a) => a.scrollWidth <= a.clientWidth + 1")

    # Force typed in the calculator: the table follows it.
    form = page.locator("form[data-calculateur='charge']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    field = form.locator("input[name='strength']")
    field.tap()
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    expect(holder.locator("th", has_text=column_of(3))).to_be_visible()
    assert column_of(3) != column_of(START)

    # Another column, chosen by the reader.
    last = TABLE.headers[-1]
    picker.select_option(label=last)
    expect(holder.locator("th", has_text=last)).to_be_visible()
    assert area.evaluate("(a) => a.scrollWidth <= a.clientWidth + 1")


def test_a_table_that_fits_is_whole_and_offers_no_choice(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1600, "height": 900})
    page = context.new_page()
    page.goto(site_url + PAGE)
    holder = page.locator(".table-calculee").first
    holder.scroll_into_view_if_needed()
    expect(holder.locator("th").last).to_be_visible()
    assert shown_headers(holder) == TABLE.headers
    expect(holder.locator(".table-colonne-choix")).to_be_hidden()
    assert shown_headers(written_table(page)) == WRITTEN
    expect(page.locator(".table-colonne-choix:not([hidden])")).to_have_count(0)
    context.close()


def written_table(page: Any) -> Any:
    table = page.locator("table", has=page.locator("th", has_text="Manipulation"))
    table.scroll_into_view_if_needed()
    return table


def test_a_wide_table_of_the_text_shows_its_first_column_and_one_chosen(
    phone_page: Any, site_url: str
) -> None:
    page = phone_page
    page.goto(site_url + PAGE)
    table = written_table(page)
    area = page.locator(".md-typeset__scrollwrap", has=table)
    picker = page.get_by_label("Voir la colonne").nth(1)  # the computed table's comes first
    expect(picker).to_be_visible()
    shown = shown_headers(table)
    assert shown[:2] == WRITTEN[:2] and len(shown) < len(WRITTEN), shown
    assert area.evaluate("(a) => a.scrollWidth <= a.clientWidth + 1")
    assert area.get_attribute("role") is None  # not a scroll area: nothing to scroll

    picker.select_option(label="Exemples")
    expect(table.locator("th", has_text="Exemples")).to_be_visible()
    assert shown_headers(table)[0] == "Niveau"
    assert area.evaluate("(a) => a.scrollWidth <= a.clientWidth + 1")

    # On paper, every column, and no choice to make.
    page.emulate_media(media="print")
    assert shown_headers(table) == WRITTEN
    expect(picker).to_be_hidden()


def test_tables_of_short_columns_fit_a_phone_whole(phone_page: Any, site_url: str) -> None:
    # Material's cell padding pushed them past a 360 px screen; they are whole, unscrolled.
    page = phone_page
    page.goto(site_url + FITTING_PAGE)
    areas = page.locator("article .md-typeset__scrollwrap")
    assert areas.count() >= 2
    for area in areas.all():
        assert area.evaluate("(a) => a.scrollWidth <= a.clientWidth + 1"), area.inner_text()
    expect(page.locator(".table-colonne-choix:not([hidden])")).to_have_count(0)
