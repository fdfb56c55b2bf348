"""This site's content: the 5e text's links to its glossary (`glossaries:` and `old_paths:`
in mkdocs.yml), as a reader meets them. The generator's own tests are tests/test_glossary.py."""

from __future__ import annotations

import json
from pathlib import Path

from bs4 import BeautifulSoup

from regles.core.slugs import slugify


def article(site_dir: Path, page: str) -> BeautifulSoup:
    html = BeautifulSoup((site_dir / page / "index.html").read_text("utf-8"), "html.parser")
    found = html.select_one("article")
    assert found is not None
    return found


def test_the_list_of_conditions_leads_to_the_glossary_entries(site_dir: Path) -> None:
    spans = article(site_dir, "dnd5e/degats-et-soins").select('span[id^="etat-"]')
    assert len(spans) == 15
    for span in spans:
        assert span.a is not None, span
        assert span.a["href"] == f"../glossaire/#{slugify(span.get_text())}"
        assert "lien-glossaire" in span.a["class"]


def test_the_two_source_links_to_the_old_glossary_lead_to_their_entries(site_dir: Path) -> None:
    actions = article(site_dir, "dnd5e/actions").find("a", string="influencer")
    assert actions is not None and actions["href"] == "../glossaire/#influencer"
    rest = article(site_dir, "dnd5e/degats-et-soins").find("a", string="long")
    assert rest is not None and rest["href"] == "../glossaire/#repos-long"


def test_references_after_a_term_lead_to_its_entry(site_dir: Path) -> None:
    # « vous subissez l’état Aveuglé (cf. « Glossaire de règles ») »
    text = article(site_dir, "dnd5e/exploration")
    targets = [a["href"] for a in text.find_all("a", string="Glossaire de règles")]
    assert "../glossaire/#aveugle" in targets
    data = json.loads((site_dir / "data" / "glossary.json").read_text("utf-8"))
    entries = {record["url"] for record in data}
    for page in ("dnd5e/combat", "dnd5e/exploration", "dnd5e/maitrise", "dnd5e/degats-et-soins"):
        for link in article(site_dir, page).select("a.lien-glossaire"):
            assert "dnd5e/glossaire/" + link["href"].removeprefix("../glossaire/") in entries


def test_no_other_system_links_to_the_5e_glossary(site_dir: Path) -> None:
    # The other systems' pages (and the spells'); the site's own pages (licences) may.
    for path in sorted(site_dir.glob("*/*/index.html")):
        page = str(path.parent.relative_to(site_dir))
        if page.startswith(("dnd5e/", "pagefind/")):
            continue
        links = article(site_dir, page).select("a[href*='glossaire/']")
        assert links == [], (page, links)
