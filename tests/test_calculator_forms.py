"""A calculator's form as the build writes it (features/calculators/forms.py): its number
fields are text that a phone types with its number pad, their values written the French way.
How the page reads what is typed (« 7,5 », « 7.5 ») is tested in Chromium
(test_calculators_browser.py)."""

from __future__ import annotations

import re

import pytest

from regles.features.calculators.forms import number_text, widget_form


@pytest.mark.parametrize(
    ("value", "text"), [(9.0, "9"), (7.5, "7,5"), (12, "12"), (-1.25, "-1,25"), ("", "")]
)
def test_a_number_is_written_as_a_french_reader_types_it(value: object, text: str) -> None:
    assert number_text(value) == text


def test_number_fields_are_text_with_the_pad_that_fits_them() -> None:
    entry = {
        "id": "essai",
        "title": "Essai",
        "description": "",
        "inputs": [
            {"name": "vitesse", "type": "float", "default": 9.0, "min": 0},
            {"name": "force", "type": "int", "default": 10, "min": 1},
            {"name": "bonus", "type": "int", "default": -1},
        ],
        "outputs": [],
    }
    form = widget_form(entry)
    inputs = {m.group(1): m.group(0) for m in re.finditer(r'<input [^>]*name="(\w+)"[^>]*>', form)}
    assert 'type="number"' not in form
    assert 'inputmode="decimal"' in inputs["vitesse"] and 'value="9"' in inputs["vitesse"]
    assert 'inputmode="numeric"' in inputs["force"]
    # A value that may be negative: the full keyboard, which has « - ».
    assert "inputmode" not in inputs["bonus"] and 'value="-1"' in inputs["bonus"]
