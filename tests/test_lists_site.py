"""The grimoires' page of the built test site, and the spells' ids in data/spells.json.

The page is generated in the spells' folder (`sorts/grimoire/`), after the spell index in the
nav, under the title the settings give it; its container carries what lists.js reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from tests.conftest import build_site, variant_of_test_site

pytestmark = pytest.mark.site

PAGE = "sorts/grimoire/index.html"


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def nav_titles(page: BeautifulSoup) -> list[str]:
    """The titles of the spells' section of the primary nav, in order."""
    links = page.select("nav.md-nav--primary a.md-nav__link[href]")
    return [" ".join(a.get_text().split()) for a in links]


def test_entries_json_ids_are_unique_and_short(site_dir: Path) -> None:
    data = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    ids = [s["id"] for s in data]
    assert len(set(ids)) == len(ids) == len(data)
    assert all(re.fullmatch(r"[0-9a-z]{4,6}", i) for i in ids)


def test_the_lists_page_follows_the_index_and_carries_the_filters_labels(
    site_dir: Path,
) -> None:
    page = soup(site_dir / PAGE)
    h1 = page.find("h1")
    assert isinstance(h1, Tag) and h1.get_text().removesuffix("¶").strip() == "Mon grimoire"
    box = page.find(id="reader-lists")
    assert isinstance(box, Tag)
    assert box["data-index"] == "../index-des-sorts/"
    # The filters say what the index's filters say (its table's labels).
    index = soup(site_dir / "sorts/index-des-sorts/index.html").find(id="entry-table")
    assert isinstance(index, Tag)
    for key in ("niveaux", "groupe", "classe", "resistance"):
        assert box[f"data-libelle-{key}"] == index[f"data-libelle-{key}"]
    assert box["data-champ-classe"] == "Classe" and box["data-champ-temps"] == "Temps"
    # Without JavaScript, the page says why it is empty.
    assert "JavaScript" in box.get_text()
    titles = nav_titles(page)
    assert titles.index("Mon grimoire") == titles.index("Index des sorts") + 1
    intro = page.select_one("p.list-intro a")
    assert intro is not None and intro["href"] == "../index-des-sorts/"


def test_the_lists_title_is_a_setting_and_the_address_stays(tmp_path: Path) -> None:
    config = variant_of_test_site(
        tmp_path,
        lambda text: text.replace(
            "index_title: Index des sorts",
            "index_title: Index des sorts\n        lists_title: Grimoires des personnages",
        ),
    )
    result = build_site(tmp_path / "site", config)
    assert result.returncode == 0, result.stdout + result.stderr
    page = soup(tmp_path / "site" / PAGE)
    h1 = page.find("h1")
    assert isinstance(h1, Tag)
    assert h1.get_text().removesuffix("¶").strip() == "Grimoires des personnages"
    assert "Grimoires des personnages" in nav_titles(page)


def as_database_without_words(text: str) -> str:
    """The test site's `spells:` block as an entry of `databases:`."""
    lines = text.split("\n")
    start = lines.index("      spells:")
    end = start + 1
    while end < len(lines) and (lines[end].startswith("        ") or not lines[end].strip()):
        end += 1
    block = ["  " + line if line.strip() else line for line in lines[start + 1 : end]]
    block[0] = block[0].replace("          export:", "        - export:", 1)
    return "\n".join([*lines[:start], "      databases:", *block, *lines[end:]])


def test_a_database_that_says_no_words_speaks_of_entries_groups_and_lists(
    tmp_path: Path,
) -> None:
    # No game's words: not the spells' of the generator's first site.
    config = variant_of_test_site(tmp_path, as_database_without_words)
    assert "databases:" in config.read_text("utf-8")
    result = build_site(tmp_path / "site", config)
    assert result.returncode == 0, result.stdout + result.stderr
    index = soup(tmp_path / "site" / "sorts" / "index-des-sorts" / "index.html")
    assert "5 groupes, 79 entrées" in index.get_text(" ")
    table = index.find("table", id="entry-table")
    assert isinstance(table, Tag) and table.get("data-libelle-groupe") == "Groupe"
    lists = soup(tmp_path / "site" / "sorts" / "liste" / "index.html")
    h1 = lists.find("h1")
    assert isinstance(h1, Tag) and h1.get_text().removesuffix("¶").strip() == "Ma liste"
    assert "Ma liste" in nav_titles(index)
    # Not « Une liste est une liste d’entrées »: a sentence that holds in any game's words.
    intro = lists.select_one(".list-intro")
    assert intro is not None
    assert intro.get_text(" ").startswith("Une liste rassemble des entrées, une par personnage")
