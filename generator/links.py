"""Cross-links: « Section » references, table and condition names, "voir X", italic spell mentions.

Everything here works on pages as `markdown_text.segment` reads them and on source paths
(relative to the docs folder); links are written as relative `.md` links so that MkDocs
itself validates them and their anchors.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.markdown_text import HEADING, PageText, sub_outside_protected
from generator.report import Kind, Problem
from generator.slugs import fold

__all__ = [
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

    @classmethod
    def build(
        cls, pages: Iterable[tuple[str, PageText]], spells: Iterable[SpellTarget] = ()
    ) -> TargetIndex:
        index = cls()
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

    def section(self, name: str, from_page: str) -> Target | None:
        """Best section for a name: page titles first, then the highest heading level."""
        candidates = self.sections.get(fold(name))
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
        return [t for t in self.sections[fold(name)] if (t.level, t.page != from_page) == key]

    def spell(self, name: str, college: str | None) -> list[SpellTarget]:
        """Spells of that name: the one of the same college alone when there is one."""
        found = self.spells.get(fold(name), [])
        same = [s for s in found if s.college == college]
        return same or found

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
    keep their words as plain text and report them."""
    problems: list[Problem] = []
    lines = list(page.lines)
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
                    "le texte reste sans lien",
                    match.group(1),
                )
            )
            return match.group(1)

        lines[number - 1] = ABSOLUTE_LINK.sub(unlink, line)
    return (page.with_lines(lines) if problems else page), problems


def link_references(
    page: PageText, file: str, index: TargetIndex, college: str | None = None
) -> tuple[PageText, list[Problem]]:
    """Turn the mentions of one page into links; report those that resolve to nothing."""
    problems: list[Problem] = []
    lines = list(page.lines)
    tables = index.table_titles()
    conditions = index.condition_names()

    for number, line in page.prose():
        if HEADING.match(line) or not line.strip():
            continue

        def unresolved(kind: Kind, name: str, message: str, number: int = number) -> None:
            problems.append(Problem(file, number, "info", kind, message, name))

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
                    unresolved(
                        Kind.UNRESOLVED_REFERENCE,
                        name,
                        f"« {name} » : aucune section ni page de ce nom dans le site",
                    )
                return match.group(0)
            ambiguous(name, target)
            return f"« [{name}]({href(file, target.page, target.anchor)}) »"

        def table(match: re.Match[str]) -> str:
            target = index.section(match.group(2), file)
            if target is None:  # pragma: no cover - the pattern lists known titles only
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def condition(match: re.Match[str]) -> str:
            target = index.conditions[fold(match.group(2))]
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def voir(match: re.Match[str]) -> str:
            name = match.group(2)
            target = index.section(name, file)
            if target is None:
                unresolved(
                    Kind.UNRESOLVED_REFERENCE,
                    name,
                    f"« voir {name} » : aucune section ni page de ce nom dans le site",
                )
                return match.group(0)
            ambiguous(name, target)
            return f"{match.group(1)} [{name}]({href(file, target.page, target.anchor)})"

        def italic(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            if len(name.split()) > MAX_MENTION_WORDS or any(c in name for c in ".:;!?"):
                return match.group(0)  # emphasis in a sentence, not a mention
            found = index.spell(name, college)
            if not found:
                target = index.section(name, file)
                if target is not None:
                    return f"[_{name}_]({href(file, target.page, target.anchor)})"
                unresolved(
                    Kind.UNRESOLVED_MENTION,
                    name,
                    f"_{name}_ : ni sort ni section de ce nom",
                )
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
