"""Cross-links: « Section » references, table and condition names, "voir X", italic spell mentions.

Everything here works on pages as `markdown_text.segment` reads them and on source paths
(relative to the docs folder); links are written as relative `.md` links so that MkDocs
itself validates them and their anchors.

Each game system is read on its own (`TargetIndex.scope_of`: a system's folder, or the spell
database's): a mention in one system's text resolves to that system's sections and spells,
or to the site's own pages, never to another system's homonym (a 5e « boule de feu » is not
the spell database's). Such a mention stays text and the report notes it. A page outside
any system (home, tools) may link anywhere.

A reference to a chapter the site does not hold (« Équipement », « voir Épées », a link to
the site the text was copied from) keeps the owner's words and gets a mark, « absent du
site », a button whose popover (one per page, `ABSENT_NOTE`) says why there is no link: it
opens on a tap, a click or the keyboard, and screen readers read the reason as the mark's
description. Neither the mark nor the note is indexed for search (`search.SKIPPED_CLASSES`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from generator.markdown_text import HEADING, PageText, sub_outside_protected
from generator.report import Kind, Problem
from generator.slugs import fold

__all__ = [
    "ABSENT_MARK",
    "ABSENT_NOTE",
    "ABSENT_NOTE_ID",
    "SpellTarget",
    "Target",
    "TargetIndex",
    "check_link_syntax",
    "link_references",
    "unlink_absent_pages",
]

# Malformed Markdown links, each with the message that explains it.
MALFORMED_LINKS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\[[^\]\n]+\]\([^)\s\]]*\](?!\()"),
        "lien mal formé : l’adresse se termine par « ] » au lieu de « ) »",
    ),
    (
        re.compile(r"\[[^\]\n]+\]\([^)\s\"']+ [^)\"'\n]+\)"),
        "lien mal formé : l’adresse contient une espace (écrire %20 ou un tiret)",
    ),
    (
        re.compile(r"\[[^\]\n]+\]\([^)\n]*$"),
        "lien mal formé : la parenthèse de l’adresse n’est jamais fermée",
    ),
]
ABSOLUTE_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\((/[^)\s]*)\)")
GUILLEMETS = re.compile(r"«\s*([^«»\n]{1,80}?)\s*»")
# Titles are capitalised (« Glossaire de règles »); quoted words are not (« sujet »).
TITLE_START = re.compile(r"^[A-ZÀ-Ý]")
# A capitalised quotation is a reference when the words before it announce one
# ("cf. « X »", "la section « X »", "dans « X »"), not a label ("Choisissez « Ajouter »").
REFERENCE_CUE = re.compile(
    r"(?:\bcf\.|\bvoir|reportez-vous à|consultez|\bdans(?: l[ea]s?)?|\bsections?|"
    r"\bchap[iî]tres?|\btables?|\btableau|\bde|\bà|\bet)\s*$",
    re.IGNORECASE,
)
VOIR = re.compile(
    r"\b([Vv]oir)\s+([A-ZÀ-Ý][^\s,.;:()«»\[\]]*(?:\s+[^\s,.;:()«»\[\]]+)*?)"
    r"(?=\s+pour\b|\s*[,.;:)]|\s*$)"
)
ITALIC = re.compile(r"(?<![\w*_\\])(?:_([^_\n]+?)_|\*([^*\n]+?)\*)(?![\w*_])")
MAX_MENTION_WORDS = 6
NO_SECTION = "aucune section ni page de ce nom dans le site"
NO_MENTION = "ni sort ni section de ce nom"

# The mark after a reference to a chapter absent from the site, and its one note per page.
ABSENT_NOTE_ID = "renvoi-absent-note"
ABSENT_EXPLANATION = (
    "Chapitre absent de ce site\u00a0: le document source y renvoie, mais il n’en fait pas partie."
)
ABSENT_MARK = (
    f'<button type="button" class="renvoi-absent" popovertarget="{ABSENT_NOTE_ID}" '
    f'aria-describedby="{ABSENT_NOTE_ID}">absent du site</button>'
)
ABSENT_NOTE = (
    f'<span class="renvoi-absent-note" id="{ABSENT_NOTE_ID}" popover>'
    f'<span class="renvoi-absent-texte">{ABSENT_EXPLANATION}</span> '
    f'<button type="button" class="md-button renvoi-absent-fermer" '
    f'popovertarget="{ABSENT_NOTE_ID}" popovertargetaction="hide">Fermer</button></span>'
)


def _no_scope(page: str) -> str | None:
    return None


class _AbsentMarks:
    """The marks of one page: the first carries the page's one note (its popover), unless
    the page has it already (an earlier pass marked it)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.noted = any(f'id="{ABSENT_NOTE_ID}"' in line for line in lines)

    def mark(self, text: str) -> str:
        """The reference's words and their mark; the last word (with a closing « » ») and
        the mark kept on one line: a button is a break opportunity on either side."""
        head, tail = _last_words(text)
        mark = ABSENT_MARK
        if not self.noted:
            self.noted = True
            mark += ABSENT_NOTE
        return f'{head}<span class="renvoi-absent-fin">{tail}{mark}</span>'


def _last_words(text: str) -> tuple[str, str]:
    """`text` cut before its last word, or before its last two when the last is « » »."""
    words = text.rsplit(" ", 2 if text.endswith(" »") else 1)
    if len(words) == 1:
        return "", text
    cut = len(text) - len(" ".join(words[1:]))
    return text[:cut], text[cut:]


@dataclass(frozen=True)
class Target:
    """A place a reference can point to: a page (anchor None) or a section of it."""

    page: str
    anchor: str | None
    title: str
    level: int


@dataclass(frozen=True)
class SpellTarget:
    page: str
    anchor: str
    name: str
    college: str


@dataclass
class TargetIndex:
    """Every name a mention can resolve to, keyed by its folded form."""

    sections: dict[str, list[Target]] = field(default_factory=dict)
    conditions: dict[str, Target] = field(default_factory=dict)
    spells: dict[str, list[SpellTarget]] = field(default_factory=dict)
    page_order: dict[str, int] = field(default_factory=dict)
    # The system a page belongs to (its folder), None for a page of the site: a page of a
    # system reaches its own system's targets and the site's pages only.
    scope_of: Callable[[str], str | None] = _no_scope

    @classmethod
    def build(
        cls,
        pages: Iterable[tuple[str, PageText]],
        spells: Iterable[SpellTarget] = (),
        scope_of: Callable[[str], str | None] = _no_scope,
    ) -> TargetIndex:
        index = cls(scope_of=scope_of)
        for order, (page, text) in enumerate(pages):
            index.page_order[page] = order
            for heading in text.headings:
                anchor = None if heading.level == 1 else heading.anchor
                target = Target(page, anchor, heading.text, heading.level)
                index.sections.setdefault(fold(heading.text), []).append(target)
            for anchor, name, _ in text.anchor_spans:
                if anchor.startswith("etat-"):
                    index.conditions[fold(name)] = Target(page, anchor, name, 6)
        for spell in spells:
            index.spells.setdefault(fold(spell.name), []).append(spell)
        return index

    def reaches(self, from_page: str, page: str) -> bool:
        """Whether a mention on `from_page` may link to `page`: same system, a page of the
        site, or a mention on a page of the site."""
        source = self.scope_of(from_page)
        if source is None:
            return True
        target = self.scope_of(page)
        return target is None or target == source

    def _sections(self, name: str, from_page: str) -> list[Target]:
        return [t for t in self.sections.get(fold(name), []) if self.reaches(from_page, t.page)]

    def section(self, name: str, from_page: str) -> Target | None:
        """Best section for a name among those `from_page` reaches: page titles first, then
        the highest heading level."""
        candidates = self._sections(name, from_page)
        if not candidates:
            return None
        return min(
            candidates,
            key=lambda t: (t.level, t.page != from_page, self.page_order.get(t.page, 0)),
        )

    def rivals(self, name: str, from_page: str) -> list[Target]:
        """Sections as good as the one `section` picks (same level, same page or not): more
        than one means the reference is ambiguous."""
        best = self.section(name, from_page)
        if best is None:
            return []
        key = (best.level, best.page != from_page)
        return [t for t in self._sections(name, from_page) if (t.level, t.page != from_page) == key]

    def spell(
        self, name: str, college: str | None, from_page: str | None = None
    ) -> list[SpellTarget]:
        """Spells of that name (those `from_page` reaches, when given): the one of the same
        college alone when there is one."""
        found = self.spells.get(fold(name), [])
        if from_page is not None:
            found = [s for s in found if self.reaches(from_page, s.page)]
        same = [s for s in found if s.college == college]
        return same or found

    def elsewhere(self, name: str, from_page: str) -> list[str]:
        """The places (page#anchor) of the sections and spells of that name that `from_page`
        does not reach: another system's."""
        places = [
            f"{t.page}#{t.anchor}" if t.anchor else t.page
            for t in self.sections.get(fold(name), [])
            if not self.reaches(from_page, t.page)
        ]
        places += [
            f"{s.page}#{s.anchor}"
            for s in self.spells.get(fold(name), [])
            if not self.reaches(from_page, s.page)
        ]
        return places

    def table_titles(self) -> re.Pattern[str] | None:
        titles = sorted(
            {t.title for targets in self.sections.values() for t in targets if t.level >= 2},
            key=len,
            reverse=True,
        )
        if not titles:
            return None
        names = "|".join(re.escape(t) for t in titles)
        return re.compile(rf"\b((?:la |de la |sur la )?tables? )({names})\b")

    def condition_names(self) -> re.Pattern[str] | None:
        if not self.conditions:
            return None
        names = "|".join(
            re.escape(t.title)
            for t in sorted(self.conditions.values(), key=lambda t: -len(t.title))
        )
        return re.compile(rf"\b((?:l[’']|d[’'])?états? )({names})(?![\w-])")


def href(from_page: str, page: str, anchor: str | None) -> str:
    """Relative Markdown link from one source page to a page or one of its anchors."""
    fragment = f"#{anchor}" if anchor else ""
    if page == from_page and anchor:
        return fragment
    rel = posixpath.relpath(page, posixpath.dirname(from_page) or ".")
    return rel + fragment


def check_link_syntax(page: PageText, file: str) -> list[Problem]:
    """Errors for links that Markdown would render as broken text."""
    problems: list[Problem] = []
    for number, line in page.prose():
        # One error per line: the first pattern that matches explains the fault best.
        for pattern, message in MALFORMED_LINKS:
            match = pattern.search(line)
            if match:
                problems.append(
                    Problem(file, number, "error", Kind.MALFORMED_LINK, message, match.group(0))
                )
                break
    return problems


def unlink_absent_pages(page: PageText, file: str) -> tuple[PageText, list[Problem]]:
    """Root-absolute links point into the site the text was copied from, not into this one:
    keep their words as plain text, marked absent from the site, and report them."""
    problems: list[Problem] = []
    lines = list(page.lines)
    marks = _AbsentMarks(lines)
    for number, line in page.prose():
        if "](/" not in line:
            continue

        def unlink(match: re.Match[str], number: int = number) -> str:
            problems.append(
                Problem(
                    file,
                    number,
                    "info",
                    Kind.ABSENT_PAGE,
                    f"lien vers {match.group(2)} : cette page n’est pas dans le site, "
                    "le texte reste sans lien, marqué « absent du site »",
                    match.group(1),
                )
            )
            return marks.mark(match.group(1))

        lines[number - 1] = ABSOLUTE_LINK.sub(unlink, line)
    return (page.with_lines(lines) if problems else page), problems


def link_references(
    page: PageText,
    file: str,
    index: TargetIndex,
    college: str | None = None,
    typo: Callable[[str], str | None] | None = None,
) -> tuple[PageText, list[Problem]]:
    """Turn the mentions of one page into links; report those that resolve to nothing. A
    reference to a chapter absent from the site is marked as such, unless `typo` (a name →
    the title it was probably meant to be) finds it a slip: the report's warning says so."""
    problems: list[Problem] = []
    lines = list(page.lines)
    tables = index.table_titles()
    conditions = index.condition_names()
    marks = _AbsentMarks(lines)

    for number, line in page.prose():
        if HEADING.match(line) or not line.strip():
            continue

        def unresolved(kind: Kind, name: str, what: str, reason: str, number: int = number) -> None:
            """Report `what` (the mention as written) that resolves to nothing here: for
            `reason`, or because its only homonyms are another system's."""
            places = index.elsewhere(name, file)
            if places:
                kind = Kind.OTHER_SYSTEM_MENTION
                reason = (
                    f"seul{'s' if len(places) > 1 else ''} {', '.join(places)} "
                    f"{'portent' if len(places) > 1 else 'porte'} ce nom, dans un autre "
                    "système ; le texte reste sans lien"
                )
            problems.append(Problem(file, number, "info", kind, f"{what} : {reason}", name))

        def absent(text: str, name: str) -> str:
            """The reference's words, marked when they name a chapter absent from the site."""
            if typo is not None and typo(name) is not None:
                return text
            return marks.mark(text)

        def ambiguous(name: str, target: Target, number: int = number) -> None:
            rivals = index.rivals(name, file)
            if len(rivals) < 2:
                return
            places = ", ".join(f"{t.page}#{t.anchor}" if t.anchor else t.page for t in rivals)
            chosen = f"{target.page}#{target.anchor}" if target.anchor else target.page
            problems.append(
                Problem(
                    file,
                    number,
                    "warning",
                    Kind.AMBIGUOUS_REFERENCE,
                    f"« {name} » : {len(rivals)} sections de ce nom ({places}) ; "
                    f"le renvoi mène à {chosen}",
                    name,
                )
            )

        def guillemets(match: re.Match[str]) -> str:
            name = match.group(1)
            target = index.section(name, file)
            if target is None:
                before = match.string[max(0, match.start() - 30) : match.start()]
                if TITLE_START.match(name) and REFERENCE_CUE.search(before):
                    unresolved(Kind.UNRESOLVED_REFERENCE, name, f"« {name} »", NO_SECTION)
                    return absent(match.group(0), name)
                return match.group(0)
            ambiguous(name, target)
            return f"« [{name}]({href(file, target.page, target.anchor)}) »"

        def table(match: re.Match[str]) -> str:
            target = index.section(match.group(2), file)
            if target is None:  # the pattern lists every title: this one is another system's
                name = match.group(2)
                unresolved(Kind.OTHER_SYSTEM_MENTION, name, f"table « {name} »", NO_SECTION)
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def condition(match: re.Match[str]) -> str:
            target = index.conditions[fold(match.group(2))]
            if not index.reaches(file, target.page):
                name = match.group(2)
                unresolved(Kind.OTHER_SYSTEM_MENTION, name, f"état « {name} »", NO_SECTION)
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def voir(match: re.Match[str]) -> str:
            name = match.group(2)
            target = index.section(name, file)
            if target is None:
                unresolved(Kind.UNRESOLVED_REFERENCE, name, f"« voir {name} »", NO_SECTION)
                return absent(match.group(0), name)
            ambiguous(name, target)
            return f"{match.group(1)} [{name}]({href(file, target.page, target.anchor)})"

        def italic(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            if len(name.split()) > MAX_MENTION_WORDS or any(c in name for c in ".:;!?"):
                return match.group(0)  # emphasis in a sentence, not a mention
            found = index.spell(name, college, file)
            if not found:
                target = index.section(name, file)
                if target is not None:
                    return f"[_{name}_]({href(file, target.page, target.anchor)})"
                unresolved(Kind.UNRESOLVED_MENTION, name, f"_{name}_", NO_MENTION)
                return match.group(0)
            if len(found) == 1:
                spell = found[0]
                return f"[_{name}_]({href(file, spell.page, spell.anchor)}){{ .lien-sort }}"
            # Same name in several colleges and none is this page's: offer each one.
            choices = ", ".join(f"[{s.college}]({href(file, s.page, s.anchor)})" for s in found)
            return f'_{name}_ <small class="homonymes">({choices})</small>'

        # Each pass only on lines holding the words its pattern cannot match without.
        new = line
        if "«" in new:
            new = sub_outside_protected(GUILLEMETS, guillemets, new)
        if tables is not None and "table" in new:
            new = sub_outside_protected(tables, table, new)
        if conditions is not None and "tat" in new:  # état, états
            new = sub_outside_protected(conditions, condition, new)
        if "oir" in new:  # voir, Voir
            new = sub_outside_protected(VOIR, voir, new)
        if "_" in new or "*" in new:
            new = sub_outside_protected(ITALIC, italic, new)
        lines[number - 1] = new
    return page.with_lines(lines), problems
