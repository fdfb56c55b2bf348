"""A character the calculators remember, in Chromium on a 360×800 phone: values typed once
are there on every page, after a reload; a field two calculators share is typed once; a
form uses the rules' worked example only while the reader has no character, and says so;
characters are switched, renamed, exported, imported and cleared from any calculator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import rules_of_test_site

pytestmark = [pytest.mark.browser, pytest.mark.python]

RULES = rules_of_test_site()
WOUNDS = "jeu/degats-et-soins/"  # « blessure » then « soins »: both name hp and hp_max alike
LOAD = "maison/poids-transportable/"  # « charge »: its armour starts from a worked example


def ready_form(page: Any, calc_id: str) -> Any:
    form = page.locator(f"form[data-calculateur='{calc_id}']")
    form.scroll_into_view_if_needed()
    form.and_(page.locator("[data-pret]")).wait_for()
    return form


def type_into(page: Any, field: Any, text: str) -> None:
    """Taps the field, selects what it holds and types `text`, as a reader does."""
    field.tap()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


# What the test site (served at the root) keeps: its characters, its readers' lists.
CHARACTERS_KEY = "regles-personnages:/"
LISTS_KEY = "regles-lists:/"


def store(page: Any, key: str, value: str) -> None:
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, value])


def kept(page: Any) -> dict[str, Any]:
    """The characters this site keeps in the page's browser."""
    raw = page.evaluate("(key) => localStorage.getItem(key)", CHARACTERS_KEY)
    return json.loads(raw) if raw else {}


def note(form: Any) -> Any:
    return form.locator(".calculateur-personnage")


def characters_dialog(page: Any, form: Any) -> Any:
    """« Personnages… » of `form` tapped: the dialog it opens."""
    note(form).get_by_role("button", name="Personnages…").tap()
    return page.get_by_role("dialog", name="Personnages")


def test_a_value_typed_once_is_there_on_every_page_and_reload(
    phone_page: Any, site_url: str
) -> None:
    page = phone_page
    page.goto(site_url + WOUNDS)
    wounds = ready_form(page, "blessure")
    # No worked example of the rules there (no `initial`): its own starting values.
    expect(note(wounds)).to_contain_text("Valeurs de départ : vos valeurs seront gardées")
    type_into(page, wounds.locator("input[name='hp']"), "17")
    type_into(page, wounds.locator("input[name='amount']"), "3")

    # Named and labelled alike: the healing's hit points are the same value, typed once;
    # « amount » is labelled otherwise there (« Points de vie récupérés »): its own.
    healing = ready_form(page, "soins")
    expect(healing.locator("input[name='hp']")).to_have_value("17")
    expect(healing.locator("input[name='amount']")).to_have_value("8")
    expected = RULES.run("soins", {"hp": 17, "hp_max": 20, "amount": 8})["hp"]
    expect(healing.locator("output[name='hp']")).to_have_text(str(expected), timeout=60_000)
    expect(note(wounds)).to_contain_text("Valeurs de Mon personnage")
    assert kept(page)["characters"][0]["values"]["hp"] == "17"

    # Another page: a form the reader never touched opens on the character, not on the
    # worked example (the armour it starts from), and computes for it.
    page.goto(site_url + LOAD)
    load = ready_form(page, "charge")
    expect(note(load)).to_contain_text("Valeurs de Mon personnage")
    expect(load.locator("select[name='armor']")).to_have_value("none")
    type_into(page, load.locator("input[name='strength']"), "14")
    expected_load = RULES.run("charge", {"strength": 14, "armor": "none"})
    expect(load.locator("output[name='load_label']")).to_have_text(
        str(expected_load["load_label"]), timeout=60_000
    )

    page.goto(site_url + WOUNDS)
    expect(ready_form(page, "blessure").locator("input[name='hp']")).to_have_value("17")
    page.goto(site_url + LOAD)  # no address of the page's own: from the character alone
    page.reload()
    assert "charge=" not in page.url
    expect(ready_form(page, "charge").locator("input[name='strength']")).to_have_value("14")


def test_the_worked_example_is_said_and_can_be_left(phone_page: Any, site_url: str) -> None:
    page = phone_page
    page.goto(site_url + LOAD)
    load = ready_form(page, "charge")
    expect(note(load)).to_contain_text("Exemple des règles")
    expect(load.locator("select[name='armor']")).to_have_value("medium")
    assert load.locator(".liste-ligne").count() > 0
    load.get_by_role("button", name="Partir de zéro").tap()
    expect(load.locator("select[name='armor']")).to_have_value("none")
    expect(load.locator(".liste-ligne")).to_have_count(0)
    expect(note(load)).to_contain_text("Valeurs de Mon personnage")
    assert kept(page)["characters"][0]["values"]["charge.items"] == []


def test_characters_are_switched_renamed_exported_and_cleared(
    phone_page: Any, site_url: str
) -> None:
    page = phone_page
    page.goto(site_url + WOUNDS)
    wounds = ready_form(page, "blessure")
    type_into(page, wounds.locator("input[name='hp']"), "9")

    # A second character: the forms take its values (none yet: the defaults).
    dialog = characters_dialog(page, wounds)
    dialog.get_by_label("Nom du nouveau personnage").tap()
    page.keyboard.type("Brunehilde")
    dialog.get_by_role("button", name="Utiliser").tap()
    expect(note(wounds)).to_contain_text("Valeurs de Brunehilde")
    expect(wounds.locator("input[name='hp']")).to_have_value("14")  # the default
    type_into(page, wounds.locator("input[name='hp']"), "4")

    # Back to the first one: its value.
    dialog = characters_dialog(page, wounds)
    dialog.get_by_text("Mon personnage").tap()
    dialog.get_by_role("button", name="Utiliser").tap()
    expect(wounds.locator("input[name='hp']")).to_have_value("9")

    # Renamed.
    dialog = characters_dialog(page, wounds)
    dialog.get_by_role("button", name="Renommer").tap()
    rename = page.get_by_role("dialog", name="Renommer « Mon personnage »")
    # The name has the focus, selected: what the reader types replaces it.
    expect(rename.get_by_label("Nom du personnage")).to_be_focused()
    page.keyboard.type("Aldric")
    rename.get_by_role("button", name="Valider").tap()
    expect(note(wounds)).to_contain_text("Valeurs de Aldric")

    # Exported: a file of its values.
    dialog = characters_dialog(page, wounds)
    with page.expect_download() as download:
        dialog.get_by_role("button", name="Exporter").tap()
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert download.value.suggested_filename == "personnage-aldric.json"
    assert exported["nom"] == "Aldric" and exported["valeurs"]["hp"] == "9"

    # Cleared: Brunehilde is used, and Aldric is gone from the browser.
    dialog = characters_dialog(page, wounds)
    dialog.get_by_role("button", name="Effacer").tap()
    page.get_by_role("dialog", name="Effacer « Aldric » ?").get_by_role(
        "button", name="Effacer"
    ).tap()
    expect(note(wounds)).to_contain_text("Valeurs de Brunehilde")
    expect(wounds.locator("input[name='hp']")).to_have_value("4")
    assert [c["name"] for c in kept(page)["characters"]] == ["Brunehilde"]


def test_a_first_characters_name_is_typed_over_the_one_offered(
    phone_page: Any, site_url: str
) -> None:
    page = phone_page
    page.goto(site_url + WOUNDS)
    wounds = ready_form(page, "blessure")
    dialog = characters_dialog(page, wounds)
    field = dialog.get_by_label("Nom du nouveau personnage")
    expect(field).to_have_value("Mon personnage")  # offered, not a hint
    field.tap()
    page.keyboard.type("Aldric")  # it was glued on: « Mon personnageAldric »
    dialog.get_by_role("button", name="Utiliser").tap()
    expect(note(wounds)).to_contain_text("Valeurs de Aldric,")
    assert kept(page)["current"] == "Aldric"


def import_file(page: Any, form: Any, name: str, content: bytes) -> None:
    """« Personnages… », « Importer… », and the file `name` holding `content` is picked."""
    dialog = characters_dialog(page, form)
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Importer…").tap()
    chooser.value.set_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": content}]
    )


def test_an_exported_character_comes_back_as_a_new_one(phone_page: Any, site_url: str) -> None:
    page = phone_page
    page.goto(site_url + WOUNDS)
    wounds = ready_form(page, "blessure")
    type_into(page, wounds.locator("input[name='hp']"), "9")
    dialog = characters_dialog(page, wounds)
    with page.expect_download() as download:
        dialog.get_by_role("button", name="Exporter").tap()
    exported = Path(download.value.path()).read_bytes()
    type_into(page, wounds.locator("input[name='hp']"), "3")

    # The file of another browser: a new character (its name is taken here), used at once,
    # and the one kept here is left as it was.
    import_file(page, wounds, "personnage-mon-personnage.json", exported)
    expect(note(wounds)).to_contain_text("Valeurs de Mon personnage (2)")
    expect(wounds.locator("input[name='hp']")).to_have_value("9")
    characters = {c["name"]: c["values"]["hp"] for c in kept(page)["characters"]}
    assert characters == {"Mon personnage": "3", "Mon personnage (2)": "9"}

    # A file that is not a character: said in French where the reader looks, nothing lost.
    lists = json.dumps({"format": "regles-grimoire", "nom": "Aldric", "sorts": []}).encode()
    import_file(page, wounds, "grimoire-aldric.json", lists)
    expect(note(wounds).get_by_role("alert")).to_have_text(
        " « grimoire-aldric.json » n’est pas un personnage exporté par ce site"
        " (format « regles-personnage » attendu). Rien n’a été importé."
    )
    # In the colour of the form's other errors (it was Material's green of code strings).
    colours = wounds.evaluate(
        "(form) => ['.calculateur-personnage__erreur', '.erreur']"
        ".map((part) => getComputedStyle(form.querySelector(part)).color)"
    )
    assert colours[0] == colours[1], colours
    assert len(kept(page)["characters"]) == 2
    expect(note(wounds)).to_contain_text("Valeurs de Mon personnage (2)")


def test_a_damaged_store_is_set_aside_not_lost(phone_page: Any, site_url: str) -> None:
    page = phone_page
    page.goto(site_url + WOUNDS)
    store(page, CHARACTERS_KEY, "{pas du json")
    page.reload()
    wounds = ready_form(page, "blessure")
    type_into(page, wounds.locator("input[name='hp']"), "12")
    expect(note(wounds)).to_contain_text("Valeurs de Mon personnage")
    aside = page.evaluate(
        "() => Object.keys(localStorage).filter((k) => k.includes(':illisible'))"
        ".map((k) => localStorage.getItem(k))"
    )
    assert aside == ["{pas du json"]


def test_a_first_character_is_the_one_of_the_readers_last_list(
    phone_page: Any, site_url: str
) -> None:
    # A reader who keeps a list of spells for « Aldric, magicien » types for Aldric.
    page = phone_page
    page.goto(site_url + WOUNDS)
    lists = [{"name": "Aldric, magicien", "entries": []}]
    store(page, LISTS_KEY, json.dumps({"version": 2, "last": "Aldric, magicien", "lists": lists}))
    wounds = ready_form(page, "blessure")
    type_into(page, wounds.locator("input[name='hp']"), "11")
    expect(note(wounds)).to_contain_text("Valeurs de Aldric, magicien")
    assert kept(page)["current"] == "Aldric, magicien"


def test_a_first_character_is_named_from_lists_kept_by_0_3(phone_page: Any, site_url: str) -> None:
    """Lists kept by 0.3 (their former key, `spells`), on a page without any list: moved as
    the page loads, so the first character still takes their last name."""
    page = phone_page
    page.goto(site_url + WOUNDS)
    former = {"version": 1, "last": "Bree", "lists": [{"name": "Bree", "spells": []}]}
    store(page, "regles-grimoires:/", json.dumps(former))
    page.reload()
    wounds = ready_form(page, "blessure")
    type_into(page, wounds.locator("input[name='hp']"), "11")
    expect(note(wounds)).to_contain_text("Valeurs de Bree")
    assert kept(page)["current"] == "Bree"
