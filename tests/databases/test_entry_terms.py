"""What an export is made of (regles/features/databases/terms.py): its fields, labels, levels and
abbreviations, found in the export alone, and the header its pages show; the export's
missing title or date and an owner's term found nowhere, reported."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from synth import SEED, seed_text

from regles.core.cache import kept_object
from regles.core.report import Kind
from regles.core.words import Noun
from regles.features.databases import terms as entry_terms
from regles.features.databases.book import DatabaseSettings, read_book
from regles.features.databases.export import parse_export
from regles.features.databases.model import ParseResult

SMALL = (
    "# Grimoire _Généré le 01/02/2027 à 08:00_ --- "
    "## Feu **Description du collège :** Sorts de feu ; la MR compte. "
    "### Flamme (I-III) - **Classe :** Zone - **Résistance :** Vol-2 "
    "Coûte 2 PdM par niveau de puissance ; la cible perd des PdV (points de vie). "
    "Un jet de Dex contre le sort, ou de Dex-2 au niveau de puissance III. "
    "### Braise (II) - **Résistance :** San "
    "Coûte 1 PdM, au niveau de puissance II. _Coût_ : 1 PdM. Un jet de Dex évite tout. "
    "### Étincelle (I) - **Classe :** Info Un éclat ; le MJ décide. "
    "--- Fin du fichier"
)


@pytest.fixture(scope="module")
def small() -> entry_terms.ExportTerms:
    result = parse_export(SMALL)
    assert result.problems == [], [str(p) for p in result.problems]
    return entry_terms.read_terms(result, {"MR": "marge de réussite (définition du site)"})


def by_name(terms: list[entry_terms.Term]) -> dict[str, entry_terms.Term]:
    return {t.name: t for t in terms}


def test_fields_with_their_entries_and_values(small: entry_terms.ExportTerms) -> None:
    fields = by_name(small.fields)
    assert list(fields) == ["Classe", "Résistance"]
    assert [s.name for s in fields["Classe"].entries] == ["Flamme", "Étincelle"]
    assert fields["Classe"].values == Counter({"Zone": 1, "Info": 1})
    assert fields["Résistance"].values == Counter({"Vol-2": 1, "San": 1})
    assert all(t.definition is None and t.configured is None for t in small.fields)


def test_labels_of_the_descriptions(small: entry_terms.ExportTerms) -> None:
    assert [(t.name, t.occurrences) for t in small.labels] == [("Coût", 1)]


def test_abbreviations_found_and_counted(small: entry_terms.ExportTerms) -> None:
    found = by_name(small.abbreviations)
    # Two capitals (PdM, PdV, MR, MJ); joined by a sign in a field (Vol-2), with that field's
    # other capitalised word (San); short, never in lowercase, inside sentences (Dex).
    assert set(found) == {"PdM", "PdV", "MR", "MJ", "Vol", "San", "Dex"}
    assert (found["PdM"].occurrences, [s.name for s in found["PdM"].entries]) == (
        3,
        ["Flamme", "Braise"],
    )
    assert found["Dex"].occurrences == 3
    # The college's description counts, with no spell.
    assert (found["MR"].occurrences, found["MR"].entries) == (1, [])
    # Roman numerals are levels, not abbreviations; the spell names' words are not counted.
    assert not {"III", "II", "I-III"} & set(found)


def test_definitions_only_from_the_export_or_the_owner(small: entry_terms.ExportTerms) -> None:
    found = by_name(small.abbreviations)
    assert found["PdV"].definition == "points de vie"
    assert found["PdV"].defined_in is not None and found["PdV"].defined_in.name == "Flamme"
    assert (found["MR"].definition, found["MR"].configured) == (
        None,
        "marge de réussite (définition du site)",
    )
    for name in ("PdM", "Dex", "Vol", "San", "MJ"):
        assert (found[name].definition, found[name].configured) == (None, None), name


def test_levels_and_their_phrase(small: entry_terms.ExportTerms) -> None:
    assert small.levels == Counter({1: 2, 2: 2, 3: 1})
    assert small.single_level == 2
    # « niveau de puissance » three times, under the five that make it the levels' name.
    assert small.level_phrase is None
    assert entry_terms.level_label(small) == "Niveaux"


def test_the_page_lists_each_word_and_what_it_lacks(small: entry_terms.ExportTerms) -> None:
    page = entry_terms.render_fields_page(small, "Champs", "Tous les sorts", "tous.md")
    assert page.startswith("# Champs\n")
    for term in small.all_terms:
        assert re.search(rf"^### {re.escape(term.name)} \{{ #{term.anchor} \}}$", page, re.M)
    # The levels, and every word but PdV (the export defines it) and MR (the owner does).
    assert page.count('<span class="non-defini">') == 1 + len(small.all_terms) - 2
    assert "Définition écrite dans l’export ([Flamme](feu.md#flamme)) : « points de vie »." in page
    assert "Définition donnée par le site" in page and "marge de réussite" in page
    assert "**Grimoire**, généré le 01/02/2027 à 08:00 : 1 collège, 3 sorts" in page
    assert "Niveaux présents : I à III" in page


def test_the_seed_export(tmp_path: Path) -> None:
    """The test site's export: its figures, computed from its text."""
    text = seed_text()
    result: ParseResult = parse_export(text)
    terms = entry_terms.read_terms(result, {})
    keys = Counter(re.findall(r"- \*\*([^*]+?) :\*\*", text))
    assert {t.name: len(t.entries) for t in terms.fields} == dict(keys)
    # PdM as a word of the texts: everywhere but in spell headings.
    headings = " ".join(s.name for s in result.entries)
    word = r"(?<![^\W_])PdM(?![^\W_])"
    expected = len(re.findall(word, text)) - len(re.findall(word, headings))
    assert by_name(terms.abbreviations)["PdM"].occurrences == expected > 0
    assert terms.level_phrase is not None and terms.level_phrase[0] == "niveau de puissance"
    assert entry_terms.level_label(terms) == "Niveaux de puissance"


def settings_of(export: Path, **options: object) -> DatabaseSettings:
    return DatabaseSettings(export, export.name, "sorts", "Sorts", "Index des sorts", **options)  # type: ignore[arg-type]


def test_a_missing_date_and_title_are_reported(tmp_path: Path) -> None:
    export = tmp_path / "export.txt"
    without = re.sub(r"^# [^_]*_Généré le [^_]*_", "", SEED.read_text("utf-8"), count=1)
    assert "Généré" not in without.split("##", 1)[0]
    export.write_text(without, "utf-8")
    book, problems = read_book(settings_of(export))
    assert book is not None
    header = [p for p in problems if p.kind is Kind.EXPORT_HEADER]
    assert {p.severity for p in header} == {"warning"}
    assert any("export sans date de génération" in p.message for p in header)
    assert any("export sans titre" in p.message for p in header)
    index, fields, *groups = (text for _, text in book.pages())
    for page in (index, fields, groups[0]):
        assert "ate de génération absente de l’export" in page
    assert "Export sans titre" in index


def test_the_date_read_gives_no_header_problem(tmp_path: Path) -> None:
    _, problems = read_book(settings_of(SEED))
    assert [p for p in problems if p.kind is Kind.EXPORT_HEADER] == []


def test_a_term_configured_for_nothing_is_reported(tmp_path: Path) -> None:
    book, problems = read_book(settings_of(SEED, terms={"PdM": "points de magie", "XYZ": "rien"}))
    assert book is not None
    unknown = [p for p in problems if p.kind is Kind.UNKNOWN_TERM]
    assert [(p.subject, p.file) for p in unknown] == [("XYZ", "mkdocs.yml")]
    # The setting as the site writes it, in the database's own words: never another's.
    assert "(terms de la base « sorts »)" in unknown[0].message
    assert not [p for p in problems if p.kind is Kind.EXPORT_HEADER]
    fields_page = dict(book.pages())["sorts/champs-et-abreviations.md"]
    assert "« points de magie »" in fields_page and "rien" not in fields_page


def test_each_databases_book_stays_in_the_build_cache(tmp_path: Path) -> None:
    # Three databases in one cache: each warm build reads all three from it (keeping one
    # book once removed the other databases' books, so they were read again every build).
    cache = tmp_path / "cache"
    folders = ("magie", "magie-noire", "prieres")
    settings = [
        DatabaseSettings(SEED, SEED.name, folder, folder.title(), "Index") for folder in folders
    ]
    for each in settings:
        read_book(each, cache)
    assert len(list(cache.glob("livre-*.pickle"))) == 3
    for each in settings:
        entry = next(cache.glob(f"livre-{each.folder}.*.pickle"))
        kept = kept_object(entry)
        assert kept is not None and kept.settings == each
        book, _ = read_book(each, cache)
        assert book is not None and book.settings == each
    assert len(list(cache.glob("livre-*.pickle"))) == 3


def test_a_field_s_values_read_their_numbers_as_numbers() -> None:
    # Found adopting the generator for a bestiary: « 14 ; 20 ; 32 ; 40 ; 5 ; 8 » hit points.
    creatures = " ".join(
        f"### Bête {name} (I) - **Points de vie :** {life} Une bête."
        for name, life in (("A", "14"), ("B", "20"), ("C", "5"), ("D", "8"), ("E", "8"))
    )
    header = "# Bestiaire _Généré le 01/02/2027 à 08:00_ --- ## Bêtes"
    header += " **Description du collège :** Des bêtes."
    result = parse_export(f"{header} {creatures} --- Fin du fichier")
    assert result.errors == [], [str(p) for p in result.errors]
    page = entry_terms.render_fields_page(
        entry_terms.read_terms(result, {}), "Champs", "Tous", "tous.md"
    )
    assert "Valeurs : 8 (2) ; 5 (1) ; 14 (1) ; 20 (1)." in page


def test_an_abbreviation_met_only_in_a_fields_name_is_one() -> None:
    # A bestiary whose sanity loss is a field: « SAN » is all the reader meets of it, and
    # the owner's definition of it is shown, not reported as found nowhere.
    export = (
        "# Bestiaire _Généré le 01/02/2027 à 08:00_\n---\n"
        "## Catacombes\n**Description de la famille :** Ce qui rôde sous Paris.\n"
        "### Goule (I)\n- **Perte de SAN :** 1d6\n\nElle ronge les os.\n"
        "### Rat des ossuaires (I)\n- **Perte de SAN :** 1\n\nIl grouille.\n"
        "---\nFin du fichier\n"
    )
    family = Noun("famille", "familles", "f")
    result = parse_export(export, group=family, entry=Noun("créature", "créatures", "f"))
    assert result.problems == [], [str(p) for p in result.problems]
    found = entry_terms.read_terms(result, {"SAN": "santé mentale"})
    assert found.unused_terms == []
    san = by_name(found.abbreviations)["SAN"]
    assert san.configured == "santé mentale"
    assert [s.name for s in san.entries] == ["Goule", "Rat des ossuaires"]
