"""Search index, without a browser: Pagefind's files in site/pagefind/, records and filters.

The records are read back from the written index (Pagefind fragments are gzip'd JSON behind a
`pagefind_dcd` signature), so these tests check what the browser will receive.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from bench.project import load_mkdocs_yaml, plugin_options
from regles.core.systems import Database, Systems
from regles.features.assets.theme import THEME_DIR
from regles.features.printing.printing import PRINT_SLUG
from regles.features.search import index as search_index
from regles.features.search import pagefind as search_pagefind
from regles.features.search import records as search
from tests.conftest import TEST_SITE, build_site, variant_of_test_site

SYSTEMS = Systems({"dnd5e": "D&D 5e"}, (Database("magie", "Magie"),))
RULES = search.area_of(SYSTEMS, "dnd5e/combat.md")
ENTRIES = search.area_of(SYSTEMS, "magie/acoustique.md")
# The test site's systems and spells, as tests/site/mkdocs.yml declares them.
TEST_SITE_OPTIONS = plugin_options(load_mkdocs_yaml(TEST_SITE), "regles") or {}
TEST_SITE_SYSTEMS: dict[str, str] = TEST_SITE_OPTIONS["systems"]
TEST_SITE_ENTRY_SYSTEM: str = TEST_SITE_OPTIONS["spells"]["system"]
TEST_SITE_FOLDERS = Systems(
    TEST_SITE_SYSTEMS,
    (
        Database(
            TEST_SITE_OPTIONS["spells"]["folder"],
            TEST_SITE_OPTIONS["spells"]["section"],
            TEST_SITE_ENTRY_SYSTEM,
        ),
    ),
)


def built_page_area(path: str) -> search.Area | None:
    """The area of a built page of the test site, from the page it is built from
    (`jeu/combat/index.html` from `jeu/combat.md`, `jeu/index.html` from `jeu/index.md`)."""
    folder = path.removesuffix("index.html").rstrip("/")
    candidates = [f"{folder}/index.md", f"{folder}.md"] if folder else ["index.md"]
    content = TEST_SITE.parent / "content"
    source = next((c for c in candidates if (content / c).is_file()), candidates[-1])
    return search.area_of(TEST_SITE_FOLDERS, source)


SIGNATURE = b"pagefind_dcd"


def read_fragments(site: Path) -> list[dict[str, Any]]:
    fragments = []
    for path in sorted((site / "pagefind" / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(SIGNATURE), path
        fragments.append(json.loads(data[len(SIGNATURE) :]))
    return fragments


@pytest.fixture(scope="module")
def fragments(site_dir: Path) -> dict[str, dict[str, Any]]:
    by_url = {f["url"]: f for f in read_fragments(site_dir)}
    assert by_url, "aucun fragment Pagefind"
    return by_url


# The built site ---------------------------------------------------------------------------


def test_the_index_is_under_the_site(site_dir: Path) -> None:
    index = site_dir / "pagefind"
    for name in ("pagefind.js", "pagefind-entry.json", "pagefind-worker.js", "wasm.fr.pagefind"):
        assert (index / name).is_file(), name
    entry = json.loads((index / "pagefind-entry.json").read_text("utf-8"))
    assert set(entry["languages"]) == {"fr"}, entry
    assert list((index / "index").glob("*.pf_index")), "pas de morceau d’index"
    assert list((index / "filter").glob("*.pf_filter")), "pas d’index de filtres"
    assert list(index.glob("pagefind.fr_*.pf_meta"))


def test_pagefind_interfaces_that_the_site_does_not_use_are_not_shipped(site_dir: Path) -> None:
    for name in search_pagefind.UNUSED_BUNDLE_FILES:
        assert not (site_dir / "pagefind" / name).exists(), name


def test_material_search_is_gone(site_dir: Path) -> None:
    assert not (site_dir / "search").exists(), "l’index lunr de Material est encore construit"
    for pattern in search_index.MATERIAL_SEARCH_FILES:
        assert not list(site_dir.glob(pattern)), f"fichiers de la recherche de Material : {pattern}"
    for page in sorted(site_dir.rglob("*.html")):
        if page.is_relative_to(site_dir / "pagefind"):
            continue
        html = BeautifulSoup(page.read_text("utf-8"), "html.parser")
        # Material starts its own search from either of these.
        assert html.select_one('[data-md-component="search"]') is None, page
        assert html.select_one('form[name="search"]') is None, page
        box = html.select_one("header [data-recherche] input[data-recherche-saisie]")
        assert box is not None, f"{page} : pas de champ de recherche dans l’en-tête"
        assert html.select_one('header label.md-header__button[for="__search"]') is not None


def test_pages_are_not_changed_for_the_index(site_dir: Path) -> None:
    for page in sorted(site_dir.rglob("*.html")):
        assert "data-pagefind" not in page.read_text("utf-8"), page


def test_the_script_builds_its_urls_from_the_page_root() -> None:
    scripts = THEME_DIR / "assets" / "js"
    script = (scripts / "search-ranking.js").read_text("utf-8")  # where Pagefind is loaded
    shared = (scripts / "page.js").read_text("utf-8")  # siteRoot and the element builder
    assert re.search(r'^import \{[^}]*\bsiteRoot\b[^}]*\} from "\./page\.js";$', script, re.M)
    assert 'new URL("pagefind/pagefind.js", siteRoot())' in script
    assert 'meta[name="regles-racine"]' in shared
    searching = [path.read_text("utf-8") for path in sorted(scripts.glob("search*.js"))]
    assert len(searching) == 3  # the box, the ranking, the landing
    for text in searching:
        assert "/pagefind/" not in text.replace('"pagefind/pagefind.js"', "")
    for text in (*searching, shared):
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text


# Records ------------------------------------------------------------------------------------


def test_every_entry_is_a_record_with_its_group(
    site_dir: Path, fragments: dict[str, dict[str, Any]]
) -> None:
    entries = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text("utf-8"))
    for entry in entries:
        record = fragments.get(entry["url"])
        assert record is not None, f"sort absent de l’index : {entry['url']}"
        assert record["meta"]["title"] == entry["name"]
        assert record["filters"]["type"] == [search.KIND_ENTRIES]
        assert record["filters"]["groupe"] == [entry["group"]]
        # The spells are a system of their own (`spells: system:` of the test site).
        assert record["filters"]["systeme"] == [TEST_SITE_ENTRY_SYSTEM]
        assert search.FILTER_SECTION not in record["filters"]
    # A college's own page names the nav section it is in (`spells.section`), for the list
    # of results to show under its title.
    group = fragments["sorts/acoustique/"]
    assert group["filters"][search.FILTER_SECTION] == ["Sorts"]
    assert group["filters"]["groupe"] == ["Acoustique"]


def test_rules_sections_carry_their_system_and_type(fragments: dict[str, dict[str, Any]]) -> None:
    abri = fragments["jeu/combat/#abri"]
    assert abri["meta"]["title"] == "Abri"
    assert abri["filters"]["systeme"] == ["Jeu d’essai"]
    assert abri["filters"]["type"] == [search.KIND_RULES]
    assert abri["meta"]["contexte"] == "Jeu d’essai › Combat › Effectuer une attaque"
    systems = Counter(
        value for f in fragments.values() for value in f["filters"].get("systeme", [])
    )
    assert set(systems) == {*TEST_SITE_SYSTEMS.values(), TEST_SITE_ENTRY_SYSTEM}, systems
    assert fragments["maison/poids-transportable/"]["filters"]["systeme"] == [
        "Règles maison d’essai"
    ]
    assert fragments["lankhmar/epees-et-pmt/#points-d-heroisme"]["filters"]["systeme"] == [
        "Lankhmar d’essai"
    ]
    assert fragments["epees/epees-intelligentes/"]["filters"]["systeme"] == ["Épées d’essai"]
    # A page outside every system is a page of the site.
    assert fragments["outils/"]["filters"]["type"] == [search.KIND_SITE]
    assert "systeme" not in fragments["outils/"]["filters"]


def test_every_record_has_a_title_and_a_type(fragments: dict[str, dict[str, Any]]) -> None:
    for url, record in fragments.items():
        assert record["meta"].get("title"), url
        assert record["filters"].get("type"), url
        assert record["filters"].get(search.DEPTH_FILTER), url


def test_every_record_links_to_an_existing_page_and_anchor(
    site_dir: Path, fragments: dict[str, dict[str, Any]]
) -> None:
    ids: dict[str, set[str]] = {}
    for url in fragments:
        assert not url.startswith(("/", "http:", "https:")), f"URL non relative : {url}"
        path, _, anchor = url.partition("#")
        page = site_dir / path / "index.html"
        assert page.is_file(), url
        if path not in ids:
            html = BeautifulSoup(page.read_text("utf-8"), "html.parser")
            ids[path] = {str(e["id"]) for e in html.select("[id]")}
        if anchor:
            assert anchor in ids[path], f"ancre absente : {url}"


def test_widgets_and_permalinks_stay_out_of_the_text(fragments: dict[str, dict[str, Any]]) -> None:
    with_a_list = fragments["maison/poids-transportable/"]["content"]
    assert "Ajouter une ligne" not in with_a_list  # the form of its calculator, which has a list
    assert "¶" not in "".join(f["content"] for f in fragments.values())
    index = fragments["sorts/index-des-sorts/"]["content"]
    assert "Blast sonore" not in index  # the table of every spell


def test_the_index_holds_what_the_written_pages_hold(
    site_dir: Path, fragments: dict[str, dict[str, Any]]
) -> None:
    # The build indexes each page's converted Markdown before any page is written
    # (`search.article`); cut from the pages as written, the records must be the same.
    # Each system's print page holds its pages again: the build leaves it out of the index.
    prints = [f"{folder}/{PRINT_SLUG}/index.html" for folder in TEST_SITE_FOLDERS.names]
    excluded = [*search.EXCLUDED_PAGES, *prints]
    written = {r.url: r for r in search.site_records(site_dir, built_page_area, excluded)}
    assert set(fragments) == set(written)
    for url, record in written.items():
        assert fragments[url]["meta"]["title"] == record.title, url


def test_excluded_pages_are_not_indexed(fragments: dict[str, dict[str, Any]]) -> None:
    for path in search.EXCLUDED_PAGES:
        url = search.page_url(path)
        assert not any(u.partition("#")[0] == url for u in fragments), path


def test_a_page_whose_front_matter_says_so_stays_out_of_the_index(tmp_path: Path) -> None:
    # Material's own setting (`search: exclude: true`): a page for the game master is built
    # and served, and players' searches never lead to it.
    content = tmp_path / "content"
    shutil.copytree(TEST_SITE.parent / "content", content)
    page = content / "licences.md"
    page.write_text("---\nsearch:\n  exclude: true\n---\n" + page.read_text("utf-8"), "utf-8")
    config = variant_of_test_site(
        tmp_path,
        lambda text: text.replace(
            f"docs_dir: {TEST_SITE.parent / 'content'}", f"docs_dir: {content}"
        ),
    )
    site = tmp_path / "site"
    result = build_site(site, config)
    assert result.returncode == 0, result.stdout + result.stderr
    urls = [fragment["url"] for fragment in read_fragments(site)]
    assert any(url.startswith("jeu/combat/") for url in urls), urls[:5]
    assert not any(url.startswith("licences/") for url in urls)
    assert (site / "licences" / "index.html").is_file()


def test_front_matter_reads_as_material_reads_it() -> None:
    assert search.searched({})
    assert search.searched({"search": {"boost": 2}})
    assert not search.searched({"search": {"exclude": True}})
    assert search.searched({"search": "exclude"})  # not Material's form: indexed


# The page reader, on small pages ----------------------------------------------------------

PAGE = """<html><body><nav><h2 id="nav">Navigation</h2></nav>
<article class="md-content__inner md-typeset">
<h1 id="combat">Combat<a class="headerlink" href="#combat">¶</a></h1>
<p>Intro <em>du</em> combat.</p>
<h2 id="ordre">L’ordre<a class="headerlink" href="#ordre">¶</a></h2>
<p>Texte.</p>
<h3 id="initiative">Initiative</h3>
<dl><dt>Durée</dt><dd>1 minute</dd></dl>
<form class="calculateur"><label>Force</label><select><option>Choix</option></select></form>
<h3>Sans ancre</h3><p>Perdu.</p>
<h2 id="fin">Fin</h2><script>var x = "<h2>";</script><p>Dernier<br>mot.</p>
</article><footer><h2 id="pied">Pied</h2></footer></body></html>"""


def test_a_page_becomes_one_record_per_heading_with_an_anchor() -> None:
    records = search.page_records("dnd5e/combat/index.html", PAGE, RULES)
    assert [(r.url, r.title, r.level) for r in records] == [
        ("dnd5e/combat/", "Combat", 1),
        ("dnd5e/combat/#ordre", "L’ordre", 2),
        ("dnd5e/combat/#initiative", "Initiative", 3),
        ("dnd5e/combat/#fin", "Fin", 2),
    ]
    intro, ordre, initiative, fin = records
    assert "Intro <em>du</em> combat." in intro.body
    assert initiative.trail == ("L’ordre",)
    assert initiative.context == "D&D 5e › Combat › L’ordre"
    assert intro.context == "D&D 5e"
    assert "Durée</dt> : <dd>1 minute" in initiative.body
    assert "Force" not in initiative.body and "Choix" not in initiative.body
    assert "Perdu" not in initiative.body  # a heading without an id ends the section
    assert "var x" not in fin.body and "<br>" in fin.body
    assert all(r.system == "D&D 5e" and r.kind == search.KIND_RULES for r in records)
    assert ordre.filters == {"type": ["Règles"], "systeme": ["D&D 5e"]}


def test_a_section_of_calculators_reads_what_they_do_not_their_rule_links() -> None:
    # A tools section: each calculator placed away from its rule has a "Voir la règle" link
    # before its form. The links' label, once per calculator, was all its text.
    page = """<article class="md-content__inner"><h1 id="outils">Outils</h1>
    <h2 id="jeu">Jeu</h2>
    <p class="calculateur-regle"><a href="../jeu/">Voir la règle</a></p>
    <form class="calculateur"><p class="calculateur-titre">Bonus de maîtrise</p>
    <p class="calculateur-description">Donne le bonus selon le niveau.</p>
    <label>Niveau</label><select><option>Choix</option></select></form>
    <p class="calculateur-regle"><a href="../jeu/">Voir la règle</a></p>
    <form class="calculateur"><p class="calculateur-titre">Dés</p>
    <p class="calculateur-description">Lance des dés.</p><label>Expression</label></form>
    <p>Fin.</p></article>"""
    _, section = search.page_records("outils/index.html", page, None)
    assert "Voir la règle" not in section.body
    assert "<p>Bonus de maîtrise</p> <p>Donne le bonus selon le niveau.</p>" in section.body
    assert "<p>Dés</p> <p>Lance des dés.</p>" in section.body
    assert "Niveau" not in section.body.replace("niveau.", "") and "Choix" not in section.body
    assert "Expression" not in section.body and "<p>Fin.</p>" in section.body


def test_a_calculator_is_a_result_of_its_own_under_its_section() -> None:
    page = """<article class="md-content__inner"><h1 id="tests">Tests</h1>
    <h2 id="des">Les dés</h2><h3 id="rejouer">Rejouer</h3><p>On rejoue.</p>
    <form class="calculateur" id="calc-chances"><p class="calculateur-titre">Chances d’un
    test &lt;d20&gt;</p><p class="calculateur-description">Contre un DD &amp; une CA.</p>
    <label>Modificateur</label></form>
    <form class="calculateur"><p class="calculateur-titre">Sans id</p></form>
    <form class="calculateur" id="calc-vide"><label>Sans titre</label></form></article>"""
    records = search.page_records("jeu/tests/index.html", page, search.Area("Jeu", "Règles"))
    calculators = [r for r in records if r.kind == search.KIND_CALCULATORS]
    # Only a form with an id (its address) and a title: found by what it says it is.
    assert [(r.url, r.title) for r in calculators] == [
        ("jeu/tests/#calc-chances", "Chances d’un test <d20>")
    ]
    (calculator,) = calculators
    assert calculator.body == "Contre un DD &amp; une CA."  # its text, as HTML text
    assert calculator.context == "Jeu › Tests › Les dés › Rejouer" and calculator.level == 4
    assert calculator.filters == {"type": ["Calculateurs"], "systeme": ["Jeu"]}
    # Its section still reads what it does.
    (rejouer,) = [r for r in records if r.url.endswith("#rejouer")]
    assert "<p>Contre un DD &amp; une CA.</p>" in rejouer.body
    assert "Modificateur" not in rejouer.body


def test_no_record_repeats_a_sentence(fragments: dict[str, dict[str, Any]]) -> None:
    # What the result list shows is a record's text: a sentence said twice in a row in it
    # ("Voir la règle. Voir la règle.") is a widget's label, not the section's text.
    twice = re.compile(r"(\b[^.!?]{6,}[.!?]) \1")
    found = {url: twice.search(f["content"]) for url, f in fragments.items()}
    repeated = {url: m.group(0) for url, m in found.items() if m}
    assert repeated == {}


def test_a_group_page_gives_entries_with_their_group() -> None:
    page = """<article class="md-content__inner">
    <h1 id="acoustique">Acoustique</h1><p>Des sons.</p>
    <h2 class="entry" id="bruit">Bruit</h2>
    <p class="niveaux"><span class="niveau" title="Niveaux I à II">I–II</span></p>
    <p>Un bruit.</p></article>"""
    intro, entry = search.page_records("magie/acoustique/index.html", page, ENTRIES)
    assert (entry.url, entry.title, entry.group, entry.kind) == (
        "magie/acoustique/#bruit",
        "Bruit",
        "Acoustique",
        search.KIND_ENTRIES,
    )
    assert entry.filters == {"type": ["Sorts"], "groupe": ["Acoustique"]}
    assert "Niveaux I à II" in entry.body and "I–II" not in entry.body
    assert intro.group == "Acoustique" and intro.url == "magie/acoustique/"
    # The spell index lives in magie/ too, but has no spell of its own: no college.
    (index,) = search.page_records(
        "magie/tous-les-sorts/index.html",
        '<article class="md-content__inner"><h1 id="t">Tous les sorts</h1>'
        '<table id="entry-table"><tr><td>Bruit</td></tr></table></article>',
        ENTRIES,
    )
    assert index.group is None and "Bruit" not in index.body


def test_an_article_without_a_title_gets_the_page_title_as_material_gives_it() -> None:
    # Material's template adds `<h1>{{ page.title }}</h1>` when the content has none.
    content = '<p>Avant-propos.</p><h2 id="suite">Suite</h2><p>Texte.</p>'
    intro, suite = search.page_records(
        "licences/index.html", search.article(content, "A & B"), None
    )
    assert (intro.title, intro.url, intro.body) == ("A & B", "licences/", "<p>Avant-propos.</p>")
    assert (suite.title, suite.url, suite.page) == ("Suite", "licences/#suite", "A & B")
    titled = search.article('<h1 id="x">Titre</h1><p>Texte.</p>', "Autre")
    (record,) = search.page_records("x/index.html", titled, None)
    assert record.title == "Titre" and "Autre" not in titled


def test_the_document_given_to_pagefind_escapes_names_and_values() -> None:
    record = search.Record(
        url="x/#a",
        title='Épée <b>"vive"</b>',
        body="<p>Texte</p>",
        kind=search.KIND_RULES,
        page="X",
        system="D&D 5e",
        level=2,
    )
    document = search.record_document(record)
    assert "<h1>Épée &lt;b&gt;&quot;vive&quot;&lt;/b&gt;</h1>" in document
    assert 'data-pagefind-filter="systeme:D&amp;D 5e"' in document
    assert 'data-pagefind-meta="principal:Épée &lt;b&gt;&quot;vive&quot;&lt;/b&gt;"' in document
    assert 'data-pagefind-filter="profondeur:2"' in document
    assert '<html lang="fr">' in document


def test_a_pagefind_service_that_stops_is_reported_with_its_own_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "pagefind"
    fake.write_text("#!/bin/sh\necho 'configuration illisible' >&2\nexit 3\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setattr(search_index, "executable", lambda: fake)
    with pytest.raises(search.SearchIndexError, match="s’est arrêté : configuration illisible"):
        search_index.Indexer()


def test_page_urls() -> None:
    assert search.page_url("dnd5e/combat/index.html") == "dnd5e/combat/"
    assert search.page_url("index.html") == ""
    assert search.page_url("404.html") == "404.html"


def test_a_pages_area_comes_from_its_source_as_the_build_reads_it() -> None:
    systems = Systems({"jeu": "Jeu"}, (Database("sorts", "Sorts"),), site_folders=("aide",))
    # jeu.md is built as jeu/index.html, but it lies at the top of the docs: a page of the site.
    assert search.area_of(systems, "jeu.md") is None
    assert search.area_of(systems, "jeu/combat.md") == search.Area("Jeu", search.KIND_RULES)
    assert search.area_of(systems, "aide/jeu/combat.md") is None
    entries = search.Area(None, search.KIND_ENTRIES, "Sorts", database=True)
    assert search.area_of(systems, "sorts/feu.md") == entries
    # The database's entries are of the kind its words say.
    prayers = Systems({"jeu": "Jeu"}, (Database("prieres", "Foi", kind="Prières"),))
    assert search.area_of(prayers, "prieres/culte.md") == search.Area(
        None, "Prières", "Foi", database=True
    )


def test_words_that_only_follow_an_elision_are_given_to_the_search() -> None:
    body = "<p>Une attaque d’opportunité, l’aube et l&#8217;ombre ; qu’il dorme.</p><p>aube</p>"
    # « aube » stands alone elsewhere, « il » is too short to search: neither is repeated.
    assert search.elided_words("", body) == ["opportunité", "ombre"]
    assert search.elided_words("Attaques d’Opportunité", "") == ["Opportunité"]
    record = search.Record(
        url="jeu/#x", title="Attaques d’Opportunité", body=body, kind="Règles", page="Jeu", level=2
    )
    document = search.record_document(record)
    assert 'data-pagefind-meta="elisions:opportunité ombre"' in document
    assert 'data-pagefind-meta="titre_elisions:Opportunité"' in document


def test_a_table_reads_cell_by_cell_and_row_by_row_in_its_excerpt() -> None:
    # An excerpt is one line: without marks, « 1 tour Hallucinations 7 Choc » would not say
    # where a cell ends.
    page = """<article class="md-content__inner"><h1 id="t">Table</h1>
    <table><thead><tr><th>d10</th><th>Horreur</th></tr></thead>
    <tbody><tr><td>6</td><td>Incapacité pendant 1 tour</td></tr>
    <tr><td>7</td><td>Choc</td></tr></tbody></table><p>Après.</p></article>"""
    (record,) = search.page_records("x/index.html", page, None)
    text = " ".join(re.sub(r"<[^>]+>", "", record.body).split())
    assert text == "d10 · Horreur — 6 · Incapacité pendant 1 tour — 7 · Choc Après."
    # One paragraph: Pagefind ends each block with a full stop (« 6. · Incapacité… »).
    assert re.findall(r"</?(\w+)", record.body) == ["p", "p", "p", "p"]
