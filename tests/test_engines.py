"""The same mkdocs.yml built by MkDocs and by ProperDocs gives readers the same site.

ProperDocs (requirements.txt) is a maintained fork of MkDocs 1.x: installed beside MkDocs in
the same virtual environment, it builds with `python -m properdocs build`, loads Material
through its `mkdocs.themes` entry point and the `regles` plugin through its `mkdocs.plugins`
one, and answers the plugins' `mkdocs.*` imports with its own modules. The only difference
it may make to a page is the generator named in its <meta>.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.conftest import build_site

# 2027-01-01T00:00:00Z: any fixed value will do, it only has to be the same for both.
EPOCH = 1798761600
ENGINES = ("mkdocs", "properdocs")
GENERATOR = re.compile(r'<meta name="generator" content="[^"]*">')
HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    built = {}
    for engine in ENGINES:
        destination = tmp_path_factory.mktemp(engine)
        result = build_site(
            destination,
            site_url="http://127.0.0.1:8000/",
            env={"SOURCE_DATE_EPOCH": str(EPOCH)},
            engine=engine,
        )
        assert result.returncode == 0, f"{engine} :\n{result.stdout}\n{result.stderr}"
        built[engine] = destination
    return built


def pages(site: Path) -> list[str]:
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))


def outline(page: Path) -> tuple[str, list[tuple[str, str | None, str]]]:
    """The page's <title>, and each heading of its article: level, id, text."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    title = soup.title.get_text() if soup.title else ""
    article = soup.select_one("article.md-content__inner") or soup
    headings = []
    for heading in article.find_all(HEADINGS):
        id_ = heading.get("id")
        headings.append((heading.name, id_ if isinstance(id_, str) else None, heading.get_text()))
    return title, headings


def test_properdocs_finds_the_plugin_through_the_mkdocs_entry_point() -> None:
    # In a process of its own: the import does not touch this one's `mkdocs` modules.
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "from properdocs.plugins import get_plugins; p = get_plugins()['regles'];"
            "print(p.group, p.value)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.split() == ["mkdocs.plugins", "regles.plugin:ReglesPlugin"]


def test_both_engines_write_the_same_pages(sites: dict[str, Path]) -> None:
    mkdocs, properdocs = (pages(sites[engine]) for engine in ENGINES)
    assert len(mkdocs) > 20 and "sorts/acoustique/index.html" in mkdocs  # spells: the plugin ran
    assert properdocs == mkdocs


def test_every_page_has_the_same_title_and_headings(sites: dict[str, Path]) -> None:
    for page in pages(sites["mkdocs"]):
        title, headings = outline(sites["mkdocs"] / page)
        assert title and headings, page
        assert outline(sites["properdocs"] / page) == (title, headings), page


def test_pages_differ_only_in_the_generator_named(sites: dict[str, Path]) -> None:
    named = {}
    for engine, site in sites.items():
        text = (site / "index.html").read_text(encoding="utf-8")
        named[engine] = GENERATOR.findall(text)
    assert named["mkdocs"] != named["properdocs"]  # each says which engine built it
    differ = [
        page
        for page in pages(sites["mkdocs"])
        if GENERATOR.sub("", (sites["mkdocs"] / page).read_text(encoding="utf-8"))
        != GENERATOR.sub("", (sites["properdocs"] / page).read_text(encoding="utf-8"))
    ]
    assert differ == []
