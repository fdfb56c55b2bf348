"""What a reference can point to: the pages and sections of the site, the entries of its
databases, by name and by scope (a system's folder, a database's), and the relative link
from one page to another."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from regles.core.markdown_text import PageText
from regles.core.slugs import fold, slugify
from regles.features.glossary.glossary import Entry, Glossary

__all__ = [
    "EntryTarget",
    "NamesAfter",
    "Target",
    "TargetIndex",
    "href",
    "names_itself",
]


def _no_scope(page: str) -> str | None:
    return None


def _same_scope(source: str | None, target: str | None) -> bool:
    return source is None or target is None or source == target


class NamesAfter:
    """What `re.compile(f"{before}({'|'.join(map(re.escape, names))}){after}")` finds (the
    longest name first), without compiling the alternation of every name, which costs each
    build time in proportion to the site's titles: `before` is searched, the names that
    start where it ends are tried, longest first, and the one found is matched again alone
    (a pattern of that name only, cached by `re`) so that `sub` hands `repl` a real match."""

    def __init__(self, before: str, names: Iterable[str], after: str) -> None:
        self._before_text, self._after_text = before, after
        self._before = re.compile(before)
        self._after = re.compile(after)
        by_start: dict[str, list[str]] = {}
        for name in sorted(set(names) - {""}, key=len, reverse=True):
            by_start.setdefault(name[:1], []).append(name)
        self._by_start = by_start

    def _match(self, string: str, start: re.Match[str]) -> re.Match[str] | None:
        at = start.end()
        for name in self._by_start.get(string[at : at + 1], ()):
            if string.startswith(name, at) and self._after.match(string, at + len(name)):
                alone = re.compile(f"{self._before_text}({re.escape(name)}){self._after_text}")
                return alone.match(string, start.start())
        return None

    def sub(self, repl: Callable[[re.Match[str]], str], string: str) -> str:
        out: list[str] = []
        done = position = 0
        while (start := self._before.search(string, position)) is not None:
            found = self._match(string, start)
            if found is None:
                position = start.start() + 1
                continue
            out += (string[done : found.start()], repl(found))
            done = position = found.end()
        out.append(string[done:])
        return "".join(out)


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
    group: str


@dataclass
class TargetIndex:
    """Every name a mention can resolve to, keyed by its folded form."""

    sections: dict[str, list[Target]] = field(default_factory=dict)
    conditions: dict[str, Target] = field(default_factory=dict)
    entries: dict[str, list[EntryTarget]] = field(default_factory=dict)
    page_order: dict[str, int] = field(default_factory=dict)
    # The system a page belongs to (its folder; the entries are a system of their own), None
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
    # The mentions of every section title and condition name, made once per build: every
    # page reads them (`link_references`).
    _patterns: dict[str, NamesAfter | None] = field(default_factory=dict, repr=False, compare=False)
    # The sections of each folded name, by scope (`_sections`), made as names are asked for.
    _scoped: dict[str, dict[str | None, list[tuple[int, Target]]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def build(
        cls,
        pages: Iterable[tuple[str, PageText]],
        entries: Iterable[EntryTarget] = (),
        *,
        glossaries: Mapping[str, str] | None = None,
        old_paths: Mapping[str, str] | None = None,
        scope_of: Callable[[str], str | None] = _no_scope,
        scope_reaches: Callable[[str | None, str | None], bool] | None = None,
        sections: Mapping[str, str] | None = None,
    ) -> TargetIndex:
        """`glossaries` names each system's glossary page (folder → page); `scope_of`
        gives a page's system (by default none: every page reaches every target);
        `sections`, a name of the nav that is no page's title → the page it leads to."""
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
        for name, page in (sections or {}).items():
            found = index.sections.setdefault(fold(name), [])
            if not found:  # a page of that title leads there already
                found.append(Target(page, None, name, 1))
        for entry in entries:
            index.entries.setdefault(fold(entry.name), []).append(entry)
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

    def entry(
        self, name: str, group: str | None, from_page: str | None = None
    ) -> list[EntryTarget]:
        """Entries of that name (those `from_page` reaches, when given): the one of the same
        group alone when there is one."""
        found = self.entries.get(fold(name), [])
        if from_page is not None:
            found = [s for s in found if self.reaches(from_page, s.page)]
        same = [s for s in found if s.group == group]
        return same or found

    def elsewhere(self, name: str, from_page: str) -> list[str]:
        """The places (page#anchor) of the sections and entries of that name that `from_page`
        does not reach: another system's."""
        places = [
            f"{t.page}#{t.anchor}" if t.anchor else t.page
            for t in self.sections.get(fold(name), [])
            if not self.reaches(from_page, t.page)
        ]
        places += [
            f"{s.page}#{s.anchor}"
            for s in self.entries.get(fold(name), [])
            if not self.reaches(from_page, s.page)
        ]
        return places

    def table_titles(self) -> NamesAfter | None:
        if "tables" not in self._patterns:
            self._patterns["tables"] = self._table_titles()
        return self._patterns["tables"]

    def condition_names(self) -> NamesAfter | None:
        if "conditions" not in self._patterns:
            self._patterns["conditions"] = self._condition_names()
        return self._patterns["conditions"]

    def _table_titles(self) -> NamesAfter | None:
        titles = {t.title for targets in self.sections.values() for t in targets if t.level >= 2}
        if not titles:
            return None
        return NamesAfter(r"\b((?:la |de la |sur la )?tables? )", titles, r"\b")

    def _condition_names(self) -> NamesAfter | None:
        if not self.conditions:
            return None
        names = (t.title for t in self.conditions.values())
        return NamesAfter(r"\b((?:l[’']|d[’'])?états? )", names, r"(?![\w-])")


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
