"""Grimoires in real Chromium, the test site served under /regles/ (as on GitHub Pages).

A reader adds spells from the index, a college page and a spell's bubble; they are still
there after a reload; the share link opens them read-only in a fresh browser, where
« Garder ce grimoire » keeps them; a bad file says what is wrong; a spell gone from the data
shows as missing; offline, through the service worker, the page still works. Expected names
and ids are read from the built data/spells.json.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.test_entries_browser import INDEX, PREFIX, Tab, base, entries, fold, served, tab
from tests.test_offline import subpath_site
from tests.test_offline_browser import OfflineReady, offline_ready
from tests.test_typography import ORDINARY

pytestmark = pytest.mark.browser

__all__ = ["base", "entries", "offline_ready", "served", "subpath_site", "tab"]

PAGE = "sorts/grimoire/"
READY = "#reader-lists[data-list-ready]"
KEY = f"regles-lists:/{PREFIX}/"
FORMER_KEY = f"regles-grimoires:/{PREFIX}/"  # up to 0.3
CARDS = "#reader-lists .list-entry:not([hidden])"


def open_lists(t: Tab, path: str = PAGE) -> Any:
    page = t.page
    page.goto(t.base + path)
    page.locator(READY).wait_for(state="attached")
    return page


def card_names(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        CARDS + " .list-entry__name",
        "hs => hs.map(h => (h.querySelector('a') || h).textContent.trim())",
    )


def entry(entry: dict[str, Any]) -> dict[str, str]:
    return {k: entry[k] for k in ("id", "url", "name", "group")}


def store_raw(page: Any, text: str) -> None:
    """`text`, whatever it is, written where lists.js keeps the grimoires."""
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, text])


def keep(page: Any, lists: list[tuple[str, list[dict[str, str]]]]) -> None:
    """Grimoires written into the browser as lists.js keeps them."""
    data = {"version": 2, "last": lists[0][0] if lists else "", "lists": []}
    data["lists"] = [{"name": n, "entries": s} for n, s in lists]
    store_raw(page, json.dumps(data))


def kept(page: Any) -> Any:
    raw = page.evaluate("k => localStorage.getItem(k)", KEY)
    return json.loads(raw) if raw else None


def upload(page: Any, name: str, content: bytes) -> None:
    files = [{"name": name, "mimeType": "application/json", "buffer": content}]
    page.set_input_files("#list-file", files=files)


def add_in_dialog(page: Any, new_name: str | None = None) -> None:
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.wait_for()
    if new_name is not None:
        dialog.locator("#list-dialog-name").fill(new_name)
    dialog.locator("button[value=ajouter]").click()
    said = page.locator(".list-notice")
    expect(said).to_contain_text("Ajouté à « ")
    # « Ajouté à « Aldric » : « Sort ». »: French spacing, as in the built pages.
    assert ORDINARY.findall(said.inner_text()) == []
    expect(dialog).to_have_count(0)


def test_three_entries_added_from_index_group_and_preview_are_there_after_reload(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = t.open(INDEX)
    rows = page.locator("#entry-table tbody tr")
    # 1. The index: the row's « + ».
    rows.nth(0).locator("button.list-add").click()
    add_in_dialog(page, "Aldric")
    # 2. A spell's bubble (over a name of the index): « Ajouter au grimoire ».
    rows.nth(3).locator("td:first-child a").hover()
    bubble = page.locator("#entry-preview:not([hidden])")
    bubble.locator("button.list-add").click()
    add_in_dialog(page)  # the last grimoire used is the default
    # 3. A college page: the button under the spell's heading.
    blast = next(s for s in entries if s["url"] == "sorts/acoustique/#blast-sonore")
    page.goto(t.base + "sorts/acoustique/")
    page.locator("h2#blast-sonore + p.niveaux button.list-add").click()
    add_in_dialog(page)

    expected = [entries[0], entries[3], blast]
    page = open_lists(t)
    page.reload()
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [s["name"] for s in expected]
    # In full: the fields and the description of each.
    first = page.locator(CARDS).first
    assert first.locator("dl.champs dt").all_text_contents() == list(expected[0]["fields"])
    assert first.locator(".list-entry__description").inner_text().strip()
    link = page.input_value("#list-link")
    query = parse_qs(urlsplit(link).query)
    assert query == {"nom": ["Aldric"], "entrees": [",".join(s["id"] for s in expected)]}
    assert link.startswith(t.base + PAGE + "?")


def test_the_share_link_opens_read_only_elsewhere_and_is_kept_on_demand(
    tab: Callable[..., Tab], base: str, entries: list[dict[str, Any]]
) -> None:
    chosen = [entries[5], entries[40], entries[70]]
    link = f"{base}{PAGE}?nom=Aldric&entrees={','.join(s['id'] for s in chosen)}"
    t = tab(360, has_touch=True, is_mobile=True)
    page = t.page
    page.goto(link)
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [s["name"] for s in chosen]
    assert page.locator(".list-remove").count() == 0  # read-only
    assert kept(page) is None  # nothing kept by opening it
    page.get_by_role("button", name="Garder ce grimoire").tap()
    page.wait_for_url(f"{base}{PAGE}?nom=Aldric")
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [s["name"] for s in chosen]
    expect(page.locator("#list-name")).to_have_value("Aldric")
    expect(page.locator(".list-message")).to_contain_text("gardé")
    # Kept a second time: the reader is asked. « Annuler » keeps nothing.
    dialog = page.locator("dialog.list-dialog[open]")
    page.goto(link)
    page.locator(READY).wait_for(state="attached")
    page.get_by_role("button", name="Garder ce grimoire").tap()
    expect(dialog.locator("h2")).to_have_text("Un grimoire « Aldric » existe déjà")
    expect(dialog).to_contain_text("Celui de ce navigateur a 3 sorts, celui du lien 3 sorts.")
    # It opens on « Annuler »: a stray tap or Enter replaces nothing.
    expect(dialog.get_by_role("button", name="Annuler")).to_be_focused()
    dialog.get_by_role("button", name="Annuler").tap()
    expect(dialog).to_have_count(0)
    assert [g["name"] for g in kept(page)["lists"]] == ["Aldric"]
    # « Garder les deux »: the new one gets « (2) », the first one stays.
    page.get_by_role("button", name="Garder ce grimoire").tap()
    dialog.get_by_role("button", name="Garder les deux").tap()
    page.wait_for_url(lambda url: "nom=Aldric+%282%29" in url or "nom=Aldric%20(2)" in url)
    page.locator(READY).wait_for(state="attached")
    assert [g["name"] for g in kept(page)["lists"]] == ["Aldric", "Aldric (2)"]
    expect(page.locator(".list-message").first).to_contain_text("Aldric (2)")
    # « Remplacer », from a link sent again with another list: Aldric holds the new spells.
    again = [entries[1], entries[2]]
    page.goto(f"{base}{PAGE}?nom=Aldric&entrees={','.join(s['id'] for s in again)}")
    page.locator(READY).wait_for(state="attached")
    page.get_by_role("button", name="Garder ce grimoire").tap()
    expect(dialog).to_contain_text("Celui de ce navigateur a 3 sorts, celui du lien 2 sorts.")
    dialog.get_by_role("button", name="Remplacer").tap()
    page.wait_for_url(f"{base}{PAGE}?nom=Aldric")
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [s["name"] for s in again]
    lists = {g["name"]: [e["id"] for e in g["entries"]] for g in kept(page)["lists"]}
    assert lists == {"Aldric": [s["id"] for s in again], "Aldric (2)": [s["id"] for s in chosen]}
    expect(page.locator(".list-message").first).to_contain_text("remplacé")


def test_a_link_of_twenty_entries_is_under_300_characters(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    # The longest ids of the export, and a name with accents and spaces (encoded).
    chosen = sorted(entries, key=lambda s: -len(s["id"]))[:20]
    keep(page, [("Grimoire d’Élise la Grise", [entry(s) for s in chosen])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    link = page.input_value("#list-link")
    assert len(link) < 300, (len(link), link)
    ids = parse_qs(urlsplit(link).query)["entrees"][0].split(",")
    assert ids == [s["id"] for s in chosen]
    print(f"\nlien de 20 sorts : {len(link)} caractères ({link})")


def test_copy_puts_the_link_in_the_clipboard_or_says_it_could_not(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    t.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = open_lists(t)
    keep(page, [("Aldric", [entry(s) for s in entries[:3]])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    link = page.input_value("#list-link")
    page.get_by_role("button", name="Copier le lien").click()
    expect(page.locator(".list-copy__message")).to_have_text("Lien copié.")
    assert page.evaluate("navigator.clipboard.readText()") == link

    # A phone's browser that gives no clipboard and cannot copy the selection: the reader is
    # told, under the button, and the link is selected, ready to copy by hand.
    refused = tab(360, has_touch=True, is_mobile=True)
    refused.context.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', { value: undefined });"
        " document.execCommand = () => false;"
    )
    page = open_lists(refused)
    keep(page, [("Aldric", [entry(s) for s in entries[:3]])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    page.get_by_role("button", name="Copier le lien").tap()
    said = page.locator(".list-copy__message")
    expect(said).to_contain_text("Copie impossible")
    expect(said).to_be_in_viewport()
    selected = page.evaluate(
        "() => { const f = document.activeElement;"
        " return [f.id, f.value.slice(f.selectionStart, f.selectionEnd)]; }"
    )
    assert selected == ["list-link", link]


def test_on_a_phone_a_list_of_twelve_entries_shows_the_first_on_the_first_screen(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(360, has_touch=True, is_mobile=True)
    page = open_lists(t)
    intro = page.locator(".list-intro")
    expect(intro).to_be_visible()  # no grimoire yet: how to make one
    keep(page, [("Aldric", [entry(s) for s in entries[:12]])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    expect(page.locator("button.index-fold")).to_be_visible()  # its filters, folded
    expect(intro).to_be_hidden()
    name = page.locator(CARDS + " .list-entry__name").first
    box = name.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800, box


def test_the_index_filters_and_sorting_work_on_a_list(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    chosen = entries[:12]
    keep(page, [("Aldric", [entry(s) for s in chosen])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    page.locator("#reader-lists[data-index-active]").wait_for(state="attached")
    # The group filter names each group of the list with its count, as the index does.
    groups = {s["group_slug"]: s["group"] for s in chosen}
    offered = page.eval_on_selector_all("#index-groupe option", "os => os.map(o => o.text)")
    assert sorted(offered[1:]) == sorted(
        f"{name} ({sum(s['group_slug'] == slug for s in chosen)})" for slug, name in groups.items()
    )
    group = chosen[-1]["group_slug"]
    page.select_option("#index-groupe", group)
    expect(page.locator(CARDS)).to_have_count(sum(s["group_slug"] == group for s in chosen))
    page.select_option("#index-groupe", "")
    page.select_option("#index-tri", "nom")
    page.select_option("#index-ordre", "desc")
    names = [s["name"] for s in chosen]
    expect(page.locator(CARDS).first).to_contain_text(max(names, key=fold))
    assert card_names(page) == sorted(names, key=fold, reverse=True)
    assert parse_qs(urlsplit(page.url).query) == {"tri": ["nom"], "ordre": ["desc"]}
    page.fill("#index-texte", chosen[2]["name"])
    expect(page.locator(CARDS)).to_have_count(1)


def test_a_entry_missing_from_the_data_is_shown_as_missing(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(360, has_touch=True, is_mobile=True)
    page = open_lists(t)
    gone = {"id": "zzzz", "url": "sorts/ancien/#sort-disparu", "name": "Sort disparu",
            "group": "Collège ancien"}  # fmt: skip
    keep(page, [("Aldric", [entry(entries[0]), gone])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    assert card_names(page) == [entries[0]["name"], "Sort disparu"]
    missing = page.locator(".list-entry--absent")
    expect(missing).to_have_count(1)
    expect(missing).to_contain_text("Absent des données actuelles")
    expect(missing).to_contain_text("Collège ancien")
    # Kept as it was, not dropped.
    assert kept(page)["lists"][0]["entries"][1] == gone


def test_a_bad_json_import_says_what_is_wrong_and_loses_nothing(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    keep(page, [("Aldric", [entry(entries[0])])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    before = kept(page)
    message = page.locator(".list-import__message")
    cases = [
        (b"{pas du json", "n’est pas un fichier JSON"),
        (b"[1, 2]", "contient une liste, pas un grimoire"),
        (b'{"sorts": []}', "n’a pas de nom : le champ « nom » manque"),
        (b'{"nom": "X", "entrees": {}}', "le champ « entrees » doit être une liste"),
        (b'{"nom": "X", "sorts": [{"id": "A B"}]}', "sort n° 1 : identifiant « A B » mal formé"),
    ]
    for content, words in cases:
        upload(page, "mauvais.json", content)
        expect(message).to_contain_text(words)
        expect(message).to_contain_text("« mauvais.json »")
        expect(message).to_contain_text("Rien n’a été importé")
        assert ORDINARY.findall(message.inner_text()) == [], words
        assert kept(page) == before
    # A good file with a spell this site does not have: imported, that spell listed missing.
    good = {"format": "regles-grimoire", "version": 1, "nom": "Aldric",
            "sorts": [{"id": entries[1]["id"], "nom": entries[1]["name"]},
                      {"id": "zzzz", "nom": "Sort d’ailleurs"}]}  # fmt: skip
    upload(page, "bon.json", json.dumps(good).encode())
    expect(page.locator(".list-message").first).to_contain_text(
        "1 sort inconnu de ce site est gardé comme absent : Sort d’ailleurs"
    )
    lists = kept(page)["lists"]
    assert [g["name"] for g in lists] == ["Aldric", "Aldric (2)"]
    assert lists[0] == before["lists"][0]
    assert card_names(page) == [entries[1]["name"], "Sort d’ailleurs"]


def test_export_then_import_gives_the_same_list(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    keep(page, [("Élise", [entry(s) for s in entries[10:14]])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    with page.expect_download() as caught:
        page.get_by_role("button", name="Exporter (fichier JSON)").click()
    download = caught.value
    assert download.suggested_filename == "grimoire-elise.json"
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert data["nom"] == "Élise" and data["format"] == "regles-liste"
    assert [e["id"] for e in data["entrees"]] == [s["id"] for s in entries[10:14]]
    assert [e["groupe"] for e in data["entrees"]] == [s["group"] for s in entries[10:14]]
    upload(page, "e.json", json.dumps(data).encode())
    expect(page.locator("#list-name")).to_have_value("Élise (2)")
    lists = kept(page)["lists"]
    assert lists[0]["entries"] == lists[1]["entries"]


def test_rename_empty_and_delete_are_confirmed(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    keep(page, [("Aldric", [entry(s) for s in entries[:3]]), ("Brune", [])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    dialog = page.locator("dialog.list-dialog[open]")
    page.get_by_role("button", name="Renommer").click()
    dialog.locator("input").fill("Brune")
    dialog.get_by_role("button", name="Valider").click()
    expect(dialog).to_contain_text("Un grimoire s’appelle déjà « Brune »")
    dialog.locator("input").fill("Aldric le Gris")
    dialog.get_by_role("button", name="Valider").click()
    expect(page.locator("#list-name")).to_have_value("Aldric le Gris")
    page.get_by_role("button", name="Vider").click()
    expect(dialog).to_contain_text("Retirer les 3 sorts de « Aldric le Gris » ?")
    dialog.get_by_role("button", name="Annuler").click()
    expect(page.locator(CARDS)).to_have_count(3)
    page.get_by_role("button", name="Vider").click()
    dialog.get_by_role("button", name="Vider").click()
    expect(page.locator(CARDS)).to_have_count(0)
    expect(page.locator(".list-empty")).to_contain_text("est vide")
    page.get_by_role("button", name="Supprimer").click()
    # Empty, it has no spells to name (not « ses 0 sorts »).
    expect(dialog).to_contain_text("Supprimer « Aldric le Gris » de ce navigateur ?")
    dialog.get_by_role("button", name="Supprimer").click()
    # The page shows the list left once the deletion is written (never read before it).
    expect(page.locator("#list-name")).to_have_value("Brune")
    assert [g["name"] for g in kept(page)["lists"]] == ["Brune"]


def test_tap_targets_are_44_pixels_at_360(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(360, has_touch=True, is_mobile=True)
    page = open_lists(t)
    keep(page, [("Aldric", [entry(s) for s in entries[:2]])])
    page.reload()
    page.locator(READY).wait_for(state="attached")
    small = page.eval_on_selector_all(
        "#reader-lists button, #reader-lists select, #reader-lists label.md-button",
        """els => els.filter(e => e.offsetParent).map(e => [e.textContent.trim(),
            e.getBoundingClientRect().height]).filter(([, h]) => h < 44)""",
    )
    assert small == [], small
    t.open(INDEX)
    box = page.locator("#entry-table tbody tr").first.locator(".list-add").bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


@pytest.mark.offline
def test_the_lists_page_works_offline(offline_ready: OfflineReady) -> None:
    page = offline_ready.page
    page.goto(offline_ready.url + PAGE)
    page.locator(READY).wait_for(state="attached")
    data = json.loads((offline_ready.site / "data" / "bases" / "sorts.json").read_text("utf-8"))
    keep(page, [("Aldric", [entry(s) for s in data[:3]])])
    with offline_ready.network_cut():
        page.goto(offline_ready.url + PAGE)
        page.locator(READY).wait_for(state="attached")
        assert card_names(page) == [s["name"] for s in data[:3]]
        # In full, from the precached data: not the « données indisponibles » fallback.
        expect(page.locator(".list-message--error")).to_have_count(0)
        assert page.locator(CARDS + " .list-entry__description p").count() >= 3
        # A share link too (its query is ignored by the precache).
        link = page.input_value("#list-link")
        page.goto(link)
        page.locator(READY).wait_for(state="attached")
        assert card_names(page) == [s["name"] for s in data[:3]]
        expect(page.get_by_role("button", name="Garder ce grimoire")).to_be_visible()


# Nothing lost: what the page cannot read, or was written by a newer site ------------------


def raw_kept(page: Any) -> str | None:
    raw: str | None = page.evaluate("k => localStorage.getItem(k)", KEY)
    return raw


def copies_aside(page: Any) -> list[str]:
    """The texts lists.js set aside (keys « …:illisible… »), sorted."""
    copies: list[str] = page.evaluate(
        """(k) => Object.keys(localStorage).filter((key) => key.startsWith(k + ":illisible"))
            .map((key) => localStorage.getItem(key)).sort()""",
        KEY,
    )
    return copies


def fill_the_storage(page: Any) -> None:
    """localStorage of this origin filled to its quota (big pieces first, then small ones)."""
    page.evaluate(
        """() => {
            let i = 0;
            for (const size of [262144, 4096, 64, 1]) {
                const piece = "x".repeat(size);
                try { for (;;) localStorage.setItem(`remplissage-${i++}`, piece); } catch {}
            }
        }"""
    )


def saved_with_last(page: Any, name: str) -> Any:
    """The grimoires as kept, once the page saved `name` as the last one used."""
    for _ in range(100):
        saved = kept(page)
        if saved and saved.get("last") == name:
            return saved
        page.wait_for_timeout(50)
    raise AssertionError(f"« {name} » jamais enregistré : {kept(page)}")


def names_offered(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all(
        "#list-name option", "options => options.map((o) => o.value)"
    )
    return names


def test_a_damaged_store_in_a_full_storage_is_never_written_over(
    tab: Callable[..., Tab], base: str, entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    damaged = '{"version": 1, "last": "Aldric", "lists": [{"name": "Aldric", "spells": [{"id'
    store_raw(page, damaged)
    fill_the_storage(page)
    # Keeping a shared grimoire would write over it: refused, with the reason.
    page.goto(f"{base}{PAGE}?nom=Bree&sorts={entries[1]['id']}")
    page.locator(READY).wait_for(state="attached")
    page.get_by_role("button", name="Garder ce grimoire").click()
    expect(page.locator("#reader-lists")).to_contain_text("pleine")
    assert raw_kept(page) == damaged
    # The grimoire page says so, and gives the damaged text back as it is.
    page = open_lists(t)
    expect(page.locator("#reader-lists")).to_contain_text("trop pleine pour en faire une copie")
    with page.expect_download() as download:
        page.locator(".list-aside").get_by_role("button", name="Télécharger").first.click()
    assert Path(download.value.path()).read_text("utf-8") == damaged
    assert raw_kept(page) == damaged


def test_a_damaged_store_is_copied_aside_before_anything_is_saved(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    for damaged in ('{"lists": [', "pas du JSON"):
        store_raw(page, damaged)
        page = t.open(INDEX)
        page.locator("#entry-table tbody tr").first.locator("button.list-add").click()
        add_in_dialog(page, "Aldric")
    # Each damaged value has its own copy, none replaced by the next.
    assert copies_aside(page) == sorted(['{"lists": [', "pas du JSON"])
    page = open_lists(t)
    assert page.locator(".list-aside li").count() == 2


def test_fields_of_a_newer_site_survive_a_save(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    data = {
        "version": 1,
        "carnet": {"note": "à garder"},
        "last": "Aldric",
        "lists": [
            {
                "name": "Aldric",
                "couleur": "rouge",
                "spells": [{**entry(entries[0]), "note": "favori"}],
            },
            {"name": "Bree", "spells": [entry(entries[1])]},
            {"titre": "une liste sans nom"},
        ],
    }
    store_raw(page, json.dumps(data))
    page = open_lists(t)
    page.select_option("#list-name", "Bree")
    expect(page.locator("#list-name")).to_have_value("Bree")
    saved = saved_with_last(page, "Bree")
    assert saved["carnet"] == {"note": "à garder"}
    assert saved["lists"][0]["couleur"] == "rouge"
    assert saved["lists"][0]["entries"][0]["note"] == "favori"
    assert {"titre": "une liste sans nom"} in saved["lists"]


def test_lists_of_a_newer_version_are_shown_and_never_written_over(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    newer = json.dumps(
        {
            "version": 99,
            "futur": [1, 2, 3],
            "last": "Aldric",
            "lists": [
                {"name": "Aldric", "spells": [entry(entries[0])]},
                {"name": "Bree", "spells": [entry(entries[1])]},
            ],
        }
    )
    store_raw(page, newer)
    page = open_lists(t)
    expect(page.locator("#reader-lists")).to_contain_text("version plus récente")
    assert card_names(page) == [entries[0]["name"]]
    page.select_option("#list-name", "Bree")
    expect(page.locator("#reader-lists")).to_contain_text("lecture seule ici, rien n’a été changé")
    assert raw_kept(page) == newer


def test_two_lists_of_one_name_are_both_shown_and_kept(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    keep(page, [("Aldric", [entry(entries[0])]), ("Aldric", [entry(entries[1])])])
    page = open_lists(t)
    assert names_offered(page) == ["Aldric", "Aldric (2)"]
    page.select_option("#list-name", "Aldric (2)")
    expect(page.locator(CARDS)).to_have_count(1)
    assert card_names(page) == [entries[1]["name"]]
    saved = saved_with_last(page, "Aldric (2)")
    assert [(g["name"], [s["id"] for s in g["entries"]]) for g in saved["lists"]] == [
        ("Aldric", [entries[0]["id"]]),
        ("Aldric (2)", [entries[1]["id"]]),
    ]


def test_a_link_says_what_it_cut_and_counts_a_repeated_entry_once(
    tab: Callable[..., Tab], base: str, entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = t.page
    twice = ",".join([entries[0]["id"]] * 5 + [entries[1]["id"]])
    page.goto(f"{base}{PAGE}?nom=Aldric&sorts={twice}")
    page.locator(READY).wait_for(state="attached")
    expect(page.locator(CARDS)).to_have_count(2)
    expect(page.locator("#reader-lists")).to_contain_text(
        "1 sort nommé plusieurs fois par le lien est compté une fois."
    )
    many = ",".join(f"x{n}" for n in range(1200))  # well-formed ids, unknown to the data
    page.goto(f"{base}{PAGE}?nom=Bree&sorts={many}")
    page.locator(READY).wait_for(state="attached")
    said = page.locator("#reader-lists").inner_text()
    assert (
        "Ce lien nomme 1\u202f200 sorts\u00a0: un grimoire en garde 1\u202f000 au plus" in said
    ), said
    assert "les 200 derniers sont laissés de côté" in said


def test_an_import_counts_a_repeated_entry_once(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    one = {"id": entries[0]["id"], "nom": entries[0]["name"]}
    content = {"format": "regles-grimoire", "version": 1, "nom": "Cendre", "sorts": [one] * 5}
    upload(page, "cendre.json", json.dumps(content).encode())
    expect(page.locator("#reader-lists")).to_contain_text("importé (1 sort)")
    expect(page.locator("#reader-lists")).to_contain_text(
        "1 sort nommé plusieurs fois est compté une fois."
    )
    assert [len(g["entries"]) for g in kept(page)["lists"]] == [1]


def test_a_copy_set_aside_is_put_back_in_place_and_the_current_lists_set_aside(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab(1280)
    page = open_lists(t)
    older = json.dumps(
        {
            "version": 1,
            "last": "Aldric",
            "lists": [{"name": "Aldric", "spells": [entry(entries[0])]}],
        }
    )
    current = json.dumps({"version": 1, "last": "Bree", "lists": [{"name": "Bree", "spells": []}]})
    page.evaluate(
        "([k, old, now]) => { localStorage.setItem(k + ':illisible:1', old);"
        " localStorage.setItem(k, now); }",
        [KEY, older, current],
    )
    page = open_lists(t)
    page.locator(".list-aside").get_by_role("button", name="Remettre en place").click()
    page.locator("dialog[open]").get_by_role("button", name="Remettre en place").click()
    expect(page.locator("#list-name")).to_have_value("Aldric")
    assert raw_kept(page) == older
    assert copies_aside(page) == [current]  # the grimoires it replaced, set aside in turn
