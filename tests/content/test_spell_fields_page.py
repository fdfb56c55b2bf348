"""This site's spell export as its pages present it: the index's header (title, date, 23
colleges, 422 spells) and the page of its fields and abbreviations, every figure computed
from the export's text here, and nothing of this site's configuration defining a word the
export leaves undefined."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bench.project import databases_of, load_mkdocs_yaml, plugin_options
from regles.features.databases.book import Book, DatabaseSettings, read_book
from tests.conftest import ROOT

OPTIONS = databases_of(plugin_options(load_mkdocs_yaml(ROOT / "mkdocs.yml"), "regles") or {})[0]
EXPORT = ROOT / OPTIONS["export"]
WORD = r"(?<![^\W_])(?<![^\W\d_]-){}(?![^\W_])(?!-[^\W\d_])"


@pytest.fixture(scope="module")
def book() -> Book:
    settings = DatabaseSettings(
        Path(EXPORT),
        OPTIONS["export"],
        OPTIONS["folder"],
        OPTIONS["section"],
        OPTIONS.get("index_title", "Tous les sorts"),
        terms=OPTIONS.get("terms") or {},
    )
    found, problems = read_book(settings)
    assert found is not None
    assert [p for p in problems if p.severity == "error"] == []
    return found


def pages(book: Book) -> dict[str, str]:
    return dict(book.pages())


def test_the_index_header_gives_the_exports_figures(book: Book) -> None:
    text = EXPORT.read_text(encoding="utf-8")
    head = re.match(r"# (?P<title>.+?) _Généré le (?P<date>[^_]+)_", text)
    assert head is not None
    colleges = len(re.findall(r"(?<!\S)## ", text))
    spells = len(re.findall(r"(?<!\S)### ", text))
    assert (colleges, spells) == (23, 422)  # as the owner's document 002 has them
    index = pages(book)[book.settings.index_uri]
    expected = (
        f"**{head['title']}** — Export généré le {head['date']}. "
        f"{colleges} collèges, {spells} sorts."
    )
    assert expected in index


def test_the_fields_page_counts_pdm_in_the_export(book: Book) -> None:
    text = EXPORT.read_text(encoding="utf-8")
    headings = " ".join(re.findall(r"(?<!\S)### (.+?) \([IVX]+(?:-[IVX]+)?\)", text))
    pdm = WORD.format("PdM")
    count = len(re.findall(pdm, text)) - len(re.findall(pdm, headings))
    assert count > 40
    page = pages(book)[book.settings.fields_uri]
    assert re.search(rf"^### PdM \{{ #abreviation-pdm \}}\n\n{count} occurrences dans ", page, re.M)


def test_every_field_of_the_export_is_on_the_page(book: Book) -> None:
    text = EXPORT.read_text(encoding="utf-8")
    keys: Counter[str] = Counter()
    for entry in re.split(r"(?<!\S)### ", text)[1:]:
        keys.update(set(re.findall(r"- \*\*([^*]+?) :\*\*", entry)))
    page = pages(book)[book.settings.fields_uri]
    total = len(book.result.entries)
    for key, n in keys.items():
        assert re.search(
            rf"^### {re.escape(key)} \{{[^}}]*\}}\n\n{n} sorts sur {total}\.", page, re.M
        )


def test_the_abbreviations_the_issue_names_are_listed_undefined(book: Book) -> None:
    """PdM, PdF, MR, ΔMR, RD, Vol, San, Int, Dex, For, JR, PdS, PdVm, BDS, P-Ex-sRD, Magerie:
    the export defines none of them and this site configures none."""
    found = {t.name: t for t in book.terms.abbreviations}
    for name in ("PdM", "PdF", "MR", "ΔMR", "RD", "Vol", "San", "Int", "Dex", "For", "JR"):
        assert name in found, name
    for name in ("PdS", "PdVm", "BDS", "P-Ex-sRD", "Magerie"):
        assert name in found, name
    assert all(t.definition is None and t.configured is None for t in found.values())
    assert book.terms.level_phrase is not None
    assert book.labels.levels == "Niveaux de puissance"
