"""The built site: French, structured, self-contained, readable on a 360 px phone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from tests.conftest import ROOT, rules_of_test_site

# The test site's systems (tests/site/mkdocs.yml): their pages are rule pages.
SYSTEM_FOLDERS = ("jeu", "maison", "epees", "lankhmar")
REPORT = ROOT / "build" / "essai-rapport.json"


def rule_pages(site_dir: Path) -> list[str]:
    """The systems' pages, without the print page the build adds to each system
    (regles/features/printing/printing.py, tests/test_print_browser.py)."""
    return sorted(
        p.relative_to(site_dir).as_posix()
        for folder in SYSTEM_FOLDERS
        for p in (site_dir / folder).rglob("index.html")
        if p.parent.name != "imprimer"
    )


def soup(site_dir: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site_dir / page).read_text(encoding="utf-8"), "html.parser")


def all_pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


def test_no_file_is_left_out_of_the_pages_artifact(site_dir: Path) -> None:
    # actions/upload-pages-artifact (v4 on) leaves out every file or folder whose name starts
    # with a dot: such a file would build here and be missing from the published site.
    hidden = [path.relative_to(site_dir).as_posix() for path in site_dir.rglob(".*")]
    assert hidden == [], hidden
    assert (site_dir / "index.html").is_file()


def test_every_page_is_french(site_dir: Path) -> None:
    for page in all_pages(site_dir):
        html = soup(site_dir, str(page.relative_to(site_dir)))
        assert html.html is not None and html.html.get("lang") == "fr", page


def test_the_footer_credits_the_generator_in_french(site_dir: Path) -> None:
    for page in ("index.html", "jeu/combat/index.html"):
        footer = soup(site_dir, page).select_one(".md-copyright")
        assert footer is not None, page
        text = " ".join(footer.get_text(" ").split())
        assert "Site fait avec le générateur « regles », sur Material for MkDocs" in text, text
        assert "Made with" not in text
        material = footer.select_one("a[lang=en]")
        assert material is not None and material.get_text(strip=True) == "Material for MkDocs"


def test_no_page_asks_another_origin_for_anything(site_dir: Path) -> None:
    external = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
    for page in all_pages(site_dir):
        html = soup(site_dir, str(page.relative_to(site_dir)))
        for tag, attribute in (
            ("script", "src"),
            ("link", "href"),
            ("img", "src"),
            ("iframe", "src"),
            ("source", "src"),
        ):
            for element in html.find_all(tag):
                value = element.get(attribute) or ""
                if tag == "link" and element.get("rel") in (["canonical"], ["alternate"]):
                    continue  # the page's own address, not a request
                assert not external.match(value), f"{page}: {tag} {value}"
    css = "\n".join(p.read_text(encoding="utf-8") for p in site_dir.rglob("*.css"))
    assert "fonts.googleapis" not in css and "fonts.gstatic" not in css


def assert_structured(site_dir: Path, pages: list[str]) -> None:
    """Each page has one title and sections."""
    for page in pages:
        article = soup(site_dir, page).select_one("article")
        assert article is not None, page
        assert len(article.find_all("h1")) == 1, page
        assert article.find_all("h2"), page


def assert_references_link(site_dir: Path, page: str, words: str, target: str) -> None:
    """A « Section » reference of `page` is a link to `target` (relative)."""
    html = soup(site_dir, page)
    targets = {a.get_text(): a.get("href") for a in html.select("article a[href]")}
    assert targets.get(words, "").startswith(target), targets


def assert_unresolved_are_reported(site_dir: Path, page: str, report: Path) -> None:
    """The references of the source documents to pages no site has stay text on `page`, and
    the build report names them (with kind and subject)."""
    for link in soup(site_dir, page).select("article a[href]"):
        assert "glossaire" not in link.get("href", ""), link
    subjects = {(p["kind"], p["subject"]) for p in json.loads(report.read_text("utf-8"))}
    # Another system's glossary: not linked, and the report says where that title is.
    assert ("mention-autre-systeme", "Glossaire de règles") in subjects
    # The old site's address of the glossary leads to it (old_paths), and is still reported.
    assert ("lien-ancien-site", "influencer") in subjects
    assert any(s == "Special Purpose of Sentient Swords" for _, s in subjects)


def assert_pages_fit_the_screen(browser: Any, site_url: str, paths: list[str], width: int) -> None:
    """At `width` px, no page of `paths` is wider than the screen, nor asks another origin."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    origin = urlparse(site_url).netloc
    elsewhere: list[str] = []
    page.on(
        "request", lambda r: urlparse(r.url).netloc not in (origin, "") and elsewhere.append(r.url)
    )
    for path in paths:
        page.goto(site_url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path}: la page déborde de {overflow} px à {width} px"
    context.close()
    assert elsewhere == []


def test_rule_pages_have_structure(site_dir: Path) -> None:
    pages = rule_pages(site_dir)
    assert len(pages) == 11  # jeu/glossaire.md among them
    assert_structured(site_dir, pages)


def test_cross_references_become_links(site_dir: Path) -> None:
    assert_references_link(
        site_dir, "jeu/caracteristiques/index.html", "Tests d20", "../tests-d20/"
    )


def test_conditions_are_anchors_that_links_reach(site_dir: Path) -> None:
    html = soup(site_dir, "jeu/degats-et-soins/index.html")
    assert html.select_one("#etat-a-terre") is not None
    assert html.select_one("#etat-epuisement") is not None


def test_unresolved_references_are_plain_text_and_reported(site_dir: Path) -> None:
    assert_unresolved_are_reported(site_dir, "jeu/tests-d20/index.html", REPORT)


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_pages_fit_the_screen_and_stay_on_the_origin(
    browser: Any, site_dir: Path, site_url: str, width: int
) -> None:
    paths = [p.removesuffix("index.html") for p in rule_pages(site_dir)]
    others = ["installer/", "sorts/index-des-sorts/", "sorts/acoustique/"]
    assert_pages_fit_the_screen(browser, site_url, ["", *paths, *others], width)


# Each calculator's home page in the test site: the first page of a system, in nav order,
# that places its block. The tools page is outside every system.
CALCULATOR_HOMES = {
    "modificateur": "jeu/caracteristiques/",
    "chance": "jeu/tests-d20/",
    "maitrise": "jeu/maitrise/",
    "deplacement": "jeu/combat/",
    "blessure": "jeu/degats-et-soins/",
    "soins": "jeu/degats-et-soins/",
    "survie": "jeu/degats-et-soins/",
    "charge": "maison/poids-transportable/",
    "volonte": "epees/epees-intelligentes/",
    "rituel": "lankhmar/epees-et-pmt/",
    "tirage": "lankhmar/epees-et-pmt/",
}


def assert_blocks_link_to_their_home(
    site_dir: Path, tools: str, homes: dict[str, str], calculators: list[str]
) -> None:
    """Every calculator of `calculators` (the site's ids) is on the page `tools`; each one of
    `homes` (calculator → its home page) is on its home page too, without a link there, and
    on `tools` behind a link to it; the others have no home and no link."""
    page = soup(site_dir, tools)
    assert set(homes) <= set(calculators)
    for calc_id in calculators:
        form = f"form[data-calculateur='{calc_id}']"
        assert page.select_one(form) is not None, calc_id
        home = homes.get(calc_id)
        link = page.select_one(f"p.calculateur-regle:has(+ {form}) a")
        if home is None:
            assert link is None, calc_id
            continue
        at_home = soup(site_dir, f"{home}index.html")
        assert at_home.select_one(form) is not None, calc_id
        assert at_home.select_one(f"p.calculateur-regle:has(+ {form})") is None, home
        assert link is not None and link["href"] == f"../{home}", calc_id


def test_a_block_outside_its_home_page_links_to_it(site_dir: Path) -> None:
    # The dice are placed on the tools page only: no home.
    calculators = [str(entry["id"]) for entry in rules_of_test_site().catalog()]
    assert "dice" in calculators and "dice" not in CALCULATOR_HOMES
    assert_blocks_link_to_their_home(site_dir, "outils/index.html", CALCULATOR_HOMES, calculators)
