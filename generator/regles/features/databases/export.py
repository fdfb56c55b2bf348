"""Parse a spell-database export into colleges and spells, and render their pages.

Input format
------------
The export is Markdown whose line breaks may have been collapsed into single
spaces (the form the owner's tool currently produces), or kept (the
"line-broken" form, see :func:`restore_line_breaks`). Both forms give the same
records. Structure::

    # <titre> _Généré le 22/10/2026 à 19:24_ ---
    ## <collège> **Description du collège :** <description>
    ### <sort> (<niveaux>) - **<Champ> :** <valeur> ... <description>
    ...
    --- Fin du fichier

Structural markers are recognised only when preceded by whitespace (or at the
start of the text): ``## ``, ``### ``, ``- **Clé :**`` and ``--- Fin du fichier``.
A spell heading ends at its level group ``(II)``, ``(I-IV)`` or ``(I–IV)``: the
first parenthesised group made only of capitals/digits, followed by whitespace,
found on the heading line (line-broken form) or within the first 80
characters before any field marker (collapsed form).

The split rule (field value / description)
-------------------------------------------
A field value ends with certainty at a line break or at the next ``- **Clé :**``
marker. Only the LAST field of an entry in the collapsed form has an unmarked
end: its "tail" runs, up to the next heading, into the description. The tail is
cut deterministically, in this order:

1. Vocabulary. Each known key has a closed value grammar (see ``_VOCABULARY``):
   Durée/Temps are durations (``1 minute``, ``10 minutes ou 1 service (max
   24h)``, ``une journée``, ``1 mois ou plus``, ``long``, ``permanent``,
   ``à volonté``…), Zone a distance (``3 m``, ``100 m (×0,5 …)``), Classe class
   words (``Zone``, ``Info``, ``Info Zone``, ``Blocage``, ``Projectile``…),
   Résistance an attribute with optional modifiers (``San``, ``Vol-3``,
   ``Vol+Magerie``…), ``Sort sujet``, ``Pouvoir de l’objet``, ``Test de
   Frayeur`` or the name of an entry of the same export (``Mur de brume``).
   Every prefix of the tail (of at most 16 words) ending at a word boundary
   that matches the grammar AND is followed by a sentence start (a capital
   letter, a digit, ``_``, ``*``, ``«``, ``•``, ``[`` or a signed number) or by
   nothing is a candidate.
   Exactly one candidate: the split is taken as sure (no warning). Several
   candidates: the longest is taken and the entry is flagged uncertain.
2. Empty value. If no candidate exists and the tail starts with a capitalised
   determiner or pronoun (``Le``, ``La``, ``L’…``, ``Ce``, ``Un``, ``Il``…),
   which never starts a value, the field has no value: an error.
3. Fallback (flagged uncertain). The value is the tail's words up to, not
   including, the first word at index ≥ 1 that starts a sentence: a
   capitalised word whose other letters are lowercase (``Matériel``,
   ``L’initiateur``, ``À``; not ``PdM``, ``MR`` nor the attribute
   abbreviations ``Vol``, ``San``…), a word starting with ``_`` or ``**`` or
   ``•``, or a capital/digit word right after a word ending in ``.``, ``!`` or
   ``?``. Without such a word the whole tail is the value.

Every entry cut by (1) with several candidates or by (3) gets a ``warning``
Problem "découpage incertain entre la valeur du champ X et la description".
In the line-broken form the line break is a certain marker: no warning.

Faults are reported as Problems (French messages, with position) rather than
raised: an entry with an error (no level, unknown numeral, min > max, empty name,
field without value, duplicate name in its college, outside any college) is not a
Entry but a ``RejectedEntry``, so every ``###`` heading is accounted for.

Descriptions become Markdown: whitespace runs are collapsed (non-breaking
spaces are kept), each ``•`` starts a list item ``- …`` (the last item runs to
the end of its line or paragraph), inline Markdown (``_italique_``,
``**gras**``) is kept, and only what would change the meaning as Markdown is
backslash-escaped (``\\``, backticks, braces, link-shaped brackets, block
syntax at a line start). ``[dégâts×10]`` stays as written. Raw HTML
(``<``, ``>``, ``&``) is kept in the records and neutralised by the renderers.
"""

from __future__ import annotations

import bisect
import hashlib
import html
import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from regles.core.markdown_text import markdown_text
from regles.core.report import Kind, Problem
from regles.core.slugs import slugify, unique_slug
from regles.core.words import APOSTROPHE, DEFAULT_WORDS, Noun, Words, capitalized
from regles.features.databases.columns import Column, choice_values, index_columns, number_order
from regles.features.databases.ordering import distance_order, duration_order, is_long

__all__ = [
    "SPELL_TABLE_MARK",
    "UNCERTAIN_SPLIT",
    "College",
    "Entry",
    "ExportError",
    "IndexLabels",
    "ParseResult",
    "RejectedEntry",
    "SourcePosition",
    "ends_as_export",
    "entry_ids",
    "entry_records",
    "group_marker",
    "group_markers_named",
    "int_to_roman",
    "markdown_for_page",
    "mention_linker",
    "parse_export",
    "read_export",
    "render_college_page",
    "render_entry_index",
    "render_entry_table",
    "render_grimoire_page",
    "restore_line_breaks",
    "roman_to_int",
]

Severity = Literal["error", "warning"]

#: Message prefix of the warning attached to heuristic field/description splits.
UNCERTAIN_SPLIT = "découpage incertain entre la valeur du champ {key} et la description"


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
    """One spell entry (``### Nom (niveaux)``) of a college."""

    name: str
    college: str
    level_min: int
    level_max: int
    fields: dict[str, str]
    description: str
    slug: str
    position: SourcePosition


@dataclass
class College:
    """One college (``## Nom``) with its spells in export order."""

    name: str
    slug: str
    description: str
    spells: list[Entry]
    position: SourcePosition


@dataclass(frozen=True)
class RejectedEntry:
    """A ``###`` heading that did not become an Entry (an error Problem explains why)."""

    heading: str
    college: str | None
    position: SourcePosition


@dataclass
class ParseResult:
    """Everything read from one export."""

    source: str
    title: str
    generated: str | None
    colleges: list[College]
    spells: list[Entry]
    problems: list[Problem]
    rejected: list[RejectedEntry]

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


# --------------------------------------------------------------------------
# Field value vocabulary (rule step 1)
# --------------------------------------------------------------------------

_NUM = r"(?:\d+(?:[,.]\d+)?|une?|deux|trois|quatre|cinq|six|dix|quelques)"
_TIME_UNIT = (
    r"(?:secondes?|minutes?|heures?|journées?|jours?|semaines?|mois|ans?|années?"
    r"|rounds?|tours?|services?|s|min|h|j)"
)
_PAREN = r"(?: \([^()]*\))?"
_DURATION_ATOM = (
    rf"(?:{_NUM} {_TIME_UNIT}(?: maximum| ou plus)?|[Pp]ermanente?|[Ii]nstantanée?|à volonté"
    r"|[Ss]péciale?|[Vv]ariable|[Ii]ndéfinie|[Aa]ucune|[Jj]usqu’au déclenchement)"
)
_DURATION = rf"{_DURATION_ATOM}{_PAREN}(?:(?: ou | / |, ){_DURATION_ATOM}{_PAREN})*"
_ATTRIBUTE = r"(?:San|Vol|HT|For|Dex|Int|Per|Magerie)"
_CLASS_WORD = r"(?:Zone|Info|Blocage|Projectile|Enchantement|Normale?|Spéciale?|Missile|Régulier)"

# Keys are compared accent- and case-insensitively ("Duree", "durée").
_VOCABULARY: dict[str, re.Pattern[str]] = {
    "duree": re.compile(_DURATION),
    "temps": re.compile(rf"(?:[Ll]ong|[Cc]ourt|{_DURATION})"),
    "zone": re.compile(
        rf"{_NUM} (?:m|km|cm|mètres?|kilomètres?|hex)(?: de (?:rayon|diamètre|côté))?{_PAREN}"
    ),
    "classe": re.compile(rf"{_CLASS_WORD}(?: {_CLASS_WORD})*"),
    "resistance": re.compile(
        rf"(?:{_ATTRIBUTE}(?: ?[-+−] ?(?:\d+|{_ATTRIBUTE}))*|Sort sujet|Pouvoir de l’objet"
        r"|Test de [Ff]rayeur|[Ss]péciale?|[Aa]ucune)"
    ),
}

# Capitalised words that open a sentence but never a field value (rule step 2).
_OPENERS = frozenset(
    {
        *("Le", "La", "Les", "Un", "Une", "Des", "Du", "Ce", "Cet", "Cette", "Ces", "Ceci"),
        *("Cela", "Il", "Elle", "Ils", "Elles", "On", "Si", "Au", "Aux", "En", "Pour"),
        *("Lorsque", "Quand", "Tout", "Toute", "Tous", "Toutes", "Chaque", "Dans", "Sur"),
        *("Avec", "Sans", "Par"),
    }
)
# Capitalised game abbreviations that can sit inside a value (not a sentence start).
_ABBREVIATIONS = frozenset({"San", "Vol", "For", "Dex", "Int", "Per", "Niv", "Magerie"})
_APOSTROPHES = "’'"


def _key_id(key: str) -> str:
    return slugify(key).replace("-", "")


def _is_sentence_char(rest: str) -> bool:
    """True if ``rest`` (text after a candidate value) starts like a description."""
    if not rest:
        return True
    c = rest[0]
    if c.isupper() or c.isdigit() or c in '_*«"•[':
        return True
    return c in "-+±−" and len(rest) > 1 and rest[1].isdigit()


def _is_title_word(word: str) -> bool:
    """A capitalised word whose other letters are lowercase (``Matériel``, ``L’initiateur``)."""
    core = word.strip('«»"().,;:!?')
    letters = [c for c in core if c.isalpha()]
    if not letters or not core[0].isupper() or core in _ABBREVIATIONS:
        return False
    if len(letters) == 1:
        # Single capitals are mostly roman numerals ("niv I"); "À"/"A" open sentences.
        return core in ("À", "A")
    return all(c.islower() for c in letters[1:])


def _is_opener(word: str) -> bool:
    if word in _OPENERS:
        return True
    # "L’initiateur", "D’autres", "S’il", "N’a": an elided article or pronoun.
    return len(word) > 2 and word[0] in "LDSNJ" and word[1] in _APOSTROPHES


@dataclass(frozen=True)
class _Split:
    length: int  # characters of the tail that belong to the value
    status: Literal["vocabulary", "ambiguous", "fallback", "empty"]


_WORD_RE = re.compile(r"\S+")
_MAX_VALUE_WORDS = 16


def _split_tail(key: str, tail: str, names: frozenset[str]) -> _Split:
    """Apply the documented split rule to the tail of the last field of an entry."""
    words = list(_WORD_RE.finditer(tail))
    if not words:
        return _Split(0, "empty")
    key_id = _key_id(key)
    grammar = _VOCABULARY.get(key_id)
    candidates: list[int] = []
    # Known values are a few words long; longer prefixes cannot match and would cost O(n²).
    for i, match in enumerate(words[:_MAX_VALUE_WORDS]):
        end = match.end()
        value = re.sub(r"[ \t\r\n]+", " ", tail[:end])
        rest = tail[words[i + 1].start() :] if i + 1 < len(words) else ""
        known = grammar is not None and grammar.fullmatch(value) is not None
        if not known and key_id == "resistance":
            known = value in names
        if known and _is_sentence_char(rest):
            candidates.append(end)
    if len(candidates) == 1:
        return _Split(candidates[0], "vocabulary")
    if candidates:
        return _Split(candidates[-1], "ambiguous")
    if _is_opener(words[0].group()):
        return _Split(0, "empty")
    for i in range(1, len(words)):
        current = words[i].group()
        previous = words[i - 1].group()
        after_stop = previous.endswith((".", "!", "?"))
        if (
            _is_title_word(current)
            or current.startswith(("_", "**", "•"))
            or (after_stop and (current[0].isupper() or current[0].isdigit()))
        ):
            return _Split(words[i - 1].end(), "fallback")
    return _Split(words[-1].end(), "fallback")


# --------------------------------------------------------------------------
# Markdown for descriptions
# --------------------------------------------------------------------------

_WS_RE = re.compile(r"[ \t\r\n]+")  # not \s: non-breaking spaces are typography, kept as is
_BULLET_RE = re.compile(r"[ \t]*•[ \t]*")
_LINK_BRACKET_RE = re.compile(r"!?\[(?P<inner>[^\[\]\n]*)\](?P<after>[(\[:]?)")
# Raw HTML and ">" (blockquote) are left to the renderers, which turn ">" into "&gt;".
_BLOCK_START_RE = re.compile(r"^(?:#|[-+*](?=\s|$)|\*\[|!!!|(?:[-*_][ \t]*){3,}$)")
_ORDERED_START_RE = re.compile(r"^(\d+)([.)])(?=\s|$)")


def _collapse(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def _escape_inline(text: str) -> str:
    """Escape what Markdown would not show as written; keep ``_x_``, ``**x**`` and ``[x]``."""
    text = text.replace("\\", "\\\\").replace("`", "\\`").replace("{", "\\{").replace("}", "\\}")

    def bracket(m: re.Match[str]) -> str:
        inner, after = m.group("inner"), m.group("after")
        # "[x](url)", "[x][ref]", "[x]: url", "![img]", "[^note]" and "[TOC]" would become
        # links, images, footnotes or a table of contents; "[dégâts×10]" stays plain text.
        if after or m.group().startswith("!") or inner.startswith("^") or inner == "TOC":
            prefix = "!" if m.group().startswith("!") else ""
            return f"{prefix}\\[{inner}\\]{after}"
        return m.group()

    return _LINK_BRACKET_RE.sub(bracket, text)


def _escape_line_start(text: str) -> str:
    # A paragraph starting with "#", "- ", "1. " or ">" would turn into a heading, a list...
    if _BLOCK_START_RE.match(text):
        return "\\" + text
    # "1. x" is an ordered list; "\1." is not an escape, "1\." is.
    return _ORDERED_START_RE.sub(r"\1\\\2", text)


def _description_blocks(raw: str) -> list[tuple[str, str]]:
    """Paragraphs ("p") and bullet items ("li") of a description, whitespace-normalised."""
    blocks: list[tuple[str, str]] = []
    current: list[str] = []
    current_kind = "p"

    def flush() -> None:
        nonlocal current
        text = _collapse(" ".join(current))
        if text:
            blocks.append((current_kind, text))
        current = []

    for line in raw.split("\n"):
        if not line.strip():
            flush()
            current_kind = "p"
            continue
        pieces = _BULLET_RE.split(line)
        head, items = pieces[0], pieces[1:]
        if head.strip():
            if current_kind == "li":
                # A line break after a bullet item is a certain end of that item.
                flush()
                current_kind = "p"
            current.append(head)
        for item in items:
            flush()
            current_kind = "li"
            current.append(item)
    flush()
    return blocks


def _description_markdown(raw: str) -> str:
    parts: list[str] = []
    previous = ""
    for kind, text in _description_blocks(raw):
        escaped = _escape_line_start(_escape_inline(text))
        if kind == "li":
            parts.append(("\n" if previous == "li" else "\n\n") + "- " + escaped)
        else:
            parts.append("\n\n" + escaped)
        previous = kind
    return "".join(parts).strip("\n")


# --------------------------------------------------------------------------
# Scanner
# --------------------------------------------------------------------------

_END_RE = re.compile(r"(?<!\S)---\s+Fin du fichier(?!\S)")
_END_AT_LAST_RE = re.compile(r"(?<!\S)---\s+Fin du fichier\s*\Z")
# A group's description marker in any words: « **Description des anciens cultes :** ».
_ANY_MARKER_RE = re.compile(r"\*\*Description d[^*\n]{1,60}?[ \t\xa0]*:\*\*")
_HEADING_RE = re.compile(r"(?<!\S)(###|##)(?=[ \t])")


def _marker_words(group: Noun) -> list[str]:
    """« Description du culte », then « Description du collège » (the default words)."""
    return list(dict.fromkeys(f"Description {noun.of()}" for noun in (group, DEFAULT_WORDS.group)))


def group_marker(group: Noun) -> tuple[re.Pattern[str], str]:
    """The marker between a group's name and its description: the pattern that finds it
    and the text that names it in messages, « **Description de la confrérie :** » in the
    game's words. The pattern also finds it in the default words, « **Description du
    collège :** », as an export tool writes it whatever the site calls its groups: choosing
    one's words never makes an export unreadable. Either apostrophe."""
    either = "|".join(re.escape(w).replace(APOSTROPHE, "['’]") for w in _marker_words(group))
    return re.compile(rf"\*\*(?:{either})[ \t\xa0]*:\*\*"), f"**Description {group.of()} :**"


def group_markers_named(group: Noun) -> str:
    """The markers a group's description may follow, as a message names them:
    « « **Description du culte :** » ou « **Description du collège :** » »."""
    return " ou ".join(f"« **{words} :** »" for words in _marker_words(group))


def shortened(text: str, length: int = 60) -> str:
    """`text` cut after `length` characters, at a word, with « … »: a name that runs on
    into a description, in a message."""
    if len(text) <= length:
        return text
    cut = text[:length].rsplit(" ", 1)[0] if " " in text[:length] else text[:length]
    return cut.rstrip(" ,;:") + "…"


def ends_as_export(tail: str) -> bool:
    """Whether a text ends as an export does, with « --- Fin du fichier »."""
    return _END_AT_LAST_RE.search(tail) is not None


_FIELD_RE = re.compile(r"- \*\*(?P<key>[^*\n]*?)[ \t\xa0]*:\*\*(?=\s|$)")
_NEXT_FIELD_RE = re.compile(r"(?<=\s)- \*\*[^*\n]*?[ \t\xa0]*:\*\*(?=\s|$)")
_LEVEL_RE = re.compile(r"\(\s*([A-Z0-9]+)\s*(?:[-–]\s*([A-Z0-9]+)\s*)?\)(?=\s|$)")
_PREAMBLE_STOP_RE = re.compile(r"\n|\s_Généré|\s---(?=\s|$)")
_GENERATED_RE = re.compile(r"_Généré(?: le)?[ \t]*(?P<date>[^_\n]*)_")
_RULE_RE = re.compile(r"---(?=\s|$)")
# A level group further than this from "### " belongs to the description, not the heading.
_HEADING_SEARCH = 80


@dataclass
class _Entry:
    college_index: int | None
    start: int  # offset of "###"
    body: int  # offset after "### "
    end: int


@dataclass
class _CollegeDraft:
    name: str
    slug: str
    description: str
    position: SourcePosition
    spells: list[Entry] = field(default_factory=list)


class _Scanner:
    def __init__(
        self,
        text: str,
        source: str,
        reserved_slugs: Collection[str] = (),
        group: Noun = DEFAULT_WORDS.group,
        entry: Noun = DEFAULT_WORDS.entry,
    ) -> None:
        self.text = text
        self.group = group
        self.entry_word = entry
        # « le premier collège », « la première guilde »: where a text comes too early.
        article = "la" if group.feminine else "le"
        self.first_group = f"{article} {group.agreed('premier')} {group.one}"
        self.group_marker, _ = group_marker(group)
        self.source = source
        self.reserved_slugs = frozenset(reserved_slugs)
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.problems: list[Problem] = []
        self.rejected: list[RejectedEntry] = []
        # (whitespace start, whitespace end, separator) used by restore_line_breaks.
        self.breaks: list[tuple[int, int, str]] = []

    # -- positions and diagnostics -----------------------------------------

    def pos(self, offset: int) -> SourcePosition:
        line_index = bisect.bisect_left(self.newlines, offset)
        line_start = self.newlines[line_index - 1] + 1 if line_index else 0
        return SourcePosition(line_index + 1, offset - line_start + 1, offset)

    def report(
        self,
        severity: Severity,
        offset: int,
        message: str,
        college: str | None = None,
        spell: str | None = None,
        kind: Kind = Kind.EXPORT_ENTRY,
    ) -> None:
        p = self.pos(offset)
        self.problems.append(
            Problem(self.source, p.line, severity, kind, message, spell, p.column, college)
        )

    def brk(self, offset: int, separator: str) -> None:
        start = offset
        while start > 0 and self.text[start - 1].isspace() and self.text[start - 1] != "\xa0":
            start -= 1
        if start > 0:
            self.breaks.append((start, offset, separator))

    def skip_ws(self, offset: int, end: int) -> int:
        while offset < end and self.text[offset] in " \t\r\n":
            offset += 1
        return offset

    # -- top level -----------------------------------------------------------

    def run(self) -> ParseResult:
        text = self.text
        end_match = _END_RE.search(text)
        if end_match is None:
            body_end = len(text)
            self.report(
                "error",
                len(text),
                "export tronqué : le marqueur de fin « --- Fin du fichier » est absent",
                kind=Kind.EXPORT_TRUNCATED,
            )
        else:
            body_end = end_match.start()
            self.brk(end_match.start(), "\n\n")
            self.brk(end_match.end() - len("Fin du fichier"), "\n\n")
            trailing = self.skip_ws(end_match.end(), len(text))
            if trailing < len(text):
                message = f"texte hors {self.group.one} après « --- Fin du fichier »"
                self.report("error", trailing, message)

        headings = list(_HEADING_RE.finditer(text, 0, body_end))
        first = headings[0].start() if headings else body_end
        title, generated = self.preamble(first)

        colleges: list[_CollegeDraft] = []
        entries: list[_Entry] = []
        for i, m in enumerate(headings):
            stop = headings[i + 1].start() if i + 1 < len(headings) else body_end
            if m.group(1) == "##":
                if m.start() > 0:
                    self.brk(m.start(), "\n\n")
                colleges.append(self.college(m.start(), m.end() + 1, stop))
            else:
                self.brk(m.start(), "\n\n")
                entries.append(
                    _Entry(len(colleges) - 1 if colleges else None, m.start(), m.end() + 1, stop)
                )

        self.dedupe_college_slugs(colleges)
        heads = [self.heading(e, colleges) for e in entries]
        # Entry names of this export are Résistance vocabulary ("Serrurier" resists one).
        names = frozenset(h[0] for h in heads if h is not None)
        spells: list[Entry] = []
        for entry, head in zip(entries, heads, strict=True):
            if head is None:
                continue
            spell = self.entry(entry, head, colleges, names)
            if spell is not None and entry.college_index is not None:
                colleges[entry.college_index].spells.append(spell)
        self.finish_colleges(colleges)
        for c in colleges:
            spells.extend(c.spells)
        result_colleges = [
            College(c.name, c.slug, c.description, c.spells, c.position) for c in colleges
        ]
        self.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        return ParseResult(
            self.source, title, generated, result_colleges, spells, self.problems, self.rejected
        )

    def line_break(self, start: int, end: int) -> int:
        """First newline in [start, end) followed by more text before ``end``, or -1.

        Newlines only at the end of a region (a file's final newline) are not line breaks
        between blocks, so a collapsed export ending with "\\n" stays "collapsed".
        """
        newline = self.text.find("\n", start, end)
        if newline < 0 or not self.text[newline:end].strip():
            return -1
        return newline

    def preamble(self, end: int) -> tuple[str, str | None]:
        text = self.text
        pos = self.skip_ws(0, end)
        if pos == end:
            return "", None
        head = re.compile(r"#[ \t]+").match(text, pos, end)
        if head is None:
            self.report("error", pos, f"texte hors {self.group.one} avant {self.first_group}")
            return "", None
        stop = _PREAMBLE_STOP_RE.search(text, head.end(), end)
        title_end = stop.start() if stop else end
        title = _collapse(text[head.end() : title_end])
        pos = self.skip_ws(title_end, end)
        generated = None
        gen = _GENERATED_RE.match(text, pos, end)
        if gen is not None:
            self.brk(gen.start(), "\n\n")
            generated = _collapse(gen.group("date"))
            pos = self.skip_ws(gen.end(), end)
        rule = _RULE_RE.match(text, pos, end)
        if rule is not None:
            self.brk(rule.start(), "\n\n")
            pos = self.skip_ws(rule.end(), end)
        if pos < end:
            self.report("error", pos, f"texte hors {self.group.one} avant {self.first_group}")
        return title, generated

    def college(self, start: int, body: int, end: int) -> _CollegeDraft:
        """The college whose ``##`` is at ``start``, up to ``end``: the next heading, i.e.
        its first spell (or the next college when it has none)."""
        marker = self.group_marker.search(self.text, body, end)
        # Without one, a marker in other words (those the site had before): the name and
        # the description are told apart all the same, and the message quotes both.
        other = None if marker else _ANY_MARKER_RE.search(self.text, body, end)
        found = marker or other
        newline = self.line_break(body, end)
        name_end = min(found.start() if found else end, newline if newline >= 0 else end)
        name = _collapse(self.text[body:name_end])
        right_after = found is not None and self.skip_ws(name_end, end) == found.start()
        if found is not None and right_after:
            desc_start = found.end()
            self.brk(found.start(), "\n\n")
            if other is not None:
                self.report(
                    "error",
                    other.start(),
                    f"marqueur « {_collapse(other.group())} » inconnu : la description "
                    f"d’{self.group.a()} suit {group_markers_named(self.group)}",
                    college=shortened(name),
                )
        elif newline >= 0:
            desc_start = newline
        else:
            desc_start = end
            self.report(
                "error",
                start,
                f"{self.group.one} sans marqueur {group_markers_named(self.group)} : "
                "nom et description indiscernables",
                # Its name runs on into its description: the message shows where it starts.
                college=shortened(name),
            )
        if not name:
            self.report("error", start, f"{self.group.one} sans nom")
        raw = self.text[desc_start:end]
        self.bullet_breaks(desc_start, end)
        return _CollegeDraft(name, slugify(name), _description_markdown(raw), self.pos(start))

    def dedupe_college_slugs(self, colleges: list[_CollegeDraft]) -> None:
        seen: dict[str, _CollegeDraft] = {}
        used = set(self.reserved_slugs)
        for c in colleges:
            if c.name in seen:
                first = seen[c.name].position
                self.report(
                    "error",
                    c.position.offset,
                    f"{self.group.one} en double « {c.name} » "
                    f"(première occurrence ligne {first.line}, colonne {first.column})",
                    college=c.name,
                )
            seen.setdefault(c.name, c)
            c.slug = unique_slug(c.slug or "college", used, separator="-", first=2)

    def finish_colleges(self, colleges: list[_CollegeDraft]) -> None:
        for c in colleges:
            if not c.spells:
                message = f"{self.group.one} « {c.name} » sans {self.entry_word.count(0)}"
                self.report("warning", c.position.offset, message, college=c.name)

    def bullet_breaks(self, start: int, end: int) -> None:
        # Markdown needs a blank line before a list; the following items go one per line.
        for i, m in enumerate(re.finditer("•", self.text[start:end])):
            self.brk(start + m.start(), "\n" if i else "\n\n")

    # -- spell entries ---------------------------------------------------------

    def reject(self, entry: _Entry, heading: str, colleges: list[_CollegeDraft]) -> None:
        college = colleges[entry.college_index].name if entry.college_index is not None else None
        self.rejected.append(RejectedEntry(heading, college, self.pos(entry.start)))

    def heading(
        self, entry: _Entry, colleges: list[_CollegeDraft]
    ) -> tuple[str, int, int, int] | None:
        """Name, min, max and body offset of an entry, or None after reporting an error."""
        text = self.text
        college = colleges[entry.college_index].name if entry.college_index is not None else None
        newline = self.line_break(entry.body, entry.end)
        field_at = _NEXT_FIELD_RE.search(text, entry.body, entry.end)
        zone_end = newline if newline >= 0 else min(entry.end, entry.body + _HEADING_SEARCH)
        if field_at is not None:
            zone_end = min(zone_end, field_at.start())
        level = _LEVEL_RE.search(text, entry.body, zone_end)
        if level is None:
            shown = _collapse(text[entry.body : zone_end])
            if newline < 0 and field_at is None and zone_end < entry.end:
                shown = shown[:60] + "…"
            message = f"entrée sans niveau : « ### {shown} »"
            self.report("error", entry.start, message, college, shown)
            self.reject(entry, shown, colleges)
            return None
        name = _collapse(text[entry.body : level.start()])
        ok = True
        if entry.college_index is None:
            early = f"{self.entry_word.one} avant {self.first_group}"
            message = f"texte hors {self.group.one} : {early}"
            self.report("error", entry.start, message, None, name)
            ok = False
        if not name:
            self.report("error", entry.start, f"nom {self.entry_word.kind(1)} vide", college, None)
            ok = False
        low_text, high_text = level.group(1), level.group(2) or level.group(1)
        low, high = roman_to_int(low_text), roman_to_int(high_text)
        for numeral, value in dict(((low_text, low), (high_text, high))).items():
            if value is None:
                message = f"niveau inconnu « {numeral} » (chiffre romain non reconnu)"
                self.report("error", level.start(), message, college, name or None)
                ok = False
        if low is not None and high is not None and low > high:
            self.report(
                "error",
                level.start(),
                f"niveau minimal {low_text} supérieur au niveau maximal {high_text}",
                college,
                name or None,
            )
            ok = False
        if not ok or low is None or high is None:
            self.reject(entry, name or _collapse(text[entry.body : level.end()]), colleges)
            return None
        return name, low, high, level.end()

    def entry(
        self,
        entry: _Entry,
        head: tuple[str, int, int, int],
        colleges: list[_CollegeDraft],
        names: frozenset[str],
    ) -> Entry | None:
        text = self.text
        name, low, high, pos = head
        if entry.college_index is None:  # heading() rejects these; kept for the type checker
            return None
        draft = colleges[entry.college_index]
        ok = True
        fields: dict[str, str] = {}
        pos = self.skip_ws(pos, entry.end)
        first_field = True
        desc_start = pos
        while True:
            m = _FIELD_RE.match(text, pos, entry.end)
            if m is None:
                break
            self.brk(m.start(), "\n\n" if first_field else "\n")
            first_field = False
            key = _collapse(m.group("key"))
            value_start = m.end()
            # Line breaks count as value ends only in the line-broken form; a newline
            # right after the marker means an empty value.
            newline = self.line_break(value_start, entry.end)
            nxt = _NEXT_FIELD_RE.search(text, value_start, entry.end)
            ends = [x for x in (newline, nxt.start() if nxt else -1) if x >= 0]
            if ends:
                value_end = min(ends)
                value = _collapse(text[value_start:value_end])
                pos = self.skip_ws(value_end, entry.end)
            else:
                tail_start = self.skip_ws(value_start, entry.end)
                tail = text[tail_start : entry.end]
                split = _split_tail(key, tail, names)
                value = _collapse(tail[: split.length])
                value_end = tail_start + split.length
                pos = self.skip_ws(value_end, entry.end)
                if split.status in ("ambiguous", "fallback") and value:
                    self.report(
                        "warning",
                        tail_start,
                        UNCERTAIN_SPLIT.format(key=key) + f" (valeur retenue : « {value} »)",
                        draft.name,
                        name,
                        kind=Kind.UNCERTAIN_SPLIT,
                    )
            if not key:
                self.report("error", m.start(), "champ sans nom", draft.name, name)
                ok = False
            elif not value:
                self.report("error", m.start(), f"champ « {key} » sans valeur", draft.name, name)
                ok = False
            elif key in fields:
                self.report("error", m.start(), f"champ « {key} » en double", draft.name, name)
                ok = False
            else:
                fields[key] = value
            desc_start = pos
        if desc_start < entry.end:
            self.brk(desc_start, "\n\n")
        self.bullet_breaks(desc_start, entry.end)
        description = _description_markdown(text[desc_start : entry.end])
        if ok:
            for other in draft.spells:
                if other.name == name:
                    self.report(
                        "error",
                        entry.start,
                        f"{self.entry_word.one} en double dans {self.group.the()} "
                        f"« {draft.name} » : « {name} » "
                        f"(première occurrence ligne {other.position.line}, "
                        f"colonne {other.position.column})",
                        draft.name,
                        name,
                    )
                    ok = False
                    break
        if not ok:
            self.reject(entry, name, colleges)
            return None
        slug = self.entry_slug(name, draft, entry.start)
        return Entry(name, draft.name, low, high, fields, description, slug, self.pos(entry.start))

    def entry_slug(self, name: str, draft: _CollegeDraft, offset: int) -> str:
        base = slugify(name) or "sort"
        slug = unique_slug(base, {s.slug for s in draft.spells}, separator="-", first=2)
        if slug != base:
            self.report(
                "warning",
                offset,
                f"ancre « {base} » déjà prise dans {self.group.the()} : « {slug} » utilisée",
                draft.name,
                name,
            )
        return slug


def parse_export(
    text: str,
    source: str = "<export>",
    reserved_slugs: Collection[str] = (),
    group: Noun = DEFAULT_WORDS.group,
    entry: Noun = DEFAULT_WORDS.entry,
) -> ParseResult:
    """Parse an export (collapsed or line-broken form) into colleges, spells and problems.

    `reserved_slugs` are the names of other pages in the colleges' folder (the spell
    index): a college whose slug would be one of them takes the next free one. `group` and
    `entry` are the game's words for a college and a spell: its description's marker and
    the problems' messages use them."""
    return _Scanner(text, source, reserved_slugs, group, entry).run()


def restore_line_breaks(text: str) -> str:
    """Rebuild the line-broken form of an export: each block on its own line(s).

    Only whitespace changes: the separators chosen by the parser (before ``##``,
    ``###``, each ``- **Clé :**``, between the last field value and the
    description, before each ``•``...) become line breaks. Applying it to its own
    output gives the same text.
    """
    scanner = _Scanner(text, "<restore>")
    scanner.run()
    out: list[str] = []
    last = 0
    for start, end, separator in sorted(set(scanner.breaks)):
        if start < last:
            continue
        out.append(text[last:start])
        out.append(separator if separator else text[start:end])
        last = end
    out.append(text[last:])
    return "".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------
# Records and rendering
# --------------------------------------------------------------------------


# Short ids of the spells (`entry_ids`): at least this many base-36 digits.
SPELL_ID_LENGTH = 4
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36_digest(key: str) -> str:
    """SHA-256 of ``key`` written in base 36 (50 digits, the most significant first)."""
    number = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest(), "big")
    digits = []
    for _ in range(50):
        number, digit = divmod(number, 36)
        digits.append(_BASE36[digit])
    return "".join(reversed(digits))


def entry_ids(result: ParseResult) -> dict[tuple[str, str], str]:
    """The short id of each spell, by (college slug, spell slug): the ids that grimoires
    and their share links (`?sorts=<id>,<id>`) hold.

    Rule: the key « <college slug>/<spell slug> » (unique: a spell's slug is unique in its
    college, and a name that recurs across colleges has one key per college) is hashed with
    SHA-256 and written in base 36 (0-9, a-z); the id is the shortest start of that digest,
    of at least ``SPELL_ID_LENGTH`` digits, that no other spell of the export starts with.
    The same export gives the same ids at every build, in any order; an id only depends on
    its own key, unless another spell's digest shares its first digits (with 4 digits, 1.7
    million values, about one export of 400 spells in twenty has one such pair: both are
    lengthened by one digit, or more while they still agree).
    """
    digests = {
        (college.slug, s.slug): _base36_digest(f"{college.slug}/{s.slug}")
        for college in result.colleges
        for s in college.spells
    }
    ids: dict[tuple[str, str], str] = {}
    pending = dict(digests)  # the spells whose start is still shared, at `length` digits
    length = SPELL_ID_LENGTH
    while pending:
        # Counted over every digest: a start must be no other spell's, settled or not.
        starts = Counter(d[:length] for d in digests.values())
        for key, digest in list(pending.items()):
            if starts[digest[:length]] == 1:
                ids[key] = digest[:length]
                del pending[key]
        length += 1
    return ids


def entry_records(
    result: ParseResult, folder: str, columns: Sequence[Column] | None = None
) -> list[dict[str, object]]:
    """JSON-ready records for a database's data file (``data/bases/<folder>.json``);
    descriptions are Markdown, HTML unescaped; ``id``: the spell's short id (`entry_ids`);
    ``tri``: the order of each of the index's `columns` that sorts by its value."""
    ids = entry_ids(result)
    columns = result_columns(result) if columns is None else columns
    records: list[dict[str, object]] = []
    for college in result.colleges:
        for s in college.spells:
            orders, choices, long = entry_filters(columns, s.fields)
            records.append(
                {
                    "id": ids[(college.slug, s.slug)],
                    "name": s.name,
                    "group": s.college,
                    "group_slug": college.slug,
                    "level_min": s.level_min,
                    "level_max": s.level_max,
                    "fields": dict(s.fields),
                    "description": s.description,
                    "url": f"{folder}/{college.slug}/#{s.slug}",
                    "slug": s.slug,
                    # What the lists sort and filter by, as the index's rows.
                    "tri": orders,
                    "choix": choices,
                    "long": long,
                }
            )
    return records


def _name_key(name: str) -> str:
    return _collapse(name).replace("'", "’").casefold()


def mention_linker(result: ParseResult, college: College) -> Callable[[str], str | None]:
    """Resolver for ``_Nom_`` mentions on ``college``'s page: a spell of the same college
    first (``#slug``), else of the first college that has it (``../<collège>/#slug``)."""
    targets: dict[str, str] = {}
    for s in college.spells:
        targets.setdefault(_name_key(s.name), f"#{s.slug}")
    for c in result.colleges:
        for s in c.spells:
            targets.setdefault(_name_key(s.name), f"../{c.slug}/#{s.slug}")

    def link(name: str) -> str | None:
        return targets.get(_name_key(name))

    return link


_ENTITY_LINE_START_RE = re.compile(r"(?m)^(- )?([:~?])")
_MENTION_RE = re.compile(r"(?<![\w\\])_(?P<inner>[^_\n]+?)_(?!\w)")


def markdown_for_page(markdown: str, link: Callable[[str], str | None] | None = None) -> str:
    """Neutralise raw HTML in description Markdown and optionally link ``_Nom_`` mentions."""
    escaped = html.escape(markdown, quote=False)
    # ":" (definition list), "~~~" (fence) and "???" (details) have no backslash escape.
    escaped = _ENTITY_LINE_START_RE.sub(
        lambda m: f"{m.group(1) or ''}&#{ord(m.group(2))};", escaped
    )
    if link is None:
        return escaped

    def mention(m: re.Match[str]) -> str:
        inner = m.group("inner")
        target = link(html.unescape(re.sub(r"\\(.)", r"\1", inner)))
        if target is None:
            return m.group()
        return f"[_{inner}_]({target})"

    return _MENTION_RE.sub(mention, escaped)


def _levels(spell: Entry) -> tuple[str, str]:
    low, high = int_to_roman(spell.level_min), int_to_roman(spell.level_max)
    if low == high:
        return low, f"Niveau {low}"
    return f"{low}–{high}", f"Niveaux {low} à {high}"


def render_college_page(
    college: College, link: Callable[[str], str | None] | None = None, *, intro: str = ""
) -> str:
    """Markdown page of one college; ``link`` resolves ``_Nom_`` mentions (``mention_linker``);
    ``intro``, Markdown, says which export the college is of."""
    e = html.escape
    out = [f"# {markdown_text(college.name)}\n"]
    if intro:
        out.append(f"{intro}\n{{ .export-entete }}\n")
    if college.description:
        out.append(markdown_for_page(college.description, link) + "\n")
    for s in college.spells:
        label, title = _levels(s)
        out.append(f"## {markdown_text(s.name)} {{ #{s.slug} .sort }}\n")
        badge = f'<span class="niveau" title="{e(title)}">{e(label)}</span>'
        out.append(f'<p class="niveaux">{badge}</p>\n')
        if s.fields:
            rows = "\n".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in s.fields.items())
            out.append(f'<dl class="champs">\n{rows}\n</dl>\n')
        if s.description:
            out.append(markdown_for_page(s.description, link) + "\n")
    return "\n".join(out)


def result_columns(result: ParseResult) -> tuple[Column, ...]:
    """The index's columns an export gives by default (columns.py)."""
    return index_columns([dict(s.fields) for s in result.spells])


def column_order(column: Column, value: str) -> float:
    """The order of a column's value, for a column that sorts by its value."""
    orders = {"temps": duration_order, "distance": distance_order, "nombre": number_order}
    return orders[column.sort](value)


def entry_filters(
    columns: Sequence[Column], fields: Mapping[str, str]
) -> tuple[dict[str, float], dict[str, list[str]], bool]:
    """What the lists sort and filter an entry by (columns.py, ordering.py), the same in the
    index's rows and the data file's records: the order of its value in each column that
    sorts by value, the values it counts for in each choice filter, and whether it counts
    for the « long seulement » box (its column of times that has the box holds « long »)."""
    orders = {c.key: column_order(c, fields.get(c.field, "")) for c in columns if c.sort}
    choices = {
        c.key: choice_values(c, fields.get(c.field, "")) for c in columns if c.filter == "choix"
    }
    long = any(c.filter == "long" and is_long(fields.get(c.field, "")) for c in columns)
    return orders, choices, long


def column_keys(columns: Sequence[Column]) -> tuple[str, ...]:
    """Every column of the index in its order, as the headers' `data-colonne` and the
    address's `tri` name them (the lists' page's `data-colonnes`)."""
    return ("nom", "college", "niveaux", *(c.key for c in columns))


@dataclass(frozen=True)
class IndexLabels:
    """What the index's columns and filters are called, in the game's words (`words`): the
    export's field names, unless `names` gives the site's own (« Classe de sort » rather
    than « Classe », which would read as a character's class)."""

    levels: str = "Niveaux"
    words: Words = DEFAULT_WORDS
    names: Mapping[str, str] = field(default_factory=dict)  # field → its label

    @property
    def college(self) -> str:
        return capitalized(self.words.group.one)

    def field(self, name: str) -> str:
        return self.names.get(name, name)

    def add_to_list(self, name: str) -> str:
        """The label of the « + » that adds an entry to one of the reader's lists."""
        return f"Ajouter « {name} » à {self.words.list.a()}"

    def data_attributes(self, columns: Sequence[Column]) -> list[str]:
        """The columns' labels as `data-libelle-*` attributes, and the filters the page's
        script makes (`data-filtres`, JSON: each choice filter's key, label and the choice of
        the entries without a value; the « long » box's field), for the index's table and
        the lists' page alike."""
        names = {"niveaux": self.levels, "college": self.college}
        names |= {c.key: self.field(c.field) for c in columns}
        attributes = [f'data-libelle-{k}="{html.escape(v)}"' for k, v in names.items()]
        filters = [
            {"cle": c.key, "libelle": self.field(c.field), "sans": f"(sans {c.field.lower()})"}
            for c in columns
            if c.filter == "choix"
        ]
        longs = [{"cle": c.key, "champ": c.field} for c in columns if c.filter == "long"]
        said = {"choix": filters, "long": longs[0] if longs else None}
        text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
        return [*attributes, f'data-filtres="{html.escape(text)}"']


# Where the index's Markdown leaves its table out (`render_entry_index(table_mark=True)`).
SPELL_TABLE_MARK = "<!-- regles: table-sorts -->"


def render_entry_index(
    result: ParseResult,
    title: str,
    *,
    table_mark: bool = False,
    fields_page: tuple[str, str] | None = None,
    labels: IndexLabels | None = None,
    columns: Sequence[Column] | None = None,
) -> str:
    """Markdown page of the spell index, in the colleges' folder: one filterable HTML table.

    With ``table_mark``, the table is left out for ``SPELL_TABLE_MARK``, which the build
    replaces by ``render_entry_table`` once the Markdown is converted
    (``spell_pages.Book.with_table``): the table is HTML already, and Python-Markdown
    would read its hundreds of rows through its HTML parser. Under the title, a line says
    which export the spells are of: its title, date and size, and links to ``fields_page``
    (its title and file name in the same folder), which explains its fields.
    """
    lines = [f"# {markdown_text(title)}", ""]
    title_text = f"**{markdown_text(result.title)}**" if result.title else "Export sans titre"
    date = (
        f"Export généré le {markdown_text(result.generated)}."
        if result.generated
        else "Date de génération absente de l’export."
    )
    colleges, spells = len(result.colleges), len(result.spells)
    words = (labels or IndexLabels()).words
    summary = (
        f"{title_text} — {date} {colleges} {words.group.word(colleges)}, "
        f"{spells} {words.entry.word(spells)}."
    )
    if fields_page is not None:
        summary += (
            " Ses champs, ses niveaux et ses abréviations, relevés un à un : "
            f"[{markdown_text(fields_page[0])}]({fields_page[1]})."
        )
    lines += [summary, "{ .export-entete }", ""]
    table = SPELL_TABLE_MARK if table_mark else render_entry_table(result, labels, columns)
    lines.append(table)
    return "\n".join(lines) + "\n"


def render_entry_table(
    result: ParseResult,
    labels: IndexLabels | None = None,
    columns: Sequence[Column] | None = None,
) -> str:
    """The HTML table of the spell index: one row per spell, its `columns`' values (by
    default the export's, columns.py) as data; the filters' labels (``labels``) as the
    table's data, for the page's script."""
    e = html.escape
    labels = labels or IndexLabels()
    columns = result_columns(result) if columns is None else columns
    label_attrs = " ".join(labels.data_attributes(columns))
    lines = [f'<table id="table-sorts" {label_attrs}>']
    headings = ("Nom", labels.college, labels.levels, *(labels.field(c.field) for c in columns))
    # Each column says its name in the filters, its sort's (the script reads them there).
    header = "".join(
        f'<th data-colonne="{key}">{e(h)}</th>'
        for key, h in zip(column_keys(columns), headings, strict=True)
    )
    lines.append(f"<thead><tr>{header}</tr></thead>")
    lines.append("<tbody>")
    for college in result.colleges:
        for s in college.spells:
            values = {c.key: s.fields.get(c.field, "") for c in columns}
            orders, choices, long = entry_filters(columns, s.fields)
            attrs = {
                "data-college": college.slug,
                "data-min": str(s.level_min),
                "data-max": str(s.level_max),
                **{f"data-{key}": value for key, value in values.items()},
                # What the choice filters read, « | » between two values.
                **{f"data-choix-{key}": "|".join(found) for key, found in choices.items()},
                # « long », the export's word for a ritual's casting time; else "0".
                "data-long": "1" if long else "0",
                # The order of the columns that sort by their values.
                **{f"data-tri-{key}": _number(order) for key, order in orders.items()},
            }
            label, title = _levels(s)
            cells = [
                # The grimoires' « + » (lists.js; hidden without JavaScript): written here,
                # not at load, which would lay out every row again.
                f'<td><a href="../{college.slug}/#{s.slug}">{e(s.name)}</a>'
                f'<button type="button" class="grimoire-ajout" '
                f'aria-label="{e(labels.add_to_list(s.name))}"></button></td>',
                f'<td><a href="../{college.slug}/">{e(college.name)}</a></td>',
                f'<td data-min="{s.level_min}" data-max="{s.level_max}" '
                f'title="{e(title)}">{e(label)}</td>',
                # The label shows before the value in the phone's cards (entries.css), which
                # leave out empty cells.
                *(
                    f'<td data-label="{e(labels.field(c.field))}">{e(values[c.key])}</td>'
                    if values[c.key]
                    else "<td></td>"
                    for c in columns
                ),
            ]
            attr_text = " ".join(f'{k}="{e(v)}"' for k, v in attrs.items())
            lines.append(f"<tr {attr_text}>{''.join(cells)}</tr>")
    lines.append("</tbody>")
    lines.append("</table>")
    return "\n".join(lines)


def _number(value: float) -> str:
    """A number as a data attribute writes it: « 60 », « 5400.5 »."""
    return str(int(value)) if value.is_integer() else repr(value)


def render_grimoire_page(
    title: str,
    index: tuple[str, str],
    labels: IndexLabels | None = None,
    columns: Sequence[Column] = (),
) -> str:
    """Markdown page of the grimoires, in the colleges' folder: an empty container that the
    page's script (lists.js) fills from the reader's browser. It carries what the script
    cannot know: the filters' labels (as the index's table does), the export's keys of the
    index's columns (`data-champ-classe="Classe"`: the script reads a record's fields with
    them), and the index's link (its title and file name in the same folder)."""
    e = html.escape
    labels = labels or IndexLabels()
    attrs = labels.data_attributes(columns)
    attrs += [f'data-champ-{c.key}="{e(c.field)}"' for c in columns]
    attrs.append(f'data-colonnes="{" ".join(column_keys(columns))}"')
    attrs.append(f'data-index="../{e(index[1].removesuffix(".md"))}/"')
    entry, group, lists = labels.words.entry, labels.words.group, labels.words.list
    lines = [
        f"# {markdown_text(title)}",
        "",
        f"{capitalized(lists.a())} est une liste {entry.kind()}, une par personnage : "
        f"ajoutez-y des {entry.many} depuis "
        f"la page [{markdown_text(index[0])}]({index[1]}) (bouton « + » de chaque ligne), "
        f"une page {group.kind(1)} ou l’aperçu d’{entry.a()}. "
        f"Vos {lists.many} sont {lists.agreed('gardé', 2)} dans ce navigateur, même hors "
        "connexion ; un lien ou un fichier les emmène ailleurs.",
        "{ .grimoire-intro }",
        "",
        f'<div id="grimoire" class="grimoire" {" ".join(attrs)}>',
        f'<p class="grimoire-attente">Cette page a besoin de JavaScript : vos {lists.many} '
        f"sont {lists.agreed('lu', 2)} dans la mémoire de votre navigateur.</p>",
        "</div>",
    ]
    return "\n".join(lines) + "\n"
