"""The spell index and spell previews in real Chromium, with the test site under a sub-path.

The site is served as `http://127.0.0.1:<port>/regles/` (as on GitHub Pages): a URL built
from « / » would miss, and every request is checked to stay under that prefix. Expected
counts and orders are computed here in Python from data/spells.json.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from regles.core.typography import spaced_text
from tests.conftest import (
    build_site,
    is_the_marked_document,
    mark_the_document,
    serve,
    shown_preview,
)
from tests.test_entries_site import HOSTILE_NAME, build_hostile_site

pytestmark = pytest.mark.browser

PREFIX = "regles"
INDEX = "sorts/index-des-sorts/"  # the test site's spell index (tests/site/mkdocs.yml)
ENTRIES = 79  # in the test site's export
READY = "#entry-table[data-index-active]"
VISIBLE = "#entry-table tbody tr:not([hidden])"
SHOTS = Path("/tmp/spells-shots")  # screenshots of the phone journeys, to look at
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
INDEX_FIELDS = ("Classe", "Durée", "Temps", "Résistance")
# What the page calls them: what they hold, not the export's bare keys.
INDEX_LABELS = {"Classe": "Classe de sort", "Résistance": "Résistance du sort"}


# ---------------------------------------------------------------------------------------
# Python twins of the page's rules
# ---------------------------------------------------------------------------------------


def fold(text: str) -> str:
    text = unicodedata.normalize("NFD", text)
    text = "".join(c for c in text if not unicodedata.category(c).startswith("M")).lower()
    for old, new in (("’", "'"), ("‘", "'"), ("œ", "oe"), ("æ", "ae")):
        text = text.replace(old, new)
    return " ".join(text.split())


def base_resistance(value: str) -> str:
    base = value.strip()
    while True:
        shorter = re.sub(r"\s*[+\-−]\s*(?:\d+|[A-ZÀ-Ý][\w’']*)\s*$", "", base)
        if shorter == base:
            return base or value.strip()
        base = shorter


def haystack(entry: dict[str, Any]) -> str:
    fields = entry["fields"]
    return fold(
        " ".join([entry["name"], entry["group"], *(fields.get(k, "") for k in INDEX_FIELDS)])
    )


def matches(entry: dict[str, Any], query: str) -> bool:
    return all(word in haystack(entry) for word in fold(query).split())


def overlaps(entry: dict[str, Any], low: int, high: int) -> bool:
    return entry["level_max"] >= low and entry["level_min"] <= high


# ---------------------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------------------


def serve_under_prefix(site: Path, holder: Path) -> tuple[Any, str]:
    holder.mkdir(parents=True, exist_ok=True)
    (holder / PREFIX).symlink_to(site, target_is_directory=True)
    server, url = serve(holder)
    return server, f"{url}/{PREFIX}/"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The site built for, and served at, `http://127.0.0.1:<port>/regles/`.

    Built with SITE_URL set to that address, as the Pages workflow does: Material's instant
    navigation only takes over links listed in sitemap.xml, which holds SITE_URL.
    """
    holder = tmp_path_factory.mktemp("sous-chemin")
    server, url = serve(holder)
    site = holder / PREFIX
    previous = os.environ.get("SITE_URL")
    os.environ["SITE_URL"] = f"{url}/{PREFIX}/"
    try:
        result = build_site(site)
    finally:
        if previous is None:
            del os.environ["SITE_URL"]
        else:
            os.environ["SITE_URL"] = previous
    if result.returncode != 0:
        server.shutdown()
        pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")
    yield f"{url}/{PREFIX}/", site
    server.shutdown()


@pytest.fixture(scope="module")
def base(served: tuple[str, Path]) -> str:
    return served[0]


@pytest.fixture(scope="module")
def entries(served: tuple[str, Path]) -> list[dict[str, Any]]:
    data = json.loads((served[1] / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    assert len(data) == ENTRIES
    return data


class Tab:
    """One page of a fresh context, with the requests and errors it produced."""

    def __init__(self, browser: Any, base: str, width: int, **options: Any) -> None:
        self.base = base
        self.context = browser.new_context(
            viewport={"width": width, "height": 800}, service_workers="block", **options
        )
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        # Uncaught errors raised by the site's script (once one file per concern, now one
        # bundle: its errors name the bundle, whichever module raised them).
        self.page.on(
            "pageerror",
            lambda e: "/assets/js/" in f"{e.stack}" and self.errors.append(f"{e}\n{e.stack}"),
        )

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path)
        if path.startswith(INDEX):
            self.page.wait_for_selector(READY, state="attached")
        return self.page

    def visible_names(self) -> list[str]:
        return self.page.eval_on_selector_all(
            VISIBLE, "rows => rows.map(r => r.cells[0].textContent.trim())"
        )

    def visible_urls(self) -> list[str]:
        """Visible rows as spells.json URLs (`sorts/<college>/#<slug>`)."""
        hrefs = self.page.eval_on_selector_all(
            VISIBLE, "rows => rows.map(r => r.cells[0].querySelector('a').href)"
        )
        return [h.removeprefix(self.base) for h in hrefs]

    def query(self) -> dict[str, list[str]]:
        return parse_qs(urlsplit(self.page.url).query)

    def wait_count(self, expected: int) -> None:
        self.page.wait_for_function(
            "n => document.querySelectorAll(" + json.dumps(VISIBLE) + ").length === n",
            arg=expected,
            timeout=5000,
        )

    def close(self) -> None:
        self.context.close()
        outside = [
            u
            for u in self.requests
            if not u.startswith(self.base) and not u.startswith(("data:", "blob:", "about:"))
        ]
        assert outside == [], f"requêtes hors du sous-chemin : {outside}"
        assert self.errors == [], self.errors


@pytest.fixture
def tab(browser: Any, base: str) -> Iterator[Callable[..., Tab]]:
    opened: list[Tab] = []

    def make(width: int = 1280, **options: Any) -> Tab:
        opened.append(Tab(browser, base, width, **options))
        return opened[-1]

    yield make
    for t in opened:
        t.close()


def expected_urls(
    entries: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]
) -> list[str]:
    return [s["url"] for s in entries if keep(s)]


# ---------------------------------------------------------------------------------------
# Filters
# ---------------------------------------------------------------------------------------


def test_text_filter_is_accent_and_case_insensitive(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    page = t.open(INDEX)
    assert len(t.visible_urls()) == ENTRIES
    assert page.text_content("#index-compte") == f"{ENTRIES} sorts sur {ENTRIES}"

    # « Élémentaire » is in the names of two colleges and of a few spells.
    elementaire = expected_urls(entries, lambda s: matches(s, "elementaire"))
    assert 7 < len(elementaire) < ENTRIES
    page.locator("#index-texte").press_sequentially("ELEMENTAIRE", delay=10)  # instant
    t.wait_count(len(elementaire))
    assert sorted(t.visible_urls()) == sorted(elementaire)
    assert page.text_content("#index-compte") == f"{len(elementaire)} sorts sur {ENTRIES}"

    # Accented query, other case, several words in any order: the same fold, each word.
    page.fill("#index-texte", "SONORE blast")
    t.wait_count(1)
    assert t.visible_names() == ["Blast sonore"]
    page.fill("#index-texte", "écouter À TRAVERS")
    expected = expected_urls(entries, lambda s: matches(s, "ecouter a travers"))
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected) and expected

    # A field value: « San » as a resistance, folded like the names.
    page.fill("#index-texte", "san")
    expected = expected_urls(entries, lambda s: matches(s, "san"))
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected)

    page.fill("#index-texte", "zzz introuvable")
    t.wait_count(0)
    assert page.is_visible(".index-empty")
    assert page.text_content("#index-compte") == f"0 sort sur {ENTRIES}"
    page.click(".index-empty button")
    t.wait_count(ENTRIES)
    assert page.input_value("#index-texte") == ""


def test_an_entry_named_by_the_words_comes_before_its_group_s_others(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    """At 360 × 800, typed with the keyboard: « eau » is in the name of a college, whose
    spells all match, and in a few spells' own names; those come first, in the export's
    order, then the others. Emptied, the field gives the export's order back."""
    t = tab(360, has_touch=True)
    page = t.open(INDEX)
    before = t.visible_urls()
    expected = expected_urls(entries, lambda s: matches(s, "eau"))
    named = [s["url"] for s in entries if "eau" in fold(s["name"])]
    assert 0 < len(named) < len(expected)
    page.locator("#index-texte").tap()
    page.keyboard.type("eau", delay=30)
    t.wait_count(len(expected))
    page.wait_for_function(
        "first => document.querySelector(" + json.dumps(VISIBLE) + " + ' a').href.endsWith(first)",
        arg=named[0],
    )
    shown = t.visible_urls()
    assert shown[: len(named)] == named and sorted(shown) == sorted(expected), shown
    for _ in range(3):
        page.keyboard.press("Backspace")
    t.wait_count(ENTRIES)
    assert t.visible_urls() == before


def test_description_search_loads_the_data_once(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    page = t.open(INDEX)
    assert not [u for u in t.requests if u.endswith("bases/sorts.json")]  # nothing loaded up front
    word = "surdite"
    plain = {s["url"]: fold(re.sub(r"[*_\\]", "", s["description"])) for s in entries}
    raw = {s["url"]: fold(s["description"]) for s in entries}
    assert all((word in plain[u]) == (word in raw[u]) for u in plain)
    page.fill("#index-texte", word)
    in_table = expected_urls(entries, lambda s: matches(s, word))
    t.wait_count(len(in_table))
    page.check("#index-desc")
    expected = expected_urls(
        entries,
        lambda s: (
            word in haystack(s)
            or word in plain[s["url"]]
            or any(word in fold(v) for v in s["fields"].values())
        ),
    )
    assert len(expected) > len(in_table)
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected)
    assert t.query()["desc"] == ["1"]
    loads = [u for u in t.requests if u.endswith("bases/sorts.json")]
    assert loads == [t.base + "data/bases/sorts.json"]


def test_on_a_phone_no_entry_left_offers_to_search_the_descriptions(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    # The descriptions' box is folded away on a phone: a word that only descriptions hold
    # finds nothing, and the empty list offers that search.
    t = tab(360, has_touch=True, is_mobile=True)
    page = t.open(INDEX)
    word = "sonar"
    in_descriptions = expected_urls(entries, lambda s: word in fold(s["description"]))
    assert in_descriptions and not expected_urls(entries, lambda s: matches(s, word))
    page.fill("#index-texte", word)
    t.wait_count(0)
    offer = page.get_by_role("button", name="Chercher aussi dans les descriptions")
    expect(offer).to_be_visible()
    box = offer.bounding_box()
    assert box is not None and box["height"] >= 44
    offer.tap()
    t.wait_count(len(in_descriptions))
    assert sorted(t.visible_urls()) == sorted(in_descriptions)
    assert t.query()["desc"] == ["1"]
    # Without words typed, no such offer: only « Tout réafficher ».
    page.fill("#index-texte", "")
    # The first tap on the fold button opens it, though it takes the focus from the text
    # field (whose « change » then redraws the button's count).
    toggle = page.locator("button.index-fold")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.select_option("#index-groupe", "acoustique")
    page.select_option("#index-classe", "Enchantement")
    t.wait_count(0)
    expect(page.get_by_role("button", name="Tout réafficher")).to_be_visible()
    expect(offer).to_be_hidden()


def test_group_and_levels_combine_and_live_in_the_url(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    page = t.open(INDEX)
    page.select_option("#index-groupe", "elementaire-eau")
    page.select_option("#index-min", "2")
    page.select_option("#index-max", "3")

    def keep(s: dict[str, Any]) -> bool:
        return s["group_slug"] == "elementaire-eau" and overlaps(s, 2, 3)

    expected = expected_urls(entries, keep)
    assert 0 < len(expected) < sum(s["group_slug"] == "elementaire-eau" for s in entries)
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected)
    assert t.query() == {"groupe": ["elementaire-eau"], "min": ["2"], "max": ["3"]}
    assert urlsplit(page.url).path == f"/{PREFIX}/{INDEX}"

    # Classe, Résistance and « temps long » narrow the same list further.
    page.select_option("#index-min", "1")
    page.select_option("#index-groupe", "")
    page.select_option("#index-classe", "Zone")
    page.select_option("#index-resistance", "Vol")
    expected = expected_urls(
        entries,
        lambda s: (
            overlaps(s, 1, 3)
            and "Zone" in s["fields"].get("Classe", "").split()
            and base_resistance(s["fields"].get("Résistance", "")) == "Vol"
        ),
    )
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected)
    page.select_option("#index-classe", "")
    page.check("#index-long")
    expected = expected_urls(
        entries,
        lambda s: (
            overlaps(s, 1, 3)
            and base_resistance(s["fields"].get("Résistance", "")) == "Vol"
            and s["fields"].get("Temps", "").split(" ")[0].rstrip(",.").casefold() == "long"
        ),
    )
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected) and expected
    assert t.query() == {"max": ["3"], "resistance": ["Vol"], "long": ["1"]}

    # The URL is the state: reloading it, or opening it elsewhere, gives the same list.
    shared = page.url
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.input_value("#index-max") == "3" and page.input_value("#index-resistance") == "Vol"
    assert page.is_checked("#index-long")
    assert sorted(t.visible_urls()) == sorted(expected)
    other = tab(360)
    other.open(shared.removeprefix(t.base))
    assert sorted(other.visible_urls()) == sorted(expected)

    page.click("button.index-clear")
    t.wait_count(ENTRIES)
    assert t.query() == {}
    # The levels offered are the export's own, from its lowest to its highest.
    highest = max(s["level_max"] for s in entries)
    assert page.input_value("#index-min") == "1" and page.input_value("#index-max") == str(highest)


def test_a_link_made_before_0_4_still_filters_and_sorts_by_group(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    # 0.3 named the group's filter and column « college » in the address.
    t = tab()
    page = t.open(INDEX + "?college=acoustique&tri=college&ordre=desc&min=2")
    acoustique = [
        s["url"] for s in entries if s["group_slug"] == "acoustique" and s["level_max"] >= 2
    ]
    assert acoustique and sorted(t.visible_urls()) == sorted(acoustique)
    assert page.input_value("#index-groupe") == "acoustique"
    header = page.locator("#entry-table th", has_text="Collège")
    assert header.get_attribute("aria-sort") == "descending"
    # The next change writes the address with today's names, the filter and sort kept.
    page.select_option("#index-min", "1")
    t.wait_count(sum(s["group_slug"] == "acoustique" for s in entries))
    assert t.query() == {"groupe": ["acoustique"], "tri": ["groupe"], "ordre": ["desc"]}


def test_sorting_by_level_is_stable_both_ways(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    page = t.open(INDEX + "?groupe=acoustique")
    acoustique = [s for s in entries if s["group_slug"] == "acoustique"]
    header = page.locator("#entry-table th", has_text="Niveaux")
    assert header.get_attribute("aria-sort") is None
    header.locator("button").click()
    ascending = sorted(acoustique, key=lambda s: (s["level_min"], s["level_max"]))
    assert t.visible_urls() == [s["url"] for s in ascending]
    assert header.get_attribute("aria-sort") == "ascending"
    assert t.query()["tri"] == ["niveaux"]
    assert ascending != acoustique  # the export order is not already sorted

    header.locator("button").press("Enter")  # keyboard: the same button
    descending = sorted(acoustique, key=lambda s: (-s["level_min"], -s["level_max"]))
    assert t.visible_urls() == [s["url"] for s in descending]
    assert header.get_attribute("aria-sort") == "descending"
    assert t.query()["ordre"] == ["desc"]

    # Sorting applies to every row, the hidden ones too: widening the filter keeps the order.
    page.select_option("#index-groupe", "")
    t.wait_count(ENTRIES)
    every = sorted(entries, key=lambda s: (-s["level_min"], -s["level_max"]))
    assert t.visible_urls() == [s["url"] for s in every]

    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert t.visible_urls() == [s["url"] for s in every]
    assert page.get_attribute("#entry-table th:nth-child(3)", "aria-sort") == "descending"

    name = page.locator("#entry-table th", has_text="Nom")
    name.locator("button").focus()
    page.keyboard.press("Enter")
    assert name.get_attribute("aria-sort") == "ascending"
    assert header.get_attribute("aria-sort") is None
    names = t.visible_names()
    french = page.evaluate(
        "names => [...names].sort((a, b) => a.localeCompare(b, 'fr', {numeric: true}))", names
    )
    assert names == french and names[0] < names[-1]


# ---------------------------------------------------------------------------------------
# Hostile query strings
# ---------------------------------------------------------------------------------------


def test_query_values_are_only_filter_values(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    payload = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
    hostile = quote(payload)
    page = t.open(
        f"{INDEX}?texte={hostile}&groupe={hostile}&classe=%22%3E%3Cimg%20src%3Dx%3E"
        f"&min=0&max=99&tri=%3Cb%3E&resistance=constructor"
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.input_value("#index-texte") == payload  # shown as the text it is
    assert page.locator("article img, article script").count() == 0
    assert page.input_value("#index-groupe") == ""  # unknown values are ignored
    assert page.input_value("#index-classe") == "" and page.input_value("#index-resistance") == ""
    highest = max(s["level_max"] for s in entries)
    assert (page.input_value("#index-min"), page.input_value("#index-max")) == ("1", str(highest))
    assert page.locator("#entry-table th[aria-sort]").count() == 0
    t.wait_count(0)
    assert t.query() == {"texte": [payload]}  # the URL now holds only what is applied
    # Material's own search (`?q=`) is left alone: the filters do not use that name.
    assert not page.is_checked("#__search")


def test_hostile_export_text_stays_text_in_the_page_and_preview(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = build_hostile_site(tmp_path_factory)
    server, url = serve_under_prefix(site, tmp_path_factory.mktemp("hostile-served"))
    t = Tab(browser, url, 1280)
    try:
        page = t.open(INDEX + "?texte=pwned")
        t.wait_count(1)
        assert t.visible_names() == [HOSTILE_NAME]
        page.select_option("#index-resistance", index=1)
        options = page.eval_on_selector_all("#index-resistance option", "o => o.map(x => x.text)")
        assert any("<img src=x" in o for o in options)
        page.select_option("#index-resistance", "")
        link = page.locator(VISIBLE + " td:first-child a")
        link.hover()
        preview = page.locator("#entry-preview")
        # « Chargement… » first when the data takes a while (a busy machine): then the entry.
        expect(preview).to_contain_text(HOSTILE_NAME, use_inner_text=True, timeout=30_000)
        assert "<script>window." in preview.inner_text()  # the description, as text
        assert preview.locator("script, img, b, iframe").count() == 0
        assert page.evaluate("window.__pwned") is None
    finally:
        t.close()
        server.shutdown()


# ---------------------------------------------------------------------------------------
# Entry previews
# ---------------------------------------------------------------------------------------


def summary_start(entry: dict[str, Any]) -> str:
    markers = r"\\(.)|\*+|(?<![^\W_])_|_(?![^\W_])"  # as the page: escapes, emphasis
    text = re.sub(markers, lambda m: m.group(1) or "", entry["description"])
    return " ".join(text.split())[:60]


def test_preview_on_hover_and_focus_in_a_group_page(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    by_url = {s["url"]: s for s in entries}
    t = tab()
    page = t.open("sorts/acoustique/")
    preview = page.locator("#entry-preview")
    links = page.locator("article a.entry-link")
    assert links.count() >= 2
    link = links.first
    target = by_url[link.evaluate("a => a.href").removeprefix(t.base)]

    link.hover()
    shown_preview(preview)
    assert preview.get_attribute("role") == "tooltip"
    assert link.get_attribute("aria-describedby") == "entry-preview"
    text = preview.inner_text()
    assert target["name"] in text and target["group"] in text
    low, high = ROMAN[target["level_min"] - 1], ROMAN[target["level_max"] - 1]
    assert (low if low == high else f"{low}–{high}") in text
    assert summary_start(target) in " ".join(text.split())
    for key, value in target["fields"].items():
        assert key in text and value in text
    assert len(preview.locator(".entry-preview__text").inner_text()) <= 201
    assert urlsplit(page.url).path == f"/{PREFIX}/sorts/acoustique/"  # still on the page

    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    assert link.get_attribute("aria-describedby") is None

    # Keyboard: focusing another spell link shows its preview; Escape closes it.
    second = links.nth(1)
    other = by_url[second.evaluate("a => a.href").removeprefix(t.base)]
    page.mouse.move(0, 0)
    second.focus()
    shown_preview(preview)
    assert other["name"] in preview.inner_text()
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    assert second.evaluate("a => document.activeElement === a")  # focus stays on the link

    loads = [u for u in t.requests if u.endswith("bases/sorts.json")]
    assert loads == [t.base + "data/bases/sorts.json"]  # fetched once, under the sub-path


def test_preview_on_homonym_and_index_links(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    by_url = {s["url"]: s for s in entries}
    t = tab()
    page = t.open("sorts/enchantement/")  # its last spell names « Pluie », of two colleges
    homonym = page.locator("article small.homonymes a").first
    entry = by_url[homonym.evaluate("a => a.href").removeprefix(t.base)]
    homonym.hover()
    preview = page.locator("#entry-preview")
    shown_preview(preview)
    assert entry["name"] in preview.inner_text() and entry["group"] in preview.inner_text()
    page.mouse.move(0, 0)
    preview.wait_for(state="hidden")

    # A mention of a spell of another college: its preview, without leaving the page.
    page = t.open("sorts/enchantement/")
    cross = mention_of_another_page(page)
    entry = by_url[cross.evaluate("a => a.href").removeprefix(t.base)]
    assert entry["group_slug"] != "enchantement"
    cross.hover()
    shown_preview(preview)
    assert entry["name"] in preview.inner_text() and entry["group"] in preview.inner_text()
    assert urlsplit(page.url).path == f"/{PREFIX}/sorts/enchantement/"

    page = t.open(INDEX + "?texte=blast")
    page.locator(VISIBLE + " td:first-child a").hover()
    shown_preview(preview)
    assert "Blast sonore" in preview.inner_text() and "Acoustique" in preview.inner_text()


def mention_of_another_page(page: Any) -> Any:
    """The first spell mention of the page's text that links to another page."""
    index = page.evaluate(
        "() => [...document.querySelectorAll('article a.entry-link')]"
        ".findIndex(a => new URL(a.href).pathname !== location.pathname)"
    )
    assert index >= 0
    return page.locator("article a.entry-link").nth(index)


def reached(page: Any, target: str) -> None:
    """The page of `target` is shown with its spell in view. The address's anchor is not
    compared: Material's navigation.tracking rewrites it to the section in view, which on a
    short spell at the end of a page is the next one."""
    page_url, _, anchor = target.partition("#")
    page.wait_for_url(lambda url: url.split("#")[0] == page_url)
    expect(page.locator(f"[id='{anchor}']")).to_be_in_viewport()


def test_a_link_followed_just_after_a_scroll_opens_at_its_entry(tab: Callable[..., Tab]) -> None:
    # Material's navigation.tracking writes the section in view into the address 250 ms
    # after a scroll; the next page, slow to come (1 s of latency here), must still open at
    # the spell linked, not where the page left's section anchor leads (main.html).
    t = tab(360)
    page = t.open("sorts/enchantement/")
    link = mention_of_another_page(page)
    target = link.evaluate("a => a.href")
    cdp = t.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 1000, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    mark_the_document(page)
    link.scroll_into_view_if_needed()
    page.mouse.wheel(0, 40)  # the reader was scrolling
    link.dispatch_event("click")
    reached(page, target)
    assert is_the_marked_document(page)  # instant navigation


def test_touch_first_tap_previews_second_tap_follows(tab: Callable[..., Tab]) -> None:
    t = tab(360, has_touch=True, is_mobile=True)
    page = t.open("sorts/enchantement/")
    link = mention_of_another_page(page)
    target = link.evaluate("a => a.href")
    link.scroll_into_view_if_needed()
    link.tap()
    preview = page.locator("#entry-preview")
    shown_preview(preview)
    page.wait_for_timeout(300)
    assert urlsplit(page.url).path == f"/{PREFIX}/sorts/enchantement/"  # not followed
    assert preview.locator("a.entry-preview__open").is_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    box = preview.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360

    # A tap elsewhere closes it; tapping the link again shows it, a second tap follows.
    page.tap("h1")
    preview.wait_for(state="hidden")
    link.tap()
    shown_preview(preview)
    mark_the_document(page)
    link.tap()
    reached(page, target)
    assert is_the_marked_document(page)  # instant navigation
    preview.wait_for(state="hidden")

    # The « Ouvrir » button of the preview follows too.
    page.go_back()
    page.wait_for_url(re.compile(r"/enchantement/"))
    expect(page.locator("article h1")).to_contain_text("Enchantement")  # its content is in
    link.scroll_into_view_if_needed()  # the same locator, found again on the page back
    link.tap()
    shown_preview(preview)
    preview.locator("a.entry-preview__open").tap()
    reached(page, target)
    preview.wait_for(state="hidden")


# ---------------------------------------------------------------------------------------
# Phone, offline, instant navigation
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [INDEX, INDEX + "?groupe=acoustique&tri=duree", INDEX + "?texte=zzz", "sorts/acoustique/"],
)
def test_no_horizontal_overflow_at_360(tab: Callable[..., Tab], path: str) -> None:
    t = tab(360)
    page = t.open(path)
    page.wait_for_timeout(200)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path}: la page déborde de {overflow} px"
    if path.startswith(INDEX):
        page.click("button.index-fold")  # the filters, folded on a phone
        for selector in (
            "#index-texte",
            "#index-groupe",
            "#index-min",
            "#index-max",
            "#index-classe",
            "#index-resistance",
            "#index-long",
            "#index-desc",
        ):
            label = page.locator(f"label[for='{selector[1:]}']")
            assert label.count() == 1 and label.inner_text().strip(), selector
            box = page.locator(selector).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360


@pytest.mark.parametrize("width", [880, 1280])
def test_the_index_table_fits_a_tablet_and_a_desktop(tab: Callable[..., Tab], width: int) -> None:
    # Its headers wrap (« Niveaux de / puissance »): unwrapped, they pushed the table 66 px
    # past an 880 px screen, the last column's sort arrow cut.
    page = tab(width).open(INDEX)
    area = page.locator(".md-typeset__scrollwrap", has=page.locator("#entry-table"))
    assert area.evaluate("(a) => a.scrollWidth - a.clientWidth") <= 1
    assert area.get_attribute("role") is None  # not announced as a scroll area


@pytest.mark.parametrize("script", [True, False], ids=["script", "sans-script"])
def test_phone_cards_name_their_fields(
    tab: Callable[..., Tab], entries: list[dict[str, Any]], script: bool
) -> None:
    """Each field of a card says what it is (« Durée : … »), with the page's script or without:
    the labels are written in the page, not by the script."""
    t = tab(360, java_script_enabled=script)
    page = t.open(INDEX) if script else t.page
    if not script:
        page.goto(t.base + INDEX)
    shown = page.eval_on_selector_all(
        "#entry-table tbody tr",
        """rows => rows.map(r => [r.cells[0].querySelector('a').href,
            Array.from(r.cells).slice(3).map(td => getComputedStyle(td).display === 'none'
              ? null : [getComputedStyle(td, '::before').content, td.textContent])])""",
    )
    assert len(shown) == ENTRIES
    by_url = {href.removeprefix(t.base): cells for href, cells in shown}
    for entry in entries:
        fields = entry["fields"]
        expected = [
            [f'"{INDEX_LABELS.get(k, k)} : "', spaced_text(fields[k])]
            if fields.get(k, "").strip()
            else None
            for k in INDEX_FIELDS
        ]
        assert by_url[entry["url"]] == expected, entry["url"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_first_screen_shows_entries_and_the_filters_fold(
    tab: Callable[..., Tab], scheme: str
) -> None:
    """At 360 × 800 the filters and the sorting are folded behind one button that says how
    many are set: the first screen holds the search field, the count and the first spells.
    Wider, there is no such button and every filter is shown."""
    t = tab(360, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = t.open(INDEX + "?max=3&tri=nom")
    toggle = page.locator("button.index-fold")
    expect(toggle).to_have_text("Filtres et tri (2 actifs)")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    group = page.locator("#index-groupe")
    sorting = page.locator("#entry-table thead")
    expect(group).to_be_hidden()
    expect(sorting).to_be_hidden()
    first = page.locator(VISIBLE).first
    box = first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800, box  # a whole card in view
    # The add button sits at the card's right end, past the level.
    plus = first.locator(".list-add").bounding_box()
    level = first.locator("td:nth-child(3)").bounding_box()
    assert plus is not None and level is not None and plus["x"] > level["x"] + level["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"filtres-plies-360-{scheme}.png"))

    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(group).to_be_visible()
    expect(sorting).to_be_visible()
    page.select_option("#index-groupe", "illusions")
    expect(toggle).to_have_text("Filtres et tri (3 actifs)")
    page.screenshot(path=str(SHOTS / f"filtres-ouverts-360-{scheme}.png"))
    toggle.tap()
    expect(group).to_be_hidden()
    assert t.query() == {"max": ["3"], "tri": ["nom"], "groupe": ["illusions"]}
    page.click("button.index-clear")
    expect(toggle).to_have_text("Filtres et tri")

    wide = tab(1280, color_scheme=scheme)
    page = wide.open(INDEX)
    expect(page.locator("button.index-fold")).to_be_hidden()
    expect(page.locator("#index-groupe")).to_be_visible()


def test_the_filters_say_what_they_filter(tab: Callable[..., Tab]) -> None:
    """« Classe de sort », not a character's « Classe »; the levels by the export's own name
    for them (« niveau de puissance » in its descriptions); no meaning the export lacks."""
    page = tab(1280).open(INDEX)
    labels = page.eval_on_selector_all(
        "form.index-filters label, form.index-filters legend",
        "nodes => nodes.map(n => n.textContent.trim())",
    )
    assert labels[:2] == ["Rechercher un sort", "Collège"]
    assert "Niveaux de puissance" in labels
    # French-spaced as the pages' prose (no-break spaces inside « » and before « : »).
    long_only = "«\u00a0Temps\u00a0: long\u00a0» seulement"
    assert {"Classe de sort", "Résistance du sort", long_only} <= set(labels)
    assert not {"Classe", "Résistance"} & set(labels)
    assert not any("rituel" in label for label in labels)
    headers = page.eval_on_selector_all("#entry-table th", "ths => ths.map(t => t.textContent)")
    assert headers == [
        "Nom",
        "Collège",
        "Niveaux de puissance",
        "Classe de sort",
        "Durée",
        "Temps",
        "Résistance du sort",
    ]


# Every change to the rows of the spell index after DOMContentLoaded, by the page's scripts.
WATCH_ROWS = """
window.__lignes = {deplacees: 0, attributs: []};
document.addEventListener('DOMContentLoaded', () => {
  const tbody = document.querySelector('#entry-table tbody');
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') {
        window.__lignes.deplacees += r.addedNodes.length + r.removedNodes.length;
      } else {
        window.__lignes.attributs.push(`${r.target.tagName} ${r.attributeName}`);
      }
    }
  }).observe(tbody, {childList: true, attributes: true, subtree: true});
});
"""


def test_opening_the_index_leaves_its_rows_alone(tab: Callable[..., Tab]) -> None:
    """At load, the script reads the rows and writes nothing into them: moving them or
    writing into their cells restyles and lays out every one of them again. A sort asked by
    the address still moves them (which shows the watch sees moves)."""
    t = tab(360)
    t.page.add_init_script(WATCH_ROWS)
    page = t.open(INDEX)
    page.wait_for_timeout(100)
    assert page.evaluate("window.__lignes") == {"deplacees": 0, "attributs": []}

    page = t.open(INDEX + "?groupe=acoustique")  # a filter only hides rows
    page.wait_for_timeout(100)
    watched = page.evaluate("window.__lignes")
    assert watched["deplacees"] == 0
    assert watched["attributs"] and set(watched["attributs"]) == {"TR hidden"}

    page = t.open(INDEX + "?tri=nom")
    page.wait_for_timeout(100)
    assert page.evaluate("window.__lignes.deplacees") > 0


def test_group_choices_are_in_alphabetical_order(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    """Accents and case aside (« Élémentaire » among the E), as the reader looks for them."""
    page = tab().open(INDEX)
    labels = page.eval_on_selector_all(
        "#index-groupe option", "o => o.slice(1).map(x => x.textContent)"
    )
    names = sorted({s["group"] for s in entries}, key=lambda n: (fold(n), n))
    counts = {n: sum(1 for s in entries if s["group"] == n) for n in names}
    assert labels == [f"{n} ({counts[n]})" for n in names]
    assert any(n.startswith("É") for n in names) and names[0] < names[-1]


def test_phone_cards_far_down_are_laid_out_when_reached(tab: Callable[..., Tab]) -> None:
    """The cards off the screen are skipped until reached (content-visibility), with a height
    guessed close enough that the page's length barely moves when they are laid out, and
    the reader gets to the last one with the End key. The first press aims at the end of
    the guessed page: when the cards laid out on the way are taller than guessed, it can
    stop short, and the reader presses it again."""
    t = tab(360)
    page = t.open(INDEX)
    first = page.locator("#entry-table tbody tr").first
    assert first.evaluate("tr => getComputedStyle(tr).contentVisibility") == "auto"
    guessed = page.evaluate("document.documentElement.scrollHeight")
    last = page.locator("#entry-table tbody tr").last.locator("td:first-child a")  # its name
    for _ in range(3):
        page.keyboard.press("End")
        settled = None
        for _ in range(40):  # the key scrolls smoothly: wait until the page stops
            page.wait_for_timeout(100)
            now = page.evaluate("[scrollY, document.documentElement.scrollHeight]")
            if now == settled:
                break
            settled = now
        if last.evaluate("a => a.getBoundingClientRect().bottom <= innerHeight"):
            break
    expect(last).to_be_in_viewport()
    laid_out = page.evaluate(
        """() => {
          document.querySelectorAll('#entry-table tbody tr')
            .forEach((tr) => { tr.style.contentVisibility = 'visible'; });
          return document.documentElement.scrollHeight;
        }"""
    )
    assert abs(guessed - laid_out) / laid_out < 0.1, (guessed, laid_out)


def test_filters_work_offline(tab: Callable[..., Tab]) -> None:
    t = tab(360)
    page = t.open(INDEX)
    t.context.set_offline(True)
    page.fill("#index-texte", "blast")
    t.wait_count(1)
    page.click("button.index-fold")
    page.select_option("#index-groupe", "illusions")
    t.wait_count(0)
    page.click("button.index-clear")
    t.wait_count(ENTRIES)
    page.check("#index-desc")  # needs data/spells.json: says so, keeps the table filters
    page.wait_for_selector(".index-note:has-text('hors connexion')")
    t.wait_count(ENTRIES)
    t.context.set_offline(False)


def test_filters_survive_instant_navigation_and_back(
    tab: Callable[..., Tab], entries: list[dict[str, Any]]
) -> None:
    t = tab()
    page = t.open(INDEX)
    mark_the_document(page)
    page.select_option("#index-groupe", "acoustique")
    page.fill("#index-texte", "son")
    expected = expected_urls(
        entries, lambda s: s["group_slug"] == "acoustique" and matches(s, "son")
    )
    t.wait_count(len(expected))
    filtered = page.url

    # Away with Material's instant navigation (no reload), then history back.
    page.locator(".md-sidebar--primary a.md-nav__link[href$='acoustique/']").first.click()
    page.wait_for_url(t.base + "sorts/acoustique/")
    # The address changes before the new content is in: wait for the index to be gone.
    page.wait_for_selector("#entry-table", state="detached")
    page.wait_for_selector("article a.entry-link")
    assert is_the_marked_document(page)
    page.locator("article a.entry-link").first.hover()  # previews work after the navigation
    page.locator("#entry-preview").wait_for(state="visible")

    page.go_back()
    page.wait_for_url(filtered)
    page.wait_for_selector(READY, state="attached")
    assert is_the_marked_document(page)
    assert page.locator("#entry-preview").is_hidden()
    assert page.input_value("#index-texte") == "son"
    assert page.input_value("#index-groupe") == "acoustique"
    t.wait_count(len(expected))
    assert sorted(t.visible_urls()) == sorted(expected)

    # Still alive: new input filters, the URL follows, one form, one preview element.
    page.fill("#index-texte", "tunnel")
    t.wait_count(1)
    assert t.visible_names() == ["Tunnel sonore"]
    assert t.query()["texte"] == ["tunnel"]
    assert page.locator("form.index-filters").count() == 1
    page.locator(VISIBLE + " td:first-child a").hover()
    page.locator("#entry-preview").wait_for(state="visible")
    assert page.locator(".entry-preview").count() == 1

    # Twice more away and back: still one handler per control (one replaceState per input).
    here = page.url
    for _ in range(2):
        page.locator(".md-sidebar--primary a.md-nav__link[href$='illusions/']").first.click()
        page.wait_for_url(t.base + "sorts/illusions/")
        page.wait_for_selector("#entry-table", state="detached")
        page.go_back()
        page.wait_for_url(here)
        page.wait_for_selector(READY, state="attached")
    assert is_the_marked_document(page)
    calls = page.evaluate(
        """() => {
          window.__appels = 0;
          const original = history.replaceState.bind(history);
          history.replaceState = (...a) => { window.__appels += 1; return original(...a); };
          const input = document.querySelector('#index-texte');
          input.value = 'blast';
          input.dispatchEvent(new Event('input', {bubbles: true}));
          return window.__appels;
        }"""
    )
    assert calls == 1
    t.wait_count(1)
