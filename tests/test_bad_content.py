"""Bad content, case by case: the build names each fault with its file and line (and spell),
lists every fault of the build together, and fails without a Python traceback.

One fixture site per group of faults under tests/integration/<group>/; the groups are built
once per session, side by side. Each case below is one test: the words expected on a line of
the build's output that also names the place, in the block of its severity (the report's
errors fail the build; its warnings fail it under --strict; information is listed only;
notes for the owner are counted, and listed line by line with `-v`, as these builds run).
"""

from __future__ import annotations

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from regles.core import checks
from tests.conftest import ROOT, build_site

INTEGRATION = ROOT / "tests" / "integration"
sys.path.insert(0, str(ROOT / "tests" / "databases"))
from synth import seed_text, synthesize_export  # noqa: E402

# Errors listed by the report of each group (the build's own count, on its ERROR line).
ERRORS = {"liens": 6, "imbrication": 9, "fichiers": 5, "sorts": 5, "gros-export": 1}
BIG_EXPORT = ROOT / "build" / "integration-gros-export.txt"
BIG_COPIES = 16  # of the test site's export: some 1,260 spells


@dataclass(frozen=True)
class Case:
    group: str
    place: str
    words: str
    severity: str = "error"


CATALOGUE: dict[str, Case] = {
    # Links, references, navigation (tests/integration/liens; index.md has a front matter:
    # its lines are counted as in the file).
    "lien-vers-page-absente": Case(
        "liens", "index.md:8", "lien vers « absente.md » : la page « absente.md » n’existe pas"
    ),
    "lien-vers-ancre-absente": Case(
        "liens", "index.md:10", "la page « regles.md » n’a pas d’ancre « #inexistante »"
    ),
    "ancre-absente-dans-la-page": Case(
        "liens", "index.md:12", "la page « index.md » n’a pas d’ancre « #nulle-part »"
    ),
    "renvoi-avec-faute-de-frappe": Case(
        "liens",
        "index.md:14",
        "« Tests d2O » : aucune section ni page de ce nom dans le site ; "
        "vouliez-vous dire « Tests d20 » ?",
        "warning",
    ),
    "renvoi-ambigu-titre-en-double": Case(
        "liens",
        "index.md:16",
        "« Attaque » : 2 sections de ce nom (regles.md#attaque, regles.md#attaque_1)",
        "warning",
    ),
    "mention-de-sort-inexistant": Case(
        "liens",
        "index.md:18",
        "_Boule de fue_ : aucune entrée de base ni section de ce nom ; "
        "entrée proche : « Boule de feu »",
        "note",
    ),
    "lien-vers-ancre-de-titre-en-double": Case(
        "liens",
        "index.md:20",
        "« regles.md » a 2 titres « Attaque » (lignes 7, 11) ; ce lien mène à celui de la ligne 7",
        "warning",
    ),
    "page-hors-systeme": Case(
        "liens",
        "autre/hors-systeme.md",
        "page hors de tout système : le dossier « autre » n’est pas déclaré sous « systems »",
        "warning",
    ),
    "image-absente": Case(
        "liens", "index.md:22", "lien vers « images/absente.png » : fichier introuvable"
    ),
    "lien-vers-un-dossier": Case(
        "liens",
        "index.md:24",
        "lien vers « regles/ » : écrivez le chemin de la page, « regles.md »",
        "warning",
    ),
    "nav-vers-page-absente": Case(
        "liens", "mkdocs.yml:29", "nav : la page « page-oubliee.md » n’existe pas"
    ),
    "ancre-definie-deux-fois": Case(
        "liens", "regles.md:19", "ancre « #sorts » déjà définie ligne 15"
    ),
    # Markdown nesting (tests/integration/imbrication).
    "markdown-dans-un-bloc-html": Case(
        "imbrication",
        "index.md:4",
        "Markdown dans le bloc HTML « <div> » : il s’afficherait tel quel",
        "warning",
    ),
    "liste-collee-a-un-tableau": Case(
        "imbrication",
        "index.md:10",
        "un élément de liste sans « | » collé au tableau de la ligne 7 en devient une rangée",
    ),
    "liste-dans-une-cellule": Case(
        "imbrication",
        "index.md:15",
        "liste dans une cellule de tableau (« - légère<br>- lancer »)",
        "warning",
    ),
    "titre-dans-un-bloc-calculateur": Case(
        "imbrication",
        "index.md:17",
        "bloc « ```calculateur » : le contenu doit être vide",
    ),
    "balise-fermee-par-une-autre": Case(
        "imbrication", "index.md:22", "balise « <div> » pas fermée avant « </section> » (ligne 24)"
    ),
    "bloc-html-jamais-ferme": Case(
        "imbrication",
        "bloc-ouvert.md:3",
        "balise « <div> » jamais fermée par « </div> » : elle avale toute la suite de la page",
    ),
    "bloc-de-code-jamais-ferme": Case(
        "imbrication",
        "code-ouvert.md:3",
        "bloc de code « ```python » jamais fermé par une ligne « ``` »",
    ),
    "commentaire-html-jamais-ferme": Case(
        "imbrication", "commentaire.md:5", "commentaire HTML « <!-- » jamais fermé par « --> »"
    ),
    "fermeture-sans-ouverture": Case(
        "imbrication", "fermeture.md:5", "« </div> » ferme une balise qui n’a pas été ouverte"
    ),
    "titre-qui-saute-un-niveau": Case(
        "imbrication",
        "titres.md:5",
        "titre de niveau 4 après un titre de niveau 1 (h1 → h4) : écrivez « ## » pour « Trop bas »",
        "warning",
    ),
    "export-de-sorts-absent": Case(
        "imbrication", "export-absent.txt", "export introuvable : ce fichier (option export de"
    ),
    # Files (tests/integration/fichiers).
    "page-non-utf8": Case(
        "fichiers",
        "latin1.md:1",
        "fichier non UTF-8 (probablement Windows-1252 ou Latin-1) : octet 0xC9 invalide colonne 3",
    ),
    "page-vide": Case("fichiers", "vide.md:1", "page vide", "warning"),
    "en-tete-yaml-invalide": Case(
        "fichiers", "entete.md:2", "en-tête YAML invalide (mapping values are not allowed here)"
    ),
    "en-tete-yaml-sans-cles": Case(
        "fichiers", "entete-liste.md:1", "en-tête YAML sans paires « clé: valeur » (reçu : list)"
    ),
    "export-non-utf8": Case(
        "fichiers", "export.txt:1", "fichier non UTF-8 (probablement Windows-1252 ou Latin-1)"
    ),
    # The spell export (tests/integration/sorts): line, column, college and spell.
    "chiffre-romain-inconnu": Case(
        "sorts",
        "export.txt:4 [Cri perçant]",
        "collège « Acoustique » : niveau inconnu « IIII » (chiffre romain non reconnu)",
    ),
    "sort-en-double-dans-un-college": Case(
        "sorts",
        "export.txt:5 [Blast sonore]",
        "sort en double dans le collège « Acoustique » : « Blast sonore » (première "
        "occurrence ligne 3",
    ),
    "champ-sans-valeur": Case(
        "sorts", "export.txt:6 [Murmure]", "collège « Acoustique » : champ « Durée » sans valeur"
    ),
    "niveaux-inverses": Case(
        "sorts", "export.txt:7 [Écho]", "niveau minimal V supérieur au niveau maximal II"
    ),
    "college-vide": Case("sorts", "export.txt:8", "collège « Silence » sans aucun sort", "warning"),
    "export-tronque-en-pleine-entree": Case(
        "sorts",
        "export.txt:11 [Boule de feu]",
        "collège « Feu » : export tronqué : le marqueur de fin « --- Fin du fichier » est "
        "absent ; la dernière entrée, ligne 10, est sans doute coupée",
    ),
    # A mention in an entry's text that names nothing: said at the entry's line of the
    # export, with its name, not at the page the build wrote from it.
    "mention-dans-l-export": Case(
        "sorts",
        "export.txt:3 [Tonnerre lointain]",
        "_Tonnerre lointain_ : aucune entrée de base ni section de ce nom (sort « Blast sonore »,"
        " page « magie/acoustique.md »)",
        "note",
    ),
    "bilan-des-sorts-ecartes": Case(
        "sorts",
        "export.txt:1",
        "3 collèges, 2 sorts publiés, 4 sorts écartés pour erreur",
        "note",
    ),
    # A very large export (tests/integration/gros-export): nothing to report but its count.
    "tres-gros-export": Case(
        "gros-export",
        "integration-gros-export.txt:1",
        f"{5 * BIG_COPIES} collèges, {79 * BIG_COPIES} sorts publiés, "
        "aucun sort écarté pour erreur",
        "note",
    ),
}

BLOCK_START = {
    "INFO    -  Rapport de construction :": "info",
    "WARNING -  Rapport de construction, avertissements :": "warning",
    "DEBUG   -  Rapport de construction, notes :": "note",  # with -v only
}


def blocks(output: str) -> dict[str, list[str]]:
    """The lines of the report's info, warning, error and (-v) note blocks of a build's
    output."""
    found: dict[str, list[str]] = {"info": [], "warning": [], "error": [], "note": []}
    current: str | None = None
    for line in output.splitlines():
        if line in BLOCK_START:
            current = BLOCK_START[line]
        elif re.match(r"ERROR +- +\d+ erreur\(s\) dans les sources", line):
            current = "error"
        elif not line.startswith(" ") and not re.match(r"^[\w-]+ \(\d+\) :$", line):
            current = None  # a line of MkDocs itself
        elif current is not None:
            found[current].append(line)
    return found


@dataclass(frozen=True)
class Build:
    returncode: int
    output: str

    @property
    def blocks(self) -> dict[str, list[str]]:
        return blocks(self.output)


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Build]:
    # Shared by every run of the suite on this clone: written whole, so that a build of
    # another run never reads it half-written.
    BIG_EXPORT.parent.mkdir(parents=True, exist_ok=True)
    partial = BIG_EXPORT.with_name(f"{BIG_EXPORT.name}.{os.getpid()}")
    partial.write_text(synthesize_export(seed_text(), BIG_COPIES), encoding="utf-8")
    partial.replace(BIG_EXPORT)
    # Made here, not in the threads: pytest makes its base folder at the first mktemp.
    destinations = {group: tmp_path_factory.mktemp(group) for group in ERRORS}

    def build(group: str) -> Build:
        result = build_site(destinations[group], INTEGRATION / group / "mkdocs.yml", verbose=True)
        return Build(result.returncode, result.stdout + result.stderr)

    with ThreadPoolExecutor(max_workers=min(len(ERRORS), os.cpu_count() or 1)) as pool:
        return dict(zip(ERRORS, pool.map(build, ERRORS), strict=True))


@pytest.mark.parametrize("case", list(CATALOGUE.values()), ids=list(CATALOGUE))
def test_each_fault_is_named_with_its_place(builds: dict[str, Build], case: Case) -> None:
    lines = builds[case.group].blocks[case.severity]
    assert any(case.place in line and case.words in line for line in lines), (
        f"{case.place} « {case.words} » absent du bloc {case.severity} ; lignes :\n"
        + "\n".join(line for line in builds[case.group].output.splitlines())
    )


@pytest.mark.parametrize("group", list(ERRORS))
def test_every_fault_of_a_build_is_listed_together(builds: dict[str, Build], group: str) -> None:
    build = builds[group]
    assert build.returncode != 0
    assert f"ERROR   -  {ERRORS[group]} erreur(s) dans les sources" in build.output
    assert len(build.blocks["error"]) == ERRORS[group]
    assert "Traceback" not in build.output


def test_the_catalogue_has_at_least_twenty_cases() -> None:
    assert len(CATALOGUE) >= 20


def test_the_non_utf8_page_is_built_from_replacement_characters(builds: dict[str, Build]) -> None:
    # MkDocs alone stops on the first bad byte ("Encoding error reading file" and a
    # traceback): here the page is read anyway and the other problems are listed too.
    output = builds["fichiers"].output
    assert "Encoding error" not in output
    assert "UnicodeDecodeError" not in output


def test_a_page_with_windows_line_ends_reads_as_any_other(builds: dict[str, Build]) -> None:
    # Its calculator fence ends in "\r\n": read as such, it never closed, and the page failed.
    named = [
        line
        for line in builds["fichiers"].output.splitlines()
        if "crlf.md" in line and not line.startswith("DEBUG")  # -v: "Reading: crlf.md"
    ]
    assert named == []
    text, problems = checks.decode_source(b"# T\r\n\r\n```calculateur dice\r\n```\r\n", "a.md")
    assert (text, problems) == ("# T\n\n```calculateur dice\n```\n", [])


def test_the_big_export_loses_no_entry(builds: dict[str, Build]) -> None:
    text = BIG_EXPORT.read_text(encoding="utf-8")
    entries = len(re.findall(r"(?<!\S)### ", text))
    assert entries == 79 * BIG_COPIES
    output = builds["gros-export"].output
    assert f"{entries} sorts publiés, aucun sort écarté" in output
    assert "export-entree" not in output  # neither error nor warning about the export
    # The only error is the page that stops the build on purpose.
    [error] = builds["gros-export"].blocks["error"]
    assert "arret.md:6" in error


def test_lines_after_a_front_matter_are_the_file_s_lines() -> None:
    # index.md of the « liens » site starts with a 4-line front matter and a blank line:
    # its first link is on line 8 of the file (line 3 of what MkDocs hands the plugin).
    source = (INTEGRATION / "liens" / "content" / "index.md").read_text(encoding="utf-8")
    assert "absente.md" in source.split("\n")[7]


def test_a_broken_link_is_said_once_with_its_line(builds: dict[str, Build]) -> None:
    # MkDocs' own line for a link to no file (said in French, regles/mkdocs_words.py) names
    # the file but not the line: the checks' line, which has it, is the only one left. Its
    # other lines are said in French.
    output = builds["liens"].output
    assert "lien vers « absente.md » : aucun fichier" not in output
    assert "lien vers « images/absente.png » : aucun fichier" not in output
    said = [line for line in output.splitlines() if "absente.md" in line and "lien" in line]
    assert said == [
        "  index.md:8 [absente.md]: lien vers « absente.md » : la page « absente.md » n’existe pas"
    ], said
    assert "La navigation (nav de mkdocs.yml) nomme « page-oubliee.md »" in output
    assert "Pages du dossier des pages absentes de la navigation" in output
    assert "Construction arrêtée : voir les messages plus haut" in output.splitlines()
    for english in ("Doc file", "A reference to", "The following pages", "Aborted"):
        assert english not in output
    assert any(
        "index.md:8" in line and "absente.md" in line for line in builds["liens"].blocks["error"]
    )


def test_entries_are_named_in_the_real_export_messages() -> None:
    # Sanity of the fixture: the truncated entry is the last line of the export.
    lines = (INTEGRATION / "sorts" / "export.txt").read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith("### Boule de feu (III)")
    assert not any("Fin du fichier" in line for line in lines)
