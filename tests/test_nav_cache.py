"""The navigation's items rendered once per folder (regles/features/assets/nav.py): which renders
may
be reused, and a build that reuses them writes the same pages as one that renders every item
for every page."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from markupsafe import Markup
from mkdocs.commands.build import build
from mkdocs.config import load_config

from regles.features.assets import feature as assets_feature
from regles.features.assets.nav import NavItems, nav_links
from tests.conftest import ROOT, variant_of_test_site


def page(url: str) -> SimpleNamespace:
    return SimpleNamespace(url=url)


def section(*urls: str, active: bool = False) -> SimpleNamespace:
    return SimpleNamespace(
        active=active, children=[SimpleNamespace(url=u, children=None) for u in urls]
    )


MAGIE = section("magie/acoustique/", "magie/vegetal/")
DND = section("dnd5e/combat/", "dnd5e/actions/")


def test_pages_of_one_folder_share_a_section_that_does_not_hold_them() -> None:
    items = NavItems()
    a = items.key(DND, "__nav_2", page("magie/acoustique/"))
    b = items.key(DND, "__nav_2", page("magie/vegetal/"))
    assert a == b == ("__nav_2", ("magie",), False)
    # Another folder reads the links differently (../../dnd5e/ against ../dnd5e/).
    assert items.key(DND, "__nav_2", page("outils/")) == ("__nav_2", (), False)
    # So does the parent's state (Material's classes for navigation.tabs).
    active = SimpleNamespace(active=True)
    assert items.key(DND, "__nav_2_1", page("magie/vegetal/"), active)[2] is True


@pytest.mark.parametrize(
    ("item", "url", "why"),
    [
        (section("dnd5e/combat/", active=True), "dnd5e/combat/", "the item holds the page"),
        (DND, "", "the home page: links from the site's root"),
        (section("magie/acoustique/sorts/"), "magie/acoustique/", "a link inside the folder"),
        (section("magie/vegetal.html"), "magie/acoustique.html", "a file of the same folder"),
    ],
)
def test_items_whose_links_depend_on_the_page_are_rendered_for_it(
    item: Any, url: str, why: str
) -> None:
    assert NavItems().key(item, "__nav_3", page(url)) is None, why


def test_no_page_no_reuse() -> None:
    assert NavItems().key(DND, "__nav_2", None) is None


def test_a_render_is_reused_only_under_the_same_key() -> None:
    items = NavItems()
    calls: list[str] = []

    def render(text: str) -> Any:
        return lambda: calls.append(text) or text

    first = items(DND, "__nav_2", page("magie/acoustique/"), caller=render("a"))
    again = items(DND, "__nav_2", page("magie/vegetal/"), caller=render("b"))
    other = items(DND, "__nav_2", page("outils/"), caller=render("c"))
    assert (first, again, other) == ("a", "a", "c")
    assert calls == ["a", "c"]
    assert (items.rendered, items.reused) == (2, 1)


def _html(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*.html"))}


def test_a_build_that_reuses_renders_writes_the_same_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(ROOT)
    test_site = variant_of_test_site(tmp_path)
    made: list[NavItems] = []
    created = NavItems.__init__

    def init(self: NavItems) -> None:
        created(self)
        made.append(self)

    monkeypatch.setattr(NavItems, "__init__", init)

    def site(name: str) -> dict[str, bytes]:
        config = load_config(config_file=str(test_site), site_dir=str(tmp_path / name))
        build(config)
        return _html(tmp_path / name)

    reused = site("reused")
    # Many items are reused: every page of a folder shows the same ones.
    assert made[-1].reused > made[-1].rendered / 2
    monkeypatch.setattr(NavItems, "key", lambda self, *args: None)
    every = site("every")
    assert made[-1].reused == 0
    assert reused.keys() == every.keys() and len(reused) > 20  # every page of the test site
    assert [name for name in reused if reused[name] != every[name]] == []


def sidebar_links(document: str) -> list[str]:
    """The addresses the primary sidebar's nav links to, in its order."""
    sidebar = document.split('class="md-sidebar md-sidebar--primary"', 1)[1]
    sidebar = sidebar.split('class="md-sidebar md-sidebar--secondary"', 1)[0]
    return re.findall(r'<a href="([^"]*)" class="md-nav__link', sidebar)


def test_nav_links_counts_the_pages_and_links_of_a_written_nav() -> None:
    written = [{"Accueil": "index.md"}, {"Jeu": ["jeu/index.md", {"Combat": "jeu/c.md"}]}, "a.md"]
    assert nav_links(written) == 4
    assert nav_links([{"Sorts": []}]) == 0


def test_a_big_nav_carries_its_pages_section_and_one_link_per_other_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site_dir: Path
) -> None:
    """Past PRUNE_FROM pages, a page's nav holds its own section's pages and each other
    section as one link to its first page: what a page weighs no longer grows with the
    site. The test site (some 40 pages) is pruned here as a big one would be."""
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(assets_feature, "PRUNE_FROM", 0)
    config = load_config(
        config_file=str(variant_of_test_site(tmp_path)), site_dir=str(tmp_path / "site")
    )
    build(config)
    page = "jeu/combat/index.html"
    pruned = sidebar_links((tmp_path / "site" / page).read_text(encoding="utf-8"))
    whole = sidebar_links((site_dir / page).read_text(encoding="utf-8"))
    assert len(pruned) < len(whole)
    # Its own section, whole: the test site's game, page by page.
    assert {"../actions/", "../maitrise/", "../glossaire/", "../"} <= set(pruned)
    # Another section: its first page only (Épées d'essai: epees/, not lankhmar/).
    assert "../../epees/epees-intelligentes/" in pruned
    assert "../../lankhmar/epees-et-pmt/" in whole and "../../lankhmar/epees-et-pmt/" not in pruned
    # The database's section: its index, not each group's page.
    database = [link for link in pruned if link.startswith("../../sorts/")]
    assert len(database) == 1 < len([link for link in whole if link.startswith("../../sorts/")])


def test_an_items_lines_of_white_space_are_cut_to_line_breaks() -> None:
    """Material's templates leave a line of indentation for each statement: a nav item is
    written without them, its words and tags as they were."""
    written = '\n    \n  <li class="a">\n      \n  <a href="x">\n    Jeu\n  </a> </li>\n'
    rendered = NavItems()(DND, "__nav_2", page("magie/acoustique/"), caller=lambda: Markup(written))
    assert rendered == Markup('\n<li class="a">\n<a href="x">\nJeu\n</a> </li>\n')
