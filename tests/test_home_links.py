"""The ```accueil block (regles/features/links/home.py): its links come from the nav, one per
top-level entry, and the test site's home page shows every one of its nav's entries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from bench.project import load_mkdocs_yaml, plugin_options
from regles.core.directives import Directive, DirectiveError
from regles.core.markdown_text import segment
from regles.core.report import Kind
from regles.core.slugs import slugify
from regles.features.links.home import LINKS_LABEL, QuickLink, home_block, quick_links
from tests.conftest import TEST_SITE, new_build, render

NAV: list[Any] = [
    {"Accueil": "index.md"},
    {"Premier jeu": ["a/index.md", "a/combat.md"]},
    {"Deuxième jeu": [{"Sous-partie": ["b/sous/un.md"]}, "b/deux.md"]},
    {"Vide": []},
    {"Sorts": ["sorts/ecole.md", "sorts/index.md"]},
    {"Ailleurs": "https://example.org/"},
    "outils.md",
    "sans-titre.md",
    {"Installer": "installer.md"},
]
TITLES = {"outils.md": "Tous les outils", "a/index.md": "Le premier jeu"}


def test_each_top_level_entry_becomes_one_link() -> None:
    links = quick_links(NAV, TITLES, indexes=("sorts/index.md",))
    assert links == [
        QuickLink("Accueil", "index.md", False),
        QuickLink("Premier jeu", "a/index.md", True),  # a section: its name, its first page
        QuickLink("Deuxième jeu", "b/sous/un.md", True),  # depth first
        QuickLink("Sorts", "sorts/index.md", True),  # the spell index, wherever it stands
        QuickLink("Tous les outils", "outils.md", False),  # no nav title: its own
        QuickLink("sans-titre", "sans-titre.md", False),  # no title at all: its file
        QuickLink("Installer", "installer.md", False),
    ]


def test_without_entries_a_section_leads_to_its_first_page() -> None:
    links = quick_links(NAV, TITLES)
    assert QuickLink("Sorts", "sorts/ecole.md", True) in links


def test_the_block_leaves_out_its_own_page_and_links_from_where_it_stands() -> None:
    links = quick_links(NAV, TITLES, indexes=("sorts/index.md",))
    block = home_block(links, "index.md", label="Rechercher une règle ou une prière")
    assert "(index.md)" not in block
    assert "[Premier jeu](a/index.md)" in block
    assert 'class="regles-accueil-liens__section" markdown="1">[Sorts](sorts/index.md)' in block
    assert 'class="regles-accueil-liens__page" markdown="1">[Installer](installer.md)' in block
    assert f'aria-label="{LINKS_LABEL}"' in block
    assert "Rechercher une règle ou une prière</label>" in block
    nested = home_block(links, "a/combat.md", label="Rechercher une règle")
    assert "[Accueil](../index.md)" in nested
    assert "[Sorts](../sorts/index.md)" in nested
    assert "Rechercher une règle<" in nested


def test_brackets_in_a_title_stay_text() -> None:
    links = [QuickLink("Règles [bêta]", "a.md", False)]
    block = home_block(links, "index.md", label="Rechercher une règle")
    assert r"[Règles \[bêta\]](a.md)" in block


def test_a_block_with_nothing_to_link_fails_with_a_french_message(tmp_path: Path) -> None:
    build = new_build(tmp_path)
    build.read_nav([{"Accueil": "index.md"}], ["index.md"])
    with pytest.raises(DirectiveError) as raised:
        build.links.home(Directive("accueil", "", "index.md", 3), segment(""))
    assert raised.value.kind == Kind.EMPTY_HOME_LINKS
    assert "aucune autre page" in str(raised.value)


def test_the_block_is_rendered_where_the_owner_puts_it(tmp_path: Path) -> None:
    build = new_build(tmp_path)
    build.read_nav(NAV, [])
    build.site.page_titles = dict(TITLES)
    text, problems = render(build, "# Accueil\n\nAvant.\n\n```accueil\n```\n\nAprès.\n", "index.md")
    assert problems == []
    before, after = text.index("Avant."), text.index("Après.")
    assert before < text.index('<form class="regles-accueil-recherche"') < after
    assert before < text.index("[Premier jeu](a/index.md)") < after


def expected_links(config: Path) -> list[tuple[str, str]]:
    """(name, address from the home page) of every top-level nav entry of the test site but
    the home page: a section's first page, the spell index for the spells' section; then the
    reader's data page, which the generator adds last to the nav (features/backup)."""
    data = load_mkdocs_yaml(config)
    entries = (plugin_options(data, "regles") or {})["spells"]
    expected = []
    for entry in data["nav"]:
        ((name, value),) = entry.items()
        if value == "index.md":
            continue
        if name == entries["section"]:
            page = f"{entries['folder']}/{slugify(entries['index_title'])}/"
        elif isinstance(value, list):
            first = value[0]
            page = first if isinstance(first, str) else next(iter(first.values()))
            page = page.removesuffix("index.md").removesuffix(".md").rstrip("/") + "/"
        else:
            page = value.removesuffix(".md") + "/"
        expected.append((name, page))
    return [*expected, ("Vos données", "donnees/")]


def test_the_test_sites_home_links_every_entry_of_its_nav(site_dir: Path) -> None:
    page = BeautifulSoup((site_dir / "index.html").read_text(encoding="utf-8"), "html.parser")
    nav = page.select_one(f'nav.regles-accueil-liens[aria-label="{LINKS_LABEL}"]')
    assert nav is not None
    shown = [(a.get_text(strip=True), a["href"]) for a in nav.select("li > a")]
    expected = expected_links(TEST_SITE)
    assert len(expected) >= 6  # sections, the spell index and the site's own pages
    assert shown == expected
    for _, address in shown:
        assert (site_dir / address / "index.html").is_file(), address
    field = page.select_one("form.regles-accueil-recherche input[type=search]")
    assert field is not None
    label = page.select_one(f'label[for="{field["id"]}"]')
    assert label is not None and label.get_text(strip=True) == "Rechercher une règle ou un sort"
