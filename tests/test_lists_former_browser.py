"""Readers' lists, share links and list files made by versions up to 0.3 read the same today,
in Chromium on a phone (360×800, touch).

Up to 0.3, lists were kept under « regles-grimoires:<site root> » with each list's entries
as `spells` and an entry's group as `college`; a share link named its entries `sorts`; a
list file was « regles-grimoire » with `sorts`. kept-lists.js moves the lists to today's key
as they were, reads them, and writes today's format at the next change; lists.js reads the
former links and files. The values below are written as 0.3 wrote them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.test_entries_browser import Tab, base, entries, served, tab  # noqa: F401  (fixtures)
from tests.test_lists_browser import (
    FORMER_KEY,
    KEY,
    PAGE,
    READY,
    card_names,
    copies_aside,
    kept,
    open_lists,
    raw_kept,
    upload,
)

pytestmark = pytest.mark.browser

PHONE = {"has_touch": True, "is_mobile": True}


def former_entry(entry: dict[str, Any]) -> dict[str, str]:
    """An entry as 0.3 kept it."""
    return {
        "id": entry["id"],
        "url": entry["url"],
        "name": entry["name"],
        "college": entry["group"],
    }


def former_lists(*lists: tuple[str, list[dict[str, Any]]]) -> str:
    return json.dumps(
        {
            "version": 1,
            "last": lists[0][0],
            "lists": [
                {"name": name, "spells": [former_entry(s) for s in chosen]}
                for name, chosen in lists
            ],
        }
    )


def set_items(page: Any, items: dict[str, str]) -> None:
    page.evaluate(
        "(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
        items,
    )


def has_key(page: Any, key: str) -> bool:
    return bool(page.evaluate("(k) => localStorage.getItem(k) !== null", key))


def test_lists_kept_by_0_3_are_moved_read_and_written_anew(
    tab: Callable[..., Tab],  # noqa: F811
    entries: list[dict[str, Any]],  # noqa: F811
) -> None:
    t = tab(360, **PHONE)
    page = open_lists(t)
    former = former_lists(("Aldric", entries[:2]), ("Bree", [entries[5]]))
    set_items(page, {FORMER_KEY: former, f"{FORMER_KEY}:illisible:1": "{pas du JSON"})
    page = open_lists(t)
    assert card_names(page) == [entries[0]["name"], entries[1]["name"]]
    expect(page.locator("#reader-lists")).to_contain_text(entries[0]["group"])
    # Moved as it was, with the copy 0.3 had set aside; the former keys are gone.
    assert raw_kept(page) == former
    assert copies_aside(page) == ["{pas du JSON"]
    assert not has_key(page, FORMER_KEY) and not has_key(page, f"{FORMER_KEY}:illisible:1")
    # The next change writes today's format, the entries and their groups as they were.
    page.select_option("#list-name", "Bree")
    page.locator(".list-remove").first.tap()
    expect(page.locator("#reader-lists")).to_contain_text("Bree")
    page.wait_for_function(
        "(k) => JSON.parse(localStorage.getItem(k)).version === 2", arg=KEY, timeout=10_000
    )
    saved = kept(page)
    today = [
        {"id": s["id"], "url": s["url"], "name": s["name"], "group": s["group"]}
        for s in entries[:2]
    ]
    assert [(g["name"], g["entries"]) for g in saved["lists"]] == [("Aldric", today), ("Bree", [])]
    assert "college" not in json.dumps(saved) and "spells" not in json.dumps(saved)


def test_lists_of_0_3_beside_today_s_are_set_aside_not_lost(
    tab: Callable[..., Tab],  # noqa: F811
    entries: list[dict[str, Any]],  # noqa: F811
) -> None:
    """A tab of 0.3 still open wrote its lists after today's were moved: today's stay shown,
    the former ones are set aside, to be put back from the lists' page."""
    t = tab(360, **PHONE)
    page = open_lists(t)
    today = json.dumps(
        {"version": 2, "last": "Cendre", "lists": [{"name": "Cendre", "entries": []}]}
    )
    former = former_lists(("Aldric", [entries[3]]))
    set_items(page, {KEY: today, FORMER_KEY: former})
    page = open_lists(t)
    expect(page.locator("#list-name")).to_have_value("Cendre")
    assert raw_kept(page) == today
    assert copies_aside(page) == [former]
    assert not has_key(page, FORMER_KEY)
    page.locator(".list-aside").get_by_role("button", name="Remettre en place").tap()
    page.locator("dialog[open]").get_by_role("button", name="Remettre en place").tap()
    expect(page.locator("#list-name")).to_have_value("Aldric")
    assert card_names(page) == [entries[3]["name"]]


def test_a_share_link_and_a_file_made_by_0_3_open_the_same_list(
    tab: Callable[..., Tab],  # noqa: F811
    base: str,  # noqa: F811
    entries: list[dict[str, Any]],  # noqa: F811
) -> None:
    chosen = [entries[7], entries[30]]
    t = tab(360, **PHONE)
    page = t.page
    page.goto(f"{base}{PAGE}?nom=Aldric&sorts={','.join(s['id'] for s in chosen)}")
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [s["name"] for s in chosen]
    page.get_by_role("button", name="Garder ce grimoire").tap()
    page.wait_for_url(f"{base}{PAGE}?nom=Aldric")
    assert [e["id"] for e in kept(page)["lists"][0]["entries"]] == [s["id"] for s in chosen]
    # The same list as a file of 0.3: imported as a second list, the same entries.
    file = {
        "format": "regles-grimoire",
        "version": 1,
        "nom": "Aldric",
        "sorts": [
            {"id": s["id"], "nom": s["name"], "college": s["group"], "adresse": s["url"]}
            for s in chosen
        ],
    }
    page.locator(READY).wait_for(state="attached")
    upload(page, "grimoire-aldric.json", json.dumps(file).encode())
    expect(page.locator("#list-name")).to_have_value("Aldric (2)")
    lists = kept(page)["lists"]
    assert lists[1]["entries"] == lists[0]["entries"]
