"""A database as read from its export: its groups, entries and the headings it rejected,
with where each lies in the file; reading the file, and the levels' roman numerals."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from regles.core.report import Problem

__all__ = [
    "Entry",
    "ExportError",
    "Group",
    "ParseResult",
    "RejectedEntry",
    "SourcePosition",
    "int_to_roman",
    "read_export",
    "roman_to_int",
]

# --------------------------------------------------------------------------
# Data model
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SourcePosition:
    """1-based line and column, 0-based character offset in the export text."""

    line: int
    column: int
    offset: int


@dataclass
class Entry:
    """One entry (``### Nom (niveaux)``) of a group. Its levels are both None in an export
    that gives none (a bestiary of a game without levels)."""

    name: str
    group: str
    level_min: int | None
    level_max: int | None
    fields: dict[str, str]
    description: str
    slug: str
    position: SourcePosition


@dataclass
class Group:
    """One group (``## Nom``) with its entries in export order."""

    name: str
    slug: str
    description: str
    entries: list[Entry]
    position: SourcePosition


@dataclass(frozen=True)
class RejectedEntry:
    """A ``###`` heading that did not become an Entry (an error Problem explains why)."""

    heading: str
    group: str | None
    position: SourcePosition


@dataclass
class ParseResult:
    """Everything read from one export."""

    source: str
    title: str
    generated: str | None
    groups: list[Group]
    entries: list[Entry]
    problems: list[Problem]
    rejected: list[RejectedEntry]

    @property
    def has_levels(self) -> bool:
        """Whether the export gives its entries levels (all of them do, or none)."""
        return any(e.level_min is not None for e in self.entries)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


class ExportError(Exception):
    """The export file cannot be read as text."""

    def __init__(self, path: str, offset: int, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.offset = offset


def read_export(path: str | Path) -> str:
    """Read an export file, decoding it as strict UTF-8 (a leading BOM is dropped)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise ExportError(
            str(path), exc.start, f"fichier non UTF-8 : octet invalide à la position {exc.start}"
        ) from exc
    # A BOM is valid UTF-8 but would otherwise be taken for stray text before the title.
    return text.removeprefix("\ufeff")


# --------------------------------------------------------------------------
# Small helpers: roman numerals, slugs
# --------------------------------------------------------------------------

_ROMAN_UNITS = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_MAX_LEVEL = 39


def int_to_roman(n: int) -> str:
    """Roman numeral of ``1 <= n <= 39``."""
    if not 1 <= n <= _MAX_LEVEL:
        raise ValueError(n)
    out = []
    for value, letters in _ROMAN_UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


# Only canonical spellings are accepted, so "IIX" or "IIII" are reported rather than guessed.
_ROMAN_VALUES = {int_to_roman(n): n for n in range(1, _MAX_LEVEL + 1)}


def roman_to_int(numeral: str) -> int | None:
    """Value of a canonical roman numeral I..XXXIX, or None."""
    return _ROMAN_VALUES.get(numeral)
