"""Pages and words a player can find, on strings and the built test site: « Vos données » in
the menu, the footer and the search; the error page in French with its ways back; no page
that links to itself where a reader takes the link for an action; no jargon on the data page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from regles.core.build import Settings, SiteBuild
from regles.core.markdown_text import segment
from regles.core.systems import Systems
from regles.features.backup.feature import BACKUP_SOURCE, BackupFeature
from regles.features.links import references as links
from regles.features.links.targets import TargetIndex
from regles.features.search import records as search
from tests.conftest import ROOT, SITE_APP

JS = ROOT / "generator" / "regles" / "theme" / "assets" / "js"
INSTALL = """# Installer l’application

Touchez le bouton « Installer l’application » s’il apparaît, ou ouvrez le menu puis
« Installer l’application ». Voir « Hors ligne » et « Licences ».

## Hors ligne

Texte.
"""
LICENCES = "# Licences\n\nTexte.\n"


def feature(tmp_path: Path) -> BackupFeature:
    build = SiteBuild(
        Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=tmp_path / "sans-paquet")
    )
    return BackupFeature(build.site)


def test_the_data_page_is_in_the_menu_and_the_search(tmp_path: Path) -> None:
    (page,) = feature(tmp_path).page(frozenset({"index.md"}))
    assert page.uri == BACKUP_SOURCE and page.in_nav is True
    text = page.markdown
    assert "# Vos données" in text and "exclude" not in text
    # The words a player types to find it, in the text the search indexes.
    prose = text.split('<div id="regles-donnees"')[0].lower()
    assert "données" in prose
    # Titles that begin with the words typed: found before a game's « jets de sauvegarde ».
    assert "\n## sauvegarde" in prose and "\n## données" in prose
    assert search.is_indexed("donnees/index.html")
    assert "donnees/index.html" not in search.EXCLUDED_PAGES


def test_the_menu_gets_the_data_page_last_unless_the_owner_placed_it(tmp_path: Path) -> None:
    extend = feature(tmp_path).extend_nav
    nav: list[Any] = [{"Accueil": "index.md"}, {"Jeu": ["jeu/index.md"]}]
    extend(nav)
    assert nav[-1] == {"Vos données": "donnees.md"} and len(nav) == 3
    placed: list[Any] = [{"Outils": ["outils.md", {"Mes données": "donnees.md"}]}]
    extend(placed)
    assert placed == [{"Outils": ["outils.md", {"Mes données": "donnees.md"}]}]
    bare: list[Any] = ["index.md", "donnees.md"]
    extend(bare)
    assert bare == ["index.md", "donnees.md"]


def test_a_page_does_not_link_to_itself_but_to_its_sections_and_others() -> None:
    pages = [("installer.md", segment(INSTALL)), ("licences.md", segment(LICENCES))]
    index = TargetIndex.build(pages, [], scope_of=Systems({}).scope_of)
    page, problems = links.link_references(segment(INSTALL), "installer.md", index)
    text = page.text
    # Its own title, twice, stays the owner's words: a link would only reload the page.
    assert text.count("« Installer l’application »") == 2
    assert "](./)" not in text and "](installer.md)" not in text
    assert "« [Hors ligne](#hors-ligne) »" in text
    assert "« [Licences](licences.md) »" in text
    assert problems == []


def test_the_data_page_speaks_a_players_words() -> None:
    backup = (JS / "backup.js").read_text("utf-8")
    shown = " ".join(re.findall(r"`[^`]*`|\"[^\"]*\"", backup))  # the strings it writes
    assert "fichier JSON" not in shown and "format «" not in shown and "« items »" not in shown
    assert "C’est fait" in shown  # the export says it is done, and the file's name
    offline = (JS / "offline.js").read_text("utf-8")
    assert "stockage durable" not in offline


def parsed(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


@pytest.mark.site
def test_the_built_pages_lead_to_the_data_page(site_dir: Path) -> None:
    combat = parsed(site_dir / "jeu" / "combat" / "index.html")
    menu = [a for a in combat.select("nav.md-nav--primary a") if a.get_text(strip=True)]
    assert [a["href"] for a in menu if a.get_text(strip=True) == "Vos données"] == [
        "../../donnees/"
    ]
    footer = combat.select("footer .md-copyright a[href]")
    assert [a["href"] for a in footer if a.get_text(strip=True) == "Vos données"] == [
        "../../donnees/"
    ]
    install = parsed(site_dir / "installer" / "index.html")
    article = install.select_one("article")
    assert article is not None
    to_itself = [a for a in article.select("a[href]") if a["href"] in ("./", "", ".", "index.html")]
    assert to_itself == [], to_itself


@pytest.mark.site
def test_the_error_page_is_french_with_its_ways_back_from_any_depth(site_dir: Path) -> None:
    page = parsed(site_dir / "404.html")
    text = page.get_text(" ", strip=True)
    assert "Not found" not in text and "404 -" not in text
    assert page.title is not None and page.title.get_text().startswith("Page introuvable")
    heading = page.select_one("article h1")
    assert heading is not None and heading.get_text(strip=True) == "Page introuvable"
    home = page.select_one("article a.regles-introuvable-accueil")
    assert home is not None and home.get_text(strip=True) == "Retour à l’accueil"
    search_field = page.select_one("article form[data-recherche-relais] input[name=q]")
    assert search_field is not None
    # Served for a missing address at any depth: every link of the page is absolute.
    hrefs = [a["href"] for a in page.select("a[href]") if not a["href"].startswith("#")]
    relative = [h for h in hrefs if not h.startswith(("/", "http:", "https:"))]
    assert relative == [] and "/donnees/" in hrefs
