"""Paper, in real Chromium: `page.pdf()` of the test site's pages, read back with pypdf.

A rule page prints without the site around its text and with each link's target; a
calculator prints the inputs the reader typed and their results; spells print as cards, each
card on one sheet; a system's print page holds every heading of its pages, in the nav's order.
What is expected is read from the pages themselves (their DOM, the built HTML), not written here.
"""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

pytestmark = pytest.mark.browser

SYSTEM = "jeu"  # a system folder of the test site (tests/site/mkdocs.yml)
RULE_PAGE = "jeu/combat/"
CALCULATOR_PAGE = "maison/poids-transportable/"
GROUP_PAGE = "sorts/acoustique/"
LISTS_PAGE = "sorts/grimoire/"


def pdf_pages(page: Any) -> list[str]:
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    return [sheet.extract_text() or "" for sheet in reader.pages]


def squeezed(text: str) -> str:
    """Text without any white space (PDF text breaks lines where the page did) nor soft
    hyphens, with typographic apostrophes as they come out of the PDF."""
    return re.sub(r"[\s\u00ad]+", "", text)


def opened(browser: Any, url: str, **options: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **options)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    return context, page


def test_a_rule_page_prints_its_text_and_its_links_targets(browser: Any, site_url: str) -> None:
    context, page = opened(browser, site_url + RULE_PAGE, color_scheme="dark")
    screen = page.evaluate(
        """() => ({
            header: document.querySelector('.md-header').innerText,
            nav: [...document.querySelectorAll('.md-sidebar--primary .md-nav__link')]
                .map((a) => a.innerText.trim()).filter((t) => t.length > 3),
            targets: [...document.querySelectorAll('article a[data-cible]')]
                .map((a) => a.dataset.cible),
            search: document.querySelector('.md-search__input').placeholder,
        })"""
    )
    title = page.locator("article h1").inner_text().replace("¶", "").strip()
    text = squeezed("".join(pdf_pages(page)))
    assert squeezed(title) in text
    # What only the site around the text says: its name in the header, the search box.
    assert squeezed(screen["header"].split("\n")[0]) not in text
    assert squeezed(screen["search"]) not in text
    # The pages the nav names and the printed text does not (the article, the targets).
    printed = squeezed(page.inner_text("article") + "".join(screen["targets"]))
    nav_only = [t for t in screen["nav"] if squeezed(t) not in printed]
    assert nav_only, "la nav devrait nommer des pages que l’article ne nomme pas"
    assert [t for t in nav_only if squeezed(t) in text] == []
    assert "Téléchargement" not in text
    assert screen["targets"], "la page d’essai a des renvois"
    assert [t for t in screen["targets"] if squeezed(f"({t})") not in text] == []
    context.close()


def test_a_dark_page_prints_on_white(browser: Any, site_url: str) -> None:
    context, page = opened(browser, site_url + RULE_PAGE, color_scheme="dark")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    colours = page.evaluate(
        """() => [getComputedStyle(document.body).backgroundColor,
                  getComputedStyle(document.querySelector('article p')).color]"""
    )
    assert colours[0] == "rgb(255, 255, 255)"
    assert colours[1] in ("rgb(0, 0, 0)", "rgba(0, 0, 0, 0.87)")
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"
    context.close()


@pytest.mark.python  # the results printed are Python's, for the values typed
def test_a_calculator_prints_its_inputs_and_results(browser: Any, site_url: str) -> None:
    context, page = opened(browser, site_url + CALCULATOR_PAGE)
    form = page.locator("form.calculateur").first
    form.scroll_into_view_if_needed()
    field = form.locator("input[name=strength]")
    field.wait_for(state="visible")
    before = form.locator(".calculateur-resultats").inner_text()
    field.fill("7")
    page.wait_for_function(
        "(before) => document.querySelector('form.calculateur .calculateur-resultats')"
        ".innerText !== before",
        arg=before,
        timeout=60_000,
    )
    results = form.locator(".calculateur-resultats dd").all_inner_texts()
    assert results
    text = squeezed("".join(pdf_pages(page)))
    label = form.locator("label[for$=-strength]").inner_text()
    assert squeezed(f"{label}:7") in text, "le champ imprimé avec sa valeur saisie"
    assert [r for r in results if r.strip() and squeezed(r) not in text] == []
    assert "Retirer" not in text and "Ajouter" not in text  # the form's buttons
    context.close()


def cards_on_one_sheet(sheets: list[str], cards: list[dict[str, str]]) -> None:
    """Each card's text starts and ends on the same sheet (a spell's name may recur in
    other spells' texts: its card is where its own text starts), with its name."""
    squeezed_sheets = [squeezed(s) for s in sheets]
    for card in cards:
        body = squeezed(card["text"])
        start, end = body[:80], body[-40:]
        where = [i for i, s in enumerate(squeezed_sheets) if start in s]
        assert len(where) == 1, f"le début de « {card['name']} » sur les feuilles {where}"
        sheet = squeezed_sheets[where[0]]
        assert end in sheet, f"la carte « {card['name']} » est coupée"
        assert squeezed(card["name"]) in sheet


def test_entries_of_a_shared_list_print_as_cards(
    browser: Any, site_url: str, site_dir: Path
) -> None:
    records = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    chosen = records[:3]
    ids = ",".join(r["id"] for r in chosen)
    context, page = opened(browser, f"{site_url}{LISTS_PAGE}?nom=Essai&sorts={ids}")
    page.wait_for_selector("#reader-lists[data-list-ready]")
    cards = page.evaluate(
        """() => [...document.querySelectorAll('.list-entries .list-entry')].map((c) => ({
            name: c.querySelector('.list-entry__name a, .list-entry__name').firstChild
                .textContent,
            text: c.querySelector('.list-entry__description').innerText }))"""
    )
    assert [c["name"].strip() for c in cards] == [r["name"] for r in chosen]
    assert page.locator(".regles-impression-choix input[value=cartes]").is_checked()
    sheets = pdf_pages(page)
    cards_on_one_sheet(sheets, cards)
    assert "Garder ce grimoire" not in "".join(sheets)
    context.close()


def test_ones_own_list_prints_its_name_not_the_screens_help(
    browser: Any, site_url: str, site_dir: Path
) -> None:
    records = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    chosen = [{k: r[k] for k in ("id", "url", "name", "group")} for r in records[:3]]
    context, page = opened(browser, f"{site_url}{LISTS_PAGE}")
    intro = page.locator(".list-intro").inner_text()
    data = {"version": 2, "last": "Aldric", "lists": [{"name": "Aldric", "entries": chosen}]}
    key = "regles-lists:" + urlsplit(site_url).path  # lists.js's storeKey
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(data)])
    page.reload()
    page.wait_for_selector("#reader-lists.reader-lists--with-entries[data-list-ready]")
    expect(page.locator(".list-print-title")).to_be_hidden()  # on screen: the controls
    text = squeezed("".join(pdf_pages(page)))
    assert squeezed("Grimoire « Aldric » (3 sorts)") in text
    assert squeezed(intro)[:40] not in text
    assert all(squeezed(r["name"]) in text for r in chosen)
    context.close()


def test_the_home_page_prints_its_text_not_its_quick_links(browser: Any, site_url: str) -> None:
    context, page = opened(browser, site_url)
    grid = page.locator("nav.regles-accueil-liens")
    assert grid.locator("a").count() >= 3
    intro = page.locator("article h1 + p").inner_text()
    text = squeezed("".join(pdf_pages(page)))
    assert squeezed(intro)[:60] in text  # the owner's text
    page.emulate_media(media="print")
    expect(grid).to_be_hidden()  # a phone's way about the site, not paper's
    context.close()


def test_the_dice_of_the_text_print_as_words(browser: Any, site_url: str) -> None:
    # « vous lancez 2d4 pour les dégâts » : the dice are buttons on screen (a tap rolls them),
    # and words of the sentence on paper.
    context, page = opened(browser, f"{site_url}jeu/degats-et-soins/")
    # Each dice with the words of its sentence around it (text only: a link's target is
    # written after it on paper).
    phrases = page.eval_on_selector_all(
        "article button.de",
        """bs => bs.map(b => {
            const side = (node) =>
                node && node.nodeType === Node.TEXT_NODE ? node.textContent : "";
            return side(b.previousSibling).slice(-20) + b.textContent
                + side(b.nextSibling).slice(0, 12);
        })""",
    )
    assert phrases
    text = squeezed("".join(pdf_pages(page)))
    for phrase in phrases:
        assert squeezed(phrase) in text, phrase
    context.close()


def test_the_entry_index_prints_its_column_names(browser: Any, site_url: str) -> None:
    # Its headers are the sort buttons, and buttons do not print: their names do.
    context, page = opened(browser, f"{site_url}sorts/index-des-sorts/")
    page.wait_for_selector("#entry-table[data-index-active]")
    names = page.eval_on_selector_all("#entry-table th", "ths => ths.map(t => t.innerText.trim())")
    assert len(names) >= 5 and all(names), names
    first = squeezed(pdf_pages(page)[0])
    assert squeezed("".join(names)) in first
    # A name is not followed by its target: its college, the next column, says it.
    name = page.locator("#entry-table tbody tr td:first-child a").first.inner_text()
    assert squeezed(name) in first and squeezed(f"{name} (→") not in first
    context.close()


def test_a_group_prints_as_cards_or_as_a_list_by_choice(browser: Any, site_url: str) -> None:
    context, page = opened(browser, site_url + GROUP_PAGE)
    cards = page.evaluate(
        """() => [...document.querySelectorAll('article h2.entry')].map((h) => {
            let text = '';
            for (let n = h.nextElementSibling; n && !/^H[12]$/.test(n.tagName);
                 n = n.nextElementSibling) if (n.matches('p:not(.niveaux)')) text += n.innerText;
            return { name: h.firstChild.textContent, text };
        })"""
    )
    assert len(cards) > 8  # more than one sheet of cards
    count = "document.querySelectorAll('.regles-carte').length"
    assert page.evaluate(f"dispatchEvent(new Event('beforeprint')), {count}") == 0  # a list
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.locator(".regles-impression-choix input[value=cartes]").check()
    assert page.evaluate(f"dispatchEvent(new Event('beforeprint')), {count}") == len(cards)
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    sheets = pdf_pages(page)
    assert len(sheets) > 1
    cards_on_one_sheet(sheets, cards)
    assert page.locator(".regles-carte").count() == 0, "les cartes défaites après l’impression"
    # The choice is kept for the next page of spells.
    again = context.new_page()
    again.goto(site_url + GROUP_PAGE)
    assert again.locator(".regles-impression-choix input[value=cartes]").is_checked()
    context.close()


class Headings(HTMLParser):
    """The headings of a built page's article, and its ids."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.ids: list[str] = []
        self.sections: list[str] = []
        self._in: int | None = None
        self._article = 0
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if named.get("id"):
            self.ids.append(named["id"] or "")
        if tag == "article":
            self._article += 1
        if tag == "section" and named.get("data-page"):
            self.sections.append(named["data-page"] or "")
        if self._article and re.fullmatch(r"h[1-6]", tag):
            self._in = int(tag[1])
            self.headings.append((self._in, ""))
        if self._in is not None and tag == "a" and "headerlink" in (named.get("class") or ""):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article -= 1
        if tag == "a" and self._skip:
            self._skip -= 1
        if self._in is not None and tag == f"h{self._in}":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None and not self._skip:
            level, text = self.headings[-1]
            self.headings[-1] = (level, text + data)


def read(path: Path) -> Headings:
    parser = Headings()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def nav_pages(site_dir: Path, folder: str) -> list[str]:
    """The system's pages in the nav's order, as the home page's nav links them."""
    home = (site_dir / "index.html").read_text(encoding="utf-8")
    nav = home[home.find('class="md-nav md-nav--primary"') :]
    order: list[str] = []
    for href in re.findall(r'class="md-nav__link[^"]*"[^>]*href="([^"#]*)"', nav) + re.findall(
        r'href="([^"#]*)"[^>]*class="md-nav__link', nav
    ):
        path = href.removeprefix("./")
        if path.startswith(folder + "/") and path not in order:
            order.append(path)
    return order


def test_a_system_prints_whole_from_its_print_page(site_dir: Path) -> None:
    printed = read(site_dir / SYSTEM / "imprimer" / "index.html")
    pages = [p for p in nav_pages(site_dir, SYSTEM) if p != f"{SYSTEM}/imprimer/"]
    assert len(pages) > 3
    expected: list[tuple[int, str]] = []
    for page in pages:
        expected += [
            (min(level + 1, 6), text)
            for level, text in read(site_dir / page / "index.html").headings
        ]
    assert printed.headings[1:] == expected
    assert printed.headings[0][1].startswith("Imprimer")
    assert len(printed.ids) == len(set(printed.ids)), "des ancres en double"
    hrefs = re.findall(
        r'href="#([^"]+)"',
        (site_dir / SYSTEM / "imprimer" / "index.html").read_text(encoding="utf-8"),
    )
    assert set(hrefs) - set(printed.ids) == set(), "des liens internes sans cible"
    first = (site_dir / pages[0] / "index.html").read_text(encoding="utf-8")
    assert re.search(r'class="regles-imprimer-lien"><a href="[^"]*imprimer/"', first)


def test_the_print_page_prints_every_heading(browser: Any, site_url: str, site_dir: Path) -> None:
    printed = read(site_dir / SYSTEM / "imprimer" / "index.html")
    context, page = opened(browser, f"{site_url}{SYSTEM}/imprimer/")
    text = squeezed("".join(pdf_pages(page)))
    assert [h for _, h in printed.headings if squeezed(h) not in text] == []
    context.close()
