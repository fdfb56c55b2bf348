"""What the spell lists sort by, computed by the build (regles/features/databases/ordering.py)
and written into the index's rows and the data file for the page scripts; and the index's
columns, from the fields the export uses (regles/features/databases/columns.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regles.core.report import Kind
from regles.core.words import Noun, Words
from regles.features.databases.book import DatabaseSettings, read_book
from regles.features.databases.columns import choice_values, field_order, index_columns
from regles.features.databases.export import parse_export
from regles.features.databases.ordering import distance_order, duration_order, is_long
from regles.features.databases.pages import (
    IndexLabels,
    entry_records,
    render_entry_table,
    render_lists_page,
)

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


def test_distances_sort_as_a_reader_reads_them() -> None:
    values = ["personnelle", "contact", "50 cm", "10 m", "30 mètres", "1,5 km", "à vue", "Vol"]
    orders = [distance_order(value) for value in values]
    assert orders == sorted(orders) and orders[2:6] == [0.5, 10, 30, 1500]
    assert distance_order("10 minutes") == distance_order("Vol")  # not a distance


def test_a_measured_time_of_any_length_stays_before_short_and_long() -> None:
    assert duration_order("999999999 ans") < duration_order("court")


@pytest.mark.parametrize(
    ("casting", "expected"),
    [("long", True), ("Long, 1 heure", True), ("long.", True), ("court", False), ("", False)],
)
def test_a_long_casting_time_is_a_ritual(casting: str, expected: bool) -> None:
    assert is_long(casting) is expected


CULT = Noun("culte", "cultes", "m")
PRAYER_WORDS = Words(Noun("prière", "prières", "f"), CULT, Noun("livre", "livres", "m"))

EXPORT = (
    "# Magie _Généré le 01/01/2027 à 10:00_ ---\n"
    "## Feu **Description du collège :** Le feu.\n"
    "### Braise (I) - **Durée :** 1 heure - **Temps :** long Une braise.\n"
    "### Flamme (II) - **Durée :** 1 minute - **Temps :** court Une flamme.\n"
    "--- Fin du fichier\n"
)


def test_the_index_and_the_records_carry_the_order_the_scripts_sort_by() -> None:
    result = parse_export(EXPORT)
    table = render_entry_table(result)
    for key in ("nom", "groupe", "niveaux", "duree", "temps"):
        assert f'<th data-colonne="{key}">' in table
    assert 'data-tri-duree="3600"' in table and 'data-tri-duree="60"' in table
    assert 'data-long="1"' in table and 'data-long="0"' in table
    records = {r["name"]: r for r in json.loads(json.dumps(entry_records(result, "sorts")))}
    assert records["Braise"]["tri"] == {"duree": 3600, "temps": duration_order("long")}
    assert (records["Braise"]["long"], records["Flamme"]["long"]) == (True, False)
    assert set(records["Flamme"]["tri"]) == {"duree", "temps"}


def test_fields_come_in_the_order_the_export_writes_them() -> None:
    # « Classe » is never first in an entry, but always before « Temps » where both are.
    entries = [["Durée", "Temps"], ["Classe", "Temps"], ["Durée"], ["Classe", "Durée"]]
    assert field_order(entries) == ["Classe", "Durée", "Temps"]
    # Contradictory entries: the order the fields first appear in.
    assert field_order([["A", "B"], ["B", "A"]]) == ["A", "B"]


PRAYERS = (
    "# Prières _Généré le 01/01/2027 à 10:00_ ---\n"
    "## Aube **Description du culte :** L’aube.\n"
    "### Lueur (I) - **Portée :** 10 m - **Sphère :** Lumière - **Durée :** 1 heure Une lueur.\n"
    "### Voile (II) - **Portée :** contact - **Sphère :** Ombre - **Durée :** 1 minute Un voile.\n"
    "### Bénédiction (II) - **Portée :** 30 m - **Sphère :** Protection - **Durée :** 1 jour "
    "Une bénédiction.\n"
    "### Veille (III) - **Portée :** personnelle - **Sphère :** Protection - **Durée :** 8 heures "
    "- **Coût :** 2 Une veille.\n"
    "### Paix (III) - **Portée :** 20 m - **Sphère :** Ombre - **Durée :** 10 minutes Une paix.\n"
    "### Clarté (IV) - **Portée :** 5 m - **Sphère :** Lumière - **Durée :** 1 heure Une clarté.\n"
    "--- Fin du fichier\n"
)


def test_the_index_shows_the_fields_the_export_uses() -> None:
    result = parse_export(PRAYERS, group=CULT)
    entries = [dict(s.fields) for s in result.entries]
    # « Coût », in one prayer of six, is left out; a distance and a time sort by value.
    found = [(c.field, c.key, c.sort, c.filter) for c in index_columns(entries)]
    assert found == [
        ("Portée", "portee", "distance", ""),
        ("Sphère", "sphere", "", "choix"),  # a few values: a choice list
        ("Durée", "duree", "temps", ""),
    ]
    table = render_entry_table(result, IndexLabels(words=PRAYER_WORDS))
    assert [h for h in ("Portée", "Sphère", "Durée", "Coût") if f">{h}</th>" in table] == [
        "Portée",
        "Sphère",
        "Durée",
    ]
    assert 'data-portee="contact"' in table and 'data-tri-portee="0"' in table
    assert 'data-tri-portee="30"' in table and "data-tri-sphere" not in table
    records = {r["name"]: r for r in entry_records(result, "prieres")}
    assert records["Veille"]["tri"] == {"portee": 0.0, "duree": 8 * 3600}
    # The site names its columns, in its order, with its own labels.
    chosen = index_columns(entries, ["Durée", "Coût"])
    assert [(c.field, c.key) for c in chosen] == [("Durée", "duree"), ("Coût", "cout")]
    labels = IndexLabels(words=PRAYER_WORDS, names={"Coût": "Coût en ferveur"})
    table = render_entry_table(result, labels, chosen)
    assert ">Coût en ferveur</th>" in table and ">Portée</th>" not in table
    page = render_lists_page("Mon livre", ("Toutes", "toutes.md"), labels, chosen)
    assert 'data-champ-cout="Coût"' in page and 'data-libelle-cout="Coût en ferveur"' in page
    assert 'data-colonnes="nom groupe niveaux duree cout"' in page


def test_a_choice_filter_counts_each_value_for_what_it_is() -> None:
    entries = [
        {"Classe": "Zone", "Résistance": "Vol-3", "Temps": "long", "Défense": "9"},
        {"Classe": "Info Zone", "Résistance": "Vol + Magerie", "Temps": "1 minute"},
        {"Classe": "Info", "Résistance": "Sort sujet", "Temps": "Long, 1 heure"},
        {"Classe": "Projectile", "Résistance": "San", "Défense": "12"},
    ]
    classe, resistance, temps, defense = index_columns(entries)
    assert (classe.filter, resistance.filter, temps.filter) == ("choix", "choix", "long")
    assert (defense.sort, defense.filter) == ("nombre", "")  # numbers sort, not a choice
    assert choice_values(classe, "Info Zone") == ["Info", "Zone"]  # each stands alone
    assert choice_values(resistance, "Vol-3") == choice_values(resistance, "Vol + Magerie")
    assert choice_values(resistance, "Sort sujet") == ["Sort sujet"]  # « sujet » is not alone
    assert choice_values(resistance, "") == []
    table = render_entry_table(parse_export(EXPORT), columns=index_columns(entries[:1] * 2))
    assert "data-filtres=" in table
    records = entry_records(parse_export(EXPORT), "sorts", (classe, resistance, temps))
    assert records[0]["choix"] == {"classe": [], "resistance": []}
    assert (records[0]["long"], records[1]["long"]) == (True, False)  # the « long » column's


def test_a_field_named_as_an_index_parameter_gets_a_key_of_its_own() -> None:
    columns = index_columns([{"Texte": "a", "Tri": "b", "tri": "c"}])
    assert [c.key for c in columns] == ["champtexte", "champtri", "champtri2"]


def test_the_page_scripts_read_a_duration_nowhere() -> None:
    # The build's order is the only one: no second reading of durations in the scripts.
    scripts = Path(__file__).resolve().parents[2] / "generator" / "regles" / "theme" / "assets"
    lists = sorted((scripts / "js").glob("list*.js"))  # the lists' page and its parts
    assert len(lists) >= 4
    for path in (scripts / "js" / "entries.js", *lists):
        text = path.read_text("utf-8")
        assert "secondes" not in text and "semaine" not in text and "durationKey" not in text


def test_a_column_no_entry_fills_is_a_warning(tmp_path: Path) -> None:
    export = tmp_path / "prieres.txt"
    export.write_text(PRAYERS, encoding="utf-8")
    settings = DatabaseSettings(
        export, "prieres.txt", "prieres", "Prières", "Toutes les prières",
        words=PRAYER_WORDS, columns=(("Durée", None), ("Duree", None)),
    )  # fmt: skip
    book, problems = read_book(settings)
    assert book is not None and [c.key for c in book.columns] == ["duree", "duree2"]
    (unknown,) = [p for p in problems if p.kind is Kind.UNKNOWN_COLUMN]
    assert unknown.severity == "warning" and unknown.subject == "Duree"
    assert "colonne « Duree » (columns de la base « prieres ») : aucune entrée" in unknown.message
    assert "ses champs : Coût, Durée, Portée, Sphère" in unknown.message


def test_the_site_names_the_fields_its_index_filters_by() -> None:
    entries = [
        {"Portée": "10 m", "Sphère": "Lumière", "Durée": "long"},
        {"Portée": "contact", "Sphère": "Ombre", "Durée": "1 minute"},
        {"Portée": "3 m", "Sphère": "Lumière", "Durée": "1 heure"},
    ]
    derived = {c.field: c.filter for c in index_columns(entries)}
    assert derived == {"Portée": "", "Sphère": "choix", "Durée": "long"}
    # Each value its own entry's: each choice would pick one entry alone (the text field
    # finds a name faster), so no list is offered, unless the site names the field.
    alone = [{"Famille": name} for name in ("Loups", "Ours", "Aigles", "Serpents", "Rats")]
    assert [c.filter for c in index_columns(alone)] == [""]
    assert [c.filter for c in index_columns(alone, filtered=["Famille"])] == ["choix"]
    # Named: a distance gets a choice list too; a field left out has no filter.
    named = {c.field: c.filter for c in index_columns(entries, filtered=["Portée", "Durée"])}
    assert named == {"Portée": "choix", "Sphère": "", "Durée": "long"}
    portee = index_columns(entries, filtered=["Portée"])[0]
    assert portee.sort == "distance" and choice_values(portee, "10 m") == ["10 m"]


def test_a_filter_on_no_column_is_a_warning(tmp_path: Path) -> None:
    export = tmp_path / "prieres.txt"
    export.write_text(PRAYERS, encoding="utf-8")
    settings = DatabaseSettings(
        export, "prieres.txt", "prieres", "Prières", "Toutes les prières",
        words=PRAYER_WORDS, filters=("Sphère", "Coût"),
    )  # fmt: skip
    book, problems = read_book(settings)
    assert book is not None
    assert [c.field for c in book.columns if c.filter] == ["Sphère"]
    (unknown,) = [p for p in problems if p.kind is Kind.UNKNOWN_COLUMN]
    assert unknown.subject == "Coût" and "n’est pas une colonne de l’index" in unknown.message


def test_an_entry_without_a_number_sorts_after_the_others_in_readable_json() -> None:
    # A ship without « Vitesse » (the adoption of « Astres froids »): its order was
    # « Infinity », and no browser could read the data file, nor any list of the database.
    export = (
        "# Chantier _Généré le 01/01/2027 à 10:00_ --- "
        "## Flotte **Description du groupe :** Des vaisseaux. "
        "### Albatros - **Vitesse :** 3 Un cargo. "
        "### Faucon - **Vitesse :** 7 Un chasseur. "
        "### Pétrel - **Vitesse :** 5 Une navette. "
        "### Moineau - **Coque :** 1 Une sonde. "
        "--- Fin du fichier"
    )
    result = parse_export(export)
    records = entry_records(result, "chantier")
    text = json.dumps(records, allow_nan=False)  # what the build writes: no error
    orders = {r["name"]: r["tri"]["vitesse"] for r in json.loads(text)}
    assert sorted(orders, key=orders.__getitem__) == ["Albatros", "Pétrel", "Faucon", "Moineau"]
    assert 'data-tri-vitesse="1e+300"' in render_entry_table(result)  # as JavaScript reads it
