"""The reader's data page (`donnees/`, backup.js) in Chromium, on the test site under
/regles/: everything the site keeps in the browser goes out in one file and comes back; a
file that is not a backup, or a storage too full to take it, changes nothing; the grimoire
page points to it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.test_entries_browser import PREFIX, Tab, base, entries, served, tab
from tests.test_lists_browser import KEY, PAGE, READY, fill_the_storage, raw_kept, store_raw

pytestmark = pytest.mark.browser

__all__ = ["base", "entries", "served", "tab"]

DATA_PAGE = "donnees/"
# Kept by offline.js, and rewritten by nothing while service workers are blocked (unlike the
# colour scheme's key, which the page writes at each load).
OFFLINE = f"/{PREFIX}/.hors-ligne.persistance"
LISTS = json.dumps({"version": 2, "last": "Aldric", "lists": [{"name": "Aldric", "entries": []}]})


def open_data_page(t: Tab) -> Any:
    page = t.page
    page.goto(t.base + DATA_PAGE)
    page.locator("#regles-donnees[data-pret]").wait_for(state="attached")
    return page


def upload(page: Any, name: str, content: bytes) -> None:
    files = [{"name": name, "mimeType": "application/json", "buffer": content}]
    page.set_input_files("#regles-donnees-fichier", files=files)


def stored(page: Any) -> dict[str, str]:
    kept: dict[str, str] = page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage)"
        ".map((k) => [k, localStorage.getItem(k)]))"
    )
    return kept


def test_everything_kept_goes_out_in_one_file_and_comes_back(
    tab: Callable[..., Tab], tmp_path: Path
) -> None:
    t = tab(360, has_touch=True, is_mobile=True, accept_downloads=True)
    page = open_data_page(t)
    page.evaluate(
        "([k, v, p]) => { localStorage.setItem(k, v); localStorage.setItem(p, '1764900000000');"
        " localStorage.setItem('autre-site', 'pas à nous'); }",
        [KEY, LISTS, OFFLINE],
    )
    page = open_data_page(t)
    listed = page.locator("#regles-donnees li").all_inner_texts()
    kinds = [item.split(" (")[0] for item in listed]
    assert kinds == [
        "Réglages de l’affichage",
        "Pages hors ligne\u00a0: dernière demande au navigateur de les garder",
        "Grimoires",
    ]
    with page.expect_download() as download:
        page.get_by_role("button", name="Tout exporter").click()
    saved = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert saved["format"] == "regles-donnees" and saved["site"] == f"/{PREFIX}/"
    palette = f"/{PREFIX}/.__palette"  # the colour scheme, written by the page itself
    assert set(saved["items"]) == {KEY, OFFLINE, palette}  # nothing of another site
    assert saved["items"][KEY] == LISTS and saved["items"][OFFLINE] == "1764900000000"

    # A new browser (here: this one emptied) gets them back, once the reader agrees.
    page.evaluate("() => localStorage.clear()")
    page = open_data_page(t)
    upload(page, "sauvegarde.json", json.dumps(saved).encode())
    expect(page.locator("#regles-donnees")).to_contain_text("contient")
    assert KEY not in stored(page)  # not before the reader says so
    page.get_by_role("button", name="Remplacer par le contenu du fichier").click()
    expect(page.locator("#regles-donnees")).to_contain_text("importées")
    now = stored(page)
    assert now[KEY] == LISTS and now[OFFLINE] == "1764900000000"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{pas du json", "son contenu est illisible ici"),
        (b'{"format": "regles-grimoire", "nom": "A", "sorts": []}', "n’est pas une sauvegarde"),
        (b'{"format": "regles-donnees", "version": 7, "items": {}}', "version plus récente"),
        (b'{"format": "regles-donnees", "version": 1, "items": {"x": "y"}}', "aucune donnée"),
    ],
)
def test_a_file_that_is_not_a_backup_changes_nothing(
    tab: Callable[..., Tab], content: bytes, said: str
) -> None:
    t = tab(1280)
    page = open_data_page(t)
    store_raw(page, LISTS)
    upload(page, "fichier.json", content)
    expect(page.locator(".regles-donnees__message")).to_contain_text(said)
    expect(page.locator(".regles-donnees__message")).to_contain_text("Rien n’a été importé.")
    assert raw_kept(page) == LISTS


def test_a_backup_too_big_for_the_storage_changes_nothing(tab: Callable[..., Tab]) -> None:
    t = tab(1280)
    page = open_data_page(t)
    store_raw(page, LISTS)
    fill_the_storage(page)
    big = json.dumps(
        {"version": 2, "last": "", "lists": [{"name": "Gros", "entries": [], "n": "x" * 100_000}]}
    )
    backup = {
        "format": "regles-donnees",
        "version": 1,
        "site": f"/{PREFIX}/",
        "items": {OFFLINE: "1764900000000", KEY: big},
    }
    upload(page, "gros.json", json.dumps(backup).encode())
    page.get_by_role("button", name="Remplacer par le contenu du fichier").click()
    expect(page.locator(".regles-donnees__message")).to_contain_text("rien n’a été changé")
    assert raw_kept(page) == LISTS
    assert page.evaluate("(k) => localStorage.getItem(k)", OFFLINE) is None  # all or none


def test_the_lists_page_says_where_to_save_everything(tab: Callable[..., Tab]) -> None:
    t = tab(1280)
    page = t.page
    page.goto(t.base + PAGE)
    page.locator(READY).wait_for(state="attached")
    link = page.locator(".list-reminder a")
    assert link.get_attribute("href") == t.base + DATA_PAGE
    link.click()
    page.locator("#regles-donnees[data-pret]").wait_for(state="attached")
