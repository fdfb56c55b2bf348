"""College pages and the spell index: anchors, badges, filters and escaping."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup, Tag
from synth import seed_text

from regles.features.databases.book import Book, DatabaseSettings
from regles.features.databases.columns import index_columns
from regles.features.databases.export import parse_export
from regles.features.databases.model import ParseResult
from regles.features.databases.pages import (
    ENTRY_TABLE_MARK,
    IndexLabels,
    mention_linker,
    render_entry_index,
    render_group_page,
)

TITLE = "Index des sorts"

# The site's Markdown extensions (mkdocs.yml), with toc's default slugify.
EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.details",
    "pymdownx.superfences",
]


def to_html(page: str) -> BeautifulSoup:
    return BeautifulSoup(markdown.markdown(page, extensions=EXTENSIONS), "html.parser")


@pytest.fixture(scope="module")
def seed() -> ParseResult:
    return parse_export(seed_text())


HOSTILE = (
    "# Magie _Généré le <b>01/01/2027</b>_ --- "
    "## Pièges <i>& co</i> **Description du collège :** Collège <script>alert('c')</script>. "
    "### Faille <img src=x onerror=alert(1)> (I) - **Durée :** 1 minute - **Résistance :** "
    '<b>Vol</b> - **Classe :** Zone" onmouseover="x Texte <script>alert(1)</script> fin. '
    "### Liens (II) Voir [dégâts×10] et [clic](javascript:alert(1)) ou ![i](x.png) [^1]. "
    "### Blocs (III) # Pas un titre • 1. pas une liste • > pas une citation • `code` \\ {: .x } "
    "### Séparateur (IV) --- "
    "### Définition (V) Terme • : pas une définition • ~~~ pas un bloc • ??? note pas un détail "
    "• !!! note pas un avertissement • *[HTML]: pas une abréviation "
    "### Deux-points (V) : pas une définition "
    "--- Fin du fichier"
)


@pytest.fixture(scope="module")
def hostile() -> ParseResult:
    result = parse_export(HOSTILE)
    assert result.errors == [], [str(p) for p in result.problems]
    return result


# This site's columns (mkdocs.yml's `columns:`): the export's four most used fields,
# labelled for what they hold.
SITE_COLUMNS = ["Classe", "Durée", "Temps", "Résistance"]
SITE_LABELS = IndexLabels(names={"Classe": "Classe de sort", "Résistance": "Résistance du sort"})


def site_index(result: ParseResult) -> str:
    """The index of `result` with this site's columns and labels."""
    columns = index_columns([dict(s.fields) for s in result.entries], SITE_COLUMNS)
    return render_entry_index(result, TITLE, labels=SITE_LABELS, columns=columns)


def test_index_table(seed: ParseResult) -> None:
    page = site_index(seed)
    assert page.startswith("# Index des sorts\n")
    soup = BeautifulSoup(page, "html.parser")
    tables = soup.find_all("table")
    assert len(tables) == 1 and tables[0]["id"] == "entry-table"
    headers = [th.get_text() for th in soup.select("thead th")]
    # What each column holds: « Classe de sort », not a character's « Classe ».
    assert headers == [
        "Nom",
        "Collège",
        "Niveaux",
        "Classe de sort",
        "Durée",
        "Temps",
        "Résistance du sort",
    ]
    rows = soup.select("tbody tr")
    assert len(rows) == 79
    hrefs = [row.select_one("td a")["href"] for row in rows]  # type: ignore[index]
    assert len(set(hrefs)) == 79
    assert "../acoustique/#blast-sonore" in hrefs
    blast = next(r for r in rows if r.select_one("td a").get_text() == "Blast sonore")  # type: ignore[union-attr]
    assert blast["data-group"] == "acoustique"
    assert (blast["data-min"], blast["data-max"]) == ("1", "4")
    level = blast.select("td")[2]
    assert (level["data-min"], level["data-max"], level.get_text()) == ("1", "4", "I–IV")
    # The phone's cards name each field from its label, with or without the page's script.
    # 26 entries have « Temps : long » (or « Long ») in the seed.
    assert sum(1 for r in rows if r["data-long"] == "1") == 26
    parchemin = next(r for r in rows if "#parchemin" in r.select_one("td a")["href"])  # type: ignore[index]
    assert parchemin["data-temps"] == "10 minutes par PdM nécessaire au lancer du sort"
    assert parchemin["data-long"] == "0"
    assert parchemin["data-classe"] == "Enchantement"
    labels = [td.get("data-label") for td in parchemin.select("td")]
    assert labels == [None, None, None, "Classe de sort", None, "Temps", None]
    assert "Export généré le 22/10/2026 à 19:24." in page


def test_index_table_is_put_in_after_the_markdown(seed: ParseResult) -> None:
    """The build converts the index's Markdown with a mark where the table goes, then puts
    the table there: the same page as converting it whole, and a page without its mark
    (or with two) stops the build rather than showing no table."""
    book = Book(DatabaseSettings(Path("export.txt"), "export.txt", "magie", "Magie", TITLE), seed)
    ((_, marked), *_) = book.pages()
    assert marked.count(ENTRY_TABLE_MARK) == 1 and "<table" not in marked
    convert = lambda text: markdown.markdown(text, extensions=EXTENSIONS)  # noqa: E731
    whole = render_entry_index(
        seed,
        TITLE,
        fields_page=("Champs et abréviations", "champs-et-abreviations.md"),
        labels=book.labels,
    )
    assert book.with_table(convert(marked)) == convert(whole)
    for broken in ("<h1>Index des sorts</h1>", ENTRY_TABLE_MARK * 2):
        with pytest.raises(ValueError, match="la marque du tableau de l’index"):
            book.with_table(broken)


def test_index_renders_through_markdown(seed: ParseResult) -> None:
    soup = to_html(render_entry_index(seed, TITLE))
    assert len(soup.select("table#entry-table tbody tr")) == 79


def test_group_pages_anchor_every_entry(seed: ParseResult) -> None:
    for group in seed.groups:
        soup = to_html(render_group_page(group, mention_linker(seed, group)))
        h1 = soup.find_all("h1")
        assert [h.get_text() for h in h1] == [group.name]
        entries = soup.select("h2.entry")
        assert [h["id"] for h in entries] == [s.slug for s in group.entries]
        assert [h.get_text() for h in entries] == [s.name for s in group.entries]
        assert len(soup.select("span.niveau")) == len(group.entries)
        assert not soup.find_all("script")


def test_group_page_markdown(seed: ParseResult) -> None:
    acoustique = seed.groups[0]
    page = render_group_page(acoustique)
    assert page.startswith("# Acoustique\n\nCes sorts permettent de créer")
    assert "## Blast sonore { #blast-sonore .entry }\n" in page
    assert '<span class="niveau" title="Niveaux I à IV">I–IV</span>' in page
    assert '<span class="niveau" title="Niveau II">II</span>' in page
    assert "<dt>Durée</dt><dd>1 minute</dd>\n<dt>Résistance</dt><dd>San</dd>" in page
    soup = to_html(page)
    blast = soup.find(id="blast-sonore")
    assert isinstance(blast, Tag)
    text = blast.find_next("p", class_=False)
    assert text is not None and "[dégâts×10] secondes" in text.get_text()
    assert not soup.select("a")  # no link appears without a resolver


def test_bullets_render_as_a_list(seed: ParseResult) -> None:
    group = next(c for c in seed.groups if c.name == "Élémentaire - Air")
    soup = to_html(render_group_page(group))
    section = soup.find(id="controle-du-climat")
    assert isinstance(section, Tag)
    items = section.find_next("ul")
    assert items is not None
    texts = [li.get_text() for li in items.find_all("li")]
    assert [t.split(" :")[0] for t in texts] == [
        "Précipitations / couverture nuageuse",
        "Température",
        "Vent",
    ]


def test_mentions_link_to_entries(seed: ParseResult) -> None:
    air = next(c for c in seed.groups if c.name == "Élémentaire - Air")
    page = render_group_page(air, mention_linker(seed, air))
    assert "[_Contrôle du climat_](#controle-du-climat)" in page
    acoustique = seed.groups[0]
    link = mention_linker(seed, acoustique)
    assert link("Blast sonore") == "#blast-sonore"
    assert link("Contrôle du climat") == "../elementaire-air/#controle-du-climat"
    assert link("Perception") is None
    soup = to_html(render_group_page(air, mention_linker(seed, air)))
    assert soup.select_one('a[href="#controle-du-climat"]') is not None


def test_hostile_index_is_escaped(hostile: ParseResult) -> None:
    page = site_index(hostile)
    soup = BeautifulSoup(page, "html.parser")
    assert not soup.find_all(["script", "img", "b", "i"])
    rows = soup.select("tbody tr")
    assert [r.select_one("td a").get_text() for r in rows] == [  # type: ignore[union-attr]
        "Faille <img src=x onerror=alert(1)>",
        "Liens",
        "Blocs",
        "Séparateur",
        "Définition",
        "Deux-points",
    ]
    faille = rows[0]
    assert faille["data-resistance"] == "<b>Vol</b>"
    assert faille["data-classe"] == 'Zone" onmouseover="x'
    assert not faille.has_attr("onmouseover")
    assert "<script" not in page and "<img" not in page
    assert "Export généré le &lt;b&gt;01/01/2027&lt;/b&gt;." in page


def test_hostile_group_page_is_escaped(hostile: ParseResult) -> None:
    group = hostile.groups[0]
    page = render_group_page(group, mention_linker(hostile, group))
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    soup = to_html(page)
    assert not soup.find_all(["script", "img", "b", "i"])
    assert soup.find("h1").get_text() == "Pièges <i>& co</i>"  # type: ignore[union-attr]
    text = soup.get_text()
    assert "Collège <script>alert('c')</script>." in text
    assert "Texte <script>alert(1)</script> fin." in text
    assert soup.select_one("dd:-soup-contains('Vol')").get_text() == "<b>Vol</b>"  # type: ignore[union-attr]


def test_hostile_links_and_blocks_stay_text(hostile: ParseResult) -> None:
    group = hostile.groups[0]
    soup = to_html(render_group_page(group))
    assert not soup.find_all(["a", "img", "ol", "blockquote", "code", "hr", "sup"])
    assert [h.name for h in soup.find_all(["h1", "h2", "h3"])] == ["h1"] + ["h2"] * 6
    assert not soup.find_all(["dl", "details", "pre", "abbr"], class_=lambda c: c != "champs")
    assert not soup.select("div.admonition")
    text = soup.get_text()
    assert "Voir [dégâts×10] et [clic](javascript:alert(1)) ou ![i](x.png) [^1]." in text
    blocs = soup.find(id="blocs")
    assert isinstance(blocs, Tag)
    paragraph = blocs.find_next("p", class_=False)
    assert paragraph is not None and paragraph.get_text() == "# Pas un titre"
    items = [li.get_text() for li in soup.select("ul li")]
    assert items == [
        "1. pas une liste",
        "> pas une citation",
        "`code` \\ {: .x }",
        ": pas une définition",
        "~~~ pas un bloc",
        "??? note pas un détail",
        "!!! note pas un avertissement",
        "*[HTML]: pas une abréviation",
    ]
    deux_points = soup.find(id="deux-points")
    assert isinstance(deux_points, Tag)
    paragraph = deux_points.find_next("p", class_=False)
    assert paragraph is not None and paragraph.get_text() == ": pas une définition"
    separateur = soup.find(id="separateur")
    assert isinstance(separateur, Tag)
    last = separateur.find_next("p", class_=False)
    assert last is not None and last.get_text() == "---"


def test_description_records_keep_text_as_written(hostile: ParseResult) -> None:
    liens = hostile.entries[1]
    # Link-shaped brackets are escaped, the plain bracket stays as written.
    assert liens.description == (
        "Voir [dégâts×10] et \\[clic\\](javascript:alert(1)) ou !\\[i\\](x.png) \\[^1\\]."
    )
    assert hostile.entries[0].description == "Texte <script>alert(1)</script> fin."
