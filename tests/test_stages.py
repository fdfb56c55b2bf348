"""The stages of a build (core/stages.py): each feature registers what it does once, and the
build runs what is registered in the order the priorities give, knowing no feature by name."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from regles.core.build import SiteBuild
from regles.core.stages import FileChanges, SiteFile, Stages
from regles.features.databases.book import DatabaseSettings
from tests.conftest import ROOT, new_build

ENTRIES = ROOT / "tests" / "site" / "sorts.txt"


def full_build(tmp_path: Path) -> SiteBuild:
    """A build with a spell database and a glossary: every feature registers."""
    entries = DatabaseSettings(ENTRIES, "sorts.txt", "sorts", "Sorts", "Index des sorts")
    return new_build(
        tmp_path,
        systems={"jeu": "Jeu"},
        databases=(entries,),
        glossaries={"jeu": "jeu/glossaire.md"},
    )


def test_the_html_passes_run_in_the_order_the_page_needs(tmp_path: Path) -> None:
    build = full_build(tmp_path)
    names = [
        "entry_index_table",  # the index's table, HTML already, is the page's first
        "wrapped_tables",
        "directions",
        "french_spacing",  # before what reads the text as the site writes it
        "paper",
        "glossary_entries",
        "search_index",
    ]
    html = build.stages.html
    assert [html.get_index_for_name(name) for name in names] == list(range(len(names)))


def test_the_offline_copy_is_written_after_every_other_file(tmp_path: Path) -> None:
    emitters = full_build(tmp_path).stages.emitters
    assert emitters.get_index_for_name("offline") == len(emitters) - 1
    # Just before: the pages at old addresses, which the offline copy lists too.
    assert emitters.get_index_for_name("redirects") == len(emitters) - 2
    # The databases' and the glossary's data, the search index, the calculators' runtime,
    # the icons, the redirects, the offline copy (the security policy is a documents pass).
    assert len(emitters) == 7


def test_each_directive_has_one_feature(tmp_path: Path) -> None:
    stages = full_build(tmp_path).stages
    assert set(stages.directives) == {"accueil", "calculateur", "calculateurs", "table", "note"}
    with pytest.raises(ValueError, match="« note » registered twice"):
        stages.directive("note", lambda directive, page: "")


def test_a_site_without_entries_nor_glossary_registers_none_of_theirs(tmp_path: Path) -> None:
    stages = new_build(tmp_path).stages
    assert "entry_index_table" not in stages.html and "glossary_entries" not in stages.html
    assert "database_data" not in stages.emitters and "glossary_data" not in stages.emitters


def test_files_passes_see_what_the_previous_ones_left(tmp_path: Path) -> None:
    build = new_build(tmp_path)
    build.stages = Stages()
    seen: list[list[str]] = []

    def bundle(files: Mapping[str, SiteFile]) -> FileChanges:
        seen.append(sorted(files))
        return FileChanges(removed={"a.css", "b.css"}, added={"site.css": "a{}b{}"})

    def hint(files: Mapping[str, SiteFile]) -> FileChanges:
        seen.append(sorted(files))
        return FileChanges(removed={"site.css"}, added={"site.css": "/* vu */a{}b{}"})

    build.stages.files.register(bundle, "bundle", 20)
    build.stages.files.register(hint, "hint", 10)
    files = {name: SiteFile.made(name, "x") for name in ("a.css", "b.css", "index.md")}
    changes = build.change_files(files)
    assert seen == [["a.css", "b.css", "index.md"], ["index.md", "site.css"]]
    assert changes.removed == {"a.css", "b.css"}  # site.css was never the site's own
    assert changes.added == {"site.css": "/* vu */a{}b{}"}
