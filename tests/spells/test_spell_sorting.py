"""What the spell lists sort by, computed by the build (regles/features/spells/sorting.py)
and written into the index's rows and data/spells.json for the page scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regles.features.spells.export import COLUMNS, parse_export, render_spell_table, spell_records
from regles.features.spells.sorting import SORTED_BY_TIME, duration_order, is_long

# As a reader orders them: measured times by length, « court » before « long », endless
# ones after, anything else last.
IN_ORDER = [
    "1 seconde",
    "10 secondes",
    "1 minute",
    "quelques minutes",
    "10 minutes ou 1 service (max 24h)",
    "1 heure",
    "1,5 heure",
    "une journée",
    "2 jours",
    "1 semaine",
    "1 mois ou plus",
    "1 an",
    "court",
    "long",
    "permanent",
    "Indéfinie",
    "jusqu’à ce qu’il fonde naturellement.",
    "à volonté",
]


def test_durations_sort_as_a_reader_reads_them() -> None:
    orders = [duration_order(value) for value in IN_ORDER]
    assert orders == sorted(orders)
    assert len(set(orders[:12])) == 12  # every measured time its own place
    assert duration_order("1 Heure") == duration_order("1 heure") == 3600


def test_a_measured_time_of_any_length_stays_before_short_and_long() -> None:
    assert duration_order("999999999 ans") < duration_order("court")


@pytest.mark.parametrize(
    ("casting", "expected"),
    [("long", True), ("Long, 1 heure", True), ("long.", True), ("court", False), ("", False)],
)
def test_a_long_casting_time_is_a_ritual(casting: str, expected: bool) -> None:
    assert is_long(casting) is expected


EXPORT = (
    "# Magie _Généré le 01/01/2027 à 10:00_ ---\n"
    "## Feu **Description du collège :** Le feu.\n"
    "### Braise (I) - **Durée :** 1 heure - **Temps :** long Une braise.\n"
    "### Flamme (II) - **Durée :** 1 minute - **Temps :** court Une flamme.\n"
    "--- Fin du fichier\n"
)


def test_the_index_and_the_records_carry_the_order_the_scripts_sort_by() -> None:
    result = parse_export(EXPORT)
    table = render_spell_table(result)
    for key in COLUMNS:
        assert f'<th data-colonne="{key}">' in table
    assert 'data-tri-duree="3600"' in table and 'data-tri-duree="60"' in table
    assert 'data-long="1"' in table and 'data-long="0"' in table
    records = {r["name"]: r for r in json.loads(json.dumps(spell_records(result, "sorts")))}
    assert records["Braise"]["tri"] == {"duree": 3600, "temps": duration_order("long")}
    assert (records["Braise"]["long"], records["Flamme"]["long"]) == (True, False)
    assert set(records["Flamme"]["tri"]) == set(SORTED_BY_TIME)


def test_the_page_scripts_read_a_duration_nowhere() -> None:
    # The build's order is the only one: no second reading of durations in the scripts.
    scripts = Path(__file__).resolve().parents[2] / "generator" / "regles" / "theme" / "assets"
    for name in ("spells.js", "grimoire.js"):
        text = (scripts / "js" / name).read_text("utf-8")
        assert "secondes" not in text and "semaine" not in text and "durationKey" not in text
