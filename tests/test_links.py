"""Cross-links and link checks of the core, on small Markdown texts."""

from __future__ import annotations

import random
import re
from typing import Any

from regles.core.markdown_text import Heading, segment
from regles.core.report import Problem
from regles.features.links import references as links
from regles.features.links.targets import EntryTarget, NamesAfter, TargetIndex


# The passes take a page as `segment` reads it; these tests write its text.
def check_link_syntax(text: str, file: str) -> list[Problem]:
    return links.check_link_syntax(segment(text), file)


def unlink_absent_pages(text: str, file: str) -> tuple[str, list[Problem]]:
    page, problems = links.unlink_absent_pages(segment(text), file)
    return page.text, problems


def link_references(text: str, *args: Any, **kwargs: Any) -> tuple[str, list[Problem]]:
    page, problems = links.link_references(segment(text), *args, **kwargs)
    return page.text, problems


def headings(text: str) -> tuple[Heading, ...]:
    return segment(text).headings


RULES = """# Comment jouer

## Tests d20

Texte.

#### Modificateurs de caractéristique

## Dégâts et soins

### Stabiliser un personnage

- <span id="etat-a-terre">À terre</span>
- <span id="etat-inconscient">Inconscient</span>
"""
COMBAT = """# Combat

## Déplacement et position

Voir « Tests d20 » et « Glossaire de règles ».
"""


def make_index() -> TargetIndex:
    entries = [
        EntryTarget("magie/acoustique.md", "blast-sonore", "Blast sonore", "Acoustique"),
        EntryTarget("magie/air.md", "bouclier", "Bouclier", "Air"),
        EntryTarget("magie/terre.md", "bouclier", "Bouclier", "Terre"),
    ]
    pages = [("dnd5e/index.md", segment(RULES)), ("dnd5e/combat.md", segment(COMBAT))]
    return TargetIndex.build(pages, entries)


def test_the_two_malformed_links_of_the_source_are_errors_with_file_and_line() -> None:
    text = (
        "Ligne sans lien.\n"
        "Vous pouvez [influencer](/regles/glossaire/#influence-action] un PNJ.\n"
        "Un Repos [long](/regles/glossaire/#Repos long) suffit.\n"
    )
    problems = check_link_syntax(text, "dnd5e/tests.md")
    assert [(p.file, p.line, p.severity) for p in problems] == [
        ("dnd5e/tests.md", 2, "error"),
        ("dnd5e/tests.md", 3, "error"),
    ]
    assert "« ] »" in problems[0].message
    assert "espace" in problems[1].message


def test_well_formed_links_and_code_are_not_errors() -> None:
    text = '[a](b.md#c) et [d](e.md "titre")\n```\n[x](y]\n```\n'
    assert check_link_syntax(text, "p.md") == []


def test_links_to_the_original_site_are_unlinked_and_reported() -> None:
    text, problems = unlink_absent_pages("Un Repos [long](/regles/glossaire/#repos-long).", "p.md")
    assert text.startswith('Un Repos <span class="renvoi-absent-fin">long<button')  # marked
    assert "](/" not in text
    assert problems[0].kind == "page-absente"
    assert problems[0].line == 1


def test_guillemet_reference_links_to_the_section_on_another_page() -> None:
    text, problems = link_references(COMBAT, "dnd5e/combat.md", make_index())
    assert "« [Tests d20](index.md#tests-d20) »" in text
    assert "« Glossaire de " in text and "[Glossaire" not in text  # stays text, marked
    assert [(p.kind, p.subject, p.line) for p in problems] == [
        ("reference-introuvable", "Glossaire de règles", 5)
    ]


def test_quotations_without_a_reference_cue_are_left_alone() -> None:
    text, problems = link_references("On l’appelle « sujet ».", "p.md", make_index())
    assert text == "On l’appelle « sujet »."
    assert problems == []


def test_table_and_condition_names_link_to_their_anchor() -> None:
    line = "Voir la table Modificateurs de caractéristique ; l’état À terre prend fin."
    text, _ = link_references(line, "dnd5e/combat.md", make_index())
    assert "[Modificateurs de caractéristique](index.md#modificateurs-de-caracteristique)" in text
    assert "l’état [À terre](index.md#etat-a-terre)" in text


def test_names_after_finds_what_the_alternation_of_every_name_finds() -> None:
    """The mentions are found without compiling one pattern of every title of the site;
    the matches (and each match's groups) are those that pattern had."""
    names = ["Armes", "Armes (suite)", "Arme", "Armure lourde", "Dés", "À terre", "Ar-mes"]
    before, after = r"\b((?:la |de la |sur la )?tables? )", r"\b"
    alternation = re.compile(
        before + "(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + ")" + after
    )
    found = NamesAfter(before, names, after)
    words = [*names, "la ", "de la ", "table ", "tables ", "table", " ", "x", "s", ", ", "é"]
    chance = random.Random(41)
    texts = ["".join(chance.choices(words, k=chance.randint(1, 12))) for _ in range(3000)]
    texts += ["la table Armes (suite) et la table Armes", "table Armesx", "table Arme-s"]

    def shown(match: re.Match[str]) -> str:
        return f"<{match.start()}|{match.group(1)}|{match.group(2)}|{match.end()}>"

    for text in texts:
        assert found.sub(shown, text) == alternation.sub(shown, text), text


def test_voir_links_a_page_or_reports_it() -> None:
    text, problems = link_references(
        "Si l’épée a un but, voir Special Purpose of Sentient Swords pour le déterminer.",
        "ose/epees.md",
        make_index(),
    )
    assert "[" not in text
    assert problems[0].subject == "Special Purpose of Sentient Swords"
    text, problems = link_references("(voir Combat pour cela)", "x/y.md", make_index())
    assert "voir [Combat](../dnd5e/combat.md)" in text
    assert problems == []


def test_italic_entry_mention_prefers_the_same_group() -> None:
    index = make_index()
    text, _ = link_references("Lancez _Bouclier_.", "magie/terre.md", index, group="Terre")
    assert "[_Bouclier_](#bouclier)" in text
    text, _ = link_references("Lancez _Blast sonore_.", "magie/terre.md", index, group="Terre")
    assert "[_Blast sonore_](acoustique.md#blast-sonore)" in text


def test_italic_mention_of_a_name_in_several_other_groups_offers_each() -> None:
    text, problems = link_references("Voir _Bouclier_.", "magie/feu.md", make_index(), "Feu")
    assert "(air.md#bouclier)" in text and "(terre.md#bouclier)" in text
    assert problems == []


def test_unresolved_italic_mentions_are_reported_and_sentences_are_not() -> None:
    text, problems = link_references(
        "Voir _Effets généraux des sorts_. *Table restituée : elle manquait.*",
        "magie/feu.md",
        make_index(),
    )
    assert [p.subject for p in problems] == ["Effets généraux des sorts"]
    assert "_Effets généraux des sorts_" in text


def test_heading_anchors_follow_toc_rules_for_repeats_and_explicit_ids() -> None:
    found = headings("# A\n## Durée\n## Durée\n## Blast {: #blast-sonore }\n```\n# no\n```\n")
    assert [(h.level, h.anchor) for h in found] == [
        (1, "a"),
        (2, "duree"),
        (2, "duree_1"),
        (2, "blast-sonore"),
    ]


def test_report_sorts_problems_with_and_without_a_line() -> None:
    from regles.core.report import BuildReport, Kind, Problem

    report = BuildReport()
    report.add(Problem("a.md", 3, "error", Kind.MALFORMED_LINK, "trois"))
    report.add(Problem("a.md", None, "error", Kind.ENCODING, "fichier entier"))
    assert [p.line for p in report.of("error")] == [None, 3]
    assert "fichier entier" in report.to_json()
