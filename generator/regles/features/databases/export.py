"""Parse a database's export into groups and entries, and render their pages.

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
An entry heading ends at its level group ``(II)``, ``(I-IV)`` or ``(I–IV)``: the
first parenthesised group made only of capitals/digits, followed by whitespace,
found on the heading line (line-broken form) or within the first 80
characters before any field marker (collapsed form). An export gives levels to all its
entries or to none (a game without levels), as most of its entries do: without levels, a
heading ends at the end of its line or at the first field marker, and an entry that has a
level group is an error, as one without is in an export that gives levels.


Where the last field of an entry ends in the collapsed form is cut by the rule that
field_values.py states; descriptions become Markdown as descriptions.py says.

Faults are reported as Problems (French messages, with position) rather than
raised: an entry with an error (no level, unknown numeral, min > max, empty name,
field without value, duplicate name in its group, outside any group) is not an
Entry but a ``RejectedEntry``, so every ``###`` heading is accounted for.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from regles.core.report import Kind, Problem
from regles.core.slugs import slugify, unique_slug
from regles.core.words import APOSTROPHE, DEFAULT_WORDS, Noun
from regles.features.databases.descriptions import collapse, description_markdown
from regles.features.databases.field_values import split_tail
from regles.features.databases.model import (
    Entry,
    Group,
    ParseResult,
    RejectedEntry,
    SourcePosition,
    roman_to_int,
)

__all__ = [
    "UNCERTAIN_SPLIT",
    "ends_as_export",
    "group_marker",
    "group_markers_named",
    "parse_export",
    "restore_line_breaks",
]

Severity = Literal["error", "warning"]

#: Message prefix of the warning attached to heuristic field/description splits.
UNCERTAIN_SPLIT = "découpage incertain entre la valeur du champ {key} et la description"


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
# A name without levels that runs on as a sentence: its description written on its line.
_LIKE_A_SENTENCE = re.compile(r"[.!?…]$|(?:\S+\s+){9}\S")


@dataclass
class _Entry:
    group_index: int | None
    start: int  # offset of "###"
    body: int  # offset after "### "
    end: int


@dataclass
class _GroupDraft:
    name: str
    slug: str
    description: str
    position: SourcePosition
    entries: list[Entry] = field(default_factory=list)


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
        # Whether the export gives levels (`run` reads it before the entries).
        self.levels = True

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
        group: str | None = None,
        entry: str | None = None,
        kind: Kind = Kind.EXPORT_ENTRY,
    ) -> None:
        p = self.pos(offset)
        self.problems.append(
            Problem(self.source, p.line, severity, kind, message, entry, p.column, group)
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

        groups: list[_GroupDraft] = []
        scanned: list[_Entry] = []
        for i, m in enumerate(headings):
            stop = headings[i + 1].start() if i + 1 < len(headings) else body_end
            if m.group(1) == "##":
                if m.start() > 0:
                    self.brk(m.start(), "\n\n")
                groups.append(self.read_group(m.start(), m.end() + 1, stop))
            else:
                self.brk(m.start(), "\n\n")
                scanned.append(
                    _Entry(len(groups) - 1 if groups else None, m.start(), m.end() + 1, stop)
                )

        self.dedupe_group_slugs(groups)
        # An export gives every entry levels, or none (a game without levels): as most of
        # its entries do, so that the few others are the ones said to be wrong.
        zones = [self.heading_zone(e) for e in scanned]
        leveled = sum(1 for *_, level in zones if level is not None)
        self.levels = leveled > 0 and leveled * 2 >= len(scanned)
        heads = [self.heading(e, groups, zone) for e, zone in zip(scanned, zones, strict=True)]
        # Entry names of this export are Résistance vocabulary ("Serrurier" resists one).
        names = frozenset(h[0] for h in heads if h is not None)
        entries: list[Entry] = []
        for found, head in zip(scanned, heads, strict=True):
            if head is None:
                continue
            made = self.read_entry(found, head, groups, names)
            if made is not None and found.group_index is not None:
                groups[found.group_index].entries.append(made)
        self.finish_groups(groups)
        for c in groups:
            entries.extend(c.entries)
        result_groups = [
            Group(c.name, c.slug, c.description, c.entries, c.position) for c in groups
        ]
        self.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        return ParseResult(
            self.source, title, generated, result_groups, entries, self.problems, self.rejected
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
        title = collapse(text[head.end() : title_end])
        pos = self.skip_ws(title_end, end)
        generated = None
        gen = _GENERATED_RE.match(text, pos, end)
        if gen is not None:
            self.brk(gen.start(), "\n\n")
            generated = collapse(gen.group("date"))
            pos = self.skip_ws(gen.end(), end)
        rule = _RULE_RE.match(text, pos, end)
        if rule is not None:
            self.brk(rule.start(), "\n\n")
            pos = self.skip_ws(rule.end(), end)
        if pos < end:
            self.report("error", pos, f"texte hors {self.group.one} avant {self.first_group}")
        return title, generated

    def read_group(self, start: int, body: int, end: int) -> _GroupDraft:
        """The group whose ``##`` is at ``start``, up to ``end``: the next heading, i.e.
        its first entry (or the next group when it has none)."""
        marker = self.group_marker.search(self.text, body, end)
        # Without one, a marker in other words (those the site had before): the name and
        # the description are told apart all the same, and the message quotes both.
        other = None if marker else _ANY_MARKER_RE.search(self.text, body, end)
        found = marker or other
        newline = self.line_break(body, end)
        name_end = min(found.start() if found else end, newline if newline >= 0 else end)
        name = collapse(self.text[body:name_end])
        right_after = found is not None and self.skip_ws(name_end, end) == found.start()
        if found is not None and right_after:
            desc_start = found.end()
            self.brk(found.start(), "\n\n")
            if other is not None:
                self.report(
                    "error",
                    other.start(),
                    f"marqueur « {collapse(other.group())} » inconnu : la description "
                    f"d’{self.group.a()} suit {group_markers_named(self.group)}",
                    group=shortened(name),
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
                group=shortened(name),
            )
        if not name:
            self.report("error", start, f"{self.group.one} sans nom")
        raw = self.text[desc_start:end]
        self.bullet_breaks(desc_start, end)
        return _GroupDraft(name, slugify(name), description_markdown(raw), self.pos(start))

    def dedupe_group_slugs(self, groups: list[_GroupDraft]) -> None:
        seen: dict[str, _GroupDraft] = {}
        used = set(self.reserved_slugs)
        for c in groups:
            if c.name in seen:
                first = seen[c.name].position
                self.report(
                    "error",
                    c.position.offset,
                    f"{self.group.one} en double « {c.name} » "
                    f"(première occurrence ligne {first.line}, colonne {first.column})",
                    group=c.name,
                )
            seen.setdefault(c.name, c)
            c.slug = unique_slug(c.slug or "groupe", used, separator="-", first=2)

    def finish_groups(self, groups: list[_GroupDraft]) -> None:
        for c in groups:
            if not c.entries:
                message = f"{self.group.one} « {c.name} » sans {self.entry_word.count(0)}"
                self.report("warning", c.position.offset, message, group=c.name)

    def bullet_breaks(self, start: int, end: int) -> None:
        # Markdown needs a blank line before a list; the following items go one per line.
        for i, m in enumerate(re.finditer("•", self.text[start:end])):
            self.brk(start + m.start(), "\n" if i else "\n\n")

    # -- entries ---------------------------------------------------------

    def reject(self, entry: _Entry, heading: str, groups: list[_GroupDraft]) -> None:
        group = groups[entry.group_index].name if entry.group_index is not None else None
        self.rejected.append(RejectedEntry(heading, group, self.pos(entry.start)))

    def heading_zone(self, entry: _Entry) -> tuple[int, bool, re.Match[str] | None]:
        """Where an entry's heading can end (its line's end, its first field marker, or 80
        characters on), whether it ends there for sure: at a line's end or a field (on one
        line, without a field, a name runs on into its description), and its level group."""
        newline = self.line_break(entry.body, entry.end)
        field_at = _NEXT_FIELD_RE.search(self.text, entry.body, entry.end)
        zone_end = newline if newline >= 0 else min(entry.end, entry.body + _HEADING_SEARCH)
        if field_at is not None:
            zone_end = min(zone_end, field_at.start())
        ends = field_at is not None or "\n" in self.text[entry.body : entry.end]
        return zone_end, ends, _LEVEL_RE.search(self.text, entry.body, zone_end)

    def heading(
        self,
        entry: _Entry,
        groups: list[_GroupDraft],
        zone: tuple[int, bool, re.Match[str] | None],
    ) -> tuple[str, int | None, int | None, int] | None:
        """Name, min, max and body offset of an entry (no levels in an export without any),
        or None after reporting an error; `zone` is its `heading_zone`."""
        text = self.text
        group = groups[entry.group_index].name if entry.group_index is not None else None
        zone_end, ends, level = zone
        if level is not None and not self.levels:
            shown = collapse(text[entry.body : level.end()])
            message = (
                f"{self.entry_word.one} avec un niveau, « {level.group(0)} », dans un export "
                f"dont les autres {self.entry_word.many} n’en ont pas : ôtez-le, ou donnez un "
                f"niveau à chacun{'e' if self.entry_word.feminine else ''} : « ### {shown} »"
            )
            self.report("error", level.start(), message, group, shown)
            self.reject(entry, shown, groups)
            return None
        if level is None and (self.levels or not ends):
            shown = collapse(text[entry.body : zone_end])
            if not ends and zone_end < entry.end:
                shown = shown[:60] + "…"
            if self.levels:
                message = (
                    f"{self.entry_word.one} sans niveau : « ### {shown} » ; son niveau suit son "
                    "nom, en chiffres romains entre parenthèses : « (I) », ou « (I-III) » pour "
                    "plusieurs"
                )
            else:
                message = (
                    f"fin du nom {self.entry_word.kind(1)} introuvable : « ### {shown} » ; "
                    "sans niveau, le nom s’arrête à la fin de sa ligne ou au premier champ "
                    "« - **Champ :** »"
                )
            self.report("error", entry.start, message, group, shown)
            self.reject(entry, shown, groups)
            return None
        name_end, body = (zone_end, zone_end) if level is None else level.span()
        name = collapse(text[entry.body : name_end])
        if level is None and _LIKE_A_SENTENCE.search(name):
            message = (
                f"nom {self.entry_word.kind(1)} qui se lit comme une phrase : « ### {name} » ; "
                "sans niveau, le nom est toute sa ligne : la description va à la ligne suivante"
            )
            self.report("warning", entry.start, message, group, name)
        ok = True
        if entry.group_index is None:
            early = f"{self.entry_word.one} avant {self.first_group}"
            message = f"texte hors {self.group.one} : {early}"
            self.report("error", entry.start, message, None, name)
            ok = False
        if not name:
            self.report("error", entry.start, f"nom {self.entry_word.kind(1)} vide", group, None)
            ok = False
        low = high = None
        if level is not None:
            low_text, high_text = level.group(1), level.group(2) or level.group(1)
            low, high = roman_to_int(low_text), roman_to_int(high_text)
            for numeral, value in dict(((low_text, low), (high_text, high))).items():
                if value is None:
                    message = f"niveau inconnu « {numeral} » (chiffre romain non reconnu)"
                    self.report("error", level.start(), message, group, name or None)
                    ok = False
            if low is None or high is None:
                ok = False
            elif low > high:
                self.report(
                    "error",
                    level.start(),
                    f"niveau minimal {low_text} supérieur au niveau maximal {high_text}",
                    group,
                    name or None,
                )
                ok = False
        if not ok:
            self.reject(entry, name or collapse(text[entry.body : body]), groups)
            return None
        return name, low, high, body

    def read_entry(
        self,
        entry: _Entry,
        head: tuple[str, int | None, int | None, int],
        groups: list[_GroupDraft],
        names: frozenset[str],
    ) -> Entry | None:
        text = self.text
        name, low, high, pos = head
        if entry.group_index is None:  # heading() rejects these; kept for the type checker
            return None
        draft = groups[entry.group_index]
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
            key = collapse(m.group("key"))
            value_start = m.end()
            # Line breaks count as value ends only in the line-broken form; a newline
            # right after the marker means an empty value.
            newline = self.line_break(value_start, entry.end)
            nxt = _NEXT_FIELD_RE.search(text, value_start, entry.end)
            ends = [x for x in (newline, nxt.start() if nxt else -1) if x >= 0]
            if ends:
                value_end = min(ends)
                value = collapse(text[value_start:value_end])
                pos = self.skip_ws(value_end, entry.end)
            else:
                tail_start = self.skip_ws(value_start, entry.end)
                tail = text[tail_start : entry.end]
                split = split_tail(key, tail, names)
                value = collapse(tail[: split.length])
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
        description = description_markdown(text[desc_start : entry.end])
        if ok:
            for other in draft.entries:
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
            self.reject(entry, name, groups)
            return None
        slug = self.entry_slug(name, draft, entry.start)
        return Entry(name, draft.name, low, high, fields, description, slug, self.pos(entry.start))

    def entry_slug(self, name: str, draft: _GroupDraft, offset: int) -> str:
        base = slugify(name) or "entree"
        slug = unique_slug(base, {s.slug for s in draft.entries}, separator="-", first=2)
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
    """Parse an export (collapsed or line-broken form) into groups, entries and problems.

    `reserved_slugs` are the names of other pages in the groups' folder (the entry
    index): a group whose slug would be one of them takes the next free one. `group` and
    `entry` are the game's words for a group and an entry: its description's marker and
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
