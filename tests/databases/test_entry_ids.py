"""The spells' short ids (`pages.entry_ids`), which grimoires and their share links hold:
stable across builds of the same export, unique, short, lengthened on a collision."""

from __future__ import annotations

import re

import pytest
from synth import seed_text

from regles.features.databases import pages
from regles.features.databases.export import parse_export
from regles.features.databases.pages import entry_ids, entry_records

ID = re.compile(r"[0-9a-z]+")


def test_the_same_export_gives_the_same_ids_at_every_build() -> None:
    first = entry_records(parse_export(seed_text()), "sorts")
    second = entry_records(parse_export(seed_text()), "sorts")
    assert [r["id"] for r in first] == [r["id"] for r in second]
    assert len(first) > 50


def test_ids_are_unique_short_and_base36_even_for_names_in_two_groups() -> None:
    result = parse_export(seed_text())
    records = entry_records(result, "sorts")
    ids = [str(r["id"]) for r in records]
    assert len(set(ids)) == len(ids)
    assert all(ID.fullmatch(i) and 4 <= len(i) <= 6 for i in ids), ids
    # A name that recurs across colleges gets one id per college.
    by_name: dict[object, set[str]] = {}
    for r in records:
        by_name.setdefault(r["name"], set()).add(str(r["id"]))
    recurring = [name for name, found in by_name.items() if len(found) > 1]
    assert recurring, "l’export d’essai n’a plus de nom dans deux collèges"


def test_an_id_only_depends_on_its_group_and_slug() -> None:
    # Leaving a college out of the export changes no other spell's id (4 digits, no
    # collision in the test export).
    text = seed_text()
    full = parse_export(text)
    first = full.groups[0]
    cut = text.replace(f"## {first.name} ", "## ", 1)  # its spells join no college: dropped
    smaller = parse_export(cut)
    ids, fewer = entry_ids(full), entry_ids(smaller)
    common = set(ids) & set(fewer)
    assert common and all(ids[k] == fewer[k] for k in common)


def test_colliding_ids_are_lengthened_until_they_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    # With one digit, 79 spells must collide: every id is then the shortest start of its
    # digest that no other spell's digest shares, whatever the spells' order.
    monkeypatch.setattr(pages, "ENTRY_ID_LENGTH", 1)
    result = parse_export(seed_text())
    ids = entry_ids(result)
    assert len(set(ids.values())) == len(ids)
    digests = {k: pages._base36_digest(f"{k[0]}/{k[1]}") for k in ids}
    assert any(len(i) > 1 for i in ids.values())
    for key, found in ids.items():
        assert digests[key].startswith(found)
        others = [d for k, d in digests.items() if k != key]
        assert not any(d.startswith(found) for d in others)
        assert any(d.startswith(found[:-1]) for d in others) or len(found) == 1
    result.groups.reverse()
    assert entry_ids(result) == ids
