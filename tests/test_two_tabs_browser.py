"""Two tabs of one browser on a 360×800 phone, each changing what the site keeps: neither
writes back its stale copy over what the other changed; each follows the other's changes
(a calculator's values, the character used, the lists of entries, an open dialog); changes
that cannot both hold are both kept, and the reader is told.

What is kept at the start is written as the site kept it before lists and characters had
ids: it is read the same, and followed by id from the first change on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WOUNDS = "jeu/degats-et-soins/"  # « blessure »: its hit points and its damage
INDEX = "sorts/index-des-sorts/"
LISTS_PAGE = "sorts/grimoire/"
CHARACTERS_KEY = "regles-personnages:/"
LISTS_KEY = "regles-lists:/"


@pytest.fixture
def tabs(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two pages of one phone's browser (one context: they share localStorage), and no
    error raised by the site's script in either."""
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    errors: list[str] = []
    pages = (context.new_page(), context.new_page())
    for page in pages:
        page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    yield pages
    context.close()
    assert errors == []


def store(page: Any, key: str, value: Any) -> None:
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, json.dumps(value)])


def kept(page: Any, key: str) -> Any:
    raw = page.evaluate("(key) => localStorage.getItem(key)", key)
    return json.loads(raw) if raw else None


def wait_for_kept(page: Any, key: str, text: str, held: bool = True) -> None:
    """Until what is kept under `key` holds `text` (or no longer does, `held` false): a
    dialog writes once it has closed."""
    page.wait_for_function(
        "([key, text, held]) => (localStorage.getItem(key) || '').includes(text) === held",
        arg=[key, text, held],
    )


def tap(target: Any) -> None:
    """Taps `target` in its tab, brought to the front as a reader switches tabs: Chromium
    paces the animation frames of a tab behind, and each action waited seconds for them."""
    target.page.bring_to_front()
    target.tap()


def type_in_dialog(page: Any, title: str, text: str) -> None:
    """Types `text` into the dialog `title` once its field has the focus, as a reader types
    once the dialog shows."""
    page.bring_to_front()
    expect(page.get_by_role("dialog", name=title).get_by_role("textbox")).to_be_focused()
    page.keyboard.type(text)


def type_into(page: Any, field: Any, text: str) -> None:
    """Taps the field, selects what it holds and types `text`, as a reader does."""
    tap(field)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


# ---------------------------------------------------------------------------------------
# The calculators' values and the characters
# ---------------------------------------------------------------------------------------


def ready_form(page: Any, calc_id: str) -> Any:
    form = page.locator(f"form[data-calculateur='{calc_id}']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    return form


def note(form: Any) -> Any:
    return form.locator(".calculateur-personnage")


def characters_dialog(page: Any, form: Any) -> Any:
    tap(note(form).get_by_role("button", name="Personnages…"))
    return page.get_by_role("dialog", name="Personnages")


def values_of(page: Any) -> dict[str, dict[str, Any]]:
    """Each kept character's hit points and damage, by its name."""
    return {
        c["name"]: {k: v for k, v in c["values"].items() if k in ("hp", "blessure.amount")}
        for c in kept(page, CHARACTERS_KEY)["characters"]
    }


def test_a_calculator_in_two_tabs_keeps_both_tabs_values(
    tabs: tuple[Any, Any], site_url: str
) -> None:
    a, b = tabs
    b.goto(site_url + WOUNDS)  # tab B, opened first
    characters = [
        {"name": "Aldric", "values": {"hp": "20"}},
        {"name": "Bob", "values": {"hp": "11"}},
    ]
    store(b, CHARACTERS_KEY, {"version": 1, "current": "Aldric", "characters": characters})
    b.reload()
    form_b = ready_form(b, "blessure")
    a.goto(site_url + WOUNDS)
    form_a = ready_form(a, "blessure")
    hp_a, hp_b = (f.locator("input[name='hp']") for f in (form_a, form_b))
    damage_a, damage_b = (f.locator("input[name='amount']") for f in (form_a, form_b))
    expect(hp_b).to_have_value("20")

    # A types the hit points, then B another field: B does not write back its 20.
    type_into(a, hp_a, "5")
    type_into(b, damage_b, "3")
    assert values_of(a)["Aldric"]["hp"] == "5"
    assert values_of(a)["Aldric"]["blessure.amount"] == "3"
    expect(hp_b).to_have_value("5")  # B follows A, and A follows B
    expect(damage_a).to_have_value("3")

    # B is typing in a field when A changes it and another: B's field keeps what B typed,
    # and its caret (B's next digit goes after the first); the other field follows.
    type_into(b, damage_b, "1")
    type_into(a, hp_a, "6")
    type_into(a, damage_a, "7")
    # A's reader leaves the field: it follows what B types next.
    tap(form_a.locator(".calculateur-description"))
    expect(hp_b).to_have_value("6")
    expect(damage_b).to_have_value("1")
    b.keyboard.type("2")
    expect(damage_b).to_have_value("12")
    expect(damage_a).to_have_value("12")
    assert values_of(a)["Aldric"] == {"hp": "6", "blessure.amount": "12"}

    # B uses Bob: A says so, shows Bob's values, and what A types is Bob's.
    dialog = characters_dialog(b, form_b)
    tap(dialog.get_by_text("Bob"))
    tap(dialog.get_by_role("button", name="Utiliser"))
    expect(note(form_a)).to_contain_text("Valeurs de Bob,")
    expect(hp_a).to_have_value("11")
    type_into(a, hp_a, "8")
    assert values_of(a)["Bob"]["hp"] == "8"
    assert values_of(a)["Aldric"]["hp"] == "6"

    # A « Personnages… » dialog left open in A follows B: a character B makes is listed.
    dialog_a = characters_dialog(a, form_a)
    type_into(b, damage_b, "4")  # on Bob, while A's dialog is open
    dialog_b = characters_dialog(b, form_b)
    tap(dialog_b.get_by_label("Nom du nouveau personnage"))
    b.keyboard.type("Cora")
    tap(dialog_b.get_by_role("button", name="Utiliser"))
    expect(dialog_a.get_by_text("Cora")).to_be_visible()
    expect(dialog_a.get_by_label("Cora")).to_be_checked()  # the one used now
    # A renames Bob there: what B typed meanwhile stays Bob's.
    tap(dialog_a.get_by_text("Bob"))
    tap(dialog_a.get_by_role("button", name="Renommer"))
    rename = a.get_by_role("dialog", name="Renommer « Bob »")
    expect(rename.get_by_label("Nom du personnage")).to_be_focused()
    a.keyboard.type("Robert")
    tap(rename.get_by_role("button", name="Valider"))
    wait_for_kept(a, CHARACTERS_KEY, '"Robert"')
    assert values_of(a)["Robert"] == {"hp": "8", "blessure.amount": "4"}
    assert kept(a, CHARACTERS_KEY)["current"] == "Cora"
    expect(note(form_a)).to_contain_text("Valeurs de Cora,")

    # A renames Aldric while B clears him: Aldric is kept under his new name, and A is told.
    dialog_a = characters_dialog(a, form_a)
    tap(dialog_a.get_by_text("Aldric"))
    tap(dialog_a.get_by_role("button", name="Renommer"))
    rename = a.get_by_role("dialog", name="Renommer « Aldric »")
    dialog_b = characters_dialog(b, form_b)
    tap(dialog_b.get_by_text("Aldric"))
    tap(dialog_b.get_by_role("button", name="Effacer"))
    tap(b.get_by_role("dialog", name="Effacer « Aldric » ?").get_by_role("button", name="Effacer"))
    wait_for_kept(b, CHARACTERS_KEY, '"Aldric"', held=False)
    rename.get_by_label("Nom du personnage").focus()
    a.keyboard.type("Aldric le Brave")
    tap(rename.get_by_role("button", name="Valider"))
    expect(note(form_a).get_by_role("alert")).to_have_text(
        " « Aldric » a été effacé dans un autre onglet pendant que vous le renommiez :"
        " il est gardé sous le nom « Aldric le Brave »."
    )
    assert values_of(a)["Aldric le Brave"] == {"hp": "6", "blessure.amount": "12"}
    assert sorted(values_of(a)) == ["Aldric le Brave", "Cora", "Robert"]

    # B renames the character both use: A says the new name.
    dialog_b = characters_dialog(b, form_b)
    tap(dialog_b.get_by_role("button", name="Renommer"))
    type_in_dialog(b, "Renommer « Cora »", "Cora la Rouge")
    tap(b.get_by_role("dialog", name="Renommer « Cora »").get_by_role("button", name="Valider"))
    expect(note(form_a)).to_contain_text("Valeurs de Cora la Rouge,")


# ---------------------------------------------------------------------------------------
# The readers' lists of entries
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def entries(site_dir: Path) -> list[dict[str, str]]:
    """The test site's entries, as a list keeps them."""
    data = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    return [{k: d[k] for k in ("id", "url", "name", "group")} for d in data]


def lists_of(page: Any) -> dict[str, list[str]]:
    """Each kept list's entries' ids, by its name."""
    return {k["name"]: [e["id"] for e in k["entries"]] for k in kept(page, LISTS_KEY)["lists"]}


def add_dialog(page: Any, row: int) -> Any:
    """The add dialog of the index's row `row`, opened with its « + »."""
    tap(page.locator(f"#entry-table tbody tr >> nth={row}").locator("button.list-add"))
    return page.get_by_role("dialog", name="Ajouter à un grimoire")


def open_lists(page: Any, url: str) -> None:
    page.goto(url)
    page.locator("#reader-lists[data-list-ready]").wait_for(state="attached")


def card_names(page: Any) -> list[str]:
    return page.locator("#reader-lists .list-entry .list-entry__name a").all_text_contents()


def confirm(page: Any, title: str, button: str) -> None:
    tap(page.get_by_role("dialog", name=title).get_by_role("button", name=button))


def test_an_add_dialog_left_open_follows_the_other_tab_and_loses_nothing(
    tabs: tuple[Any, Any], site_url: str, entries: list[dict[str, str]]
) -> None:
    a, b = tabs
    b.goto(site_url + INDEX)
    lists = [{"name": "Aldric", "entries": [entries[0]]}, {"name": "Vieux", "entries": []}]
    store(b, LISTS_KEY, {"version": 2, "last": "Aldric", "lists": lists})
    b.reload()
    dialog_b = add_dialog(b, 2)  # left open while A changes the lists
    expect(dialog_b.get_by_label("Aldric")).to_be_checked()

    # A adds an entry to Aldric: B's dialog counts it.
    a.goto(site_url + INDEX)
    dialog_a = add_dialog(a, 1)
    tap(dialog_a.get_by_role("button", name="Ajouter"))
    expect(dialog_b.locator("label", has_text="Aldric")).to_contain_text("(2 sorts)")

    # A deletes Vieux and renames Aldric on the lists' page: B's dialog follows.
    open_lists(a, site_url + LISTS_PAGE + "?nom=Vieux")
    tap(a.get_by_role("button", name="Supprimer"))
    confirm(a, "Supprimer le grimoire", "Supprimer")
    expect(dialog_b.get_by_text("Vieux")).to_have_count(0)
    expect(a.locator("#list-name")).to_have_value("Aldric")
    tap(a.get_by_role("button", name="Renommer"))
    type_in_dialog(a, "Renommer le grimoire", "Aldric le Sage")
    confirm(a, "Renommer le grimoire", "Valider")
    expect(dialog_b.get_by_label("Aldric le Sage")).to_be_checked()

    # B adds its entry: to the list as kept now, nothing of A's undone.
    tap(dialog_b.get_by_role("button", name="Ajouter"))
    expect(b.locator(".list-notice")).to_contain_text("« Aldric le Sage »")
    assert lists_of(b) == {"Aldric le Sage": [entries[i]["id"] for i in (0, 1, 2)]}
    # Another tab's write reaches A's storage a moment later (Chromium sends it between
    # processes): then A keeps the same, nothing of it written over.
    wait_for_kept(a, LISTS_KEY, f'"{entries[2]["id"]}"')
    assert lists_of(a) == {"Aldric le Sage": [entries[i]["id"] for i in (0, 1, 2)]}
    # A's page shows it.
    expect(a.locator("#reader-lists .list-entry")).to_have_count(3)
    assert card_names(a) == [entries[i]["name"] for i in (0, 1, 2)]


def status(page: Any) -> Any:
    return page.locator("#reader-lists .list-message--warning")


def test_changes_of_one_list_in_two_tabs_that_cannot_both_hold_are_both_kept(
    tabs: tuple[Any, Any], site_url: str, entries: list[dict[str, str]]
) -> None:
    a, b = tabs
    page = site_url + LISTS_PAGE + "?nom=Aldric"
    a.goto(page)
    lists = [{"name": "Aldric", "entries": [entries[0], entries[1]]}]
    store(a, LISTS_KEY, {"version": 2, "last": "Aldric", "lists": lists})
    open_lists(a, page)
    open_lists(b, page)

    # A renames it while B deletes it: kept under A's name, and A is told.
    tap(a.get_by_role("button", name="Renommer"))
    tap(b.get_by_role("button", name="Supprimer"))
    confirm(b, "Supprimer le grimoire", "Supprimer")
    expect(b.locator("#list-name")).to_have_count(0)  # none left
    type_in_dialog(a, "Renommer le grimoire", "Aldric II")
    confirm(a, "Renommer le grimoire", "Valider")
    expect(status(a)).to_have_text(
        "« Aldric » avait été supprimé dans un autre onglet :"
        " il est gardé sous le nom « Aldric II »."
    )
    assert lists_of(a) == {"Aldric II": [entries[0]["id"], entries[1]["id"]]}
    expect(b.locator("#list-name")).to_have_value("Aldric II")  # B follows

    # B deletes it while A renames it: not deleted, and B is told.
    tap(b.get_by_role("button", name="Supprimer"))
    tap(a.get_by_role("button", name="Renommer"))
    type_in_dialog(a, "Renommer le grimoire", "Aldric III")
    confirm(a, "Renommer le grimoire", "Valider")
    expect(b.locator("#list-name")).to_have_value("Aldric III")
    confirm(b, "Supprimer le grimoire", "Supprimer")
    expect(status(b)).to_have_text(
        "« Aldric II » a été renommé « Aldric III » dans un autre onglet pendant que vous"
        " confirmiez : il n’a pas été supprimé."
    )
    assert list(lists_of(a)) == ["Aldric III"]

    # Both rename it: the second is told of the first before giving its own name.
    tap(a.get_by_role("button", name="Renommer"))
    tap(b.get_by_role("button", name="Renommer"))
    type_in_dialog(b, "Renommer le grimoire", "Aldric de B")
    confirm(b, "Renommer le grimoire", "Valider")
    expect(a.locator("#list-name")).to_have_value("Aldric de B")
    type_in_dialog(a, "Renommer le grimoire", "Aldric de A")
    confirm(a, "Renommer le grimoire", "Valider")
    rename = a.get_by_role("dialog", name="Renommer le grimoire")
    expect(rename.get_by_role("alert")).to_have_text(
        "Ce grimoire vient d’être renommé « Aldric de B » dans un autre onglet :"
        " validez pour le renommer quand même."
    )
    tap(rename.get_by_role("button", name="Valider"))
    expect(b.locator("#list-name")).to_have_value("Aldric de A")

    # A empties it while B adds an entry: B's entry stays, and A is told.
    tap(a.get_by_role("button", name="Vider"))
    b.goto(site_url + INDEX)
    tap(add_dialog(b, 5).get_by_role("button", name="Ajouter"))
    expect(b.locator(".list-notice")).to_contain_text("« Aldric de A »")
    confirm(a, "Vider le grimoire", "Vider")
    expect(status(a)).to_have_text(
        "« Aldric de A » est vidé, sauf 1 sort ajouté entre-temps dans un autre onglet."
    )
    assert lists_of(a) == {"Aldric de A": [entries[5]["id"]]}
