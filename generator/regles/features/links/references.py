"""Cross-links: « Section » references, table and condition names, "voir X", italic spell mentions.

Everything here works on pages as `markdown_text.segment` reads them and on source paths
(relative to the docs folder); links are written as relative `.md` links so that MkDocs
itself validates them and their anchors.

Each game system is read on its own (`TargetIndex.scope_of`: a system's folder, or the spell
database's): a mention in one system's text resolves to that system's sections and spells,
or to the site's own pages, never to another system's homonym (one game's « Lumière » is
not another's, nor the spell database's). Such a mention stays text and the report notes
it. A page outside any system (home, tools) may link anywhere.

A reference to a chapter the site does not hold (« Équipement », « voir Épées », a link to
the site the text was copied from) keeps the owner's words and gets a mark, « absent du
site », a button whose popover (one per page, `ABSENT_NOTE`) says why there is no link: it
opens on a tap, a click or the keyboard, and screen readers read the reason as the mark's
description. Neither the mark nor the note is indexed for search (`search.SKIPPED_CLASSES`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from regles.core.markdown_text import HEADING, PROTECTED, PageText, sub_outside_protected
from regles.core.report import Kind, Problem
from regles.core.slugs import fold, slugify
from regles.features.glossary.glossary import LINK_CLASS, Entry, Glossary

__all__ = [
    "ABSENT_MARK",
    "ABSENT_NOTE",
    "ABSENT_NOTE_ID",
    "EntryTarget",
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
CONDITION_SPAN = re.compile(r'(<span\s+id="etat-[\w-]+"\s*>)([^<]+)(</span>)')
ITALIC = re.compile(r"(?<![\w*_\\])(?:_([^_\n]+?)_|\*([^*\n]+?)\*)(?![\w*_])")
MAX_MENTION_WORDS = 6
NO_SECTION = "aucune section ni page de ce nom dans le site"
NO_MENTION = "aucune entrée de base ni section de ce nom"

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


def _same_scope(source: str | None, target: str | None) -> bool:
    return source is None or target is None or source == target


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
class EntryTarget:
    page: str
    anchor: str
    name: str
    college: str


@dataclass
class TargetIndex:
    """Every name a mention can resolve to, keyed by its folded form."""

    sections: dict[str, list[Target]] = field(default_factory=dict)
    conditions: dict[str, Target] = field(default_factory=dict)
    spells: dict[str, list[EntryTarget]] = field(default_factory=dict)
    page_order: dict[str, int] = field(default_factory=dict)
    # The system a page belongs to (its folder; the spells are a system of their own), None
    # for a page of the site: a page of a system reaches its own system's targets and the
    # site's pages only.
    scope_of: Callable[[str], str | None] = _no_scope
    # Whether a page of one scope may link to a page of another (Systems.reaches); by
    # default, within a scope and to or from the site's pages.
    scope_reaches: Callable[[str | None, str | None], bool] = _same_scope
    # Each system's glossary (by its folder), each glossary by its page.
    glossaries: dict[str, Glossary] = field(default_factory=dict)
    glossary_pages: dict[str, Glossary] = field(default_factory=dict)
    # Root-absolute addresses of the site the text was copied from → a page of this one,
    # and every page's headings, for the anchor such an address names.
    old_paths: dict[str, str] = field(default_factory=dict)
    headings: dict[str, list[Target]] = field(default_factory=dict)
    # The patterns of every section title and condition name, compiled once per build: every
    # page reads them (`link_references`).
    _patterns: dict[str, re.Pattern[str] | None] = field(
        default_factory=dict, repr=False, compare=False
    )
    # The sections of each folded name, by scope (`_sections`), made as names are asked for.
    _scoped: dict[str, dict[str | None, list[tuple[int, Target]]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def build(
        cls,
        pages: Iterable[tuple[str, PageText]],
        spells: Iterable[EntryTarget] = (),
        *,
        glossaries: Mapping[str, str] | None = None,
        old_paths: Mapping[str, str] | None = None,
        scope_of: Callable[[str], str | None] = _no_scope,
        scope_reaches: Callable[[str | None, str | None], bool] | None = None,
    ) -> TargetIndex:
        """`glossaries` names each system's glossary page (folder → page); `scope_of`
        gives a page's system (by default none: every page reaches every target)."""
        glossary_of = {page: folder for folder, page in (glossaries or {}).items()}
        index = cls(
            scope_of=scope_of,
            scope_reaches=scope_reaches or _same_scope,
            old_paths=dict(old_paths or {}),
        )
        for order, (page, text) in enumerate(pages):
            index.page_order[page] = order
            index.headings[page] = [
                Target(page, None if h.level == 1 else h.anchor, h.text, h.level)
                for h in text.headings
            ]
            if page in glossary_of:
                glossary = Glossary.from_headings(glossary_of[page], page, text.headings)
                index.glossaries[glossary.system] = glossary
                index.glossary_pages[page] = glossary
            for heading in text.headings:
                if page in glossary_of and heading.level > 1:
                    continue  # an entry: found from its own system's pages only
                anchor = None if heading.level == 1 else heading.anchor
                target = Target(page, anchor, heading.text, heading.level)
                index.sections.setdefault(fold(heading.text), []).append(target)
            for anchor, name, _ in text.anchor_spans:
                if anchor.startswith("etat-"):
                    index.conditions[fold(name)] = Target(page, anchor, name, 6)
        for spell in spells:
            index.spells.setdefault(fold(spell.name), []).append(spell)
        return index

    def glossary_for(self, page: str) -> Glossary | None:
        """The glossary of the page's system, if it has one."""
        system = self.scope_of(page)
        return self.glossaries.get(system) if system is not None else None

    def _in_reach(self, target: Target, from_page: str) -> bool:
        """A glossary is found from its own system's pages only."""
        glossary = self.glossary_pages.get(target.page)
        return glossary is None or glossary is self.glossary_for(from_page)

    def reaches(self, from_page: str, page: str) -> bool:
        """Whether a mention on `from_page` may link to `page`: same system, a page of the
        site, a mention on a page of the site, or a database linked from its system."""
        return self.scope_reaches(self.scope_of(from_page), self.scope_of(page))

    def _sections(self, name: str, from_page: str) -> list[Target]:
        """The sections of that name `from_page` reaches: those of the scopes its own scope
        reaches (a title may be in every system of a big game: its scopes are looked at,
        not each of its sections)."""
        folded = fold(name)
        scoped = self._scoped.get(folded)
        if scoped is None:
            scoped = {}
            for order, target in enumerate(self.sections.get(folded, [])):
                scoped.setdefault(self.scope_of(target.page), []).append((order, target))
            self._scoped[folded] = scoped
        source = self.scope_of(from_page)
        found = [
            (order, t)
            for scope, targets in scoped.items()
            if self.scope_reaches(source, scope)
            for order, t in targets
            if self._in_reach(t, from_page)
        ]
        return [t for _, t in sorted(found, key=lambda found: found[0])]

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

    def old_address(self, address: str, words: str) -> tuple[str, str | None, Entry | None] | None:
        """Where an address of the site the text was copied from leads in this one: (page,
        anchor, glossary entry or None), the anchor found by the fragment (as an anchor or
        as a title), else by the link's words as a title; None for an unknown address."""
        path, _, fragment = address.partition("#")
        key = path if path.endswith(".html") else path.rstrip("/") + "/"
        page = self.old_paths.get(key)
        if page is None:
            return None
        fragment = unquote(fragment)
        glossary = self.glossary_pages.get(page)
        if glossary is not None:
            entry = (glossary.entry_of_fragment(fragment) if fragment else None) or glossary.entry(
                words
            )
            return page, entry.anchor if entry else None, entry
        sections = [t for t in self.headings.get(page, []) if t.anchor]
        for wanted in (fragment, slugify(fragment)):
            found = next((t for t in sections if wanted and t.anchor == wanted), None)
            if found:
                return page, found.anchor, None
        found = next((t for t in sections if fold(t.title) in (fold(fragment), fold(words))), None)
        return page, found.anchor if found else None, None

    def spell(
        self, name: str, college: str | None, from_page: str | None = None
    ) -> list[EntryTarget]:
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
        if "tables" not in self._patterns:
            self._patterns["tables"] = self._table_titles()
        return self._patterns["tables"]

    def condition_names(self) -> re.Pattern[str] | None:
        if "conditions" not in self._patterns:
            self._patterns["conditions"] = self._condition_names()
        return self._patterns["conditions"]

    def _table_titles(self) -> re.Pattern[str] | None:
        titles = sorted(
            {t.title for targets in self.sections.values() for t in targets if t.level >= 2},
            key=len,
            reverse=True,
        )
        if not titles:
            return None
        names = "|".join(re.escape(t) for t in titles)
        return re.compile(rf"\b((?:la |de la |sur la )?tables? )({names})\b")

    def _condition_names(self) -> re.Pattern[str] | None:
        if not self.conditions:
            return None
        names = "|".join(
            re.escape(t.title)
            for t in sorted(self.conditions.values(), key=lambda t: -len(t.title))
        )
        return re.compile(rf"\b((?:l[’']|d[’'])?états? )({names})(?![\w-])")


def names_itself(from_page: str, target: Target) -> bool:
    """Whether `target` is the page the mention is on, as a whole (its title): such a link
    only reloads the page a reader is on (« Installer l’application » on that very page,
    taken for the install button), so the mention stays text."""
    return target.page == from_page and (not target.anchor or target.level <= 1)


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


def glossary_link(words: str, file: str, entry: Entry) -> str:
    """A Markdown link to a glossary entry, with the class its preview opens over."""
    return f"[{words}]({href(file, entry.page, entry.anchor)}){{ .{LINK_CLASS} }}"


def unlink_absent_pages(
    page: PageText, file: str, index: TargetIndex | None = None
) -> tuple[PageText, list[Problem]]:
    """Root-absolute links point into the site the text was copied from, not into this one:
    keep their words as plain text, marked absent from the site, and report them, unless
    the site names the page of this one that holds what the address pointed to
    (`index.old_paths`): then the link leads there, and is reported all the same, for the
    owner to fix the source."""
    problems: list[Problem] = []
    lines = list(page.lines)
    marks = _AbsentMarks(lines)
    for number, line in page.prose():
        if "](/" not in line:
            continue

        def unlink(match: re.Match[str], number: int = number) -> str:
            found = index.old_address(match.group(2), match.group(1)) if index else None
            if found is not None:
                target, anchor, entry = found
                place = f"{target}#{anchor}" if anchor else target
                problems.append(
                    Problem(
                        file,
                        number,
                        "info",
                        Kind.OLD_SITE_LINK,
                        f"lien vers {match.group(2)} : adresse du site d’origine, menée à "
                        f"{place} (à corriger dans la source)",
                        match.group(1),
                    )
                )
                if entry is not None:
                    return glossary_link(match.group(1), file, entry)
                return f"[{match.group(1)}]({href(file, target, anchor)})"
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


def glossary_references(line: str, file: str, glossary: Glossary) -> str:
    """A line of one of the glossary's system's pages, its references to the glossary's
    title led to the entry of the term named just before (« l’action Se cacher (cf.
    « Glossaire ») »), and the names of its list of conditions (`<span id="etat-…">`) to
    their entries. A reference after no term is left to the guillemets' pass (the page)."""
    if "etat-" in line:

        def condition(match: re.Match[str]) -> str:
            entry = glossary.entry(match.group(2))
            if entry is None:
                return match.group(0)
            return match.group(1) + glossary_link(match.group(2), file, entry) + match.group(3)

        line = CONDITION_SPAN.sub(condition, line)
    if "«" not in line or not glossary.title:
        return line
    protected = [m.span() for m in PROTECTED.finditer(line)]
    out: list[str] = []
    last = 0
    for match in GUILLEMETS.finditer(line):
        start, end = match.span()
        if fold(match.group(1)) != fold(glossary.title):
            continue
        if any(a < end and start < b for a, b in protected):
            continue
        entry = glossary.entry_before(line[:start])
        if entry is None:
            continue
        out += [line[last:start], f"« {glossary_link(match.group(1), file, entry)} »"]
        last = end
    return "".join(out) + line[last:] if out else line


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
    glossary = index.glossary_for(file)
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
            entry = glossary.entry(name) if glossary is not None and target is None else None
            if entry is not None:
                return f"« {glossary_link(name, file, entry)} »"
            if target is None:
                before = match.string[max(0, match.start() - 30) : match.start()]
                if TITLE_START.match(name) and REFERENCE_CUE.search(before):
                    unresolved(Kind.UNRESOLVED_REFERENCE, name, f"« {name} »", NO_SECTION)
                    return absent(match.group(0), name)
                return match.group(0)
            if names_itself(file, target):
                return match.group(0)
            ambiguous(name, target)
            return f"« [{name}]({href(file, target.page, target.anchor)}) »"

        def table(match: re.Match[str]) -> str:
            target = index.section(match.group(2), file)
            if target is None:  # the pattern lists every title: this one is another system's
                name = match.group(2)
                unresolved(Kind.OTHER_SYSTEM_MENTION, name, f"table « {name} »", NO_SECTION)
                return match.group(0)
            if names_itself(file, target):
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def condition(match: re.Match[str]) -> str:
            entry = glossary.entry(match.group(2)) if glossary is not None else None
            if entry is not None:
                return f"{match.group(1)}{glossary_link(match.group(2), file, entry)}"
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
            if names_itself(file, target):
                return match.group(0)
            ambiguous(name, target)
            return f"{match.group(1)} [{name}]({href(file, target.page, target.anchor)})"

        def italic(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            if len(name.split()) > MAX_MENTION_WORDS or any(c in name for c in ".:;!?"):
                return match.group(0)  # emphasis in a sentence, not a mention
            entry = glossary.entry(name) if glossary is not None else None
            if entry is not None:
                return glossary_link(f"_{name}_", file, entry)
            found = index.spell(name, college, file)
            if not found:
                target = index.section(name, file)
                if target is not None and names_itself(file, target):
                    return match.group(0)
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
        if glossary is not None:
            new = glossary_references(new, file, glossary)
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
