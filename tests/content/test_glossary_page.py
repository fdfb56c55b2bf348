"""This site's D&D 5e rules glossary (content/dnd5e/glossaire.md): the page the 5e chapter
refers to as « Glossaire de règles », absent from the source document and written for the
site after the SRD 5.2. Its entries, their anchors, their mark as added text, its credit."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from regles.core.slugs import fold, slugify

PAGE = "dnd5e/glossaire/index.html"
CONDITIONS = [
    "À terre",
    "Agrippé",
    "Assourdi",
    "Aveuglé",
    "Charmé",
    "Effrayé",
    "Empoisonné",
    "Entravé",
    "Épuisement",
    "Étourdi",
    "Inconscient",
    "Invisible",
    "Neutralisé",
    "Paralysé",
    "Pétrifié",
]
# Besides the conditions: the terms the 5e text names, and the entries its two malformed
# source links (/regles/glossaire/#influence-action, #Repos long) were meant for.
TERMS = [*CONDITIONS, "Concentration", "Influencer", "Repos long"]
# What every entry ends with (the words combat.md's restored steps end with).
ADDED_MARK = "texte résumé, ajouté"


def soup(site_dir: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site_dir / page).read_text(encoding="utf-8"), "html.parser")


def heading_text(heading: Tag) -> str:
    return "".join(
        str(s)
        for s in heading.strings
        if not (s.parent and "headerlink" in s.parent.get("class", []))
    ).strip()


def entries(site_dir: Path) -> dict[str, tuple[Tag, list[Tag]]]:
    """Each h2 of the glossary: its title → (the heading, the elements up to the next h2)."""
    article = soup(site_dir, PAGE).select_one("article")
    assert article is not None
    found: dict[str, tuple[Tag, list[Tag]]] = {}
    for heading in article.find_all("h2"):
        body = []
        for sibling in heading.find_next_siblings():
            if sibling.name in ("h1", "h2"):
                break
            body.append(sibling)
        found[heading_text(heading)] = (heading, body)
    return found


def test_the_glossary_has_the_title_the_text_refers_to(site_dir: Path) -> None:
    article = soup(site_dir, PAGE).select_one("article")
    assert article is not None
    titles = [heading_text(h) for h in article.find_all("h1")]
    assert titles == ["Glossaire de règles"]


@pytest.mark.parametrize("term", TERMS)
def test_each_term_is_an_entry_with_its_anchor(site_dir: Path, term: str) -> None:
    found = entries(site_dir)
    titles = sorted(found)
    assert term in titles, f"« {term} » n’est pas une entrée du glossaire"
    heading, body = found[term]
    assert heading.get("id") == slugify(term)
    assert " ".join(tag.get_text(" ") for tag in body).strip(), f"« {term} » sans définition"


def test_every_entry_is_marked_as_added(site_dir: Path) -> None:
    found = entries(site_dir)
    assert len(found) >= len(TERMS)
    unmarked = [
        title
        for title, (_, body) in found.items()
        if not any(ADDED_MARK in em.get_text() for tag in body for em in tag.find_all("em"))
    ]
    assert unmarked == []


def test_the_page_says_it_is_not_in_the_source(site_dir: Path) -> None:
    article = soup(site_dir, PAGE).select_one("article")
    assert article is not None
    h1 = article.find("h1")
    note = h1.find_next_sibling() if h1 else None
    assert note is not None and "admonition" in note.get("class", [])
    text = " ".join(note.get_text(" ").split())
    assert "document source ne contient pas" in text and "SRD 5.2" in text
    assert "CC-BY-4.0" in text


def test_entries_are_in_alphabetical_order(site_dir: Path) -> None:
    titles = list(entries(site_dir))
    assert titles == sorted(titles, key=fold)


def test_links_inside_the_definitions_reach_an_entry(site_dir: Path) -> None:
    html = soup(site_dir, PAGE)
    ids = {tag["id"] for tag in html.select("[id]")}
    inner = [
        a["href"]
        for a in html.select("article a[href^='#']")
        if "headerlink" not in a.get("class", [])
    ]
    assert inner, "aucun renvoi d’une entrée à une autre"
    assert [href for href in inner if href[1:] not in ids] == []


def test_every_glossary_reference_of_the_5e_text_leads_to_it(site_dir: Path) -> None:
    references = 0
    for path in sorted((site_dir / "dnd5e").glob("*/index.html")):
        if path.parent.name == "imprimer":
            continue  # the system's print page: its links lead inside it (test_print_browser)
        for text in soup(site_dir, str(path.relative_to(site_dir))).select("article p, article li"):
            if "« Glossaire de règles »" not in " ".join(text.get_text().split()):
                continue
            links = [a for a in text.select("a[href]") if a.get_text() == "Glossaire de règles"]
            assert links, (path, text.get_text()[:80])
            assert all("glossaire/" in a["href"] for a in links), (path, links)
            references += len(links)
    assert references >= 20  # the chapter refers to the glossary 22 times


def test_the_licence_page_credits_the_srd_for_the_glossary(site_dir: Path) -> None:
    article = soup(site_dir, "licences/index.html").select_one("article")
    assert article is not None
    credit = next(
        (p for p in article.find_all("p") if p.find("a", href=lambda h: h and "glossaire" in h)),
        None,
    )
    assert credit is not None, "la page des licences ne renvoie pas au glossaire"
    text = " ".join(credit.get_text().split())
    assert "SRD 5.2" in text and "Creative Commons Attribution 4.0" in text
    assert "nos propres mots" in text


@pytest.mark.parametrize(
    "section", ["pouvoirs-extraordinaires", "pouvoirs-sensoriels", "but-special"]
)
def test_the_ose_stubs_say_the_source_lacks_their_table(site_dir: Path, section: str) -> None:
    html = soup(site_dir, "ose/epees-intelligentes/index.html")
    heading = html.find(id=section)
    assert heading is not None
    body = []
    for sibling in heading.find_next_siblings():
        if sibling.name in ("h1", "h2"):
            break
        body.append(" ".join(em.get_text() for em in sibling.find_all("em")))
    note = " ".join(" ".join(body).split())
    assert "Note ajoutée" in note and "document source ne contient pas" in note
