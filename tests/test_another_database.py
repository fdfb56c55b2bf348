"""A game's own databases in a site that `regles new` wrote: the Brumes' prayers
(tests/integration/prieres/prieres.txt: 2 cultes, 10 prières, rangs I à IV) and its bestiary
(tests/integration/bestiaire/bestiaire.txt: 2 habitats, 5 monstres, without levels, as
many games write their creatures), declared with the game's words and nothing else (no
title: they come from the words). What the generator writes about them says « prière »,
« culte », « livre de prières », « monstre », « habitat » and « carnet de chasse », never this
site's « sort », « collège » or « grimoire »: in the built pages, in the search box, and in
what the index's and the search's scripts write, in Chromium. The game's rules link to its
prayers (`linked_from`), and each database keeps its own pages, data file, search type and
readers' lists.

The list page's address and title come from the words too (prieres/livre-de-prieres/,
« Mon livre de prières »), and its script's dialogs, notices and empty states agree with them
(« Votre premier livre de prières », « Livre de prières « Aldric » créé »…)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from tests.conftest import ROOT
from tests.test_another_game import adopt, built_and_served

PRAYERS = ROOT / "tests" / "integration" / "prieres" / "prieres.txt"
BESTIARY = ROOT / "tests" / "integration" / "bestiaire" / "bestiaire.txt"
SUBPATH = "brumes-prieres"
# Two databases: the prayers (a feminine entry, a masculine group), which the game's rules
# name, and a bestiary (masculine words, « de l'habitat »).
DATABASES = """      databases:
        - export: prieres.txt
          folder: prieres
          section: Prières
          words:
            entry: {one: prière, many: prières, gender: f}
            group: {one: culte, many: cultes, gender: m}
            list: {one: livre de prières, many: livres de prières, gender: m}
          linked_from: [brumes]
        - export: bestiaire.txt
          folder: bestiaire
          section: Bestiaire
          words:
            entry: {one: monstre, many: monstres, gender: m}
            group: {one: habitat, many: habitats, gender: m}
            list: {one: carnet de chasse, many: carnets de chasse, gender: m}
"""
# What the game master writes in a rules page: a prayer, by its name in italics.
RULES_MENTION = (
    "\n## Soins\n\nUn fidèle blessé demande l’_Imposition des mains_. Voir « Prières ».\n"
)
# This site's words, which no sentence about the prayers may use.
OTHER_WORDS = re.compile(r"\b(sorts?|grimoires?|coll[èe]ges?)\b", re.IGNORECASE)
# What the generator writes about the database (the other pages are the game's text).
PAGES = (
    "index.html",
    "brumes/regles/index.html",
    "prieres/toutes-les-prieres/index.html",
    "prieres/culte-de-l-aube/index.html",
    "prieres/livre-de-prieres/index.html",
    "prieres/champs-et-abreviations/index.html",
    "bestiaire/tous-les-monstres/index.html",
    "bestiaire/marais/index.html",
    "bestiaire/carnet-de-chasse/index.html",
    "bestiaire/champs-et-abreviations/index.html",
)
SHOTS = Path("/tmp/databases-shots")  # screenshots of the phone journeys, to look at
SAID_ATTRIBUTES = ("aria-label", "placeholder", "title", "content", "data-label")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """The adopted site with its prayers, built for and served at
    http://127.0.0.1:<port>/brumes-prieres/; with the build's output."""
    folder = tmp_path_factory.mktemp("adoption") / "brumes"
    config = adopt(folder)
    shutil.copy(PRAYERS, folder / "prieres.txt")
    shutil.copy(BESTIARY, folder / "bestiaire.txt")
    text = config.read_text(encoding="utf-8")
    assert "      app:\n" in text and text.endswith("\n")
    text = text.replace("      app:\n", DATABASES + "      app:\n", 1)
    config.write_text(text + "  - Prières: []\n  - Bestiaire: []\n", encoding="utf-8")
    rules = folder / "content" / "brumes" / "regles.md"
    rules.write_text(rules.read_text(encoding="utf-8") + RULES_MENTION, encoding="utf-8")
    yield from built_and_served(config, tmp_path_factory.mktemp("prieres"), SUBPATH)


def said(html: str) -> list[str]:
    """What a page says to a reader: its visible text, and its labels, placeholders and
    titles (the scripts' sentences are in the page script, checked in Chromium below)."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup.find_all(["script", "style"]):
        hidden.decompose()
    texts = [soup.get_text(" ")]
    for element in soup.find_all(True):
        texts += [str(element[a]) for a in SAID_ATTRIBUTES if element.has_attr(a)]
    return texts


def test_it_builds_strict_with_the_prayers_in_their_own_words(
    served: tuple[Path, str, str],
) -> None:
    site, _, output = served
    assert "WARNING" not in output and "Traceback" not in output, output
    assert "2 cultes, 10 prières publiées, aucune prière écartée pour erreur" in output
    assert "2 habitats, 5 monstres publiés, aucun monstre écarté pour erreur" in output
    for page in PAGES:
        assert (site / page).is_file(), page
    # Each database's entries in a data file of its own.
    for folder, n in (("prieres", 10), ("bestiaire", 5)):
        records = json.loads((site / "data" / "bases" / f"{folder}.json").read_text("utf-8"))
        assert len(records) == n and all(r["url"].startswith(f"{folder}/") for r in records)
        # Named for any game: an entry's group is its `group`, no « college » anywhere.
        assert all({"group", "group_slug"} <= set(r) for r in records)
        assert not re.search(r"college|spell|grimoire", json.dumps(records), re.IGNORECASE)
    # The prayers have ranks; the bestiary, no levels: nothing of them in its pages.
    monsters = json.loads((site / "data/bases/bestiaire.json").read_text("utf-8"))
    assert {(r["level_min"], r["level_max"]) for r in monsters} == {(None, None)}
    for page in ("tous-les-monstres", "marais", "champs-et-abreviations"):
        article = BeautifulSoup(
            (site / "bestiaire" / page / "index.html").read_text("utf-8"), "html.parser"
        ).article
        assert article is not None
        assert article.select(".niveau, [data-min], [data-libelle-niveaux], #niveaux") == []
        assert "niveau" not in article.get_text().lower(), page
    index = (site / "prieres/toutes-les-prieres/index.html").read_text("utf-8")
    assert 'data-colonne="niveaux"' in index and "data-min=" in index


def test_a_rules_page_links_to_the_database_it_is_linked_from(
    served: tuple[Path, str, str],
) -> None:
    site, _, _ = served
    soup = BeautifulSoup((site / "brumes/regles/index.html").read_text("utf-8"), "html.parser")
    link = soup.find("a", string="Imposition des mains")
    assert link is not None and link["href"].endswith(
        "prieres/culte-de-l-aube/#imposition-des-mains"
    ), link
    # The database's section of the nav, named as a section is: its index.
    article = soup.find("article")
    assert article is not None
    section = article.find("a", string="Prières")
    assert section is not None and section["href"].endswith("prieres/toutes-les-prieres/")
    assert article.select(".renvoi-absent") == []


@pytest.mark.parametrize("page", PAGES)
def test_no_sentence_of_the_generator_uses_another_game_s_words(
    served: tuple[Path, str, str], page: str
) -> None:
    site, _, _ = served
    found = [
        match.group(0)
        for text in said((site / page).read_text(encoding="utf-8"))
        for match in OTHER_WORDS.finditer(text)
    ]
    assert found == [], page


WRITTEN = """() => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
        for (const name of ["aria-label", "placeholder", "title"]) {
            if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
        }
    }
    return texts.join("\\n");
}"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page of a fresh context at 360 × 800, with touch."""
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.browser
def test_the_index_and_the_search_speak_the_game_s_words(
    phone: Any, served: tuple[Path, str, str]
) -> None:
    """At 360 × 800, by touch and keyboard: the index's filters, what they say when nothing
    is left, and the search box's filters and badges."""
    _, url, _ = served
    page = phone
    page.goto(url + "prieres/toutes-les-prieres/")
    field = page.get_by_label("Rechercher une prière")
    assert field.get_attribute("placeholder") == "nom, culte, champ…"
    # Whole in the field at 360 px, not cut (« accents facı »).
    fits = """(f) => {
        const s = getComputedStyle(f);
        const pen = document.createElement("canvas").getContext("2d");
        pen.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        const room = f.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
        return pen.measureText(f.placeholder).width <= room;
    }"""
    assert field.evaluate(fits)
    field.tap()
    page.keyboard.type("zzz", delay=20)
    empty = page.locator(".index-empty")
    empty.wait_for(state="visible")
    assert empty.inner_text().startswith("Aucune prière ne correspond à ces filtres.")
    written = page.evaluate(WRITTEN)
    assert OTHER_WORDS.findall(written) == [], written
    # Its levels are the export's (I to IV), and no filter asks for a field it lacks.
    levels = page.eval_on_selector_all("#index-min option", "os => os.map(o => o.textContent)")
    assert levels == ["I", "II", "III", "IV"]
    assert page.locator("#index-classe, #index-resistance, #index-long").count() == 0
    # Its own field of a few values, « Sphère », is a choice list, with its counts.
    spheres = page.eval_on_selector_all("#index-sphere option", "os => os.map(o => o.text)")
    assert spheres[0] == "Sans filtre" and "Protection (3)" in spheres, spheres

    # The header's search box: its filters and each result's badge.
    page.goto(url + "brumes/regles/")
    badges = page.locator("[data-recherche-liste] .regles-recherche__badge")
    found = set()
    for query in ("crepuscule", "imposition", "marais", "goule"):
        page.keyboard.press("/")
        page.keyboard.press("Control+A")
        page.keyboard.type(query, delay=20)
        # The status line names the whole query once its results are shown.
        status = page.locator("[data-recherche-etat]")
        status.filter(has_text=f"«\u00a0{query}\u00a0»").wait_for()
        found |= set(badges.all_inner_texts())
    page.screenshot(path=SHOTS / "recherche.png")
    assert {"Prière", "Culte", "Monstre", "Habitat"} <= found, found
    labels = page.eval_on_selector_all(
        "[data-recherche-filtre]",
        """els => els.map(s => [s.closest('label').querySelector('.regles-recherche__cache')
            .textContent, s.options[0].textContent])""",
    )
    assert labels[1:] == [
        ["Règles, prières, monstres ou pages du site", "Type"],
        ["Culte ou habitat", "Culte/habitat"],
    ]
    types = page.eval_on_selector_all(
        '[data-recherche-filtre="type"] option', "els => els.map(o => o.value)"
    )
    assert {"Prières", "Monstres"} <= set(types) and "Sorts" not in types, types
    written = page.evaluate(WRITTEN)
    assert OTHER_WORDS.findall(written) == [], written


@pytest.mark.browser
def test_the_index_shows_the_export_s_fields_and_sorts_a_distance(
    browser: Any, served: tuple[Path, str, str]
) -> None:
    """At 1280 × 800, with the mouse: the prayers' index shows the export's fields, in its
    order, and « Portée » sorts by distance (« contact » first, « 30 m » last), not
    alphabetically."""
    _, url, _ = served
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(url + "prieres/toutes-les-prieres/")
        headers = page.locator("#entry-table thead th")
        expect(headers).to_have_text(["Nom", "Culte", "Niveaux", "Portée", "Sphère", "Durée"])
        page.locator("#entry-table thead th button", has_text="Portée").click()
        reach = page.locator("#entry-table tbody tr td:nth-child(4)")
        expect(reach.first).to_have_text(re.compile("contact|personnelle"))
        values = reach.all_inner_texts()
        assert [v.replace("\u00a0", " ") for v in values[-4:]] == ["10 m", "20 m", "30 m", "50 m"]
    finally:
        context.close()


@pytest.mark.browser
def test_a_reader_keeps_prayers_in_a_book_of_prayers(
    phone: Any, served: tuple[Path, str, str]
) -> None:
    """At 360 × 800, by touch: the list page empty, then a prayer added from the index into a
    first book named with the keyboard, then the book's page; every word the script writes
    is the game's."""
    _, url, _ = served
    page = phone
    page.goto(url + "prieres/livre-de-prieres/")
    empty = page.locator(".list-empty")
    empty.wait_for()
    assert empty.inner_text().startswith("Aucun livre de prières dans ce navigateur")
    assert "une page de culte ou l’aperçu d’une prière" in empty.inner_text()
    written = page.evaluate(WRITTEN)
    assert OTHER_WORDS.findall(written) == [], written

    page.goto(url + "prieres/toutes-les-prieres/")
    page.locator("#entry-table tbody tr").first.locator("button.list-add").tap()
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Ajouter à un livre de prières"
    assert dialog.locator("legend").inner_text() == "Votre premier livre de prières"
    # Without a book yet, its name is what the reader types first: the field has the focus.
    assert page.evaluate("document.activeElement.id") == "list-dialog-name"
    written = page.evaluate(WRITTEN)
    assert OTHER_WORDS.findall(written) == [], written
    dialog.locator("#list-dialog-name").tap()
    page.keyboard.type("Aldric", delay=20)
    dialog.locator("button[value=ajouter]").tap()
    notice = page.locator(".list-notice")
    notice.wait_for()
    assert OTHER_WORDS.findall(notice.inner_text()) == [], notice.inner_text()

    page.goto(url + "prieres/livre-de-prieres/")
    title = page.locator(".list-print-title")
    title.wait_for(state="attached")
    assert title.text_content() == "Livre de prières «\u00a0Aldric\u00a0» (1 prière)"
    page.get_by_role("button", name="Vider").tap()
    confirm = page.locator("dialog.list-dialog[open]")
    confirm.wait_for()
    assert confirm.locator("h2").inner_text() == "Vider le livre de prières"
    written = page.evaluate(WRITTEN)
    assert OTHER_WORDS.findall(written) == [], written
    confirm.get_by_role("button", name="Annuler").tap()


@pytest.mark.browser
def test_each_database_keeps_its_own_lists(phone: Any, served: tuple[Path, str, str]) -> None:
    """At 360 × 800, by touch: a prayer kept from the rules page's link (its preview), then a
    monster from the bestiary's index. The bestiary's first list is its own (« Votre premier
    carnet de chasse »), each list page shows its own entry, and both pages agree with their
    database's words."""
    _, url, _ = served
    page = phone
    page.goto(url + "brumes/regles/")
    link = page.locator("article a", has_text="Imposition des mains")
    link.tap()  # the first tap opens the preview
    add = page.locator("#entry-preview button.list-add")
    add.wait_for()
    page.screenshot(path=SHOTS / "apercu-priere.png")
    title = str(add.get_attribute("title")).replace("\u00a0", " ")
    assert title == "Ajouter « Imposition des mains » à un livre de prières"
    add.tap()
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.wait_for()
    assert dialog.locator("legend").inner_text() == "Votre premier livre de prières"
    dialog.locator("#list-dialog-name").tap()
    page.keyboard.type("Aldric", delay=20)
    dialog.locator("button[value=ajouter]").tap()
    page.locator(".list-notice").wait_for()

    page.goto(url + "bestiaire/tous-les-monstres/")
    assert page.get_by_label("Rechercher un monstre").is_visible()
    row = page.locator("#entry-table tbody tr", has_text="Goule des brumes")
    row.locator("button.list-add").tap()
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Ajouter à un carnet de chasse"
    assert dialog.locator("legend").inner_text() == "Votre premier carnet de chasse"
    page.screenshot(path=SHOTS / "ajout-monstre.png")
    dialog.locator("#list-dialog-name").tap()
    page.keyboard.type("Aldric", delay=20)
    dialog.locator("button[value=ajouter]").tap()
    notice = page.locator(".list-notice")
    notice.wait_for()
    assert "Goule des brumes" in notice.inner_text()

    for address, title, entry in (
        (
            "bestiaire/carnet-de-chasse/",
            "Carnet de chasse «\u00a0Aldric\u00a0» (1 monstre)",
            "Goule",
        ),
        (
            "prieres/livre-de-prieres/",
            "Livre de prières «\u00a0Aldric\u00a0» (1 prière)",
            "Imposition",
        ),
    ):
        page.goto(url + address)
        shown = page.locator(".list-print-title")
        shown.wait_for(state="attached")
        assert shown.text_content() == title
        page.screenshot(path=SHOTS / f"{address.split('/')[0]}-liste.png")
        kept = page.locator("article.list-entry").all_inner_texts()
        assert len(kept) == 1 and entry in kept[0], kept
        written = page.evaluate(WRITTEN)
        assert OTHER_WORDS.findall(written) == [], written


# What a script writes when it reads a level that is not there.
NO_VALUE = re.compile(r"undefined|NaN|null")


@pytest.mark.browser
def test_a_bestiary_without_levels_reads_filters_and_is_kept_without_them(
    phone: Any, served: tuple[Path, str, str]
) -> None:
    """At 360 × 800, by touch and keyboard: the monsters' index has no column nor filter of
    levels, its cards show no level badge (the first field is not drawn as one), words typed
    filter it, a monster's preview and its card in a hunting log show it without levels."""
    _, url, _ = served
    page = phone
    page.goto(url + "bestiaire/tous-les-monstres/")
    headers = page.locator("#entry-table thead th")
    expect(headers).to_have_text(["Nom", "Habitat", "Taille", "Défense", "Mouvement"])
    page.get_by_role("button", name=re.compile("Filtres et tri")).tap()
    assert page.locator(".index-levels").count() == 0
    assert NO_VALUE.findall(page.locator("article").inner_text()) == []
    # The card's first field (« Taille ») is a field, not a level's pill.
    first_field = page.locator("#entry-table tbody tr").first.locator("td").nth(2)
    assert first_field.evaluate("td => getComputedStyle(td).borderTopWidth") == "0px"
    assert first_field.evaluate("td => getComputedStyle(td, '::before').content").startswith(
        '"Taille'
    )
    page.get_by_label("Rechercher un monstre").tap()
    page.keyboard.type("loup", delay=20)
    expect(page.locator("#entry-table tbody tr:not([hidden])")).to_have_count(1)
    page.locator("#entry-table tbody tr:not([hidden])").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "bestiaire-sans-niveaux.png")

    page.goto(url + "bestiaire/marais/")
    page.screenshot(path=SHOTS / "habitat-sans-niveaux.png")
    link = page.locator("article a.entry-link", has_text="Feu follet").first
    link.tap()  # the first tap opens the preview
    preview = page.locator("#entry-preview")
    expect(preview).to_contain_text("Une lueur qui danse", timeout=30_000)
    assert preview.locator(".niveau").count() == 0
    assert NO_VALUE.findall(preview.inner_text()) == []
    preview.locator("button.list-add").tap()
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.wait_for()
    assert NO_VALUE.findall(dialog.inner_text()) == []
    dialog.locator("#list-dialog-name").tap()
    page.keyboard.type("Traque", delay=20)
    dialog.locator("button[value=ajouter]").tap()
    page.locator(".list-notice").wait_for()

    page.goto(url + "bestiaire/carnet-de-chasse/")
    card = page.locator("article.list-entry")
    expect(card).to_have_count(1)
    assert card.locator(".niveau").count() == 0
    assert "Feu follet" in card.inner_text() and NO_VALUE.findall(card.inner_text()) == []
    page.screenshot(path=SHOTS / "carnet-sans-niveaux.png")
