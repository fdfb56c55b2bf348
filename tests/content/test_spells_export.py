"""This site's spell export (23 colleges, 422 spells) parses completely and every field split
is right; it is the owner's document 002, as content/ holds it."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from regles.core.report import Kind
from regles.features.databases.export import UNCERTAIN_SPLIT, parse_export
from regles.features.databases.model import Entry, ParseResult, read_export
from regles.features.databases.pages import entry_records
from tests.conftest import ROOT
from tests.content.conftest import SOURCES
from tests.databases.synth import ENTRY_RECORD_KEYS

REFERENCE = SOURCES / "002_8979d53ff801f27a.txt"


def seed_text() -> str:
    return read_export(REFERENCE)


def test_the_site_publishes_the_owners_export_as_it_is() -> None:
    assert (ROOT / "content" / "magie" / "export-magie.txt").read_bytes() == REFERENCE.read_bytes()


# Counted by hand in the seed: `### ` headings between one `## ` college heading and the next.
EXPECTED_COUNTS = {
    "Acoustique": 19,
    "Animalier": 15,
    "Communication & Empathie": 17,
    "Connaissance": 31,
    "Contrôle physique": 27,
    "Création & Dissolution": 18,
    "Élémentaire - Air": 21,
    "Élémentaire - Eau": 26,
    "Élémentaire - Feu": 22,
    "Élémentaire - Terre": 19,
    "Emprise mentale": 26,
    "Illusions": 8,
    "Métamagie": 23,
    "Mouvement": 22,
    "Nécromancie": 13,
    "Ombre & Lumière": 18,
    "Protection & Alarme": 22,
    "Sacré": 17,
    "Seuils": 12,
    "Soins": 9,
    "Végétal": 14,
    "Pouvoirs divers": 18,
    "Enchantement": 5,
}

# The five entries whose split relies on the fallback heuristic, with the value kept.
EXPECTED_UNCERTAIN = {
    ("Contrôle physique", "Projectile maudit", "Temps"): (
        "court, + temps nécessaire du sort « projeté »."
    ),
    ("Élémentaire - Eau", "Verglas", "Durée"): "jusqu’à ce qu’il fonde naturellement.",
    ("Élémentaire - Feu", "Pyrotechnie", "Durée"): (
        "de quelques seconde à quelques minutes selon l’effet choisi."
    ),
    ("Mouvement", "Allure rapide", "Durée"): "1 journée de marche",
    ("Enchantement", "Parchemin", "Temps"): "10 minutes par PdM nécessaire au lancer du sort",
}


@pytest.fixture(scope="module")
def seed() -> ParseResult:
    return parse_export(seed_text(), source="002_8979d53ff801f27a.txt")


def spell(result: ParseResult, college: str, name: str) -> Entry:
    found = [s for s in result.entries if s.group == college and s.name == name]
    assert len(found) == 1, (college, name, found)
    return found[0]


def test_totals(seed: ParseResult) -> None:
    assert len(seed.groups) == 23
    assert len(seed.entries) == 422
    assert seed.rejected == []
    assert seed.errors == []
    assert seed.title == "Magie"
    assert seed.generated == "22/10/2026 à 19:24"


def test_counts_per_college(seed: ParseResult) -> None:
    assert {c.name: len(c.entries) for c in seed.groups} == EXPECTED_COUNTS
    assert [c.name for c in seed.groups] == list(EXPECTED_COUNTS)


def test_every_heading_becomes_a_spell(seed: ParseResult) -> None:
    text = seed_text()
    headings = len(re.findall(r"(?<!\S)### ", text))
    assert headings == 422
    assert len(seed.entries) + len(seed.rejected) == headings


def test_only_warnings_are_the_uncertain_splits(seed: ParseResult) -> None:
    found = {}
    for p in seed.problems:
        assert p.severity == "warning" and p.kind is Kind.UNCERTAIN_SPLIT, p
        m = re.match(r"découpage incertain entre la valeur du champ (\S+)", p.message)
        assert m is not None, p
        key = m.group(1)
        assert p.message.startswith(UNCERTAIN_SPLIT.format(key=key))
        college, name = p.context or "", p.subject or ""
        found[(college, name, key)] = spell(seed, college, name)
    assert set(found) == set(EXPECTED_UNCERTAIN)
    for where, value in EXPECTED_UNCERTAIN.items():
        assert found[where].fields[where[2]] == value


@pytest.mark.parametrize(
    ("college", "name", "low", "high"),
    [
        ("Acoustique", "Altération de la voix", 1, 2),
        ("Acoustique", "Blast sonore", 1, 4),
        ("Acoustique", "Baragouinement", 2, 2),
        ("Élémentaire - Air", "Contrôle du climat", 4, 4),
        ("Ombre & Lumière", "Lumière solaire", 1, 3),
        ("Enchantement", "Parchemin", 3, 3),
    ],
)
def test_levels(seed: ParseResult, college: str, name: str, low: int, high: int) -> None:
    s = spell(seed, college, name)
    assert (s.level_min, s.level_max) == (low, high)


def test_level_ranges_seen(seed: ParseResult) -> None:
    # The seed's numerals: I..V, as single levels or ranges.
    assert {s.level_min for s in seed.entries} == {1, 2, 3, 4, 5}
    assert all(s.level_min <= s.level_max <= 5 for s in seed.entries)
    assert sum(1 for s in seed.entries if s.level_min != s.level_max) == 135


def test_field_keys(seed: ParseResult) -> None:
    keys = Counter(k for s in seed.entries for k in s.fields)
    # Same counts as `grep -o '\- \*\*Durée :\*\*'` etc. in the seed.
    assert keys == {"Durée": 263, "Temps": 193, "Résistance": 132, "Classe": 121, "Zone": 23}
    # Keys keep the export's order within an entry.
    climat = spell(seed, "Élémentaire - Air", "Contrôle du climat")
    assert list(climat.fields) == ["Classe", "Durée", "Temps", "Zone"]


# (college, spell) → (fields, start of description): entries where a naive rule goes wrong.
TRICKY = {
    ("Soins", "Don de santé"): ({"Durée": "1 heure"}, "6 PdV sont restaurés"),
    ("Enchantement", "Parchemin"): (
        {"Classe": "Enchantement", "Temps": "10 minutes par PdM nécessaire au lancer du sort"},
        "Matériel nécessaire",
    ),
    ("Contrôle physique", "Projectile maudit"): (
        {"Classe": "Projectile", "Temps": "court, + temps nécessaire du sort « projeté »."},
        "Ce sort permet au magicien",
    ),
    ("Élémentaire - Eau", "Pluie"): (
        {
            "Classe": "Zone",
            "Durée": "1 heure",
            "Temps": "5 minutes",
            "Zone": "100 m (×0,5 en climat désertique)",
        },
        "Crée ou empêche une ondée",
    ),
    ("Illusions", "Création d’illusion"): (
        {"Classe": "Zone", "Durée": "1 minute", "Zone": "1 m"},
        "**Niveau I :** crée une image",
    ),
    ("Mouvement", "Serrurier"): ({"Résistance": "Serrure de mage"}, "Ouvre les serrures"),
    ("Protection & Alarme", "Serrure de mage"): (
        {"Durée": "1 journée", "Temps": "long", "Résistance": "Serrurier"},
        "Ferme une porte",
    ),
    ("Emprise mentale", "Terreur"): ({"Résistance": "Test de Frayeur"}, "Oblige la cible"),
    ("Métamagie", "Affaiblissement fluidique"): (
        {"Durée": "1 minute", "Résistance": "Vol+Magerie"},
        "Inflige des malus standards",
    ),
    ("Enchantement", "Enchanter une arme"): (
        {"Classe": "Enchantement", "Temps": "1 mois ou plus"},
        "Ce sort permet",
    ),
    ("Élémentaire - Eau", "Verglas"): (
        {"Classe": "Zone", "Durée": "jusqu’à ce qu’il fonde naturellement."},
        "Couvre le sol",
    ),
    ("Élémentaire - Feu", "Pyrotechnie"): (
        {"Durée": "de quelques seconde à quelques minutes selon l’effet choisi."},
        "Utilise une source de feu",
    ),
    ("Mouvement", "Allure rapide"): ({"Durée": "1 journée de marche"}, "Augmente la faculté"),
    ("Contrôle physique", "Spasme"): ({"Résistance": "San"}, "À diriger contre"),
    ("Acoustique", "Blast sonore"): ({}, "L’initiateur produit un son"),
    ("Élémentaire - Air", "Conjuration du climat"): (
        {
            "Classe": "Zone",
            "Durée": (
                "comme un phénomène climatique normal (décision du MJ). Ne peut être maintenu."
            ),
            "Temps": "10 minutes ou plus, selon le phénomène conjuré",
            "Zone": "1 km",
        },
        "Permet de déclencher",
    ),
}


@pytest.mark.parametrize(("where", "expected"), TRICKY.items(), ids=lambda x: str(x))
def test_tricky_entries(
    seed: ParseResult, where: tuple[str, str], expected: tuple[dict[str, str], str | None]
) -> None:
    fields, description_start = expected
    s = spell(seed, *where)
    assert s.fields == fields
    if description_start is not None:
        assert s.description.startswith(description_start), s.description[:80]


SENTENCE_START = re.compile(r"[.!?»] +[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ’']")


def test_split_rule_on_every_entry(seed: ParseResult) -> None:
    """Property over all 403 entries with fields: values are short, and the value cut by the
    split rule (the last field) never runs into a new sentence unless flagged uncertain."""
    uncertain = {(c, n) for (c, n, _) in EXPECTED_UNCERTAIN}
    for s in seed.entries:
        for value in s.fields.values():
            assert 0 < len(value) <= 90, (s.name, value)
            assert value == value.strip() and "  " not in value
        if not s.fields:
            continue
        last = list(s.fields.values())[-1]
        if (s.group, s.name) not in uncertain:
            assert SENTENCE_START.search(last) is None, (s.name, last)
            assert len(last.split()) <= 6, (s.name, last)
        # The description never starts with a lowercase word: that would mean a value cut short.
        if s.description:
            first = s.description[0]
            assert not first.islower(), (s.name, s.description[:60])


def test_names_repeat_across_colleges_only(seed: ParseResult) -> None:
    names = Counter(s.name for s in seed.entries)
    assert sum(1 for n in names.values() if n > 1) == 55
    for college in seed.groups:
        assert len({s.name for s in college.entries}) == len(college.entries)
        assert len({s.slug for s in college.entries}) == len(college.entries)


def test_records_and_urls(seed: ParseResult) -> None:
    records = entry_records(seed, "magie")
    assert len(records) == 422
    urls = [r["url"] for r in records]
    assert len(set(urls)) == 422
    for r in records:
        assert r["url"] == f"magie/{r['group_slug']}/#{r['slug']}"
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", str(r["slug"]))
        assert set(r) == ENTRY_RECORD_KEYS
    blast = next(r for r in records if r["name"] == "Blast sonore")
    assert blast["url"] == "magie/acoustique/#blast-sonore"
    json.dumps(records, ensure_ascii=False)


def test_inline_markdown_is_kept(seed: ParseResult) -> None:
    blast = spell(seed, "Acoustique", "Blast sonore")
    assert "[dégâts×10]" in blast.description
    absorb = spell(seed, "Pouvoirs divers", "Absorption de douleur")
    assert "ΔMR" in absorb.description
    alteration = spell(seed, "Acoustique", "Altération de la voix")
    assert "_Perception_" in alteration.description
    agrandissement = spell(seed, "Contrôle physique", "Agrandissement")
    assert "**Niv I :** taille et PdV +20%" in agrandissement.description


def test_bullets_become_list_lines(seed: ParseResult) -> None:
    climat = spell(seed, "Élémentaire - Air", "Contrôle du climat")
    lines = climat.description.split("\n")
    assert lines[0].endswith("le climat est décrit par 3 composantes :")
    assert lines[1] == ""
    assert lines[2].startswith("- Précipitations / couverture nuageuse : Temps clair")
    assert lines[3].startswith("- Température : Canicule")
    assert lines[4].startswith("- Vent : Calme plat")
    assert "•" not in climat.description
    dome = spell(seed, "Protection & Alarme", "Dôme de protection")
    assert [line[:12] for line in dome.description.split("\n") if line.startswith("- ")] == [
        "- Niveau I :",
        "- Niveau II ",
        "- Niveau III",
        "- Niveau IV ",
    ]


def test_no_word_is_lost(seed: ParseResult) -> None:
    """Every word of every entry is in its name, level, field keys/values or description."""
    text = seed_text()

    def words(s: str) -> Counter[str]:
        return Counter(re.findall(r"[^\W_]+", s))

    produced: Counter[str] = Counter()
    for college in seed.groups:
        produced += words(college.name) + words(college.description)
        produced += words("Description du collège")
        for s in college.entries:
            produced += words(s.name) + words(s.description)
            for k, v in s.fields.items():
                produced += words(k) + words(v)
    source = words(text)
    # Level numerals and the preamble/end marker are structure, not spell text.
    source -= words("Magie Généré le 22 10 2026 à 19 24 Fin du fichier")
    for numeral in ("I", "II", "III", "IV", "V"):
        source[numeral] = produced[numeral] = 0
    assert +source == +produced


def test_the_built_site_publishes_every_spell_once(site_dir: Path) -> None:
    records = json.loads((site_dir / "data" / "bases" / "magie.json").read_text(encoding="utf-8"))
    assert len(records) == 422
    assert len({r["url"] for r in records}) == 422
    assert all(str(r["url"]).startswith("magie/") for r in records)
    rows = (site_dir / "magie" / "tous-les-sorts" / "index.html").read_text(encoding="utf-8")
    assert rows.count("<tr data-group=") == 422
