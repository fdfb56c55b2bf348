"""The preview of a glossary entry over the links to it, in real Chromium: the spells' bubble
(hover and focus at 1280 px, first tap at 360 px on a touch screen, the second follows),
with the term and its definition read from data/glossary.json, under the `/regles/`
sub-path. The expected texts are read from the built data file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import is_the_marked_document, mark_the_document, shown_preview
from tests.test_entries_browser import PREFIX, Tab, base, reached, served, tab
from tests.test_offline import subpath_site
from tests.test_offline_browser import OfflineReady, offline_ready

pytestmark = pytest.mark.browser
# The fixtures, shared with the spells' and the offline tests.
__all__ = ["base", "offline_ready", "served", "subpath_site", "tab"]

SHOTS = Path("/tmp/glossary-links-shots")


@pytest.fixture(scope="module")
def entries(served: tuple[str, Path]) -> dict[str, dict[str, Any]]:
    data = json.loads((served[1] / "data" / "glossary.json").read_text(encoding="utf-8"))
    return {record["url"]: record for record in data}


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def key_of(link: Any, t: Tab) -> str:
    return str(link.evaluate("a => a.href")).removeprefix(t.base)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hover_and_focus_show_the_term_and_its_definition(
    tab: Callable[..., Tab], entries: dict[str, dict[str, Any]], scheme: str
) -> None:
    t = tab(color_scheme=scheme)
    page = t.open("jeu/combat/")
    preview = page.locator("#entry-preview")
    links = page.locator("article a.lien-glossaire")
    assert links.count() >= 4
    reference = page.locator("article a.lien-glossaire", has_text="Glossaire de règles").first
    entry = entries[key_of(reference, t)]
    reference.scroll_into_view_if_needed()
    reference.hover()
    shown_preview(preview)
    text = " ".join(preview.inner_text().split())
    assert entry["term"] in text
    assert " ".join(entry["paragraphs"]) in text
    assert preview.locator("a.entry-preview__open").inner_text() == "Ouvrir le glossaire"
    assert reference.get_attribute("aria-describedby") == "entry-preview"
    assert urlsplit(page.url).path == f"/{PREFIX}/jeu/combat/"  # still on the page
    shot(page, f"survol-1280-{scheme}")
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")

    # Keyboard: another entry's link, focused, shows that entry.
    first = key_of(reference, t)
    other = next(links.nth(i) for i in range(links.count()) if key_of(links.nth(i), t) != first)
    page.mouse.move(0, 0)
    other.focus()
    shown_preview(preview)
    assert entries[key_of(other, t)]["term"] in preview.inner_text()
    loads = [u for u in t.requests if u.endswith("glossary.json")]
    assert loads == [t.base + "data/glossary.json"]  # read once, under the sub-path


def test_a_hostile_looking_definition_stays_text(
    tab: Callable[..., Tab], entries: dict[str, dict[str, Any]]
) -> None:
    t = tab()
    page = t.open("jeu/combat/")
    # The data as the page receives it, with markup in a definition: shown as text.
    page.route(
        "**/data/glossary.json",
        lambda route: route.fulfill(
            content_type="application/json",
            body=json.dumps(
                [{**r, "paragraphs": ["<img src=x onerror=alert(1)>"]} for r in entries.values()]
            ),
        ),
    )
    link = page.locator("article a.lien-glossaire").first
    link.hover()
    preview = page.locator("#entry-preview")
    shown_preview(preview)
    assert "<img src=x onerror=alert(1)>" in preview.inner_text()
    assert preview.locator("img").count() == 0


def test_first_tap_previews_second_tap_follows_at_360(
    tab: Callable[..., Tab], entries: dict[str, dict[str, Any]]
) -> None:
    t = tab(360, has_touch=True, is_mobile=True)
    page = t.open("jeu/degats-et-soins/")
    link = page.locator("article span[id^='etat-'] a.lien-glossaire").first
    target = str(link.evaluate("a => a.href"))
    entry = entries[key_of(link, t)]
    link.scroll_into_view_if_needed()
    link.tap()
    preview = page.locator("#entry-preview")
    shown_preview(preview)
    page.wait_for_timeout(300)
    assert urlsplit(page.url).path == f"/{PREFIX}/jeu/degats-et-soins/"  # not followed
    assert entry["term"] in preview.inner_text()
    box = preview.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    shot(page, "tape-360")

    mark_the_document(page)
    link.tap()
    reached(page, target)
    assert is_the_marked_document(page)  # instant navigation
    preview.wait_for(state="hidden")


def test_without_its_data_the_preview_says_so_and_still_opens_the_entry(
    tab: Callable[..., Tab],
) -> None:
    t = tab()
    page = t.open("jeu/combat/")
    page.route("**/data/glossary.json", lambda route: route.abort("internetdisconnected"))
    link = page.locator("article a.lien-glossaire").first
    link.hover()
    preview = page.locator("#entry-preview")
    shown_preview(preview)
    assert "Aperçu indisponible" in preview.inner_text()
    opener = preview.locator("a.entry-preview__open")
    assert opener.get_attribute("href") == link.get_attribute("href")


@pytest.mark.offline
def test_the_preview_works_offline(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    with offline_ready.network_cut():
        page.goto(offline_ready.url + "jeu/combat/")
        link = page.locator("article a.lien-glossaire").first
        link.scroll_into_view_if_needed()
        link.hover()
        preview = page.locator("#entry-preview")
        shown_preview(preview)
        assert "Aperçu indisponible" not in preview.inner_text()
        assert preview.locator(".entry-preview__text").count() >= 1
        assert preview.locator("a.entry-preview__open").inner_text() == "Ouvrir le glossaire"
