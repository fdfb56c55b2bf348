"""Bad exports: each fault gives its French message at its position; nothing is dropped silently."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regles.core.report import Problem
from regles.core.slugs import slugify
from regles.core.words import Noun
from regles.features.databases.export import parse_export, restore_line_breaks
from regles.features.databases.model import ExportError, ParseResult, read_export, roman_to_int

PRE = "# Magie _Généré le 01/01/2027 à 10:00_ --- "
GROUP = "## Essai **Description du collège :** Un collège d’essai. "
END = " --- Fin du fichier"
GOOD = "### Bon (I) - **Durée :** 1 minute Texte correct."


def export(body: str) -> str:
    return PRE + GROUP + body + END


def position(text: str, needle: str) -> tuple[int, int]:
    """(line, column) of the first occurrence of ``needle``."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def only(result: ParseResult, severity: str = "error") -> Problem:
    found = [p for p in result.problems if p.severity == severity]
    assert len(found) == 1, [str(p) for p in result.problems]
    return found[0]


def assert_accounted(text: str, result: ParseResult) -> None:
    """Every `### ` heading is an Entry or a rejected entry (with an error)."""
    headings = len(re.findall(r"(?<!\S)### ", text))
    assert len(result.entries) + len(result.rejected) == headings
    if result.rejected:
        assert result.errors


# What the message says of an entry's level, after the heading it quotes.
LEVEL = (
    " ; son niveau suit son nom, en chiffres romains entre parenthèses : « (I) », ou « (I-III) »"
    " pour plusieurs"
)
# (id, body, message, spell named in the problem, text at the reported position)
ENTRY_ERRORS = [
    (
        "sans-niveau",
        f"### Sans niveau - **Durée :** 1 minute Texte. {GOOD}",
        "sort sans niveau : « ### Sans niveau »" + LEVEL,
        "Sans niveau",
        "### Sans niveau",
    ),
    (
        "sans-niveau-sans-champ",
        f"### Sans niveau Le sujet dort. {GOOD}",
        "sort sans niveau : « ### Sans niveau Le sujet dort. »" + LEVEL,
        "Sans niveau Le sujet dort.",
        "### Sans niveau",
    ),
    (
        "chiffre-inconnu",
        f"### Mauvais chiffre (IIX) Texte. {GOOD}",
        "niveau inconnu « IIX » (chiffre romain non reconnu)",
        "Mauvais chiffre",
        "(IIX)",
    ),
    (
        "chiffre-arabe",
        f"### Chiffre arabe (2) Texte. {GOOD}",
        "niveau inconnu « 2 » (chiffre romain non reconnu)",
        "Chiffre arabe",
        "(2)",
    ),
    (
        "min-sup-max",
        f"### À l’envers (V-III) Texte. {GOOD}",
        "niveau minimal V supérieur au niveau maximal III",
        "À l’envers",
        "(V-III)",
    ),
    (
        "nom-vide",
        f"### (II) Texte sans nom. {GOOD}",
        "nom de sort vide",
        None,
        "### (II)",
    ),
    (
        "champ-suivi-d-un-champ",
        f"### Vide (I) - **Durée :** - **Résistance :** San Texte. {GOOD}",
        "champ « Durée » sans valeur",
        "Vide",
        "- **Durée :**",
    ),
    (
        "champ-suivi-de-la-description",
        f"### Vide (I) - **Durée :** Le sujet dort. {GOOD}",
        "champ « Durée » sans valeur",
        "Vide",
        "- **Durée :**",
    ),
    (
        "champ-en-fin-d-entree",
        f"{GOOD} ### Vide (I) - **Durée :**",
        "champ « Durée » sans valeur",
        "Vide",
        "- **Durée :** -",
    ),
    (
        "champ-en-double",
        f"### Double (I) - **Durée :** 1 minute - **Durée :** 1 heure Texte. {GOOD}",
        "champ « Durée » en double",
        "Double",
        "- **Durée :** 1 heure",
    ),
    (
        "nom-en-double",
        f"{GOOD} ### Bon (II) Autre texte.",
        "sort en double dans le collège « Essai » : « Bon » (première occurrence {first})",
        "Bon",
        "### Bon (II)",
    ),
]


@pytest.mark.parametrize(
    ("body", "message", "entry", "at"),
    [case[1:] for case in ENTRY_ERRORS],
    ids=[case[0] for case in ENTRY_ERRORS],
)
def test_entry_errors(body: str, message: str, entry: str | None, at: str) -> None:
    text = export(body)
    result = parse_export(text, source="essai.md")
    problem = only(result)
    line, column = position(text, "### Bon (I)")
    assert problem.message == message.format(first=f"ligne {line}, colonne {column}")
    assert (problem.file, problem.context, problem.subject) == ("essai.md", "Essai", entry)
    # "champ-en-fin-d-entree" points at the second "- **Durée :**": search from its entry.
    search_from = text.index("### Vide") if at.startswith("- **Durée :** -") else 0
    at = at.removesuffix(" -")
    offset = text.index(at, search_from)
    assert (problem.line, problem.column) == (1, offset + 1)
    # The faulty entry is rejected, the good one kept.
    assert [s.name for s in result.entries] == ["Bon"]
    assert len(result.rejected) == 1
    assert_accounted(text, result)


def test_entry_error_in_line_broken_form() -> None:
    text = restore_line_breaks(
        export(f"### Vide (I) - **Durée :** - **Temps :** long Texte. {GOOD}")
    )
    result = parse_export(text)
    problem = only(result)
    assert problem.message == "champ « Durée » sans valeur"
    assert (problem.line, problem.column) == position(text, "- **Durée :**")
    assert problem.line > 1


def test_duplicate_name_line_broken_positions() -> None:
    text = restore_line_breaks(export(f"{GOOD} ### Bon (II) Autre."))
    problem = only(parse_export(text))
    first_line, first_column = position(text, "### Bon (I)")
    assert problem.message.endswith(
        f"(première occurrence ligne {first_line}, colonne {first_column})"
    )
    assert (problem.line, problem.column) == position(text, "### Bon (II)")


def test_empty_group_is_a_warning() -> None:
    text = PRE + "## Vide **Description du collège :** Rien ici. " + GROUP + GOOD + END
    result = parse_export(text)
    assert result.errors == []
    warning = only(result, "warning")
    assert warning.message == "collège « Vide » sans aucun sort"
    assert (warning.context, warning.subject) == ("Vide", None)
    assert (warning.line, warning.column) == position(text, "## Vide")
    assert [c.name for c in result.groups] == ["Vide", "Essai"]


def test_truncated_export() -> None:
    text = PRE + GROUP + GOOD
    result = parse_export(text)
    problem = only(result)
    assert problem.message == (
        "export tronqué : le marqueur de fin « --- Fin du fichier » est absent"
    )
    assert (problem.line, problem.column) == (1, len(text) + 1)
    # What was read is still there.
    assert [s.name for s in result.entries] == ["Bon"]
    assert result.entries[0].description == "Texte correct."


def test_text_before_first_group() -> None:
    text = PRE + "Texte égaré. " + GROUP + GOOD + END
    problem = only(parse_export(text))
    assert problem.message == "texte hors collège avant le premier collège"
    assert (problem.line, problem.column) == position(text, "Texte égaré")


def test_text_without_title() -> None:
    text = "Texte égaré. " + GROUP + GOOD + END
    problem = only(parse_export(text))
    assert problem.message == "texte hors collège avant le premier collège"
    assert (problem.line, problem.column) == (1, 1)


def test_text_after_end_marker() -> None:
    text = export(GOOD) + " Encore du texte."
    problem = only(parse_export(text))
    assert problem.message == "texte hors collège après « --- Fin du fichier »"
    assert (problem.line, problem.column) == position(text, "Encore")


def test_entry_before_first_group() -> None:
    text = PRE + "### Orphelin (I) Texte. " + GROUP + GOOD + END
    result = parse_export(text)
    problem = only(result)
    assert problem.message == "texte hors collège : sort avant le premier collège"
    assert (problem.context, problem.subject) == (None, "Orphelin")
    assert (problem.line, problem.column) == position(text, "### Orphelin")
    assert [s.name for s in result.entries] == ["Bon"]
    assert_accounted(text, result)


def test_duplicate_group() -> None:
    text = PRE + GROUP + GOOD + " " + GROUP + "### Autre (I) Texte." + END
    result = parse_export(text)
    problem = only(result)
    line, column = position(text, GROUP)
    assert problem.message == (
        f"collège en double « Essai » (première occurrence ligne {line}, colonne {column})"
    )
    # Both keep their spells, under distinct page slugs.
    assert [c.slug for c in result.groups] == ["essai", "essai-2"]


def test_group_named_like_a_reserved_page() -> None:
    text = PRE + "## Tous les sorts **Description du collège :** x. " + GOOD + END
    assert parse_export(text).groups[0].slug == "tous-les-sorts"
    reserved = parse_export(text, reserved_slugs={"tous-les-sorts"})
    assert reserved.groups[0].slug == "tous-les-sorts-2"


def test_same_slug_different_names() -> None:
    text = export(f"{GOOD} ### Bon ! (II) Autre.")
    result = parse_export(text)
    warning = only(result, "warning")
    assert warning.message == "ancre « bon » déjà prise dans le collège : « bon-2 » utilisée"
    assert [s.slug for s in result.entries] == ["bon", "bon-2"]


def test_many_faults_all_accounted() -> None:
    bodies = [body for _, body, *_ in ENTRY_ERRORS]
    text = (
        PRE
        + " ".join(f"## C{i} **Description du collège :** d. {b}" for i, b in enumerate(bodies))
        + END
    )
    result = parse_export(text)
    assert_accounted(text, result)
    assert len(result.rejected) == len(ENTRY_ERRORS)
    assert len(result.errors) == len(ENTRY_ERRORS)


def test_uncertain_split_warning() -> None:
    text = export("### Portée (I) - **Portée :** 10 mètres Le sujet vole.")
    result = parse_export(text)
    warning = only(result, "warning")
    assert warning.message == (
        "découpage incertain entre la valeur du champ Portée et la description "
        "(valeur retenue : « 10 mètres »)"
    )
    assert (warning.line, warning.column) == position(text, "10 mètres")
    assert result.entries[0].fields == {"Portée": "10 mètres"}
    assert result.entries[0].description == "Le sujet vole."
    # A new key is kept, in order, and certain when a line break or a marker ends it.
    text = export("### Portée (I) - **Portée :** 10 mètres - **Durée :** 1 minute Le sujet vole.")
    result = parse_export(text)
    assert result.problems == []
    assert list(result.entries[0].fields.items()) == [
        ("Portée", "10 mètres"),
        ("Durée", "1 minute"),
    ]


def test_ambiguous_vocabulary_is_flagged() -> None:
    # "Info" and "Info Zone" are both class values, each followed by a capital: ambiguous.
    result = parse_export(export("### Flou (I) - **Classe :** Info Zone Crée un silence."))
    warning = only(result, "warning")
    assert "champ Classe" in warning.message
    assert result.entries[0].fields == {"Classe": "Info Zone"}
    # "Zone de…" continues in lowercase: only "Info" ends before a sentence, no doubt.
    result = parse_export(export("### Flou (I) - **Classe :** Info Zone de silence autour."))
    assert result.problems == []
    assert result.entries[0].fields == {"Classe": "Info"}
    assert result.entries[0].description == "Zone de silence autour."


def test_en_dash_levels_and_wide_numerals() -> None:
    result = parse_export(export("### Large (I–X) Texte. ### Haut (VIII-IX) Texte."))
    assert result.problems == []
    assert [(s.level_min, s.level_max) for s in result.entries] == [(1, 10), (8, 9)]


def test_roman_numerals() -> None:
    numerals = ("I", "IV", "IX", "X", "XIV", "XXXIX")
    assert [roman_to_int(x) for x in numerals] == [1, 4, 9, 10, 14, 39]
    assert [roman_to_int(x) for x in ("IIX", "IIII", "VV", "", "i")] == [None] * 5


def test_slugify() -> None:
    assert slugify("Blast sonore") == "blast-sonore"
    assert slugify("Écouter à travers les murs") == "ecouter-a-travers-les-murs"
    assert slugify("Nœud magique") == "noeud-magique"
    assert slugify("Anihiler l’air") == "anihiler-l-air"
    assert slugify("Élémentaire - Air") == "elementaire-air"
    assert slugify("Communication & Empathie") == "communication-empathie"


def test_read_export_rejects_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "magie.md"
    path.write_bytes("# Magie ## Acoustique é".encode() + b"\xff\xfe suite")
    with pytest.raises(ExportError) as caught:
        read_export(path)
    assert caught.value.offset == len("# Magie ## Acoustique é".encode())
    assert str(path) in str(caught.value)
    assert "octet invalide à la position 24" in str(caught.value)


def test_read_export_latin1_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes("# Magie ## Élémentaire".encode("latin-1"))
    with pytest.raises(ExportError) as caught:
        read_export(path)
    assert caught.value.offset == 11
    assert caught.value.path == str(path)


def test_read_export_strips_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes(b"\xef\xbb\xbf" + export(GOOD).encode())
    text = read_export(path)
    assert text == export(GOOD)
    assert parse_export(text).problems == []


# An export whose entries have no levels (a bestiary of a game without them).
def test_an_export_without_levels_ends_each_name_at_its_line_or_its_first_field() -> None:
    collapsed = export(
        "### Loup gris - **Taille :** moyenne Un loup. "
        "### Feu follet (lueur) - **Taille :** minuscule Une lueur."
    )
    broken = restore_line_breaks(collapsed)
    assert "\n### Loup gris\n\n- **Taille :** moyenne\n\nUn loup." in broken
    for text in (collapsed, broken):
        result = parse_export(text)
        # (On one line, where « moyenne » ends is a guess: a warning, as for any export.)
        assert result.errors == [] and not result.has_levels
        assert [(e.name, e.level_min, e.level_max) for e in result.entries] == [
            ("Loup gris", None, None),
            ("Feu follet (lueur)", None, None),  # words between brackets, not levels
        ]
        assert [e.fields for e in result.entries] == [
            {"Taille": "moyenne"},
            {"Taille": "minuscule"},
        ]
        assert [e.description for e in result.entries] == ["Un loup.", "Une lueur."]
    # On its own line, an entry needs no field.
    result = parse_export(export("### Loup gris\nUn loup.\n").replace(END, "\n" + END.strip()))
    assert result.problems == [] and result.entries[0].name == "Loup gris"


def test_without_levels_a_one_line_entry_without_a_field_has_no_end_to_its_name() -> None:
    text = export("### Loup gris Un loup qui hurle à la lune, toutes les nuits de l’hiver, seul.")
    result = parse_export(text)
    problem = only(result)
    assert problem.message.startswith("fin du nom de sort introuvable : « ### Loup gris Un loup")
    assert "le nom s’arrête à la fin de sa ligne ou au premier champ" in problem.message
    assert_accounted(text, result)


def test_an_export_that_gives_levels_needs_them_on_every_entry() -> None:
    text = export(GOOD + " ### Loup gris - **Durée :** 1 minute Un loup.")
    result = parse_export(text)
    assert result.has_levels and [e.name for e in result.entries] == ["Bon"]
    assert only(result).message.startswith("sort sans niveau : « ### Loup gris »")
    assert_accounted(text, result)


def test_in_an_export_mostly_without_levels_the_entry_with_one_is_the_wrong_one() -> None:
    # One creature of three given a level by mistake: it is the one named, not the others.
    creature = Noun("créature", "créatures", "f")
    text = export(
        "### Loup gris - **Taille :** moyenne Un loup. "
        "### Ours (II) - **Taille :** grande Un ours. "
        "### Feu follet - **Taille :** minuscule Une lueur."
    )
    result = parse_export(text, entry=creature)
    assert [e.name for e in result.entries] == ["Loup gris", "Feu follet"]
    assert not result.has_levels
    assert only(result).message == (
        "créature avec un niveau, « (II) », dans un export dont les autres créatures n’en ont "
        "pas : ôtez-le, ou donnez un niveau à chacune : « ### Ours (II) »"
    )
    assert_accounted(text, result)


def test_without_levels_a_name_that_reads_as_a_sentence_is_a_warning() -> None:
    # Its description written on the heading's line (the adoption of « Astres froids »).
    text = export("### Albatros\nUn cargo.\n### Sonde Moineau Une sonde automatique.\n").replace(
        END, "\n" + END.strip()
    )
    result = parse_export(text)
    assert [e.name for e in result.entries] == ["Albatros", "Sonde Moineau Une sonde automatique."]
    warning = only(result, "warning")
    assert warning.message.startswith(
        "nom de sort qui se lit comme une phrase : « ### Sonde Moineau Une sonde automatique. »"
    )
