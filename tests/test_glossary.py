"""A system's glossary (`glossaries:` of the plugin): the references to it, the conditions,
the italic mentions and the old site's addresses of its own system lead to its entries;
another system's pages do not; data/glossary.json holds each entry's definition as text.

On small Markdown texts first, then on the test site built (tests/site: the glossary of
`jeu` is jeu/glossaire.md, and /regles/glossaire/ is the old address of that page)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from regles.core.markdown_text import segment
from regles.core.report import Kind
from regles.core.slugs import slugify
from regles.features.glossary.glossary import Glossary, glossary_records
from regles.features.links import references as links
from regles.features.links.targets import TargetIndex
from tests.test_config import load

GLOSSARY = """# Glossaire de règles

## À terre

Une créature à terre rampe.

## Repos long

Huit heures.

## Se cacher

L’action de se cacher.

## Influencer

Changer une attitude.
"""
SYSTEMS = {
    "jeu/glossaire.md": "jeu",
    "jeu/combat.md": "jeu",
    "jeu/tests.md": "jeu",
    "autre/page.md": "autre",
}


def make_index() -> TargetIndex:
    pages = [
        ("jeu/glossaire.md", segment(GLOSSARY)),
        ("jeu/combat.md", segment("# Combat\n\n## Se déplacer\n\nTexte.\n")),
        ("autre/page.md", segment("# Autre page\n")),
    ]
    return TargetIndex.build(
        pages,
        glossaries={"jeu": "jeu/glossaire.md"},
        old_paths={"/regles/glossaire/": "jeu/glossaire.md", "/regles/combat/": "jeu/combat.md"},
        scope_of=SYSTEMS.get,
    )


def linked(text: str, file: str, index: TargetIndex | None = None) -> tuple[str, list[Any]]:
    index = index or make_index()
    page, problems = links.unlink_absent_pages(segment(text), file, index)
    page, more = links.link_references(page, file, index)
    return page.text, problems + more


# Small texts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "term"),
    [
        ("vous subissez l’état À terre (cf. ", "À terre"),
        ("recourir à l’action Se cacher (cf. ", "Se cacher"),
        ("ou un Repos long (", "Repos long"),
        ("Repos court ou [long](glossaire.md#repos-long){ .lien-glossaire } (cf. ", "Repos long"),
        ("les règles du repos long de ", "Repos long"),
    ],
)
def test_the_term_just_before_a_reference_is_found(before: str, term: str) -> None:
    glossary = Glossary.from_headings("jeu", "jeu/glossaire.md", segment(GLOSSARY).headings)
    entry = glossary.entry_before(before)
    assert entry is not None and entry.term == term


@pytest.mark.parametrize(
    "before",
    [
        "Reportez-vous à ",
        "La section ",
        "Il se cache. Puis, à terre. La section ",
        "",
        # The last term of a list: the reference is to them all, the page.
        "des portions d’escalade, de nage et de se cacher (cf. ",
        "tomber, à terre ou se cacher (cf. ",
    ],
)
def test_no_term_before_a_reference_gives_none(before: str) -> None:
    glossary = Glossary.from_headings("jeu", "jeu/glossaire.md", segment(GLOSSARY).headings)
    assert glossary.entry_before(before) is None


def test_a_reference_leads_to_the_entry_named_before_it_else_to_the_page() -> None:
    text, problems = linked(
        "Prenez l’action Se cacher (cf. « Glossaire de règles »). Voyez « Glossaire de règles ».",
        "jeu/combat.md",
    )
    assert "l’action Se cacher (cf. « [Glossaire de règles](glossaire.md#se-cacher)" in text
    assert "{ .lien-glossaire }" in text
    assert "Voyez « [Glossaire de règles](glossaire.md) »" in text
    assert problems == []


def test_quoted_and_italic_terms_lead_to_their_entry() -> None:
    text, _ = linked("Voir « Repos long » et _À terre_.", "jeu/combat.md")
    assert "« [Repos long](glossaire.md#repos-long){ .lien-glossaire } »" in text
    assert "[_À terre_](glossaire.md#a-terre){ .lien-glossaire }" in text


def test_conditions_and_their_list_lead_to_the_glossary_of_their_system() -> None:
    states = '# Dégâts\n\n- <span id="etat-a-terre">À terre</span>\n- <span id="etat-x">X</span>\n'
    pages = [
        ("jeu/glossaire.md", segment(GLOSSARY)),
        ("jeu/degats.md", segment(states)),
        ("autre/page.md", segment("# Autre page\n")),
    ]
    systems = {**SYSTEMS, "jeu/degats.md": "jeu"}
    index = TargetIndex.build(pages, glossaries={"jeu": "jeu/glossaire.md"}, scope_of=systems.get)
    text, _ = linked(states, "jeu/degats.md", index)
    assert (
        '<span id="etat-a-terre">[À terre](glossaire.md#a-terre){ .lien-glossaire }</span>' in text
    )
    assert '<span id="etat-x">X</span>' in text  # not an entry: left as it is
    text, _ = linked("Il subit l’état À terre.", "jeu/combat.md", index)
    assert "l’état [À terre](glossaire.md#a-terre){ .lien-glossaire }" in text
    # Another system: neither the glossary nor the first system's list of states; the name
    # stays as written, and the report says where its homonym is.
    text, problems = linked("Il subit l’état À terre.", "autre/page.md", index)
    assert text.strip() == "Il subit l’état À terre."
    assert [p.kind for p in problems] == [Kind.OTHER_SYSTEM_MENTION]


def test_another_systems_page_reaches_neither_the_glossary_nor_its_entries() -> None:
    text, problems = linked(
        "L’état À terre (cf. « Glossaire de règles »), « Repos long », _Se cacher_.",
        "autre/page.md",
    )
    assert "glossaire" not in text.replace("Glossaire de règles", "")
    assert "[" not in text
    assert {p.subject for p in problems} >= {"Glossaire de règles", "Se cacher"}


@pytest.mark.parametrize(
    ("address", "words", "expected"),
    [
        ("/regles/glossaire/#repos-long", "long", "glossaire.md#repos-long"),
        ("/regles/glossaire/#Repos%20long", "long", "glossaire.md#repos-long"),
        ("/regles/glossaire/#influence-action", "influencer", "glossaire.md#influencer"),
        ("/regles/glossaire", "Se cacher", "glossaire.md#se-cacher"),
        ("/regles/glossaire/#rien", "rien", "glossaire.md"),
        ("/regles/combat/#se-deplacer", "ici", "combat.md#se-deplacer"),
        ("/regles/combat/", "Se déplacer", "combat.md#se-deplacer"),
    ],
)
def test_an_old_site_address_leads_to_its_page_and_is_still_reported(
    address: str, words: str, expected: str
) -> None:
    text, problems = linked(f"Un [{words}]({address}) ici.\n", "jeu/tests.md")
    assert f"[{words}]({expected})" in text
    assert [(p.kind, p.severity, p.line, p.subject) for p in problems] == [
        (Kind.OLD_SITE_LINK, "info", 1, words)
    ]
    assert address in problems[0].message


def test_an_address_the_settings_do_not_name_is_unlinked_and_marked_absent() -> None:
    text, problems = linked("Un [lien](/ailleurs/page/#x).", "jeu/combat.md")
    assert "](" not in text and text.startswith("Un ") and "lien" in text
    assert "renvoi-absent" in text  # the mark of a page absent from the site
    assert [p.kind for p in problems] == [Kind.ABSENT_PAGE]


# Settings -------------------------------------------------------------------------------


def test_glossaries_and_old_paths_are_read_as_declared(tmp_path: Path) -> None:
    options = {
        "systems": {"jeu": "Jeu"},
        "glossaries": {"jeu/": "jeu/glossaire.md"},
        "old_paths": {"/regles/glossaire": "/jeu/glossaire.md"},
    }
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    assert plugin.config.glossaries == {"jeu": "jeu/glossaire.md"}
    assert plugin.config.old_paths == {"/regles/glossaire/": "jeu/glossaire.md"}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"glossaries": {"jeu": "jeu/glossaire.md"}}, "ce dossier n’est pas déclaré"),
        ({"glossaries": {"jeu": "autre/glossaire.md"}}, "doit être une de ses pages"),
        ({"glossaries": {"jeu": "jeu/glossaire"}}, "une page du contenu est attendue"),
        ({"glossaries": ["jeu"]}, "un dictionnaire « dossier du système: page du glossaire »"),
        ({"old_paths": {"regles/x/": "jeu/x.md"}}, "commence par « / »"),
        ({"old_paths": {"/regles/x/#a": "jeu/x.md"}}, "sans « # »"),
    ],
)
def test_a_wrong_glossary_setting_says_what_is_wrong(
    tmp_path: Path, options: dict[str, object], words: str
) -> None:
    systems = {} if "ce dossier" in words else {"jeu": "Jeu"}
    _, errors, _ = load({"systems": systems, **options}, tmp_path)
    assert len(errors) == 1 and words in errors[0], errors


# The test site built ----------------------------------------------------------------------


def article(site_dir: Path, path: str) -> Any:
    soup = BeautifulSoup(
        (site_dir / path / "index.html").read_text(encoding="utf-8"), "html.parser"
    )
    return soup.select_one("article")


def glossary_links(site_dir: Path, path: str) -> list[tuple[str, str]]:
    return [(a.get_text(), a["href"]) for a in article(site_dir, path).select("a.lien-glossaire")]


def test_every_reference_of_the_system_to_its_glossary_leads_there(site_dir: Path) -> None:
    pages = ["jeu/combat", "jeu/degats-et-soins", "jeu/maitrise", "jeu/actions"]
    for path in pages:
        text = article(site_dir, path).get_text()
        found = article(site_dir, path).find_all("a", string="Glossaire de règles")
        assert text.count("Glossaire de règles") == len(found), path
    assert ("Glossaire de règles", "../glossaire/#a-terre") in glossary_links(
        site_dir, "jeu/combat"
    )
    assert ("Glossaire de règles", "../glossaire/#neutralise") in glossary_links(
        site_dir, "jeu/combat"
    )
    maitrise = glossary_links(site_dir, "jeu/maitrise")
    assert ("Glossaire de règles", "../glossaire/#expertise") in maitrise
    assert ("Glossaire de règles", "../glossaire/#facteur-de-puissance") in maitrise
    soins = glossary_links(site_dir, "jeu/degats-et-soins")
    # « Repos court ou [long](/regles/glossaire/#repos-long) (cf. « Glossaire de règles ») »
    assert soins[:2] == [("long", "../glossaire/#repos-long")] * 1 + [
        ("Glossaire de règles", "../glossaire/#repos-long")
    ]


def test_the_list_of_conditions_and_the_mentions_lead_to_the_entries(site_dir: Path) -> None:
    page = article(site_dir, "jeu/degats-et-soins")
    listed = {
        span["id"]: span.a["href"] if span.a else None for span in page.select('span[id^="etat-"]')
    }
    entries = {
        slugify(h.get_text().rstrip("¶")) for h in article(site_dir, "jeu/glossaire").select("h2")
    }
    assert len(listed) == 15
    for anchor, target in listed.items():
        name = page.select_one(f"#{anchor}").get_text()
        expected = f"../glossaire/#{slugify(name)}" if slugify(name) in entries else None
        assert target == expected, anchor
    actions = glossary_links(site_dir, "jeu/actions")
    assert ("Concentration", "../glossaire/#concentration") in actions
    assert ("influencer", "../glossaire/#influencer") in actions  # the old site's address


def test_another_systems_page_does_not_link_to_the_glossary(site_dir: Path) -> None:
    page = article(site_dir, "maison/poids-transportable")
    assert "Glossaire de règles" in page.get_text() and "Concentration" in page.get_text()
    assert [a["href"] for a in page.select("a") if "glossaire" in a["href"]] == []
    assert page.select("a.lien-glossaire") == []


def test_glossary_data_holds_every_entry_as_plain_text(site_dir: Path) -> None:
    data = json.loads((site_dir / "data" / "glossary.json").read_text(encoding="utf-8"))
    headings = article(site_dir, "jeu/glossaire").select("h2")
    assert [r["url"] for r in data] == [f"jeu/glossaire/#{h['id']}" for h in headings]
    assert [r["term"] for r in data] == [h.get_text().rstrip("¶") for h in headings]
    for record, heading in zip(data, headings, strict=True):
        definition = heading.find_next_sibling("p").get_text()
        assert " ".join(record["paragraphs"]) == " ".join(definition.split())
        assert not any(re.search(r"<|&\w+;", p) for p in record["paragraphs"])
    assert "data/glossary.json" in (site_dir / "sw.js").read_text(encoding="utf-8")  # offline


def test_a_definition_is_cut_into_paragraphs_of_plain_text() -> None:
    body = (
        "<p>Ramper (voir <a>Reptation</a>) &amp; se relever.</p> <ul><li>Un</li> <li>Deux</li> "
        "</ul> <dl><dt>Durée</dt> : <dd>1 minute</dd> </dl> <p>&lt;b&gt;</p> "
        "<table><tr><th>Taille</th> <th>Porter</th> </tr> <tr><td>TP</td> <td>3 kg</td> </tr> "
    )
    (record,) = glossary_records([("jeu/glossaire/#x", "X", body)])
    assert record == {
        "url": "jeu/glossaire/#x",
        "term": "X",
        "paragraphs": [
            "Ramper (voir Reptation) & se relever.",
            "Un",
            "Deux",
            "Durée : 1 minute",
            "<b>",
            "Taille · Porter",
            "TP · 3 kg",
        ],
    }
    long = glossary_records([("u", "T", "<p>" + "mot " * 300 + "</p>")])[0]["paragraphs"]
    assert len(long) == 1 and long[0].endswith("mot…") and len(long[0]) <= 701
