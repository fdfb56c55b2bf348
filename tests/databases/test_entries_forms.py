"""The collapsed export and its line-broken form parse to the same records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synth import seed_text

from regles.features.databases.export import parse_export, restore_line_breaks
from regles.features.databases.model import Group, ParseResult
from regles.features.databases.pages import entry_records


@pytest.fixture(scope="module")
def collapsed() -> str:
    return seed_text()


@pytest.fixture(scope="module")
def line_broken(collapsed: str) -> str:
    return restore_line_breaks(collapsed)


def groups_view(result: ParseResult) -> list[tuple[str, str, str, list[str]]]:
    return [group_view(c) for c in result.groups]


def group_view(c: Group) -> tuple[str, str, str, list[str]]:
    return (c.name, c.slug, c.description, [s.slug for s in c.entries])


def test_seed_is_collapsed(collapsed: str) -> None:
    assert "\n" not in collapsed.strip()


def test_line_broken_form_shape(line_broken: str) -> None:
    lines = line_broken.split("\n")
    assert lines[:7] == [
        "# Magie d’essai",
        "",
        "_Généré le 22/10/2026 à 19:24_",
        "",
        "---",
        "",
        "## Acoustique",
    ]
    # Counted in the seed's text: " ## ", " ### ", " - **Clé :**" and "•".
    assert sum(1 for line in lines if line.startswith("## ")) == 5
    assert sum(1 for line in lines if line.startswith("### ")) == 79
    assert sum(1 for line in lines if line.startswith("- **")) == 140
    assert sum(1 for line in lines if line.startswith("•")) == 6
    assert lines[-4:] == ["---", "", "Fin du fichier", ""]
    assert line_broken.endswith("Fin du fichier\n")
    # An entry with fields: heading, blank, fields one per line, blank, description.
    start = lines.index("### Altération de la voix (I-II)")
    assert lines[start : start + 6] == [
        "### Altération de la voix (I-II)",
        "",
        "- **Durée :** 1 minute",
        "- **Résistance :** San",
        "",
        lines[start + 5],
    ]
    assert lines[start + 5].startswith("Altère la voix du sujet.")


def test_only_whitespace_changes(collapsed: str, line_broken: str) -> None:
    assert re.sub(r"\s+", " ", line_broken).strip() == re.sub(r"\s+", " ", collapsed).strip()


def test_restore_is_idempotent(line_broken: str) -> None:
    assert restore_line_breaks(line_broken) == line_broken


def test_both_forms_give_identical_records(collapsed: str, line_broken: str) -> None:
    a, b = parse_export(collapsed), parse_export(line_broken)
    assert len(b.entries) == 79
    assert entry_records(a, "magie") == entry_records(b, "magie")
    assert groups_view(a) == groups_view(b)
    assert (a.title, a.generated) == (b.title, b.generated)
    assert [(s.level_min, s.level_max) for s in a.entries] == [
        (s.level_min, s.level_max) for s in b.entries
    ]


def test_line_breaks_are_certain_markers(collapsed: str, line_broken: str) -> None:
    # The five heuristic splits of the collapsed form are certain once line breaks are back.
    assert len(parse_export(collapsed).warnings) == 2  # Verglas, Parchemin
    assert parse_export(line_broken).problems == []


def test_positions_follow_the_form(collapsed: str, line_broken: str) -> None:
    a, b = parse_export(collapsed), parse_export(line_broken)
    sa, sb = a.entries[2], b.entries[2]
    assert sa.name == sb.name == "Blast sonore"
    assert sa.position.line == 1
    assert collapsed[sa.position.offset :].startswith("### Blast sonore")
    assert sa.position.column == sa.position.offset + 1
    assert line_broken[sb.position.offset :].startswith("### Blast sonore")
    line_start = line_broken.rfind("\n", 0, sb.position.offset) + 1
    assert sb.position.line == line_broken.count("\n", 0, sb.position.offset) + 1
    assert sb.position.column == sb.position.offset - line_start + 1 == 1


def test_crlf_and_trailing_newline(collapsed: str) -> None:
    reference = entry_records(parse_export(collapsed), "magie")
    assert entry_records(parse_export(collapsed + "\n"), "magie") == reference
    windows = restore_line_breaks(collapsed).replace("\n", "\r\n")
    assert entry_records(parse_export(windows), "magie") == reference


# -- property: generated entries round-trip through both forms ------------------------

VALUES = {
    "Durée": ["1 minute", "10 minutes", "1 heure", "une journée", "à volonté", "Permanent"],
    "Temps": ["long", "Long", "10 minutes", "une journée", "2 semaines ou plus"],
    "Résistance": ["San", "Vol", "Vol-3", "HT", "Sort sujet", "Pouvoir de l’objet"],
    "Classe": ["Zone", "Info", "Blocage", "Projectile", "Enchantement"],
    "Zone": ["1 m", "3 m", "10 km", "100 m (×0,5 en climat désertique)"],
}
DESCRIPTIONS = [
    "Permet à l’initiateur de voir.",
    "Le sujet devient flou. Il peut courir.",
    "L’initiateur produit un son.",
    "6 PdV sont restaurés temporairement.",
    "_Sort_ amélioré : voir _Armure_.",
    "**Niveau I :** crée une image. **Niveau II :** affecte l’ouïe.",
    "À diriger contre l’un des muscles.",
    "Crée 3 ou 7 images • au niveau I, une • au niveau II, deux.",
    "[dégâts×10] secondes de surdité.",
]


def field_values(keys: list[str]) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    return st.tuples(*(st.sampled_from([(k, v) for v in VALUES[k]]) for k in keys))


entries = st.lists(
    st.tuples(
        st.lists(st.sampled_from(sorted(VALUES)), unique=True, max_size=4).flatmap(field_values),
        st.sampled_from(DESCRIPTIONS),
        st.sampled_from(["I", "II", "I-IV", "III–V"]),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries)
def test_generated_entries_round_trip(
    generated: list[tuple[tuple[tuple[str, str], ...], str, str]],
) -> None:
    parts = [
        "# Magie _Généré le 01/01/2027 à 10:00_ --- ## Essai **Description du collège :** Test."
    ]
    for i, (fields, description, level) in enumerate(generated):
        field_text = " ".join(f"- **{k} :** {v}" for k, v in fields)
        parts.append(f"### Sort {i} ({level}) {field_text} {description}".replace("  ", " "))
    text = " ".join(parts) + " --- Fin du fichier"
    for form in (text, restore_line_breaks(text)):
        result = parse_export(form)
        assert result.errors == []
        assert len(result.entries) == len(generated)
        flagged = {p.subject for p in result.warnings}
        for s, (fields, description, _) in zip(result.entries, generated, strict=True):
            if s.name in flagged:
                continue
            assert s.fields == dict(fields)
            assert s.description.replace("\n\n- ", " • ").replace("\n- ", " • ") == description


def test_the_readme_s_example_export_parses_as_the_readme_says() -> None:
    # README.md, « Format de l’export »: its example, and the same on one line, give one
    # college, two spells and no problem.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```markdown\n(# Magie\n.*?Fin du fichier\n)```", readme, re.DOTALL)
    assert found, "l’exemple d’export du README a disparu"
    example = found.group(1)
    one_line = re.sub(r"\s+", " ", example).strip() + "\n"
    for text in (example, one_line):
        result = parse_export(text)
        assert result.problems == []
        assert [c.name for c in result.groups] == ["Feu"]
        fire, wall = result.entries
        assert (fire.name, fire.fields) == (
            "Boule de feu",
            {"Durée": "instantané", "Résistance": "Dex"},
        )
        assert fire.description.startswith("Une boule de feu jaillit")
        assert (wall.name, wall.fields) == ("Mur de feu", {"Zone": "10 m"})
