"""A 10× synthetic export (230 colleges, 4,220 spells) parses completely: counts only."""

from __future__ import annotations

import re

from synth import seed_text, synthesize_export

from regles.features.databases.export import parse_export, restore_line_breaks
from regles.features.databases.pages import entry_records, render_entry_index


def test_ten_copies() -> None:
    text = synthesize_export(seed_text(), 10)
    assert len(re.findall(r"(?<!\S)### ", text)) == 790
    result = parse_export(text, source="synthétique")
    assert len(result.groups) == 50
    assert len(result.entries) == 790
    assert result.rejected == []
    assert result.errors == []
    # The seed's two uncertain splits, once per copy.
    assert len(result.warnings) == 20
    records = entry_records(result, "magie")
    assert len({r["url"] for r in records}) == 790
    assert {r["group_slug"] for r in records} >= {"acoustique", "acoustique-10", "enchantement-2"}
    assert render_entry_index(result, "Tous les sorts").count("<tr data-group=") == 790


def test_ten_copies_line_broken() -> None:
    text = synthesize_export(seed_text(), 10)
    assert entry_records(parse_export(restore_line_breaks(text)), "magie") == entry_records(
        parse_export(text), "magie"
    )


def test_one_copy_is_the_seed() -> None:
    seed = seed_text()
    assert synthesize_export(seed, 1) == seed.rstrip()
