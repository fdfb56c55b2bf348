"""References that lead somewhere: a chapter absent from the site is marked as such on the
page, mentions resolve within their own game system, and the build report lists the faults
in full and the owner's notes in a few lines (regles/features/links/references.py,
regles/core/report.py)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup

from regles.core.build import BuildError, Settings, SiteBuild
from regles.core.markdown_text import segment
from regles.core.report import NOTE_KINDS, NOTE_WORDS, BuildReport, Kind, Problem
from regles.core.systems import Database, Systems
from regles.features.links import references as links
from regles.features.links.references import ABSENT_NOTE_ID
from regles.features.links.targets import EntryTarget, TargetIndex
from regles.features.search import records as search
from tests.conftest import ROOT, SITE_APP

REPORT = ROOT / "build" / "essai-rapport.json"  # tests/site/mkdocs.yml's report_file

# Two systems and the spell database, each in its folder; « accueil.md » is a site page.
SYSTEMS = Systems({"jeu": "Jeu", "autre": "Autre jeu"}, (Database("sorts"),))
JEU = """# Combat

## Portée

Texte.
"""
AUTRE = """# Épées

## Contrôle

Texte.
"""


def make_index() -> TargetIndex:
    entries = [EntryTarget("sorts/feu.md", "boule-de-feu", "Boule de feu", "Feu")]
    pages = [("jeu/combat.md", segment(JEU)), ("autre/epees.md", segment(AUTRE))]
    return TargetIndex.build(pages, entries, scope_of=SYSTEMS.scope_of)


def link(
    text: str, file: str, typo: Callable[[str], str | None] | None = None
) -> tuple[str, list[Problem]]:
    page, problems = links.link_references(segment(text), file, make_index(), typo=typo)
    return page.text, problems


def marks(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


# An absent chapter is marked on the page ----------------------------------------------


def test_a_reference_to_an_absent_chapter_keeps_its_words_and_gets_a_mark() -> None:
    text, problems = link(
        "La section « Équipement » indique les dés ; voir Épées de légende pour le reste.",
        "jeu/combat.md",
    )
    soup = marks(text)
    buttons = soup.select("button.renvoi-absent")
    assert len(buttons) == 2  # the « » reference and the « voir » one
    for button in buttons:
        assert button["popovertarget"] == ABSENT_NOTE_ID
        assert button["aria-describedby"] == ABSENT_NOTE_ID
    # One note for the page, after the first mark, that says why there is no link.
    [note] = soup.select(f"#{ABSENT_NOTE_ID}")
    assert note.has_attr("popover")
    assert "Section absente de ce site" in note.get_text()
    assert "le texte y renvoie" in note.get_text()
    note.decompose()
    assert soup.get_text().startswith("La section « Équipement »absent du site indique")
    # The last word and its mark are kept on one line.
    assert [s.get_text() for s in soup.select(".renvoi-absent-fin > :first-child")]
    assert soup.select(".renvoi-absent-fin")[0].get_text().startswith("Équipement »")
    assert {(p.kind, p.subject) for p in problems} == {
        (Kind.UNRESOLVED_REFERENCE, "Équipement"),
        (Kind.UNRESOLVED_REFERENCE, "Épées de légende"),
    }


def test_the_note_is_written_once_per_page_across_passes() -> None:
    page, _ = links.unlink_absent_pages(
        segment("Un Repos [long](/regles/glossaire/#repos-long).\n\nCf. « Sorts »."), "jeu/a.md"
    )
    assert page.text.count(f'id="{ABSENT_NOTE_ID}"') == 1
    assert "Repos long" in marks(page.text).get_text()
    page, _ = links.link_references(page, "jeu/a.md", make_index())
    soup = marks(page.text)
    assert len(soup.select("button.renvoi-absent")) == 2
    assert len(soup.select(f"#{ABSENT_NOTE_ID}")) == 1


def test_the_marks_are_not_indexed_for_search() -> None:
    text, _ = link("# Combat\n\nLa section « Équipement » indique les dés.", "jeu/combat.md")
    html = markdown.markdown(text)
    [record] = search.page_records("jeu/combat/index.html", search.article(html, "Combat"), None)
    assert "Équipement" in record.body
    assert "absent" not in record.body and "Fermer" not in record.body


def test_a_reference_that_is_a_slip_of_the_keyboard_gets_no_mark() -> None:
    # A name one slip away from a title: the report's warning names the title to write.
    text, problems = link("Cf. « Portéz ».", "jeu/combat.md", typo=lambda name: "Portée")
    assert "renvoi-absent" not in text
    assert [p.kind for p in problems] == [Kind.UNRESOLVED_REFERENCE]  # a warning, later
    text, _ = link("Cf. « Portéz ».", "jeu/combat.md", typo=lambda name: None)
    assert "renvoi-absent" in text


def test_a_quotation_that_is_no_reference_gets_no_mark() -> None:
    text, problems = link("Choisissez « Ajouter ».", "jeu/combat.md")
    assert text == "Choisissez « Ajouter »."
    assert problems == []


# Mentions resolve within their own system ----------------------------------------------


def test_a_mention_in_a_system_does_not_link_to_the_entry_database() -> None:
    text, problems = link("Le Magicien lance _Boule de feu_.", "jeu/combat.md")
    assert text == "Le Magicien lance _Boule de feu_."
    [problem] = problems
    assert problem.kind == Kind.OTHER_SYSTEM_MENTION
    assert problem.severity == "info" and problem.kind.is_note
    assert "sorts/feu.md#boule-de-feu" in problem.message
    assert "autre système" in problem.message


def test_a_system_the_database_is_linked_from_links_to_its_entries() -> None:
    # `linked_from: [jeu]`: the game's rules name its spells; another system's still do not.
    database = Database("sorts", linked_from=("jeu",))
    systems = Systems({"jeu": "Jeu", "autre": "Autre jeu"}, (database,))
    entries = [EntryTarget("sorts/feu.md", "boule-de-feu", "Boule de feu", "Feu")]
    pages = [("jeu/combat.md", segment(JEU)), ("autre/epees.md", segment(AUTRE))]
    index = TargetIndex.build(
        pages, entries, scope_of=systems.scope_of, scope_reaches=systems.reaches
    )
    page, problems = links.link_references(
        segment("Le Magicien lance _Boule de feu_."), "jeu/combat.md", index
    )
    assert "[_Boule de feu_](../sorts/feu.md#boule-de-feu)" in page.text
    assert problems == []
    page, problems = links.link_references(
        segment("Le Magicien lance _Boule de feu_."), "autre/epees.md", index
    )
    assert "](" not in page.text
    assert [p.kind for p in problems] == [Kind.OTHER_SYSTEM_MENTION]
    # Only the database is reached: the rules of one system still do not link to another's.
    assert not systems.reaches("jeu", "autre") and systems.reaches("jeu", "sorts")
    assert not systems.reaches("sorts", "jeu")


def test_a_mention_in_a_entry_does_not_link_to_another_system_s_section() -> None:
    text, problems = link("La résistance se fait contre le _Contrôle_.", "sorts/air.md")
    assert "](" not in text
    assert [(p.kind, p.subject) for p in problems] == [(Kind.OTHER_SYSTEM_MENTION, "Contrôle")]
    text, problems = link("Voir « Contrôle ».", "jeu/combat.md")
    assert "](" not in text and "renvoi-absent" in text  # not this document's chapter
    assert [p.kind for p in problems] == [Kind.OTHER_SYSTEM_MENTION]


def test_mentions_link_within_their_system_and_from_site_pages_anywhere() -> None:
    text, problems = link("Voir « Portée » et _Portée_.", "jeu/actions.md")
    assert "« [Portée](combat.md#portee) »" in text and "[_Portée_](combat.md#portee)" in text
    assert problems == []
    text, problems = link("Lancez _Boule de feu_ ; voir « Contrôle ».", "accueil.md")
    assert "[_Boule de feu_](sorts/feu.md#boule-de-feu)" in text
    assert "« [Contrôle](autre/epees.md#controle) »" in text
    assert problems == []
    text, _ = link("Lancez _Boule de feu_.", "sorts/eau.md")
    assert "[_Boule de feu_](feu.md#boule-de-feu)" in text


# A mention a paragraph's line opens and the next closes --------------------------------

# Two sections of more than one word, for mentions cut between two lines.
LONG = """# Règles

## Tests de compétence

## Goule des catacombes

Texte.
"""


def link_long(text: str) -> tuple[str, list[Problem]]:
    pages = [("jeu/regles.md", segment(LONG))]
    index = TargetIndex.build(pages, [], scope_of=SYSTEMS.scope_of)
    page, problems = links.link_references(segment(text), "jeu/combat.md", index)
    return page.text, problems


def test_a_mention_cut_between_two_lines_of_a_paragraph_links_as_a_whole() -> None:
    # Hard-wrapped text, as `regles new` writes its pages: the link's words keep their line
    # break, and every line its number.
    text, problems = link_long(
        "Faites un jet (voir « Tests de\ncompétence »), et la _Goule\ndes catacombes_ attaque."
    )
    assert text == (
        "Faites un jet (voir « [Tests de\ncompétence](regles.md#tests-de-competence) »), et la "
        "[_Goule\ndes catacombes_](regles.md#goule-des-catacombes) attaque."
    )
    assert problems == []
    html = markdown.markdown(text)
    assert '<a href="regles.md#tests-de-competence">Tests de\ncompétence</a>' in html


def test_lines_of_other_blocks_are_not_read_as_one() -> None:
    # A list item, a table row or a blank line ends the paragraph: nothing is joined.
    for text in (
        "Un « Tests de\n- compétence » en liste.",
        "| « Tests de |\n| compétence » |",
        "La _Goule\n\ndes catacombes_ dort.",
    ):
        linked, _ = link_long(text)
        assert "](" not in linked, text
    # A mention that closes on its own line still links, the next line untouched.
    linked, _ = link_long("Voir « Tests de compétence » et\n_la suite_.")
    assert linked == (
        "Voir « [Tests de compétence](regles.md#tests-de-competence) » et\n_la suite_."
    )


def test_the_entry_database_and_site_folders_are_scopes_of_their_own() -> None:
    systems = Systems({"jeu": "Jeu"}, (Database("jeu/sorts"),), site_folders=("aide",))
    assert systems.scope_of("jeu/sorts/feu.md") == "jeu/sorts"  # not « jeu »
    assert systems.scope_of("jeu/combat.md") == "jeu"
    assert systems.scope_of("aide/lire.md") is None
    assert systems.scope_of("index.md") is None


# The report: faults in full, notes in a few lines ------------------------------------


def sample_report() -> BuildReport:
    report = BuildReport()
    report.add(Problem("a.md", 3, "error", Kind.MALFORMED_LINK, "lien mal formé", "x"))
    report.add(Problem("a.md", 5, "warning", Kind.AMBIGUOUS_REFERENCE, "deux sections"))
    report.add(Problem("e.txt", 1, "info", Kind.UNCERTAIN_SPLIT, "découpage incertain"))
    report.add(Problem("e.txt", 1, "info", Kind.EXPORT_SUMMARY, "3 collège(s), 9 sort(s)"))
    for line in (2, 4, 6):
        report.add(Problem("b.md", line, "info", Kind.UNRESOLVED_REFERENCE, f"ref {line}"))
    report.add(Problem("c.md", 1, "info", Kind.UNRESOLVED_MENTION, "mention c"))
    report.add(Problem("d.md", 1, "info", Kind.UNRESOLVED_MENTION, "mention d"))
    return report


def test_notes_are_decided_by_their_kind() -> None:
    notes = {kind for kind in Kind if kind.is_note}
    assert notes == {
        Kind.ABSENT_PAGE,
        Kind.UNRESOLVED_REFERENCE,
        Kind.UNRESOLVED_MENTION,
        Kind.OTHER_SYSTEM_MENTION,
        Kind.EXPORT_SUMMARY,
        Kind.MOVED_ADDRESS,
    }
    assert not Kind.UNCERTAIN_SPLIT.is_note  # what the build guessed: to check, in full


def test_the_report_lists_faults_in_full_and_counts_notes() -> None:
    report = sample_report()
    info = report.format("info")
    assert "decoupage-incertain (1) :" in info
    assert "ref 2" not in info and "mention c" not in info  # notes are not listed here
    summary = report.summary().splitlines()
    assert summary == [
        "  export-bilan : e.txt:1: 3 collège(s), 9 sort(s)",
        "  mention-introuvable : 2 (2 fichiers), mots en italique qui ne nomment ni entrée ni "
        "section, laissés en texte",
        "  reference-introuvable : 3 (1 fichier), renvois à une section que le site n’a pas, "
        "marqués « absent du site »",
    ]
    # Each kind a note can be is said in words there.
    assert set(NOTE_WORDS) == NOTE_KINDS - {Kind.EXPORT_SUMMARY}
    full = report.format_notes()
    assert all(f"b.md:{n}: ref {n}" in full for n in (2, 4, 6))
    assert "mention-introuvable (2) :" in full
    # The JSON report keeps every line, notes included.
    assert len(json.loads(report.to_json())) == len(report.problems) == 9


def test_the_build_logs_faults_first_then_notes_and_their_detail_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        project=tmp_path,
        config_name="mkdocs.yml",
        app=SITE_APP,
        calculators=tmp_path / "sans-paquet",
        report_file=tmp_path / "rapport.json",
    )
    build = SiteBuild(settings)
    build.report.extend(sample_report().problems)
    with (
        caplog.at_level(logging.DEBUG, logger="mkdocs.plugins.regles"),
        pytest.raises(BuildError, match="1 erreur"),
    ):
        build.write_report()
    records = [(r.levelname, r.getMessage()) for r in caplog.records]
    levels = [level for level, _ in records]
    assert levels == ["ERROR", "WARNING", "INFO", "INFO", "DEBUG"]
    assert "a.md:3 [x]: lien mal formé" in records[0][1]
    assert "decoupage-incertain" in records[2][1] and "ref 2" not in records[2][1]
    notes = records[3][1]
    assert "Rapport de construction, notes (ni erreurs ni avertissements" in notes
    assert "rapport.json" in notes and "mkdocs build -v" in notes
    assert "reference-introuvable : 3 (1 fichier)" in notes and "ref 2" not in notes
    assert "b.md:6: ref 6" in records[4][1]  # every line, with mkdocs build -v
    assert len(json.loads((tmp_path / "rapport.json").read_text(encoding="utf-8"))) == 9


# On the built test site -----------------------------------------------------------------


def page(site_dir: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site_dir / path).read_text(encoding="utf-8"), "html.parser")


def test_absent_chapters_are_marked_on_the_built_pages(site_dir: Path) -> None:
    swords = page(site_dir, "epees/epees-intelligentes/index.html")
    article = swords.select_one("article")
    assert article is not None
    marked = [b.parent.get_text() for b in article.select("button.renvoi-absent")]
    assert any(text.startswith("Épées") for text in marked), marked  # « voir Épées »
    assert any(text.startswith("Swords") for text in marked), marked
    assert len(article.select(f"#{ABSENT_NOTE_ID}[popover]")) == 1
    # « Création de personnage » (cf. « … ») on another page, with its own note.
    mastery = page(site_dir, "jeu/maitrise/index.html").select_one("article")
    assert mastery is not None
    [note] = mastery.select(f"#{ABSENT_NOTE_ID}")
    note.decompose()
    text = mastery.get_text().replace("\u00a0", " ")  # French spacing inside « »
    assert "(cf. « Création de personnage »absent du site)" in text
    # A page whose references all resolve has neither mark nor note.
    abilities = page(site_dir, "jeu/caracteristiques/index.html")
    assert not abilities.select("button.renvoi-absent, .renvoi-absent-note")


def test_built_mentions_stay_in_their_system(site_dir: Path) -> None:
    # The spells' « _Contrôle_ » (a resisted spell) is not the swords' section « Contrôle ».
    air = page(site_dir, "sorts/elementaire-air/index.html").select_one("article")
    assert air is not None
    assert not [a for a in air.select("a[href]") if "epees" in a["href"]]
    # A rule page's « _Blast sonore_ » is not the spell database's spell.
    house = page(site_dir, "maison/poids-transportable/index.html").select_one("article")
    assert house is not None
    assert not house.select("a.entry-link")
    assert not [a for a in house.select("a[href]") if "sorts/" in a["href"]]
    found = {
        (p["file"], p["subject"])
        for p in json.loads(REPORT.read_text("utf-8"))
        if p["kind"] == Kind.OTHER_SYSTEM_MENTION
    }
    # Said at the export's line (the page written from it is named in the message).
    assert ("sorts.txt", "Contrôle") in found
    assert ("maison/poids-transportable.md", "Blast sonore") in found
