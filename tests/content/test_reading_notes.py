"""This site's reading notes (content/notes-de-lecture.md) stay true: each text they quote is
still in the file they name, in the section (or the spell) they name. A test of this site's
content, not of the generator: when the owner corrects a source, its line goes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from regles.core.markdown_text import segment
from tests.conftest import ROOT

CONTENT = ROOT / "content"
NOTES = CONTENT / "notes-de-lecture.md"
PAGE_TITLE = "Titre de la page"
ROW = re.compile(r"^\| `(?P<file>[^`]+)` \| (?P<place>[^|]+?) \| `(?P<text>[^`]+)` \| [^|]+ \|$")


def rows() -> list[tuple[str, str, str]]:
    found = [
        (m.group("file"), m.group("place"), m.group("text"))
        for line in NOTES.read_text(encoding="utf-8").splitlines()
        if (m := ROW.match(line))
    ]
    return found


def section_of_page(file: str, place: str) -> str:
    """The text of the section titled `place` in a page, up to the next heading of its
    level or above; the first line alone for the page's title."""
    text = (CONTENT / file).read_text(encoding="utf-8")
    lines = text.split("\n")
    headings = segment(text, front_matter=True).headings
    if place == PAGE_TITLE:
        return lines[headings[0].line - 1]
    [start] = [h for h in headings if h.text == place]
    after = [h.line for h in headings if h.line > start.line and h.level <= start.level]
    return "\n".join(lines[start.line - 1 : (after[0] - 1) if after else len(lines)])


def spell_entry(file: str, place: str) -> str:
    """The entry of the spell `place` (« Nom (Collège) ») in the export, up to the next."""
    name = place.rsplit(" (", 1)[0]
    text = (CONTENT / file).read_text(encoding="utf-8")
    start = text.index(f"### {name} (")
    end = text.find("### ", start + 4)
    return text[start : end if end != -1 else len(text)]


def test_the_notes_list_the_known_cases() -> None:
    # Guards the parsing: an empty list would make the test below pass vacuously.
    texts = [text for _, _, text in rows()]
    assert len(texts) >= 30
    for known in ("le chapître", "Les personnages sont crées", "### Anihiler l’air", "95–99"):
        assert known in texts


@pytest.mark.parametrize(("file", "place", "text"), rows(), ids=lambda v: str(v)[:40])
def test_each_quoted_text_is_where_the_note_says(file: str, place: str, text: str) -> None:
    where = spell_entry(file, place) if file.endswith(".txt") else section_of_page(file, place)
    assert text in where, f"« {text} » n’est plus dans {file}, « {place} »"


def test_the_page_is_marked_as_added_and_out_of_the_nav() -> None:
    page = NOTES.read_text(encoding="utf-8")
    assert '!!! info "Page ajoutée par le site"' in page
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    not_in_nav = config.split("not_in_nav: |", 1)[1].split("\n\n", 1)[0]
    assert "/notes-de-lecture.md" in not_in_nav


# Each code of the notes' tables shown on the screen: its text, and on how many lines it is.
CODE_LINES = """() => [...document.querySelectorAll("article table code")]
    .filter((code) => code.offsetParent)
    .map((code) => [code.textContent, code.getClientRects().length])"""


@pytest.mark.browser
def test_on_a_phone_the_notes_tables_break_file_names_where_words_break(
    browser: Any, site_url: str
) -> None:
    # Too wide for a phone, they show fewer columns; their code is never cut mid-word
    # (« pmt/ep / ees- / et- / pmt.m / d »): at most a line per part between « / » and « - ».
    context = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + "notes-de-lecture/")
    page.locator(".table-colonne-choix:not([hidden])").first.wait_for()
    shown = page.evaluate(CODE_LINES)
    assert shown
    for text, lines in shown:
        assert lines <= len(re.findall(r"[^/\s-]+[/\s-]*", text)), (text, lines)
    context.close()
