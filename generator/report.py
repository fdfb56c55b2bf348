"""Build report: every problem found during a build, collected and reported together."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Literal

__all__ = ["BuildReport", "Kind", "Problem", "Severity"]

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
    MALFORMED_TABLE = "tableau-mal-forme"
    HEADING_SKIP = "titre-saute-un-niveau"  # h1 → h4: the outline has a hole
    # Anchors, links and references
    DUPLICATE_ANCHOR = "ancre-en-double"
    MALFORMED_LINK = "lien-mal-forme"
    MISSING_LINK_TARGET = "lien-introuvable"
    MISSING_ANCHOR = "ancre-introuvable"
    AMBIGUOUS_LINK = "lien-ambigu"
    ABSENT_PAGE = "page-absente"
    UNRESOLVED_REFERENCE = "reference-introuvable"
    REFERENCE_TYPO = "reference-faute"
    AMBIGUOUS_REFERENCE = "renvoi-ambigu"
    UNRESOLVED_MENTION = "mention-introuvable"
    # Directives
    UNKNOWN_CALCULATOR = "calculateur-inconnu"
    CALCULATOR_WITHOUT_RESULT = "calculateur-sans-resultat"  # its starting values fail
    EMPTY_CALCULATOR_LIST = "liste-calculateurs-vide"
    UNKNOWN_TABLE = "table-inconnu"
    UNKNOWN_NOTE = "note-inconnu"
    # The site's configuration
    NAV_PAGE_MISSING = "nav-page-absente"
    PAGE_OUTSIDE_SYSTEMS = "page-hors-systeme"
    # The spell export
    EXPORT_UNREADABLE = "export-illisible"
    EXPORT_ENTRY = "export-sorts"
    EXPORT_TRUNCATED = "export-tronque"
    EXPORT_SUMMARY = "export-bilan"
    UNCERTAIN_SPLIT = "decoupage-incertain"


@dataclass(frozen=True)
class Problem:
    """One problem, located in a source file (path relative to the docs folder, or the
    configuration file's name)."""

    file: str
    line: int | None
    severity: Severity
    kind: Kind
    message: str
    subject: str | None = None  # what it is about: a link, a name, a spell
    column: int | None = None
    context: str | None = None  # the part of the file it lies in: a spell's college

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

    def grouped(self, severity: Severity) -> dict[str, list[Problem]]:
        """Problems of one severity grouped by kind, each group sorted by place."""
        groups: dict[str, list[Problem]] = defaultdict(list)
        for problem in self.of(severity):
            groups[problem.kind.value].append(problem)
        return dict(sorted(groups.items()))

    def format(self, severity: Severity) -> str:
        lines: list[str] = []
        for kind, problems in self.grouped(severity).items():
            lines.append(f"{kind} ({len(problems)}) :")
            lines.extend(f"  {p}" for p in problems)
        return "\n".join(lines)

    def to_json(self) -> str:
        problems = sorted(self.problems, key=Problem.sort_key)
        return json.dumps([asdict(p) for p in problems], ensure_ascii=False, indent=1)
