"""A bad value breaks nothing else (rules.js, form-values.js, backup.js, the palette partial):
a shared link's or a kept character's value that no field can hold gets that form's French
message while the field keeps a value, a form whose set-up fails says so, and every other
form of the page still works; a damaged setting in storage leaves the light/dark toggle
working, « Vos données » names it and clears it, and a backup's damaged value is left out."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from regles.features.calculators.formatting import format_value
from tests.conftest import rules_of_test_site

pytestmark = pytest.mark.browser

RULES = rules_of_test_site()
NBSP = "\u00a0"
DEEP = "[" * 5000 + "]" * 5000


def note(*parts: str) -> str:
    """A form's message as the page spaces it (French spacing: no-break spaces)."""
    return (
        " ".join(parts)
        .replace("« ", f"«{NBSP}")
        .replace(" »", f"{NBSP}»")
        .replace(" :", f"{NBSP}:")
    )


def link_note(label: str) -> str:
    return note(f"Valeur du lien illisible pour « {label} » : ce champ garde sa valeur.")


def form(page: Any, calc_id: str) -> Any:
    """The calculator's form, brought near the screen (a folded one is set up there)."""
    found = page.locator(f"form[data-calculateur='{calc_id}']")
    found.scroll_into_view_if_needed()
    return found


def computes(page: Any, calc_id: str, field: str, typed: str, output: str, inputs: Any) -> None:
    """Typing `typed` into `field` of the form shows what CPython computes for `inputs`."""
    found = form(page, calc_id)
    found.locator(f"[data-type][name='{field}']").fill(typed)
    expected = format_value(output, RULES.run(calc_id, inputs))
    expect(found.locator(f"output[name='{output}']")).to_have_text(expected, timeout=60_000)


@pytest.mark.python
def test_bad_link_values_and_a_failing_form_break_no_other_form(
    phone_page: Any, site_url: str
) -> None:
    page = phone_page
    # One form's set-up fails (its fields' container is gone): the page's next forms go on.
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => document"
        ".querySelector(\"form[data-calculateur='volonte'] .calculateur-champs\").remove())"
    )
    links = {
        "dice": '{"expression": {"toString": 1}}',  # an object: String() of it throws
        "modificateur": '{"score": ' + DEEP + "}",  # 5,000 lists deep
        "chance": '{"mode": "nimporte", "target": 12}',  # a choice the form does not offer
        "charge": '{"items": "pas une liste", "strength": 12}',
        "survie": "{pas du json",
    }
    page.goto(site_url + "outils/?" + "&".join(f"{k}={quote(v)}" for k, v in links.items()))

    dice = form(page, "dice")
    expect(dice.locator(".calculateur-personnage__erreur")).to_have_text(
        " " + link_note("Expression de dés")
    )
    expect(dice.locator("[data-type][name='expression']")).to_have_value("2d6+3")
    expected = format_value("mean", RULES.run("dice", {"expression": "2d6+3"}))
    expect(dice.locator("output[name='mean']")).to_have_text(expected, timeout=60_000)

    score = form(page, "modificateur")
    expect(score.locator(".calculateur-personnage__erreur")).to_have_text(
        " " + link_note("Valeur de caractéristique")
    )
    expect(score.locator("[data-type][name='score']")).to_have_value("10")
    # The link's other values are taken, and computed.
    chance = form(page, "chance")
    expect(chance.locator(".calculateur-personnage__erreur")).to_have_text(
        " " + link_note("Avantage")
    )
    expected = format_value("p_success", RULES.run("chance", {"target": 12}))
    expect(chance.locator("output[name='p_success']")).to_have_text(expected, timeout=60_000)
    charge = form(page, "charge")
    expect(charge.locator(".calculateur-personnage__erreur")).to_have_text(
        " " + link_note("Objets transportés")
    )
    expect(charge.locator("[data-type][name='strength']")).to_have_value("12")
    damaged = form(page, "survie")
    expect(damaged.locator(".calculateur-personnage__erreur")).to_have_text(
        " " + note("Le lien partagé est illisible pour ce calculateur : il garde ses valeurs.")
    )
    broken = form(page, "volonte")
    expect(broken.locator(".calculateur-etat")).to_have_text(
        note("Ce calculateur n’a pas pu démarrer : rechargez la page pour réessayer.")
    )
    # Every other form works, before and after those.
    computes(page, "rituel", "spell_levels", "9, 9, 1", "text", {"spell_levels": [9, 9, 1]})
    computes(page, "blessure", "amount", "3", "hp", {"amount": 3})
    computes(page, "modificateur", "score", "18", "modifier_text", {"score": 18})


def characters(values: dict[str, str]) -> str:
    """The kept characters (characters.js's storage) of one character holding `values`, each
    given as its JSON text (Python's json cannot write 5,000 lists deep)."""
    kept = ", ".join(f"{json.dumps(key)}: {value}" for key, value in values.items())
    return (
        '{"version": 1, "current": "Essai", "characters": [{"name": "Essai", "values": {'
        + kept
        + "}}]}"
    )


@pytest.mark.python
def test_a_character_with_unreadable_values_breaks_no_form(phone_page: Any, site_url: str) -> None:
    page = phone_page
    page.goto(site_url + "outils/")
    kept = characters(
        {
            "hp": '{"toString": 1}',  # shared by two forms
            "dice.expression": '"1d6+1"',
            "charge.items": DEEP,
            "deplacement.difficult_terrain": '"oui"',  # not a box's value
        }
    )
    page.evaluate("(v) => localStorage.setItem('regles-personnages:/', v)", kept)
    unreadable = {
        "blessure": "Points de vie actuels",
        "soins": "Points de vie actuels",
        "charge": "Objets transportés",
        "deplacement": "Terrain difficile",
    }
    for _ in range(2):  # on every load
        page.reload()
        for calc_id, label in unreadable.items():
            said = form(page, calc_id).locator(".calculateur-personnage__erreur")
            expect(said).to_have_text(
                " "
                + note(
                    f"Valeur gardée illisible pour « {label} » : la valeur par défaut est utilisée."
                )
            )
        expect(form(page, "blessure").locator("[data-type][name='hp']")).to_have_value("14")
        expect(form(page, "dice").locator("[data-type][name='expression']")).to_have_value("1d6+1")
    computes(page, "blessure", "amount", "3", "hp", {"amount": 3})
    computes(page, "tirage", "already_drawn", "1, 2", "p_each", {"already_drawn": [1, 2]})
    # The characters' dialog still opens.
    form(page, "soins").get_by_role("button", name="Personnages…").click()
    expect(page.locator("dialog.list-dialog")).to_contain_text("Essai")


TO_DARK = "label[title='Passer au thème sombre']"
SCHEME = "document.body.getAttribute('data-md-color-scheme')"
LISTS = json.dumps({"version": 1, "last": "Essai", "lists": [{"name": "Essai", "spells": []}]})


def test_a_damaged_setting_is_harmless_named_and_cleared(browser: Any, site_url: str) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site_url + "jeu/combat/")
    page.evaluate(
        "() => { localStorage.setItem('/.__palette', '{pas du json');"
        " localStorage.setItem('/.__tabs', '{pas du json');"
        " localStorage.setItem('regles-impression', 'toString'); }"
    )
    page.reload()
    # The toggle is there and works.
    assert page.locator(TO_DARK).is_visible()
    page.locator(TO_DARK).click()
    assert page.evaluate(SCHEME) == "slate"

    page.goto(site_url + "donnees/")
    data = page.locator("#regles-donnees[data-pret]")
    settings = data.locator("li", has_text="Réglages de l’affichage")
    expect(settings).to_contain_text("illisible")
    printing = data.locator("li", has_text="Impression")
    expect(printing).to_contain_text("illisible")
    settings.get_by_role("button", name="Effacer").click()
    page.locator("dialog").get_by_role("button", name="Effacer").click()
    expect(data.locator(".regles-donnees__message")).to_contain_text("Effacé de ce navigateur")
    assert page.evaluate(
        "() => [localStorage.getItem('/.__palette'), localStorage.getItem('/.__tabs')]"
    ) == [None, None]
    expect(printing).to_contain_text("illisible")  # the others stay

    # A backup's damaged value is named and left out; the rest is imported.
    page.evaluate("() => localStorage.setItem('/.__palette', JSON.stringify({index: 1}))")
    backup = {
        "format": "regles-donnees",
        "version": 1,
        "site": "/",
        "items": {"/.__palette": "{pas du json", "regles-grimoires:/": LISTS},
    }
    files = [
        {
            "name": "sauvegarde.json",
            "mimeType": "application/json",
            "buffer": json.dumps(backup).encode(),
        }
    ]
    page.set_input_files("#regles-donnees-fichier", files=files)
    expect(data).to_contain_text(
        note("Données illisibles dans le fichier, laissées de côté : « Réglages de l’affichage » ;")
    )
    page.get_by_role("button", name="Remplacer par le contenu du fichier").click()
    expect(data.locator(".regles-donnees__message")).to_contain_text("importées")
    kept = page.evaluate(
        "() => [localStorage.getItem('/.__palette'), localStorage.getItem('regles-lists:/')]"
    )  # a backup made by a version up to 0.3: its lists come back under today's key
    assert kept == [json.dumps({"index": 1}, separators=(",", ":")), LISTS]
    assert errors == []
    context.close()
