"""Build report: every problem found during a build, collected and reported together.

Errors and warnings are faults: listed in full, they fail the build (warnings under
--strict). Some kinds of information are notes for the owner rather than faults (`Kind.is_note`):
what the sources send to and the site does not hold (a chapter of the source document, a page
of the site the text was copied from), words that are neither an entry nor a section, the
count of the entry export. `BuildReport.summary` gives them as one short group, counts per
kind; the JSON report (and `format_notes`, logged at the debug level: `mkdocs build -v`)
keeps every line.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Literal

__all__ = ["NOTE_KINDS", "NOTE_WORDS", "BuildReport", "Kind", "Problem", "Severity"]

Severity = Literal["error", "warning", "info"]


class Kind(StrEnum):
    """What a problem is about. The value is the name the report prints and writes, in
    French, for the owner who reads it; code compares members, never messages."""

    # Files
    ENCODING = "encodage"
    EMPTY_PAGE = "page-vide"
    FRONT_MATTER = "en-tete-yaml"
    # Markdown nesting
    UNCLOSED_FENCE = "bloc-non-ferme"
    MALFORMED_DIRECTIVE = "bloc-mal-forme"
    MALFORMED_HTML = "html-mal-forme"
    RAW_MARKDOWN_IN_HTML = "html-markdown-brut"
    PAGE_SCRIPT = "script-dans-la-page"  # code in a page the site does not declare
    MALFORMED_TABLE = "tableau-mal-forme"
    HEADING_SKIP = "titre-saute-un-niveau"  # h1 → h4: the outline has a hole
    # Anchors, links and references
    DUPLICATE_ANCHOR = "ancre-en-double"
    MALFORMED_LINK = "lien-mal-forme"
    MISSING_LINK_TARGET = "lien-introuvable"
    MISSING_ANCHOR = "ancre-introuvable"
    AMBIGUOUS_LINK = "lien-ambigu"
    ABSENT_PAGE = "page-absente"
    OLD_SITE_LINK = "lien-ancien-site"  # an address of the copied-from site, led to its page
    UNRESOLVED_REFERENCE = "reference-introuvable"
    REFERENCE_TYPO = "reference-faute"
    AMBIGUOUS_REFERENCE = "renvoi-ambigu"
    UNRESOLVED_MENTION = "mention-introuvable"
    # Directives
    UNKNOWN_CALCULATOR = "calculateur-inconnu"
    CALCULATOR_WITHOUT_RESULT = "calculateur-sans-resultat"  # its starting values fail
    EMPTY_CALCULATOR_LIST = "liste-calculateurs-vide"
    EMPTY_HOME_LINKS = "accueil-sans-lien"
    UNKNOWN_TABLE = "table-inconnu"
    TABLE_WITHOUT_RESULT = "table-sans-resultat"  # its code fails or goes past a limit
    UNKNOWN_NOTE = "note-inconnu"
    # The site's configuration
    NAV_PAGE_MISSING = "nav-page-absente"
    PAGE_OUTSIDE_SYSTEMS = "page-hors-systeme"
    SETTING_PAGE_MISSING = "reglage-page-absente"  # a glossary, a new home of an old address
    PRINT_PAGE_TAKEN = "page-impression-prise"  # the owner's page where a print page would go
    DUPLICATE_KEY = "cle-en-double"  # YAML keeps the last one: the first is lost
    ADDRESSES_FILE = "adresses-illisibles"  # the file of the pages' old addresses is damaged
    MOVED_ADDRESS = "adresse-deplacee"  # a page's old address, which leads to its new one
    # A database's export
    EXPORT_UNREADABLE = "export-illisible"
    RAW_EXPORT = "export-publie"  # a file shaped like an export, which no database declares
    EMPTY_DATABASE = "base-vide"  # a database whose export has no group and no entry
    EXPORT_ENTRY = "export-entree"  # an entry, a group, a field of a database's export
    EXPORT_TRUNCATED = "export-tronque"
    EXPORT_SUMMARY = "export-bilan"
    EXPORT_HEADER = "export-en-tete"  # its title or date missing
    UNKNOWN_COLUMN = "colonne-inconnue"  # a column the site names that no entry fills
    UNKNOWN_TERM = "terme-inconnu"  # a term the site defines that the export never uses
    UNCERTAIN_SPLIT = "decoupage-incertain"
    # A mention whose only match is in another game system: left unlinked.
    OTHER_SYSTEM_MENTION = "mention-autre-systeme"

    @property
    def is_note(self) -> bool:
        """A note for the owner, not a fault: the text is as the source wrote it and the page
        says what it cannot link (or needs no link at all)."""
        return self in NOTE_KINDS


NOTE_KINDS = frozenset(
    {
        Kind.ABSENT_PAGE,
        Kind.UNRESOLVED_REFERENCE,
        Kind.UNRESOLVED_MENTION,
        Kind.OTHER_SYSTEM_MENTION,
        Kind.EXPORT_SUMMARY,
        Kind.MOVED_ADDRESS,
    }
)
# What the notes of a kind are, in the words of the summary's line that counts them.
NOTE_WORDS = {
    Kind.ABSENT_PAGE: "liens vers une page que le site n’a pas, laissés en texte",
    Kind.UNRESOLVED_REFERENCE: (
        "renvois à une section que le site n’a pas, marqués « absent du site »"
    ),
    Kind.UNRESOLVED_MENTION: (
        "mots en italique qui ne nomment ni entrée ni section, laissés en texte"
    ),
    Kind.OTHER_SYSTEM_MENTION: "noms d’un autre système de jeu, laissés sans lien",
    Kind.MOVED_ADDRESS: "anciennes adresses qui mènent à leur nouvelle page",
}


@dataclass(frozen=True)
class Problem:
    """One problem, located in a source file (path relative to the docs folder, or the
    configuration file's name)."""

    file: str
    line: int | None
    severity: Severity
    kind: Kind
    message: str
    subject: str | None = None  # what it is about: a link, a name, an entry
    column: int | None = None
    context: str | None = None  # the part of the file it lies in: an entry's group

    def sort_key(self) -> tuple[str, int, int, str, str, str, str]:
        """By file, then line (a problem of the whole file, with no line, comes first)."""
        return (
            self.file,
            self.line or 0,
            self.column or 0,
            self.severity,
            self.kind.value,
            self.message,
            self.subject or "",
        )

    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        about = f" [{self.subject}]" if self.subject else ""
        return f"{self.location()}{about}: {self.message}"


@dataclass
class BuildReport:
    """Problems of one build; errors fail it, the rest is listed for the owner."""

    problems: list[Problem] = field(default_factory=list)
    # The problems already listed, for `add` to drop a repeat at once (a list search made
    # the build quadratic in the number of problems). Only `add` and `clear` change
    # `problems`.
    _seen: set[Problem] = field(default_factory=set, init=False, repr=False, compare=False)

    def add(self, problem: Problem) -> None:
        if problem not in self._seen:
            self._seen.add(problem)
            self.problems.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.add(problem)

    def clear(self) -> None:
        self.problems.clear()
        self._seen.clear()

    def of(self, severity: Severity) -> list[Problem]:
        return sorted((p for p in self.problems if p.severity == severity), key=Problem.sort_key)

    def notes(self) -> list[Problem]:
        """The notes for the owner (information of a `Kind.is_note` kind), sorted by place."""
        return [p for p in self.of("info") if p.kind.is_note]

    def grouped(self, severity: Severity) -> dict[str, list[Problem]]:
        """Problems of one severity grouped by kind, each group sorted by place; for
        information, the notes left out (`notes`, `summary`)."""
        groups: dict[str, list[Problem]] = defaultdict(list)
        for problem in self.of(severity):
            if severity == "info" and problem.kind.is_note:
                continue
            groups[problem.kind.value].append(problem)
        return dict(sorted(groups.items()))

    def format(self, severity: Severity) -> str:
        """Every problem of one severity, by kind (for information, the notes left out)."""
        return _listing(self.grouped(severity))

    def format_notes(self) -> str:
        """Every note, by kind, as `format` lists problems."""
        groups: dict[str, list[Problem]] = defaultdict(list)
        for problem in self.notes():
            groups[problem.kind.value].append(problem)
        return _listing(dict(sorted(groups.items())))

    def summary(self) -> str:
        """The notes in a few lines: one per kind, with its count and the number of files;
        a kind with a single note gives it, and each export's count is given (one per
        database)."""
        groups: dict[str, list[Problem]] = defaultdict(list)
        for problem in self.notes():
            groups[problem.kind.value].append(problem)
        lines: list[str] = []
        for kind, problems in sorted(groups.items()):
            if len(problems) == 1 or kind == Kind.EXPORT_SUMMARY.value:
                lines.extend(f"  {kind} : {problem}" for problem in problems)
                continue
            files = len({p.file for p in problems})
            where = "1 fichier" if files == 1 else f"{files} fichiers"
            words = NOTE_WORDS.get(problems[0].kind)
            lines.append(f"  {kind} : {len(problems)} ({where})" + (f", {words}" if words else ""))
        return "\n".join(lines)

    def to_json(self) -> str:
        """Every problem, notes included, sorted by place."""
        problems = sorted(self.problems, key=Problem.sort_key)
        return json.dumps([asdict(p) for p in problems], ensure_ascii=False, indent=1)


def _listing(groups: dict[str, list[Problem]]) -> str:
    lines: list[str] = []
    for kind, problems in groups.items():
        lines.append(f"{kind} ({len(problems)}) :")
        lines.extend(f"  {p}" for p in problems)
    return "\n".join(lines)
