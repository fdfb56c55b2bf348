"""In Chromium: the mark of a chapter absent from the site opens its note on a tap, a click or
the keyboard, beside the mark and inside the screen (regles/features/links/references.py,
regles.css)."""

from __future__ import annotations

from typing import Any

import pytest

PAGE = "epees/epees-intelligentes/"  # « voir Épées », « voir Special Purpose … »
OPEN = "document.querySelector('#renvoi-absent-note').matches(':popover-open')"
BOX = """() => {
    const note = document.querySelector('#renvoi-absent-note').getBoundingClientRect();
    const mark = document.activeElement.getBoundingClientRect();
    return { left: note.left, right: note.right, top: note.top, bottom: note.bottom,
             markBottom: mark.bottom, markTop: mark.top, width: innerWidth, height: innerHeight };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_the_mark_opens_its_note_beside_it(browser: Any, site_url: str, width: int) -> None:
    phone = width == 360
    context = browser.new_context(
        viewport={"width": width, "height": 800}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.goto(site_url + PAGE)
    marks = page.locator("article button.renvoi-absent")
    assert marks.count() >= 2
    second = marks.nth(1)
    second.scroll_into_view_if_needed()
    if phone:
        second.tap()
    else:
        second.click()
    assert page.evaluate(OPEN)
    note = page.locator("#renvoi-absent-note")
    assert "Section absente de ce site" in note.inner_text()
    box = page.evaluate(BOX)
    assert box["left"] >= 0 and box["right"] <= box["width"], box  # inside the screen
    assert box["top"] >= box["markBottom"] or box["bottom"] <= box["markTop"], box  # not over it
    # « Fermer » closes it; the keyboard opens it again, Escape closes it.
    note.get_by_role("button", name="Fermer").click()
    assert not page.evaluate(OPEN)
    marks.first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate(OPEN)
    page.keyboard.press("Escape")
    assert not page.evaluate(OPEN)
    # Its accessible description is the note's text, without opening it.
    described = marks.first.get_attribute("aria-describedby")
    assert described == "renvoi-absent-note"
    context.close()
