"""Header search in Chromium, with the site served under a sub-path as on GitHub Pages.

Every test also checks that no request left the site (another origin, or this origin outside
the site's sub-path), and the service worker is blocked so that only the search's own requests
are made.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.conftest import serve
from tests.test_search import TEST_SITE_OPTIONS

pytestmark = pytest.mark.browser

SUBPATH = "regles"
HOSTILE = '<img src=x onerror="window.__sonde=1">'


@pytest.fixture(scope="module")
def root(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built site at http://127.0.0.1:<port>/regles/."""
    www = tmp_path_factory.mktemp("www-recherche")
    (www / SUBPATH).symlink_to(site_dir, target_is_directory=True)
    server, origin = serve(www)
    yield f"{origin}/{SUBPATH}/"
    server.shutdown()


class Tab:
    """A page of the site in a fresh context, with every request it makes recorded."""

    def __init__(
        self, browser: Any, root: str, width: int, scheme: str, *, touch: bool = False
    ) -> None:
        self.root = root
        self.context = browser.new_context(
            viewport={"width": width, "height": 800},
            color_scheme=scheme,
            service_workers="block",
            has_touch=touch,
            is_mobile=touch,
        )
        self.context.add_init_script("window.__sonde = 0;")
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.on(
            "response",
            lambda response: response.status >= 400 and self.failed.append(response.url),
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", self._error)

    def _error(self, error: Any) -> None:
        # The site's script (one bundle: its errors name the bundle, whichever module raised
        # them) and Pagefind's.
        trace = f"{error}\n{getattr(error, 'stack', '')}"
        if "/assets/js/" in trace or "pagefind" in trace:
            self.errors.append(trace)

    def open(self, path: str = "") -> Any:
        self.page.goto(self.root + path)
        self.page.wait_for_function(
            "() => window.rules && typeof window.rules.search === 'function'"
        )
        return self.page

    def outside(self) -> list[str]:
        return [
            u for u in self.requests if not u.startswith(self.root) and not u.startswith("data:")
        ]


def opened_tab(browser: Any, root: str, width: int, touch: bool = False) -> Iterator[Tab]:
    """A tab for one test; once it is done, no request left the site or went unanswered and
    no script failed."""
    opened = Tab(browser, root, width, "light", touch=touch)
    yield opened
    opened.context.close()
    assert opened.outside() == [], "requêtes hors du site"
    assert opened.failed == [], "requêtes sans réponse (404…)"
    assert opened.errors == [], opened.errors


@pytest.fixture
def tab(browser: Any, root: str) -> Iterator[Tab]:
    yield from opened_tab(browser, root, 1280)


@pytest.fixture
def phone(browser: Any, root: str) -> Iterator[Tab]:
    yield from opened_tab(browser, root, 360)


@pytest.fixture
def touch_phone(browser: Any, root: str) -> Iterator[Tab]:
    """A phone of 360 px with touch, as a player holds it."""
    yield from opened_tab(browser, root, 360, touch=True)


def relative(url: str, root: str) -> str:
    assert url.startswith(root), f"{url} n’est pas sous {root}"
    return url[len(root) :]


def matches(url: str, expected: str) -> bool:
    path, _, anchor = expected.partition("#")
    got_path, _, got_anchor = url.partition("#")
    return got_path == path and (not anchor or got_anchor == anchor)


def run_queries(page: Any, queries: list[str]) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """async (queries) => {
                const out = [];
                for (const query of queries) {
                    const start = performance.now();
                    const results = await window.rules.search(query);
                    out.push({ query, ms: performance.now() - start, results });
                }
                return out;
            }""",
            queries,
        )
    )


def type_query(page: Any, text: str) -> None:
    """Type `text` in the header box as a reader does ("/" first), and wait until the box
    shows the results of the whole text (not of a prefix typed on the way)."""
    page.keyboard.press("/")
    page.keyboard.type(text, delay=20)
    wait_shown(page, text)


def wait_first(page: Any, title: str) -> None:
    page.wait_for_function(
        """(title) => {
            const first = document.querySelector("[data-recherche-liste] h1");
            return first && first.textContent === title;
        }""",
        arg=title,
    )


# Loading ----------------------------------------------------------------------------------


def test_the_index_loads_only_when_the_box_is_focused(tab: Tab, site_dir: Path) -> None:
    page = tab.open("jeu/combat/")
    page.wait_for_timeout(300)
    assert not [u for u in tab.requests if "/pagefind/" in u], "index chargé sans recherche"
    with page.expect_request(lambda r: r.url.endswith("/pagefind/pagefind.js")) as request:
        page.keyboard.press("/")
    assert request.value.url == tab.root + "pagefind/pagefind.js"
    page.fill("[data-recherche-saisie]", "abri")  # one query, not one per letter
    wait_shown(page, "abri")
    wait_first(page, "Abri")
    loaded = [relative(u, tab.root) for u in tab.requests if "/pagefind/" in u]
    chunks = [u for u in loaded if u.startswith("pagefind/index/")]
    fragments = [u for u in loaded if u.startswith("pagefind/fragment/")]
    assert 1 <= len(chunks) < len(list((site_dir / "pagefind" / "index").iterdir()))
    assert 1 <= len(fragments) <= 20


# The box ------------------------------------------------------------------------------------


def test_typing_shows_results_with_excerpt_and_where(tab: Tab) -> None:
    page = tab.open("licences/")
    type_query(page, "abri")
    wait_first(page, "Abri")
    first = page.locator("[data-recherche-liste] li").first
    assert first.locator(".regles-recherche__badge").inner_text() == "Jeu d’essai"
    assert "Combat › Effectuer une attaque" in first.locator(".regles-recherche__ou").inner_text()
    excerpt = first.locator(".regles-recherche__extrait")
    assert "abri" in excerpt.inner_text().lower()
    assert [m.lower() for m in excerpt.locator("mark").all_inner_texts()][:1] == ["abri"]
    assert "résultat" in page.locator("[data-recherche-etat]").inner_text()

    page.fill("[data-recherche-saisie]", "")
    page.keyboard.type("blast son", delay=20)  # as typed: the last word is unfinished
    wait_shown(page, "blast son")
    wait_first(page, "Blast sonore")
    entry = page.locator("[data-recherche-liste] li").first
    assert entry.locator(".regles-recherche__badge").inner_text() == "Sort"
    assert "Acoustique" in entry.locator(".regles-recherche__ou").inner_text()
    assert entry.locator(".regles-recherche__extrait").inner_text().strip()
    href = entry.locator("a").get_attribute("href")
    assert href == tab.root + "sorts/acoustique/#blast-sonore"

    page.fill("[data-recherche-saisie]", "xyzzyqw")
    assert "Aucun résultat" in wait_shown(page, "xyzzyqw")
    assert page.locator("[data-recherche-liste] li").count() == 0


def test_a_filter_narrows_the_results(tab: Tab) -> None:
    page = tab.open("")
    type_query(page, "sort")
    page.wait_for_selector("[data-recherche-liste] li")
    status = page.locator("[data-recherche-etat]")
    everything = int(status.inner_text().split()[0])
    badges = page.locator("[data-recherche-liste] .regles-recherche__badge")
    assert "Sort" in badges.all_inner_texts()
    assert everything > 20 and badges.count() == 10
    # The first ten are re-ranked out of twenty, then Pagefind's order: ten more a click.
    for shown in (20, min(30, everything)):
        page.click("[data-recherche-plus]")
        page.wait_for_function(
            "n => document.querySelectorAll('[data-recherche-liste] li').length === n", arg=shown
        )
    links = page.eval_on_selector_all("[data-recherche-liste] a", "els => els.map(a => a.href)")
    assert len(set(links)) == len(links) == min(30, everything)

    page.select_option('[data-recherche-filtre="systeme"]', "Jeu d’essai")
    page.wait_for_function(
        "n => parseInt(document.querySelector('[data-recherche-etat]').textContent) < n",
        arg=everything,
    )
    assert set(badges.all_inner_texts()) == {"Jeu d’essai"}

    # The spells are a system of their own (`spells: system:` of the test site).
    page.select_option('[data-recherche-filtre="systeme"]', "")
    entries_system = page.locator('[data-recherche-filtre="systeme"] option[value="Magie d’essai"]')
    entries_system.wait_for(state="attached")
    page.wait_for_function(
        """() => !document.querySelector(
            '[data-recherche-filtre="systeme"] option[value="Magie d’essai"]').disabled"""
    )
    page.select_option('[data-recherche-filtre="systeme"]', "Magie d’essai")
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-recherche-liste] a')].length > 0 &&
            [...document.querySelectorAll('[data-recherche-liste] a')]
                .every(a => a.href.includes('/sorts/'))"""
    )
    page.select_option('[data-recherche-filtre="systeme"]', "")
    group_filter = page.locator('[data-recherche-filtre="groupe"] option[value=""]')
    assert group_filter.inner_text() == "Collège"  # its hidden label: « Collège de sorts »
    page.select_option('[data-recherche-filtre="groupe"]', "Élémentaire - Eau")
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-recherche-liste] a')].length > 0 &&
            [...document.querySelectorAll('[data-recherche-liste] a')]
                .every(a => a.href.includes('/sorts/elementaire-eau/'))"""
    )
    option = page.locator('[data-recherche-filtre="groupe"] option[value="Élémentaire - Eau"]')
    assert "(" in option.inner_text()  # with its count for this query

    by_api = page.evaluate("() => window.rules.search('sort', { filters: { type: 'Règles' } })")
    assert by_api and all("/sorts/" not in r["url"] for r in by_api)


def test_the_filters_say_what_they_filter(tab: Tab) -> None:
    page = tab.open("licences/")
    type_query(page, "sort")
    page.wait_for_selector("[data-recherche-liste] li")
    labels = page.eval_on_selector_all(
        "[data-recherche-filtre]",
        """els => els.map(s => [s.dataset.rechercheFiltre,
            s.closest('label').querySelector('.regles-recherche__cache').textContent,
            s.options[0].textContent])""",
    )
    assert labels == [
        ["systeme", "Système de jeu", "Système"],
        ["type", "Règles, sorts ou pages du site", "Règle/sort"],
        ["groupe", "Collège de sorts", "Collège"],
    ]
    types = page.eval_on_selector_all(
        '[data-recherche-filtre="type"] option', "els => els.map(o => [o.value, o.textContent])"
    )
    assert any(v == "Site" and t.startswith("Pages du site") for v, t in types), types


# The index as a site of one game gives it: every result of the same system (the page's own
# Pagefind, loaded again under another address, with its filters but that one).
ONE_SYSTEM_INDEX = """
export * from "./pagefind.js?index-du-site";
import { filters as ofTheSite } from "./pagefind.js?index-du-site";
export async function filters() {
  const all = await ofTheSite();
  const count = Object.values(all.systeme || {}).reduce((a, b) => a + b, 0);
  return { ...all, systeme: { "Un seul jeu": count } };
}
"""


def test_a_filter_of_one_value_gives_its_room_to_the_others(browser: Any, root: str) -> None:
    opened = Tab(browser, root, 360, "light", touch=True)
    try:

        def index(route: Any) -> None:
            if "?index-du-site" in route.request.url:
                route.continue_()
            else:
                route.fulfill(body=ONE_SYSTEM_INDEX, content_type="text/javascript")

        opened.context.route("**/pagefind/pagefind.js*", index)
        page = opened.open("licences/")
        type_query(page, "sort")
        page.wait_for_selector("[data-recherche-liste] li")
        systems = page.locator('[data-recherche-filtre="systeme"]')
        expect(systems).to_be_hidden()
        kinds = page.locator('[data-recherche-filtre="type"]')
        expect(kinds).to_be_visible()
        # The two filters left share the row: each wider than a third of it.
        row = page.locator("[data-recherche-filtres]").bounding_box()
        box = kinds.bounding_box()
        assert row is not None and box is not None and box["width"] > row["width"] / 3
        assert opened.errors == [], opened.errors
    finally:
        opened.context.close()


# The game's words -----------------------------------------------------------------------------


def first_urls(page: Any, root: str, query: str, count: int = 3) -> list[str]:
    (outcome,) = run_queries(page, [query])
    return [relative(r["url"], root) for r in outcome["results"][:count]]


def test_the_configured_synonyms_come_with_the_page(tab: Tab) -> None:
    page = tab.open("jeu/")
    words = page.evaluate(
        "() => JSON.parse(document.querySelector('[data-recherche]').dataset.rechercheSynonymes)"
    )
    declared = TEST_SITE_OPTIONS["search"]["synonyms"]
    assert words == {k: v if isinstance(v, list) else [v] for k, v in declared.items()}


def test_an_abbreviation_finds_what_it_stands_for_first(tab: Tab) -> None:
    page = tab.open("licences/")
    # "CA": Pagefind alone reads the beginning of "Cat. de taille", "Cadre de jeu"…
    assert first_urls(page, tab.root, "CA")[0] == "jeu/tests-d20/#classe-d-armure"
    assert first_urls(page, tab.root, "ca")[0] == "jeu/tests-d20/#classe-d-armure"
    assert first_urls(page, tab.root, "PV")[0] == "jeu/degats-et-soins/#points-de-vie"
    # Both ways: the text says "MJ", never "maître du jeu" (whose first letters are those of
    # "Maîtrise"): spelt out, the query finds the section named with the abbreviation.
    assert (
        first_urls(page, tab.root, "maître du jeu")[0] == "maison/poids-transportable/#pour-le-mj"
    )
    assert first_urls(page, tab.root, "MJ")[0] == "maison/poids-transportable/#pour-le-mj"
    # An abbreviation among other words is spelt out where it stands.
    assert first_urls(page, tab.root, "la CA")[0] == "jeu/tests-d20/#classe-d-armure"


def test_a_rule_comes_before_the_entries_when_the_query_names_it(tab: Tab) -> None:
    page = tab.open("licences/")
    # Two spells begin with "Résistance"; so does the rule "Résistances et Vulnérabilités".
    urls = first_urls(page, tab.root, "résistance", 10)
    entries = [i for i, u in enumerate(urls) if u.startswith("sorts/")]
    rules = [i for i, u in enumerate(urls) if u.startswith("jeu/")]
    assert entries and rules and max(rules[:2]) < min(entries), urls
    assert urls[0] == "jeu/degats-et-soins/#resistances-et-vulnerabilites"
    # A spell's own name still puts the spell first.
    assert first_urls(page, tab.root, "résistance au froid")[0] == (
        "sorts/elementaire-eau/#resistance-au-froid"
    )
    assert first_urls(page, tab.root, "blast sonore")[0] == "sorts/acoustique/#blast-sonore"


def test_the_reader_s_game_comes_first_among_equal_matches(tab: Tab) -> None:
    """« Résistance au feu » is a rule of the game (jeu/combat/) and a spell: from a page of
    the site or of the game, the rule first; from a spell's page, the spell. Each result
    names its game: a spell its database's system before its college."""
    rule, entry = "jeu/combat/#resistance-au-feu", "sorts/elementaire-eau/#resistance-au-feu"
    for path, first in (("licences/", rule), ("jeu/combat/", rule), ("sorts/illusions/", entry)):
        page = tab.open(path)
        found = first_urls(page, tab.root, "résistance au feu", 2)
        assert found[0] == first and set(found) == {rule, entry}, (path, found)
    type_query(page, "résistance au feu")
    places = page.locator("[data-recherche-liste] .regles-recherche__ou").all_inner_texts()
    assert places[0].startswith("Sort Magie d’essai › "), places
    assert "Jeu d’essai" in places[1], places


def test_the_reader_s_game_comes_before_a_closer_name_of_another(touch_phone: Tab) -> None:
    """From a page of the game, « résistance »: the game's sections that only speak of it
    come before the spell whose name begins with it (another game's), and the spell named
    exactly (« son ») still comes first. With the database linked from the game (as
    `linked_from: [jeu]` makes it: `rules.servedBy`), its entries rank as the game's own and
    name the game they serve."""
    tab = touch_phone
    page = tab.open("jeu/combat/")
    entry, own = "sorts/elementaire-eau/#resistance-au-froid", "jeu/degats-et-soins/#pas-de-cumul"
    found = first_urls(page, tab.root, "résistance", 20)
    assert found.index(own) < found.index(entry), found
    found = first_urls(page, tab.root, "son", 5)
    assert found[0] == "sorts/acoustique/#son" and any(u.startswith("jeu/") for u in found)
    page.evaluate("() => { window.rules.servedBy = { 'Magie d’essai': ['Jeu d’essai'] }; }")
    found = first_urls(page, tab.root, "résistance", 20)
    assert found.index(entry) < found.index(own), found
    page.tap('header label.md-header__button[for="__search"]')  # the magnifier
    page.keyboard.type("résistance au froid", delay=20)
    wait_shown(page, "résistance au froid")
    places = page.locator("[data-recherche-liste] .regles-recherche__ou").all_inner_texts()
    assert places[0].startswith("Sort Jeu d’essai · Magie d’essai › "), places


def test_a_word_after_an_elision_is_found_on_its_own(tab: Tab) -> None:
    """« Attaques d’Opportunité »: Pagefind keeps « d’opportunité » as one word; the build
    gives the words that only follow an elision as searchable metadata, the title's weighed
    as the title, so that the word typed alone (with or without accents) finds it first."""
    page = tab.open("licences/")
    for query in ("opportunite", "opportunité", "d’opportunité", "d'opportunite"):
        found = first_urls(page, tab.root, query)
        assert found and found[0].endswith("#attaques-d-opportunite"), (query, found)


def test_keys_open_and_close_the_box(tab: Tab) -> None:
    page = tab.open("maison/poids-transportable/")
    box = "[data-recherche-saisie]"
    for key in ("/", "s", "f"):
        page.keyboard.press(key)
        assert page.evaluate(f"document.activeElement === document.querySelector('{box}')"), key
        assert page.evaluate("document.getElementById('__search').checked")
        assert page.input_value(box) == "", "la touche a été tapée dans le champ"
        page.keyboard.press("Escape")
        assert not page.evaluate("document.getElementById('__search').checked")
        assert page.evaluate(f"document.activeElement !== document.querySelector('{box}')")
    # Typing "s" in a calculator's field stays in that field.
    form = page.locator("form.calculateur").first
    form.scroll_into_view_if_needed()  # far down the page, folded until the reader nears
    field = form.locator("input[data-type=int], input[data-type=float]").first
    field.wait_for(state="visible")
    field.focus()
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.closest('form.calculateur') !== null")


def test_a_word_typed_before_the_box_is_set_up_is_searched(tab: Tab) -> None:
    """The box is set up in a task of its own after DOMContentLoaded, and the browser passes
    keys before timers: a reader fast enough ("/" and a word as the page ends loading) is in
    the box first. Here that reader is played at DOMContentLoaded, before any set-up."""
    tab.page.add_init_script(
        """document.addEventListener('DOMContentLoaded', () => {
          const input = document.querySelector('[data-recherche-saisie]');
          input.focus();
          input.value = 'initiative';
          input.dispatchEvent(new Event('input', {bubbles: true}));
          window.__avantMiseEnPlace = !document.querySelector('[data-recherche-liee]');
        });"""
    )
    page = tab.open("licences/")
    assert page.evaluate("window.__avantMiseEnPlace") is True
    wait_shown(page, "initiative")
    wait_first(page, "Initiative")
    assert page.evaluate("document.getElementById('__search').checked")


def test_a_result_leads_to_its_anchor(tab: Tab) -> None:
    page = tab.open("licences/")
    type_query(page, "abri")
    wait_first(page, "Abri")
    page.locator("[data-recherche-liste] a").first.click()
    page.wait_for_url(tab.root + "jeu/combat/#abri")
    page.wait_for_function(
        "() => Math.abs(document.getElementById('abri').getBoundingClientRect().top) < 150"
    )
    assert not page.evaluate("document.getElementById('__search').checked")
    # Material closes the search box 125 ms after a page opens on an anchor (its target$):
    # a box opened sooner is closed under the reader's fingers, and the next letters are
    # shortcuts (« n », next page). Not this test's subject: it types once that has passed.
    page.wait_for_function(
        """() => performance.now()
            - performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd > 500"""
    )

    # Enter goes to the first result; arrows move through the results.
    type_query(page, "initiative")
    wait_first(page, "Initiative")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.matches('[data-recherche-liste] a')")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    page.wait_for_url(tab.root + "jeu/combat/#initiative")


def wait_shown(page: Any, query: str) -> str:
    """Wait until the status line names `query` (as text, between guillemets kept to it by
    no-break spaces), and return that line."""
    page.wait_for_function(
        "(q) => document.querySelector('[data-recherche-etat]').textContent.includes(q)",
        arg=f"pour «\u00a0{query}\u00a0»",
    )
    return str(page.locator("[data-recherche-etat]").inner_text())


def test_a_hostile_query_is_shown_as_text(tab: Tab) -> None:
    page = tab.open("licences/")
    type_query(page, HOSTILE)
    assert page.locator("[data-recherche] img").count() == 0
    page.wait_for_timeout(200)
    assert page.evaluate("window.__sonde") == 0

    # The same through the address: ?q= fills the box with text.
    page.goto(tab.root + "jeu/?q=" + quote(HOSTILE))
    wait_shown(page, HOSTILE)
    assert page.input_value("[data-recherche-saisie]") == HOSTILE
    assert page.locator("[data-recherche] img, [data-recherche] script").count() == 0
    page.wait_for_timeout(200)
    assert page.evaluate("window.__sonde") == 0

    # Markup around words that the index has: still text, never an element.
    page.fill("[data-recherche-saisie]", "<b>abri</b> <i>initiative")
    wait_shown(page, "<b>abri</b> <i>initiative")
    assert page.locator("[data-recherche] b, [data-recherche] i").count() == 0


def test_the_phone_opens_a_full_width_panel(phone: Tab) -> None:
    page = phone.open("jeu/combat/")
    closed = page.locator(".md-search__inner").bounding_box()
    assert closed is None or closed["width"] == 0  # only the magnifier in the header
    page.click('header label.md-header__button[for="__search"]')
    page.wait_for_function("document.activeElement.matches('[data-recherche-saisie]')")
    page.keyboard.type("epees", delay=20)
    wait_shown(page, "epees")
    page.wait_for_selector("[data-recherche-liste] li")
    panel = page.locator(".md-search__inner").bounding_box()
    assert panel is not None and panel["x"] == 0 and panel["width"] == 360
    first = page.locator("[data-recherche-liste] li").first.bounding_box()
    assert first is not None and first["x"] >= 0 and first["x"] + first["width"] <= 360
    overflow = page.evaluate(
        "() => { const s = document.querySelector('.md-search__scrollwrap');"
        " return s.scrollWidth - s.clientWidth; }"
    )
    assert overflow <= 0
    for select in page.locator("[data-recherche-filtre]").all():
        box = select.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
    page.click('label.md-search__icon[for="__search"]')  # the back arrow
    page.wait_for_function("!document.getElementById('__search').checked")
