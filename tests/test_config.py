"""The `regles` plugin's settings (mkdocs.yml), checked without a build: what a site declares
of its own, and what a mistake in it gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import BuildError, Settings, SiteBuild
from generator.plugin import ReglesPlugin
from generator.report import Kind
from generator.slugs import slugify
from generator.systems import Systems


def load(options: dict[str, object], folder: Path) -> tuple[ReglesPlugin, list[str], list[str]]:
    plugin = ReglesPlugin()
    errors, warnings = plugin.load_config(options, str(folder / "mkdocs.yml"))
    return plugin, [f"{k}: {e}" for k, e in errors], [f"{k}: {w}" for k, w in warnings]


def test_a_site_without_systems_nor_spells_is_valid(tmp_path: Path) -> None:
    plugin, errors, warnings = load({}, tmp_path)
    assert (errors, warnings) == ([], [])
    assert plugin.config.systems == {} and plugin.config.spells is None
    # Paths are resolved by MkDocs from the folder of mkdocs.yml.
    assert plugin.config.cache_dir == str(tmp_path / "build" / "cache")
    assert plugin.config.report_file == str(tmp_path / "build" / "rapport-construction.json")
    assert plugin.config.node_modules == str(tmp_path / "node_modules")


def test_systems_and_spells_are_read_as_declared(tmp_path: Path) -> None:
    options = {
        "systems": {"jeu/": "Jeu d’essai", "jeu/variantes": "Variantes"},
        "spells": {"export": "sorts.txt", "folder": "/sorts/", "section": "Sorts"},
    }
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    assert plugin.config.systems == {"jeu": "Jeu d’essai", "jeu/variantes": "Variantes"}
    spells = plugin.config.spells
    assert spells is not None
    assert (spells.export, spells.folder, spells.section) == (
        str(tmp_path / "sorts.txt"),
        "sorts",
        "Sorts",
    )
    assert spells.index_title == "Tous les sorts"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"systems": {"../ailleurs": "X"}}, "Expected a folder of the docs"),
        ({"systems": {"jeu": " "}}, "Expected a name for the system 'jeu'"),
        ({"systems": ["jeu"]}, "Expected a dict of items"),
        ({"spells": {"export": "sorts.txt", "section": "Sorts"}}, "folder"),
        ({"spells": {"export": "sorts.txt", "folder": "..", "section": "S"}}, "folder"),
        ({"spells": {"folder": "sorts", "section": "Sorts"}}, "export"),
    ],
)
def test_a_mistake_in_the_settings_names_its_option(
    tmp_path: Path, options: dict[str, object], words: str
) -> None:
    _, errors, _ = load(options, tmp_path)
    assert len(errors) == 1 and words in errors[0], errors


def test_a_page_outside_every_system_is_named() -> None:
    systems = Systems({"jeu": "Jeu", "jeu/variantes": "Variantes"}, "sorts")
    pages = ["index.md", "jeu/combat.md", "jeu/variantes/a.md", "sorts/feu.md", "autre/page.md"]
    problems = systems.check(pages)
    assert [(p.file, p.kind, p.severity, p.subject) for p in problems] == [
        ("autre/page.md", Kind.PAGE_OUTSIDE_SYSTEMS, "warning", "autre")
    ]
    assert "« autre » n’est pas déclaré sous « systems »" in problems[0].message
    assert systems.name_of("jeu/variantes/a.md") == "Variantes"  # the deepest folder
    assert systems.name_of("jeu/combat.md") == "Jeu" and systems.name_of("index.md") is None


def test_one_slug_for_headings_spells_and_pages() -> None:
    # Signs NFKD keeps as they are read as letters; apostrophes separate words.
    assert slugify("Straße ×2") == "strasse-x2"
    assert slugify("Anihiler l’air") == "anihiler-l-air"
    assert slugify("Élémentaire - Air") == "elementaire-air"
    assert slugify("Nœud magique") == "noeud-magique"


def test_an_unknown_rules_package_stops_the_build_naming_the_option(tmp_path: Path) -> None:
    settings = Settings(tmp_path, "mkdocs.yml", "Site", "", calculators="regles_introuvables")
    with pytest.raises(BuildError, match="option calculators du greffon regles"):
        SiteBuild(settings)
