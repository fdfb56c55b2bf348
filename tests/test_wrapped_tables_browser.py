"""Content tables written in Material's scrolling container at build time
(regles/features/assets/wrapped_tables.py): Material's script leaves them in place, and they look as
Material styles its own tables (regles.css repeats its `table:not([class])` rules)."""

from __future__ import annotations

from typing import Any

import pytest

from regles.features.assets.wrapped_tables import TABLE_CLASS

pytestmark = pytest.mark.browser

# Each wrapped table next to a copy of itself without its class, as Material's own tables
# are; every computed style of the copy's elements against the original's (after the
# copy's table, the original's); the differences.
COMPARE = """(name) => {
    const differences = [];
    for (const table of document.querySelectorAll("table." + name)) {
        const wrapper = table.closest(".md-typeset__scrollwrap");
        const copy = wrapper.cloneNode(true);
        copy.querySelector("table").removeAttribute("class");
        wrapper.after(copy);
        const ours = [wrapper, ...wrapper.querySelectorAll("*")];
        const theirs = [copy, ...copy.querySelectorAll("*")];
        ours.forEach((element, i) => {
            const a = getComputedStyle(element);
            const b = getComputedStyle(theirs[i]);
            for (const property of a) {
                if (a.getPropertyValue(property) !== b.getPropertyValue(property)) {
                    differences.push(`${element.tagName} ${property}: `
                        + `${a.getPropertyValue(property)} / ${b.getPropertyValue(property)}`);
                }
            }
        });
        copy.remove();
    }
    return differences;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_a_wrapped_table_looks_as_material_styles_its_tables(
    browser: Any, site_url: str, scheme: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + "jeu/combat/")
    page.wait_for_load_state("load")
    assert page.locator(f"table.{TABLE_CLASS}").count() >= 2
    assert page.evaluate(COMPARE, TABLE_CLASS) == []
    page.emulate_media(media="print")
    assert page.evaluate(COMPARE, TABLE_CLASS) == []
    context.close()


def test_material_leaves_the_wrapped_tables_where_they_are(browser: Any, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    for path in ("jeu/combat/", "sorts/index-des-sorts/"):
        page.goto(site_url + path)
        page.wait_for_load_state("load")
        assert page.locator(".md-content table:not([class])").count() == 0, path
        tables = page.locator(f".md-content table.{TABLE_CLASS}")
        assert tables.count() > 0
        placed = """(table) => table.parentElement.matches(".md-typeset__table")
            && table.parentElement.parentElement.matches(".md-typeset__scrollwrap")"""
        assert all(table.evaluate(placed) for table in tables.all()), path
        assert page.locator(".md-typeset__table .md-typeset__table").count() == 0
    # The spell index's script finds the container it sorts and filters in.
    assert page.locator(".index-wrapper .index-scroll > table#entry-table").count() == 1
    context.close()
