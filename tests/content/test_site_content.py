"""This site's pages as content/ writes them: its rule pages, tables, references, calculators'
rule pages, licences; its sources pass every check of the build."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from calculators import catalog
from regles.core import checks, link_checks
from regles.core.markdown_text import segment
from regles.features.databases.export import parse_export
from regles.features.databases.model import read_export
from regles.features.databases.pages import render_entry_index, render_group_page
from tests.conftest import ROOT
from tests.test_site_pages import (
    assert_blocks_link_to_their_home,
    assert_pages_fit_the_screen,
    assert_references_link,
    assert_structured,
)

RULE_PAGES = [
    "dnd5e/index.html",
    "dnd5e/caracteristiques/index.html",
    "dnd5e/tests-d20/index.html",
    "dnd5e/maitrise/index.html",
    "dnd5e/actions/index.html",
    "dnd5e/interactions-sociales/index.html",
    "dnd5e/exploration/index.html",
    "dnd5e/combat/index.html",
    "dnd5e/degats-et-soins/index.html",
    "dnd5e/glossaire/index.html",
    "maison/poids-transportable/index.html",
    "pmt/epees-et-pmt/index.html",
    "ose/epees-intelligentes/index.html",
]

# Where the rule of each calculator is written.
CALCULATOR_RULE_PAGES = {
    "ability_modifier": "dnd5e/caracteristiques/",
    "proficiency_bonus": "dnd5e/maitrise/",
    "d20_test": "dnd5e/tests-d20/",
    "damage": "dnd5e/degats-et-soins/",
    "healing": "dnd5e/degats-et-soins/",
    "death_saves": "dnd5e/degats-et-soins/",
    "grid": "dnd5e/combat/",
    "encumbrance": "maison/poids-transportable/",
    "sentient_sword": "ose/epees-intelligentes/",
    "sword_control": "ose/epees-intelligentes/",
    "corruption": "pmt/epees-et-pmt/",
    "alteration": "pmt/epees-et-pmt/",
    "heroism_points": "pmt/epees-et-pmt/",
    "ritual_time": "pmt/epees-et-pmt/",
    "madness": "pmt/epees-et-pmt/",
}


def soup(site_dir: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site_dir / page).read_text(encoding="utf-8"), "html.parser")


def test_rule_pages_have_structure(site_dir: Path) -> None:
    assert_structured(site_dir, RULE_PAGES)


def test_source_tables_are_tables(site_dir: Path) -> None:
    expectations = {
        "pmt/epees-et-pmt/index.html": ["Altération", "Horreur"],
        "ose/epees-intelligentes/index.html": ["Lecture", "Pouvoirs", "Langues", "Alignement"],
        "dnd5e/caracteristiques/index.html": ["Modificateur"],
    }
    for page, headers in expectations.items():
        found = " ".join(th.get_text() for th in soup(site_dir, page).select("article table th"))
        for header in headers:
            assert header in found, (page, header, found)


def test_cross_references_become_links(site_dir: Path) -> None:
    page = "dnd5e/caracteristiques/index.html"
    assert_references_link(site_dir, page, "Tests d20", "../tests-d20/")


def test_conditions_are_anchors_that_links_reach(site_dir: Path) -> None:
    html = soup(site_dir, "dnd5e/degats-et-soins/index.html")
    assert html.select_one("#etat-a-terre") is not None
    assert html.select_one("#etat-epuisement") is not None


def test_unresolved_references_are_plain_text_and_reported(site_dir: Path) -> None:
    # The chapters the source refers to but this site lacks stay text and are reported; its
    # « Glossaire de règles » is a page of the site (tests/content/test_glossary.py).
    report = ROOT / "build" / "rapport-construction.json"
    subjects = {(p["kind"], p["subject"]) for p in json.loads(report.read_text("utf-8"))}
    assert ("reference-introuvable", "Création de personnage") in subjects
    assert ("lien-ancien-site", "influencer") in subjects  # led to the glossary, reported
    assert any(s == "Special Purpose of Sentient Swords" for _, s in subjects)
    assert ("reference-introuvable", "Glossaire de règles") not in subjects
    links = soup(site_dir, "dnd5e/maitrise/index.html").select("article a[href]")
    assert not [a for a in links if a.get_text() == "Création de personnage"]


def test_install_blurb_is_on_its_page_not_in_the_rules(site_dir: Path) -> None:
    blurb = "Cette app peut être installée sur PC ou smartphone."
    assert blurb in soup(site_dir, "installer/index.html").get_text()
    assert blurb not in soup(site_dir, "dnd5e/index.html").get_text()


def test_licence_page_carries_the_srd_attribution(site_dir: Path) -> None:
    text = soup(site_dir, "licences/index.html").get_text()
    assert "Creative Commons Attribution 4.0" in text and "SRD 5.2" in text


def test_every_calculator_is_on_its_rule_page_and_the_tools_page_links_there(
    site_dir: Path,
) -> None:
    # The dice: the tools page is their home.
    calculators = [str(entry["id"]) for entry in catalog()]
    assert_blocks_link_to_their_home(
        site_dir, "outils/index.html", CALCULATOR_RULE_PAGES, calculators
    )


def test_the_pages_pass_every_source_check() -> None:
    # The same checks on the site's own sources find nothing: `make site` stays --strict.
    content = ROOT / "content"
    texts: dict[str, str] = {}
    problems = []
    for path in sorted(content.rglob("*.md")):
        uri = path.relative_to(content).as_posix()
        text, found = checks.decode_source(path.read_bytes(), uri)
        problems += found + checks.check_empty(text, uri) + checks.check_front_matter(text, uri)
        texts[uri] = text
    export = parse_export(read_export(content / "magie" / "export-magie.txt"))
    generated = {"magie/tous-les-sorts.md": render_entry_index(export, "Tous les sorts")}
    generated |= {f"magie/{c.slug}.md": render_group_page(c) for c in export.groups}
    pages = {uri: segment(text, front_matter=True) for uri, text in (texts | generated).items()}
    site = link_checks.SiteMap.build(pages.items())
    for uri in texts:
        problems += checks.check_source(pages[uri], uri, site)
    assert [str(p) for p in problems if p.severity != "info"] == []


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_pages_fit_the_screen_and_stay_on_the_origin(
    browser: Any, site_url: str, width: int
) -> None:
    paths = ["", *[p.removesuffix("index.html") for p in RULE_PAGES], "installer/"]
    assert_pages_fit_the_screen(browser, site_url, paths, width)
