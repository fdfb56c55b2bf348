"""The built spell pages: data/spells.json, anchors, the spell index's table, escaping.

Two builds: the real one (`site_dir`), and one whose export carries a hostile entry (HTML,
scripts, event handlers in its name, fields and description) to prove that export text
only ever reaches a page as text.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup, Tag

from regles.features.assets.theme import THEME_DIR
from regles.features.calculators.forms import FOLD_SCRIPT
from tests.conftest import TEST_SITE, build_site, variant_of_test_site
from tests.databases.synth import ENTRY_RECORD_KEYS

pytestmark = pytest.mark.site

# The test site's spells (tests/site/mkdocs.yml: `spells:`): 79 of them, in five colleges.
FOLDER = "sorts"
INDEX = "sorts/index-des-sorts/index.html"
EXPORT = TEST_SITE.parent / "sorts.txt"
ENTRIES = 79
END = " --- Fin du fichier"

# A hostile spell appended to the last college of the real export.
HOSTILE_NAME = "Piège <script>window.__pwned=1</script>"
HOSTILE_ENTRY = (
    f" ### {HOSTILE_NAME} (I) "
    '- **Résistance :** <img src=x onerror="window.__pwned=2"> '
    "- **Durée :** 1 minute "
    'Texte <script>window.__pwned=3</script> et <b onclick="window.__pwned=4">gras</b> '
    "puis <iframe src=javascript:alert(1)></iframe> fin."
)
HOSTILE_TAGS = ("script", "img", "iframe", "b")

_HOSTILE_CACHE: dict[str, Path] = {}


def load_json(site: Path) -> list[dict[str, object]]:
    data = json.loads((site / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def soup_of(path: Path) -> BeautifulSoup:
    """A built page, its French no-break spaces read as spaces: these tests compare words
    with the export's; tests/test_typography.py checks the spacing."""
    text = path.read_text(encoding="utf-8").replace("\u00a0", " ").replace("\u202f", " ")
    return BeautifulSoup(text, "html.parser")


def page_file(site: Path, url_path: str) -> Path:
    """The built file of a site-relative directory URL (`sorts/acoustique/`)."""
    path = unquote(url_path)
    assert not path.startswith("/"), f"adresse absolue depuis la racine : {url_path}"
    return site / path / "index.html" if path.endswith("/") or not path else site / path


def ids_of(site: Path, url_path: str, cache: dict[str, set[str]]) -> set[str]:
    if url_path not in cache:
        file = page_file(site, url_path)
        assert file.is_file(), f"page absente : {url_path}"
        cache[url_path] = {str(t["id"]) for t in soup_of(file).find_all(id=True)}
    return cache[url_path]


def build_hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once per test process from the real export plus the hostile entry."""
    if "site" in _HOSTILE_CACHE:
        return _HOSTILE_CACHE["site"]
    work = tmp_path_factory.mktemp("hostile")
    text = EXPORT.read_text(encoding="utf-8").rstrip()
    assert text.endswith(END)
    export = work / "export-hostile.txt"
    export.write_text(text[: -len(END)] + HOSTILE_ENTRY + END + "\n", encoding="utf-8")
    config = variant_of_test_site(
        work, lambda text: text.replace(f"export: {EXPORT}", f"export: {export}")
    )
    destination = work / "site"
    result = build_site(destination, config)
    if result.returncode != 0:
        pytest.fail(f"construction avec l’export hostile :\n{result.stdout}\n{result.stderr}")
    _HOSTILE_CACHE["site"] = destination
    return destination


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_hostile_site(tmp_path_factory)


# ---------------------------------------------------------------------------------------
# The data file (data/bases/sorts.json)
# ---------------------------------------------------------------------------------------


def test_entries_json_has_every_entry_once(site_dir: Path) -> None:
    entries = load_json(site_dir)
    assert len(entries) == ENTRIES
    urls = [s["url"] for s in entries]
    assert len(set(urls)) == ENTRIES
    for entry in entries:
        assert entry.keys() == ENTRY_RECORD_KEYS, entry
        assert isinstance(entry["level_min"], int) and isinstance(entry["level_max"], int)
        assert 1 <= entry["level_min"] <= entry["level_max"] <= 10, entry["name"]
        assert entry["url"] == f"{FOLDER}/{entry['group_slug']}/#{entry['slug']}"


def test_every_entry_url_reaches_its_heading(site_dir: Path) -> None:
    pages: dict[str, BeautifulSoup] = {}
    for entry in load_json(site_dir):
        path, _, anchor = str(entry["url"]).partition("#")
        assert anchor, entry["url"]
        if path not in pages:
            file = page_file(site_dir, path)
            assert file.is_file(), f"page absente : {path}"
            pages[path] = soup_of(file)
        heading = pages[path].find(id=anchor)
        assert isinstance(heading, Tag), f"ancre absente : {entry['url']}"
        assert heading.name == "h2" and "entry" in (heading.get("class") or []), entry["url"]
        assert heading.get_text().removesuffix("¶") == entry["name"]
    assert len(pages) == len({s["group_slug"] for s in load_json(site_dir)})


def test_group_pages_badge_and_fields(site_dir: Path) -> None:
    entries = {s["url"]: s for s in load_json(site_dir)}
    blast = entries["sorts/acoustique/#blast-sonore"]
    page = soup_of(site_dir / "sorts" / "acoustique" / "index.html")
    heading = page.find(id="blast-sonore")
    assert isinstance(heading, Tag)
    badge = heading.find_next("span", class_="niveau")
    assert badge is not None and badge.get_text() == "I–IV" and blast["level_max"] == 4
    voice = page.find(id="alteration-de-la-voix")
    assert isinstance(voice, Tag)
    fields = voice.find_next("dl", class_="champs")
    assert isinstance(fields, Tag)
    pairs = dict(
        zip(
            (d.get_text() for d in fields.find_all("dt")),
            (d.get_text() for d in fields.find_all("dd")),
            strict=True,
        )
    )
    assert pairs == entries["sorts/acoustique/#alteration-de-la-voix"]["fields"]


# ---------------------------------------------------------------------------------------
# The spell index
# ---------------------------------------------------------------------------------------


def index_rows(site: Path) -> list[Tag]:
    table = soup_of(site / INDEX).select_one("table#entry-table")
    assert table is not None
    return list(table.select("tbody > tr"))


def test_index_has_one_row_per_entry(site_dir: Path) -> None:
    rows = index_rows(site_dir)
    assert len(rows) == ENTRIES
    entries = load_json(site_dir)
    names = [r.select("td")[0].get_text() for r in rows]
    assert sorted(names) == sorted(str(s["name"]) for s in entries)
    for row in rows:
        for attribute in (
            "data-group",
            "data-min",
            "data-max",
            "data-classe",
            "data-duree",
            "data-temps",
            "data-resistance",
            "data-long",
        ):
            assert row.has_attr(attribute), (attribute, row)
        assert row["data-long"] in ("0", "1")
        assert 1 <= int(str(row["data-min"])) <= int(str(row["data-max"])) <= 10


def test_every_index_row_links_to_an_existing_anchor(site_dir: Path) -> None:
    base = "http://site.invalid/sorts/index-des-sorts/"
    cache: dict[str, set[str]] = {}
    expected = {s["url"] for s in load_json(site_dir)}
    seen = set()
    for row in index_rows(site_dir):
        name_link, group_link = row.select("td a")[:2]
        for link in (name_link, group_link):
            href = str(link["href"])
            assert not href.startswith("/") and "://" not in href, href
        target = urlsplit(urljoin(base, str(name_link["href"])))
        path = target.path.removeprefix("/")
        assert target.fragment, name_link
        assert target.fragment in ids_of(site_dir, path, cache), f"{path}#{target.fragment}"
        seen.add(f"{path}#{target.fragment}")
        group = urlsplit(urljoin(base, str(group_link["href"]))).path.removeprefix("/")
        assert group == path and page_file(site_dir, group).is_file()
        assert path == f"{FOLDER}/{row['data-group']}/"
    assert seen == expected


def test_every_page_declares_the_site_root(site_dir: Path) -> None:
    for page in (INDEX, "sorts/acoustique/index.html", "index.html"):
        meta = soup_of(site_dir / page).find("meta", attrs={"name": "regles-racine"})
        assert isinstance(meta, Tag), page
        depth = page.count("/")
        assert meta["content"] == "../" * depth if depth else meta["content"] in ("./", "."), page


def test_entry_assets_are_linked_relatively(site_dir: Path) -> None:
    page = soup_of(site_dir / INDEX)
    styles = [str(link["href"]) for link in page.find_all("link", rel="stylesheet")]
    scripts = [str(s["src"]) for s in page.find_all("script", src=True)]
    # The site's own assets come as one bundle each (tests/test_bundle.py checks their content).
    assert any(re.fullmatch(r"\.\./\.\./assets/site\.\w+\.css", href) for href in styles)
    assert any(re.fullmatch(r"\.\./\.\./assets/js/site\.\w+\.js", src) for src in scripts)
    scripts_folder = THEME_DIR / "assets" / "js"
    source = (scripts_folder / "entries.js").read_text(encoding="utf-8")
    # An ES module, hence strict code (tests/test_bundle.py: so is the bundle made of it).
    assert re.search(r'^import \{[^}]*\bel\b[^}]*\} from "\./page\.js";$', source, re.M)
    shared = (scripts_folder / "page.js").read_text(encoding="utf-8")  # its element builder
    for text in (source, shared):
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text
        assert not re.search(r"""fetch\(\s*["'`]/""", text), "URL absolue depuis la racine"
        assert not re.search(r"https?://", text), "requête vers un autre site"


# ---------------------------------------------------------------------------------------
# Escaping
# ---------------------------------------------------------------------------------------


TEMPLATE_PAGE = "jeu/combat/index.html"  # a rules page, as deep as the spell pages


def inline_scripts(html: BeautifulSoup) -> list[str]:
    return sorted(s.get_text() for s in html.find_all("script") if s.get("src") is None)


def assert_scripts_come_from_the_theme(site: Path, page: Path) -> None:
    """Every script of a spell page is one the theme puts on any page of the same depth."""
    html = soup_of(page)
    template = soup_of(site / TEMPLATE_PAGE)
    # The template page has calculators; each is followed by its folding call (render.py).
    fold = re.fullmatch(r"<script>(.*)</script>", FOLD_SCRIPT)
    assert fold is not None
    theme = [s for s in inline_scripts(template) if s != fold.group(1)]
    assert inline_scripts(html) == theme, f"{page}: script en trop"
    sources = [str(s["src"]) for s in html.find_all("script", src=True)]
    assert sources == [str(s["src"]) for s in template.find_all("script", src=True)], page
    for element in (html.select_one("article") or html).find_all(True):
        handlers = [a for a in element.attrs if a.lower().startswith("on")]
        assert not handlers, f"{page}: {element.name} {handlers}"


def test_the_entry_pages_have_no_script_from_the_export(site_dir: Path) -> None:
    pages = sorted((site_dir / FOLDER).rglob("index.html"))
    assert len(pages) >= 2
    for page in pages:
        assert_scripts_come_from_the_theme(site_dir, page)


def test_hostile_export_reaches_pages_as_text(hostile_site: Path) -> None:
    entries = load_json(hostile_site)
    assert len(entries) == ENTRIES + 1
    hostile = next(s for s in entries if s["name"] == HOSTILE_NAME)
    # The record keeps the raw text…
    assert "<script>" in str(hostile["description"])
    path, _, anchor = str(hostile["url"]).partition("#")
    group_page = page_file(hostile_site, path)
    for page in (group_page, hostile_site / INDEX):
        html = soup_of(page)
        article = html.select_one("article")
        assert article is not None
        # …and every page shows it as text: no element, no handler.
        for name in HOSTILE_TAGS:
            assert not article.find_all(name), f"{page}: <{name}> venu de l’export"
        assert_scripts_come_from_the_theme(hostile_site, page)
        assert "window.__pwned=1" in article.get_text()
        raw = page.read_text(encoding="utf-8")
        assert "<script>window.__pwned" not in raw and "<img src=x" not in raw
    heading = soup_of(group_page).find(id=anchor)
    assert isinstance(heading, Tag) and heading.get_text().removesuffix("¶") == HOSTILE_NAME
    row = next(r for r in index_rows(hostile_site) if "__pwned=1" in r.get_text())
    assert row["data-resistance"] == '<img src=x onerror="window.__pwned=2">'
    assert row.select("td")[0].get_text() == HOSTILE_NAME


# ---------------------------------------------------------------------------------------
# What the export is: the header of its pages, the page of its fields and abbreviations
# ---------------------------------------------------------------------------------------

FIELDS_PAGE = "sorts/champs-et-abreviations/index.html"


def export_figures() -> tuple[str, str, int, int]:
    """The test site's export's title, date, colleges and spells, read from its text."""
    text = EXPORT.read_text(encoding="utf-8")
    head = re.match(r"# (?P<title>.+?) _Généré le (?P<date>[^_]+)_", text)
    assert head is not None
    groups = len(re.findall(r"(?<!\S)## ", text))
    entries = len(re.findall(r"(?<!\S)### ", text))
    return head["title"], head["date"], groups, entries


def test_the_index_says_what_the_export_is(site_dir: Path) -> None:
    title, date, groups, entries = export_figures()
    header = soup_of(site_dir / INDEX).select_one("article .export-entete")
    assert header is not None
    text = header.get_text(" ", strip=True)
    assert text.startswith(f"{title} — Export généré le {date}.")
    assert f"{groups} collèges, {entries} sorts." in text
    link = header.find("a")
    assert isinstance(link, Tag) and link.get_text() == "Champs et abréviations"
    target = urljoin(INDEX.removesuffix("index.html"), str(link["href"]))
    assert page_file(site_dir, target) == site_dir / FIELDS_PAGE


def test_each_group_page_names_its_export(site_dir: Path) -> None:
    title, date, _, entries = export_figures()
    records = load_json(site_dir)
    for slug in {str(r["group_slug"]) for r in records}:
        header = soup_of(site_dir / FOLDER / slug / "index.html").select_one(
            "article .export-entete"
        )
        assert header is not None, slug
        own = sum(1 for r in records if r["group_slug"] == slug)
        text = header.get_text(" ", strip=True)
        assert f"Collège de l’export {title} (généré le {date}) : " in text, text
        assert f"{own} sort{'s' if own > 1 else ''} sur {entries}." in text, text
        hrefs = {str(a["href"]) for a in header.find_all("a")}
        assert hrefs == {"../champs-et-abreviations/", "../index-des-sorts/"}


def test_the_fields_page_lists_every_field_with_its_count(site_dir: Path) -> None:
    text = EXPORT.read_text(encoding="utf-8")
    _, _, _, entries = export_figures()
    page = soup_of(site_dir / FIELDS_PAGE)
    keys: dict[str, int] = {}
    for entry in re.split(r"(?<!\S)### ", text)[1:]:
        for key in set(re.findall(r"- \*\*([^*]+?) :\*\*", entry)):
            keys[key] = keys.get(key, 0) + 1
    assert keys, "l’export d’essai n’a plus de champ"
    shown = {h.get_text().rstrip("¶"): h for h in page.select("#champs ~ h3")}
    for key, n in keys.items():
        heading = shown.get(key)
        assert heading is not None, f"champ absent de la page : {key}"
        line = heading.find_next_sibling("p")
        assert line is not None and line.get_text().startswith(f"{n} sorts sur {entries}."), key
    # Every value of Classe is few enough to be listed, each with its count.
    classe = shown["Classe"].find_next_sibling("p")
    assert classe is not None
    for value, n in Counter(re.findall(r"- \*\*Classe :\*\* (\w+)", text)).items():
        assert f"{value} ({n})" in classe.get_text(), value


def test_the_fields_page_lists_abbreviations_and_what_defines_them(site_dir: Path) -> None:
    page = soup_of(site_dir / FIELDS_PAGE)
    words = {h.get_text().rstrip("¶"): h for h in page.select("#abreviations ~ h3")}
    assert {"PdM", "MJ", "RD", "P-Ex-sRD", "San"} <= set(words)

    def paragraphs(name: str) -> list[str]:
        found = []
        node = words[name].find_next_sibling()
        while isinstance(node, Tag) and node.name == "p":
            found.append(node.get_text(" ", strip=True))
            node = node.find_next_sibling()
        return found

    # PdM: counted, linked to spells that use it, defined by the test site's configuration.
    text = EXPORT.read_text(encoding="utf-8")
    headings = " ".join(re.findall(r"(?<!\S)### (.+?) \(", text))
    word = r"(?<![^\W_])PdM(?![^\W_])"
    count = len(re.findall(word, text)) - len(re.findall(word, headings))
    pdm = paragraphs("PdM")
    assert pdm[0].startswith(f"{count} occurrences dans "), pdm
    assert pdm[1] == (
        "Définition donnée par le site (sa configuration, pas l’export) : « points de magie "
        "(définition d’essai, donnée par la configuration) »."
    )
    assert words["PdM"].find_next_sibling("p").select("a[href*='#']")  # type: ignore[union-attr]
    # RD: nobody defines it.
    assert paragraphs("RD")[-1] == "Définition : non défini par l’export ."
    assert page.select_one("#niveaux ~ p .non-defini") is not None


def test_the_fields_page_is_in_the_nav(site_dir: Path) -> None:
    nav = soup_of(site_dir / INDEX).select("nav.md-nav a.md-nav__link")
    assert any(a.get_text(strip=True) == "Champs et abréviations" for a in nav)
