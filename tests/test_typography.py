"""French typography of the built pages (regles/core/typography.py), and the notes after « le
tableau à droite » (regles/features/links/directions.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from regles.core.typography import (
    CODE_TAGS,
    NBSP,
    NNBSP,
    apply_edits,
    french_spacing,
    spaced_markdown,
    spaced_marks,
    spaced_text,
    spacing_edits,
)
from regles.features.assets.theme import THEME_DIR
from regles.features.links.directions import NOTE_CLASS, annotate_directions
from tests.conftest import node_json

PAGE_SCRIPT = THEME_DIR / "assets" / "js" / "page.js"
# An ordinary space or a line break before ; : ! ? », or after «.
ORDINARY = re.compile(r"[ \t\r\n](?=[;:!?»])|«[ \t\r\n]")


# The function ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spaced"),
    [
        ("Durée : 1 minute", f"Durée{NBSP}: 1{NBSP}minute"),
        ("oui ; non ! vraiment ?", f"oui{NNBSP}; non{NNBSP}! vraiment{NNBSP}?"),
        ("« Tests d20 »", f"«{NBSP}Tests d20{NBSP}»"),
        ("avant\n; après", f"avant{NNBSP}; après"),
        ("«\n mot \n»", f"«{NBSP}mot{NBSP}»"),
        ("9 m, 1d6 heures, 50 kg", f"9{NBSP}m, 1d6{NBSP}heures, 50{NBSP}kg"),
        ("50 % de chances", f"50{NNBSP}% de chances"),
        ("9 mois", f"9{NBSP}mois"),  # a whole unit, not « m » + « ois »
        ("3 mages", "3 mages"),  # not a unit
        ("mot\u00a0; suite", f"mot{NNBSP}; suite"),  # a typed no-break space: narrowed
        # Nothing is added where the owner wrote no space.
        ("http://exemple.org/?q=1 10:30 1d6! «mot»", "http://exemple.org/?q=1 10:30 1d6! «mot»"),
        ("A &amp; B ; C", f"A &amp; B{NNBSP}; C"),
    ],
)
def test_spaced_text(text: str, spaced: str) -> None:
    assert spaced_text(text) == spaced


def test_markdown_keeps_its_lines_and_code_spans() -> None:
    text = "3 composantes :\n\n- Vent : Calme ; Fort\n- `a ; b` « c »\ndurée 3\nminutes"
    assert spaced_markdown(text) == (
        f"3 composantes{NBSP}:\n\n- Vent{NBSP}: Calme{NNBSP}; Fort\n"
        f"- `a ; b` «{NBSP}c{NBSP}»\ndurée 3\nminutes"
    )
    # Spaced as one text, the last two lines would become one (« 3 minutes » kept together).
    assert spaced_text("durée 3\nminutes") == f"durée 3{NBSP}minutes"


@pytest.mark.parametrize("tag", sorted(CODE_TAGS))
def test_code_is_left_as_written(tag: str) -> None:
    inner = "a ; b : c ! « d » 9 m"
    html = f"<p>Avant :</p><{tag} class='x'>{inner}</{tag}><p>Après :</p>"
    assert french_spacing(html) == (
        f"<p>Avant{NBSP}:</p><{tag} class='x'>{inner}</{tag}><p>Après{NBSP}:</p>"
    )


def test_tags_attributes_and_comments_are_left_as_written() -> None:
    html = (
        '<a href="/x/?a=1 ; b" title="Titre : garde ; ses espaces !" data-x=\'9 m\'>lien ;</a>'
        '<input value="a : b"><!-- note : ici ; -->'
        '<span title="a > b : c">texte :</span>'
        "<pre><code>x ; y <b>z ?</b></code></pre> fin !"
    )
    assert french_spacing(html) == (
        '<a href="/x/?a=1 ; b" title="Titre : garde ; ses espaces !" data-x=\'9 m\'>'
        f"lien{NNBSP};</a>"
        '<input value="a : b"><!-- note : ici ; -->'
        f'<span title="a > b : c">texte{NBSP}:</span>'
        f"<pre><code>x ; y <b>z ?</b></code></pre> fin{NNBSP}!"
    )


def test_a_script_s_text_is_raw_even_when_it_looks_like_tags() -> None:
    html = '<script>if (a < b) x = "<code>" + " : ";</script><p>fin ?</p>'
    assert french_spacing(html) == (
        f'<script>if (a < b) x = "<code>" + " : ";</script><p>fin{NNBSP}?</p>'
    )


def test_a_number_in_its_own_element_keeps_its_unit() -> None:
    html = '<button class="de" data-de="1d6">1d6</button> heures, <em>mot</em> heures'
    assert french_spacing(html) == (
        f'<button class="de" data-de="1d6">1d6</button>{NBSP}heures, <em>mot</em> heures'
    )


def test_the_pass_is_idempotent() -> None:
    html = "<p>« a » : b ; 9 m</p><code>x : y</code>"
    once = french_spacing(html)
    assert once != html and french_spacing(once) == once


def test_the_changes_are_few_and_give_the_spaced_page() -> None:
    """What the build cache keeps of a page (core/build.py): the texts that change, where
    they are; made on any other text, they give that text spaced."""
    html = (
        '<p title="a : b">Durée : 1 minute</p><pre>x : y</pre>'
        '<p><button>1d6</button> heures ; <a href="?q=1">« lien »</a></p>'
    )
    edits = spacing_edits(html)
    assert [html[start : start + length] for start, length, _ in edits] == [
        "Durée : 1 minute",
        " heures ; ",
        "« lien »",
    ]
    assert apply_edits(html, edits) == french_spacing(html) != html
    assert spacing_edits(french_spacing(html)) == ()


# The notes after a direction of the printed page --------------------------------------


def test_a_table_placed_by_the_printed_layout_gets_a_note() -> None:
    html = "<p>Voir le tableau à droite. Lire la table des langues, à droite.</p><table></table>"
    out = annotate_directions(html)
    assert out.count(f'class="{NOTE_CLASS}"') == 2
    assert out.count("(ici : plus bas)") == 2
    assert "Voir le tableau à droite<span" in out  # the owner's words, then the note


def test_the_note_says_where_the_table_is() -> None:
    assert "(ici : plus haut)" in annotate_directions("<table></table><p>Voir ci-contre.</p>")


@pytest.mark.parametrize(
    "html",
    [
        "<p>Cliquez sur l’icône à droite de la barre d’adresse.</p>",  # placed by something
        "<p>Tournez à gauche au carrefour.</p>",  # no table, figure… named
        "<p>Voir la <code>table à droite</code>.</p>",  # code
    ],
)
def test_other_directions_are_left_alone(html: str) -> None:
    assert annotate_directions(html) == html


# The built test site -----------------------------------------------------------------


def prose_text(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(sorted(CODE_TAGS)):
        tag.decompose()
    return soup.get_text("")


def test_no_ordinary_space_before_french_marks_in_the_built_pages(site_dir: Path) -> None:
    pages = sorted(site_dir.rglob("*.html"))
    found = {
        page.relative_to(site_dir).as_posix(): [
            text[max(0, m.start() - 20) : m.end() + 5] for m in ORDINARY.finditer(text)
        ]
        for page in pages
        if (text := prose_text(page.read_text(encoding="utf-8")))
    }
    assert len(found) > 20
    assert {page: spots for page, spots in found.items() if spots} == {}
    # The marks are there, spaced: the test site has them (or this test proves nothing).
    licences = found and prose_text((site_dir / "licences/index.html").read_text("utf-8"))
    for spaced in (f"français{NBSP}:", f"signes{NNBSP};", f"«{NBSP}un mot{NBSP}»", f"50{NNBSP}%"):
        assert spaced in licences
    assert f"9{NBSP}m" in licences and f"{NBSP}heures" in licences


def test_a_list_s_descriptions_are_spaced_and_fields_left_as_exported(
    site_dir: Path,
) -> None:
    """data/spells.json: the grimoire writes its descriptions into the page as they are."""
    records = json.loads((site_dir / "data" / "bases" / "sorts.json").read_text(encoding="utf-8"))
    descriptions = {str(r["name"]): str(r["description"]) for r in records}
    found = [
        (name, text[max(0, m.start() - 20) : m.end() + 5])
        for name, text in descriptions.items()
        for m in ORDINARY.finditer(re.sub(r"`[^`\n]*`", "", text))
    ]
    assert found == []
    assert f"l’autre{NBSP}: utiliser" in descriptions["Tunnel sonore"]
    assert f"«{NBSP}mur{NBSP}»" in descriptions["Mur de silence"]
    assert f"de vent{NNBSP}; à l’intérieur" in descriptions["Puanteur toxique"]
    # The fields are the filters' words: as exported.
    tunnel = next(r for r in records if r["name"] == "Tunnel sonore")
    assert tunnel["fields"]["Durée"] == "10 minutes"


def test_code_urls_and_attributes_are_unchanged_in_the_built_pages(site_dir: Path) -> None:
    html = (site_dir / "licences/index.html").read_text(encoding="utf-8")
    assert "<code>a ; b : c</code>" in html
    assert "<code>a ; b : c ! d ? « e » 9 m 50 %\n</code>" in html
    assert 'title="Titre : garde ; ses espaces !"' in html
    for page in site_dir.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for tag in soup.find_all(True):
            for name, value in tag.attrs.items():
                values = value if isinstance(value, list) else [value]
                assert not any(NNBSP in v for v in values), (page, tag.name, name)


def test_the_test_site_s_directions_of_the_printed_page_have_their_note(site_dir: Path) -> None:
    soup = BeautifulSoup(
        (site_dir / "epees/epees-intelligentes/index.html").read_text(encoding="utf-8"),
        "html.parser",
    )
    notes = soup.select(f"article .{NOTE_CLASS}")
    assert len(notes) == 4
    for note in notes:
        assert note.get_text().endswith(f"(ici{NBSP}: plus bas)")
        assert note.previous_sibling is not None
        assert str(note.previous_sibling).endswith("à droite")  # the owner's words, kept
        assert note.select_one(".regles-ici__aide").get_text().startswith("Note ajoutée")


# The page scripts' twin ---------------------------------------------------------------

# What the page scripts' text is made of: words, digits, the marks, every kind of space.
ALPHABET = "ab1 9\t\n\u00a0\u202f;:!?%«»."
FRENCH_SPACING = """
globalThis.window = {};
const { frenchSpacing } = await import(process.argv[1]);
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map(frenchSpacing)));
"""


def test_the_page_scripts_space_as_the_build_does() -> None:
    # page.js's frenchSpacing and spaced_marks on the same texts: the scripts' messages read
    # as the built pages do (units aside: a script writes none it did not get from the build).
    chance = random.Random(2026)
    texts = ["Niv I : 3 « mur » ; 10:30 1d6! 50 % !", " ; :", "«a»", "«  b  »", "9\t%", "?!"]
    texts += ["".join(chance.choices(ALPHABET, k=chance.randint(1, 12))) for _ in range(3000)]
    spaced = node_json(FRENCH_SPACING, PAGE_SCRIPT, texts)
    differing = [(t, s) for t, s in zip(texts, spaced, strict=True) if s != spaced_marks(t)]
    assert differing == [], differing[:5]
