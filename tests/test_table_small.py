"""The smaller things a player meets at the table, as the build writes them: the number pad
of every number field (and the « ± » of a signed one), and the value a character keeps for
another calculator's field, offered to a field (the kit's `Field.offered`)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

from regles.features.calculators.forms import Offer, field_offers, widget_form
from regles.features.calculators.memory import memory_keys
from regles.kit import Field
from tests.conftest import rules_of_test_site

NUMBER_TYPES = ("int", "float", "int_list")


def _entry(calc_id: str, *inputs: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": calc_id,
        "title": calc_id,
        "description": "",
        "inputs": list(inputs),
        "outputs": [],
    }


def _controls(form: str) -> dict[str, str]:
    """Each text control of a form by its name, with what follows it in its « saisie »."""
    return {
        m.group(2): m.group(0)
        for m in re.finditer(
            r'<span class="saisie">(<input [^>]*name="(\w+)"[^>]*>.*?)</span>', form
        )
    }


def test_every_number_field_opens_a_number_pad_and_a_signed_one_has_its_sign_button() -> None:
    form = widget_form(
        _entry(
            "essai",
            {"name": "modifier", "label": "Modificateur total", "type": "int", "min": -10},
            {"name": "bonus", "label": "Bonus", "type": "int", "default": 2},  # no bound
            {"name": "target", "label": "DD", "type": "int", "default": 15, "min": 1},
            {"name": "zero", "label": "Zéro", "type": "int", "default": 0, "min": 0},
            {"name": "speed", "label": "Vitesse", "type": "float", "default": 1.5, "min": 0},
            {"name": "shift", "label": "Écart", "type": "float", "default": 0, "min": -2.5},
            {"name": "faces", "label": "Faces", "type": "int_list", "default": [4, 6], "min": 1},
            {"name": "name", "label": "Nom", "type": "text", "default": "x"},
        )
    )
    controls = _controls(form)
    pads = {name: re.search(r'inputmode="(\w+)"', c) for name, c in controls.items()}
    found = {name: m.group(1) if m else None for name, m in pads.items()}
    assert found == {
        # Digits alone: a whole number never negative.
        "target": "numeric",
        "zero": "numeric",
        # The comma's pad: a decimal (« 1,5 »), a list (« 4, 6 »), a signed number.
        "speed": "decimal",
        "faces": "decimal",
        "modifier": "decimal",
        "bonus": "decimal",
        "shift": "decimal",
        "name": None,  # a text: the letters
    }
    assert 'type="number"' not in form  # it would refuse « 1,5 » in some browsers
    assert 'value="1,5"' in controls["speed"]  # the decimal comma, as typed
    signed = {name for name, c in controls.items() if 'class="saisie-signe"' in c}
    assert signed == {"modifier", "bonus", "shift"}
    # Its name says what it does to which field, for a screen reader.
    assert 'aria-label="Changer le signe de « Modificateur total »"' in controls["modifier"]
    assert ">±</button>" in controls["modifier"]


def test_no_number_field_of_the_test_site_opens_the_letters() -> None:
    """Every form of the test site's calculators, rows of lists included."""
    catalog = list(rules_of_test_site().catalog())
    numbers = 0
    for entry in catalog:
        form = widget_form(entry)
        for control in re.findall(r"<input [^>]*>", form):
            kind = re.search(r'data-type="(\w+)"', control)
            if kind and kind.group(1) in NUMBER_TYPES:
                numbers += 1
                assert re.search(r'inputmode="(numeric|decimal)"', control), control
    assert numbers >= 10
    # The signed modifier of an ordeal (epreuves.py: -10 to 20) has its « ± ».
    chance = widget_form(next(e for e in catalog if e["id"] == "chance"))
    assert 'inputmode="decimal"' in _controls(chance)["modifier"]
    assert "saisie-signe" in _controls(chance)["modifier"]


def _offers_in(form: str) -> list[dict[str, str]]:
    found = re.search(r'<p class="champ-offres" data-offres="([^"]*)" hidden></p>', form)
    assert found, form
    data: list[dict[str, str]] = json.loads(html.unescape(found.group(1)))
    return data


def test_a_field_is_offered_the_value_another_calculator_keeps_under_its_own_name() -> None:
    score = {
        "name": "score",
        "label": "Valeur",
        "type": "int",
        "min": 1,
        "offered": ["charge.strength"],
    }
    charge = _entry("charge", {"name": "strength", "label": "Force", "type": "int", "min": 1})
    modifier = _entry("modificateur", score)
    catalog = {"charge": charge, "modificateur": modifier}
    memory = memory_keys(catalog.values())
    offers = field_offers(modifier, catalog, memory)
    assert offers == {"score": (Offer("charge.strength", "Force"),)}
    form = widget_form(modifier, memory=memory["modificateur"], offers=offers)
    # Beside the field, hidden until the reader's character holds a Force (characters.js).
    assert _offers_in(form) == [{"cles": "charge.strength", "libelle": "Force"}]
    assert (
        form.index('name="score"') < form.index("champ-offres") < form.index('<span class="erreur"')
    )
    # A field another calculator shares (same name, same label): its shared key first.
    shared = _entry("autre", {"name": "strength", "label": "Force", "type": "int", "min": 1})
    catalog["autre"] = shared
    memory = memory_keys(catalog.values())
    assert field_offers(modifier, catalog, memory)["score"][0].keys == "strength charge.strength"
    # Without `offered`: nothing offered, nothing written.
    assert field_offers(charge, catalog, memory) == {}
    assert "champ-offres" not in widget_form(charge, memory=memory["charge"])


@pytest.mark.parametrize("named", ["charge.force", "inconnu.strength", "strength"])
def test_an_offer_of_no_field_stops_the_build_in_french(named: str) -> None:
    modifier = _entry("modificateur", {"name": "score", "type": "int", "offered": [named]})
    catalog = {
        "modificateur": modifier,
        "charge": _entry("charge", {"name": "strength", "label": "Force", "type": "int"}),
    }
    with pytest.raises(ValueError, match=f"« {re.escape(named)} », qui n’est le champ d’aucun"):
        field_offers(modifier, catalog, memory_keys(catalog.values()))


def test_the_kit_declares_an_offered_field_in_its_catalogue() -> None:
    described = Field("score", "Valeur", "int", default=10, offered=("charge.strength",)).to_json()
    assert described["offered"] == ["charge.strength"]
    assert "offered" not in Field("score", "Valeur", "int", default=10).to_json()
    # The test site's ability calculator is offered the carrying calculator's Force.
    catalog = {str(e["id"]): e for e in rules_of_test_site().catalog()}
    offers = field_offers(catalog["modificateur"], catalog, memory_keys(catalog.values()))
    assert [o.label for o in offers["score"]] == ["Force"]
