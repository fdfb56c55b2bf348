"""A built page cut into search records: one per rules section, database entry and
calculator, each with its filters, metadata and text, and the small HTML document Pagefind
receives for it (see index.py's docstring for what each kind of record holds)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any

from regles.core.systems import Systems
from regles.features.offline.precache import FALLBACK_PAGE

__all__ = [
    "DEPTH_FILTER",
    "EXCLUDED_PAGES",
    "FILTER_GROUP",
    "FILTER_SECTION",
    "FILTER_SYSTEM",
    "FILTER_TYPE",
    "INDEX_FOLDER",
    "KIND_CALCULATORS",
    "KIND_ENTRIES",
    "KIND_RULES",
    "KIND_SITE",
    "LANGUAGE",
    "SKIPPED_CLASSES",
    "Area",
    "Record",
    "SearchIndexError",
    "area_of",
    "article",
    "elided_words",
    "is_indexed",
    "page_records",
    "page_url",
    "record_document",
    "searched",
    "site_records",
]

INDEX_FOLDER = "pagefind"
LANGUAGE = "fr"

FILTER_SYSTEM = "systeme"
FILTER_TYPE = "type"
FILTER_GROUP = "groupe"
FILTER_SECTION = "rubrique"  # a group page's nav section, shown under its title
KIND_RULES = "Règles"
KIND_ENTRIES = "Sorts"  # the default (Database.kind: the database's own word)
KIND_SITE = "Site"
KIND_CALCULATORS = "Calculateurs"  # a calculator's form: a result of its own
CONTEXT_SEPARATOR = " › "
CONTEXT_META = "contexte"
PRINCIPAL_META = "principal"
ANNEX_META = "annexe"  # a record of a page about the entry export: ranked after the others
# The words of a record that only ever follow an elided article or pronoun (« d’opportunité »,
# « l’aube »): Pagefind keeps « d’opportunité » as one word, which « opportunité » never finds.
# Searchable metadata, never shown.
ELIDED_META = "elisions"
ELIDED_TITLE_META = "titre_elisions"  # those of the title: weighed as the title (search.js)
ELIDED = re.compile(
    r"(?<![\w’'])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu)[’'](\w[\w-]*)", re.IGNORECASE
)
_WORD = re.compile(r"\w[\w-]*")
_TAG = re.compile(r"<[^>]*>")


def elided_words(title: str, body: str) -> list[str]:
    """The words of a record (its title, its HTML body's text) that follow an elision and
    never stand on their own there, in their order: what « opportunité » must find."""
    text = html.unescape(_TAG.sub(" ", f"{title} {body}"))
    alone = {w.lower() for w in _WORD.findall(ELIDED.sub(" ", text))}
    found: dict[str, str] = {}
    for match in ELIDED.finditer(text):
        word = match.group(1)
        if len(word) >= 3 and word.lower() not in alone:  # « qu’il », « l’on »: no search
            found.setdefault(word.lower(), word)
    return list(found.values())


PRINCIPAL_LEVEL = 2
DEPTH_FILTER = "profondeur"


@dataclass(frozen=True)
class Area:
    """What a page is for the search: its game system and kind of page, and for an entry
    page the nav section that holds it. A page of the site (tools, install) has none."""

    system: str | None
    kind: str
    section: str | None = None
    annex: bool = False  # about a database's export, not an entry (Database.annexes)
    database: bool = False  # a page of a database (its entries' kind: Database.kind)


def area_of(systems: Systems, page: str) -> Area | None:
    """The area of a page of the docs (its source path), from the folders the site declares:
    the same reading as the build's (core/systems.py)."""
    database = systems.database_of(page)
    if database is not None:
        annex = page in database.annexes
        return Area(database.system, database.kind, database.section, annex, True)
    folder = systems.folder_of(page)
    return Area(systems.names[folder], KIND_RULES) if folder is not None else None


# Pages that are not content: the home page (a list of links to the other pages), the error
# page and the offline fallback page. The reader's data page is searched: a player looks for
# « sauvegarde » there.
EXCLUDED_PAGES: tuple[str, ...] = (
    "index.html",
    "404.html",
    f"{FALLBACK_PAGE}index.html",
)

# Never indexed: interactive widgets (a calculator's form repeats its option labels), code
# that is not text, the `¶` permalinks, the "Voir la règle" link set before a calculator
# placed away from its rule (a link's label, the same before every such calculator: a tools
# section read "Voir la règle. Voir la règle." and nothing else), and the marks of a chapter
# absent from the site, with their note (features/links/references.py).
SKIPPED_TAGS = frozenset({"form", "script", "style", "template", "select", "noscript", "svg"})
SKIPPED_CLASSES = frozenset(
    {"headerlink", "calculateur-regle", "renvoi-absent", "renvoi-absent-note"}
)
# Read inside a skipped widget: what a calculator's form says it is, its title and its
# description (features/calculators/forms.py), so that a section of calculators is found by
# what they do.
CALCULATOR_TITLE_CLASS = "calculateur-titre"
KEPT_IN_SKIPPED_CLASSES = frozenset({CALCULATOR_TITLE_CLASS, "calculateur-description"})
CALCULATOR_CLASS = "calculateur"  # the form: a record of its own, by its title and description
# The entry index is a table of every entry name: indexed, it would compete with the entries.
SKIPPED_IDS = frozenset({"entry-table"})
# Read by their title rather than their text: an entry's levels, "I–IV" on the page, are
# "Niveaux I à IV" in the index and its excerpts.
TITLE_AS_TEXT_CLASSES = frozenset({"niveau"})
VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip
HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCK_ENDS = {
    tag: " "
    for tag in ("p", "li", "dd", "td", "th", "tr", "div", "blockquote", "pre", "table",
                "ul", "ol", "dl", "caption", "figcaption", "summary", "details", "section")
} | {"dt": " : "}  # fmt: skip
ENTRY_HEADING_CLASS = "entry"
# A table is given to the search as one paragraph, its cells and rows marked: Pagefind ends
# each block (each cell) with a full stop, and an excerpt read « 6. Incapacité … pendant
# 1 tour. Hallucinations. 7. Choc. » (« 6 · Incapacité … pendant 1 tour · Hallucinations —
# 7 · Choc »).
CELL_SEPARATOR = " · "
ROW_SEPARATOR = " — "
TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th"})
_SPACES = re.compile(r"\s+")


class SearchIndexError(Exception):
    """The search index cannot be built (Pagefind missing or failing, unreadable page)."""


@dataclass(frozen=True)
class Record:
    """One search result: a section of a rules page, an entry, or a page's introduction."""

    url: str  # site-relative, with the anchor: "regles/combat/#abri"
    title: str
    body: str  # the section's HTML, headings and widgets left out
    kind: str
    page: str  # the page's title
    system: str | None = None
    group: str | None = None
    trail: tuple[str, ...] = ()  # headings between the page title and this section
    level: int = 1
    section: str | None = None  # the nav section of a group page
    annex: bool = False  # of a page about the entry export (Area.annex)

    @property
    def context(self) -> str:
        """What the result list shows under the title: where the record lives."""
        if self.group is not None:
            return self.group
        parts = [p for p in (self.system, self.page if self.level > 1 else None) if p]
        return CONTEXT_SEPARATOR.join([*parts, *self.trail])

    @property
    def filters(self) -> dict[str, list[str]]:
        found = {FILTER_TYPE: [self.kind]}
        if self.system:
            found[FILTER_SYSTEM] = [self.system]
        if self.group:
            found[FILTER_GROUP] = [self.group]
        if self.section:
            found[FILTER_SECTION] = [self.section]
        return found


def _one_line(parts: list[str]) -> str:
    """A title read in pieces, its runs of spaces and line breaks made one space."""
    return _SPACES.sub(" ", "".join(parts)).strip()


@dataclass
class _Section:
    level: int
    anchor: str | None
    classes: frozenset[str]
    title_parts: list[str] = field(default_factory=list)
    body_parts: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        return _one_line(self.title_parts)

    @property
    def body(self) -> str:
        return "".join(self.body_parts).strip()


@dataclass
class _Calculator:
    """A calculator's form: its id, the section it is in, and what it says it is."""

    anchor: str
    section: _Section
    title_parts: list[str] = field(default_factory=list)
    body_parts: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        return _one_line(self.title_parts)


class _ArticleReader(HTMLParser):
    """Cuts the page's article (Material's `article.md-content__inner`) at each heading, and
    notes each calculator's form."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[_Section] = []
        self.calculators: list[_Calculator] = []
        self._calculator: _Calculator | None = None  # the form being read
        self._kept: list[str] | None = None  # where a calculator's kept text goes
        self._depth = 0  # open elements inside the article; 0 = outside
        self._skip_depth = 0  # depth at which a skipped element opened; 0 = not skipping
        self._kept_depth = 0  # depth of an element read inside a skipped one; 0 = none
        self._heading: _Section | None = None
        self._heading_tag = ""
        self._rows = 0  # rows of the table being read, so far
        self._cells = 0  # cells of its row being read, so far

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        classes = frozenset(attributes.get("class", "").split())
        if self._depth == 0:
            if tag == "article" and "md-content__inner" in classes:
                self._depth = 1
                self.sections.append(_Section(1, None, frozenset()))
            return
        if tag in VOID_TAGS:
            if not self._skip_depth and tag in ("br", "hr"):
                self._emit(f"<{tag}>")
            return
        self._depth += 1
        if self._skip_depth:
            if not self._kept_depth and classes & KEPT_IN_SKIPPED_CLASSES:
                self._kept_depth = self._depth
                self._emit("<p>")
                if self._calculator is not None:
                    calculator = self._calculator
                    title = CALCULATOR_TITLE_CLASS in classes
                    self._kept = calculator.title_parts if title else calculator.body_parts
            return
        if (
            tag in SKIPPED_TAGS
            or classes & SKIPPED_CLASSES
            or attributes.get("id", "") in SKIPPED_IDS
        ):
            self._skip_depth = self._depth
            form_id = attributes.get("id", "")
            if tag == "form" and CALCULATOR_CLASS in classes and form_id and self.sections:
                self._calculator = _Calculator(form_id, self.sections[-1])
                self.calculators.append(self._calculator)
            return
        if classes & TITLE_AS_TEXT_CLASSES and attributes.get("title"):
            self._emit(html.escape(attributes["title"], quote=False))
            self._skip_depth = self._depth
            return
        level = HEADINGS.get(tag)
        if level is not None and self._heading is None:
            anchor = attributes.get("id") or None
            if level == 1 and self.sections and not self.sections[-1].title_parts:
                # The page title: it names the introduction already opened.
                self.sections[-1].anchor = anchor
                self._heading = self.sections[-1]
            else:
                self._heading = _Section(level, anchor, classes)
                self.sections.append(self._heading)
            self._heading_tag = tag
            return
        if tag in TABLE_PARTS:
            separator = self._separator(tag)
            self._emit("<p>" if tag == "table" else separator)
            return
        self._emit(f"<{tag}>")

    def _separator(self, tag: str) -> str:
        """What goes before a table's row or cell that is not its first (`CELL_SEPARATOR`,
        `ROW_SEPARATOR`), in the table's one paragraph."""
        if tag == "table":
            self._rows = 0
        elif tag == "tr":
            self._rows, self._cells = self._rows + 1, 0
            return ROW_SEPARATOR if self._rows > 1 else ""
        elif tag in ("td", "th"):
            self._cells += 1
            return CELL_SEPARATOR if self._cells > 1 else ""
        return ""

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._depth and not self._skip_depth and tag in ("br", "hr"):
            self._emit(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if self._depth == 0 or tag in VOID_TAGS:
            return
        if self._skip_depth:
            if self._depth == self._kept_depth:
                self._kept_depth = 0
                self._kept = None
                self._emit("</p> ")
            if self._depth == self._skip_depth:
                self._skip_depth = 0
                self._calculator = None
            self._depth -= 1
            return
        self._depth -= 1
        if self._heading is not None and tag == self._heading_tag:
            self._heading = None
            return
        if tag in TABLE_PARTS:
            if tag == "table":
                self._emit("</p> ")
            return
        if self._depth > 0:
            # Block ends get a space: Pagefind would glue "<dt>Durée</dt><dd>1 minute</dd>"
            # into one word. A term and its definition read "Durée : 1 minute".
            self._emit(f"</{tag}>{BLOCK_ENDS.get(tag, '')}")

    def handle_data(self, data: str) -> None:
        if self._depth == 0 or (self._skip_depth and not self._kept_depth):
            return
        if self._heading is not None:
            self._heading.title_parts.append(data)
            return
        self._emit(html.escape(data, quote=False))
        if self._kept is not None and self._calculator is not None:
            title = self._kept is self._calculator.title_parts
            self._kept.append(data if title else html.escape(data, quote=False))

    def _emit(self, markup: str) -> None:
        if self._heading is None and self.sections:
            self.sections[-1].body_parts.append(markup)


def page_url(path: str) -> str:
    """Site-relative URL of a built page: `regles/combat/index.html` → `regles/combat/`."""
    posix = PurePosixPath(path)
    if posix.name == "index.html":
        parent = posix.parent.as_posix()
        return "" if parent == "." else parent + "/"
    return posix.as_posix()


def article(content: str, title: str) -> str:
    """The article Material's template makes of a page's converted Markdown (MkDocs's
    `page.content`): the same container, and the page title as `h1` when the content has
    none. Cut into records, it gives what the written page gives, before any page is written."""
    heading = "" if "<h1" in content else f"<h1>{html.escape(title, quote=False)}</h1>"
    return f'<article class="md-content__inner md-typeset">{heading}{content}</article>'


def page_records(path: str, text: str, area: Area | None) -> list[Record]:
    """The records of one built page, given its path inside the site, its HTML and its area
    (None: a page of the site)."""
    reader = _ArticleReader()
    # Only the article is read: the rest of a page is mostly the navigation, the same on
    # every page (a quick cut, the reader still finds the article's exact end).
    start = text.find("<article")
    end = text.rfind("</article>")
    reader.feed(text[start : end + len("</article>")] if 0 <= start < end else text)
    reader.close()
    sections = [s for s in reader.sections if s.title]
    if not sections or sections[0].level != 1:
        return []
    base = page_url(path)
    kind = area.kind if area else KIND_SITE
    system = area.system if area else None
    page_title = sections[0].title
    # A group page: its entries are its `h2.entry` headings, and it is a group only if it
    # has some (the entry index, in the same folder, has none).
    database = area is not None and area.database
    is_group = database and any(ENTRY_HEADING_CLASS in s.classes for s in sections)
    group = page_title if is_group else None
    records: list[Record] = []
    trail: list[tuple[int, str]] = []
    trails: dict[int, tuple[int, tuple[str, ...]]] = {}  # a section's level and trail, by id
    for section in sections:
        if section.level == 1:
            url, level = base, 1
        else:
            if section.anchor is None:
                continue  # no anchor to link to: its text stays out of the index
            url, level = f"{base}#{section.anchor}", section.level
        trail = [(lvl, t) for lvl, t in trail if lvl < section.level]
        records.append(
            Record(
                url=url,
                title=section.title,
                body=section.body,
                kind=kind,
                page=page_title,
                system=system,
                group=group,
                trail=tuple(t for lvl, t in trail if lvl > 1),
                level=level,
                section=area.section if area and group and level == 1 else None,
                annex=bool(area and area.annex),
            )
        )
        trail.append((section.level, section.title))
        trails[id(section)] = (section.level, tuple(t for lvl, t in trail if lvl > 1))
    for calculator in reader.calculators:
        title = calculator.title
        if not title or id(calculator.section) not in trails:
            continue  # a form without a title, or in no section of the page's
        level, where = trails[id(calculator.section)]
        records.append(
            Record(
                url=f"{base}#{calculator.anchor}",
                title=title,
                body="".join(calculator.body_parts).strip(),
                kind=KIND_CALCULATORS,
                page=page_title,
                system=system,
                trail=where,
                level=level + 1,
            )
        )
    return records


def searched(meta: Mapping[str, Any]) -> bool:
    """Whether a page's front matter lets the search index it: `search: exclude: true`, as
    Material's own search reads it, keeps the page out (a page for the game master, such as
    reading notes on the sources, that players need not find at the table)."""
    options = meta.get("search")
    return not (isinstance(options, Mapping) and options.get("exclude") is True)


def is_indexed(path: str, excluded: Iterable[str] = EXCLUDED_PAGES) -> bool:
    """Whether the built page at `path` (inside the site) goes into the index."""
    return path not in excluded and not path.startswith(INDEX_FOLDER + "/")


def site_records(
    site: Path,
    area: Callable[[str], Area | None],
    excluded: Iterable[str] = EXCLUDED_PAGES,
) -> list[Record]:
    """Every record of the built site, page by page in path order; `area` gives the area of
    a built page's path."""
    skip = set(excluded)
    records: list[Record] = []
    for page in sorted(site.rglob("*.html")):
        path = page.relative_to(site).as_posix()
        if not is_indexed(path, skip):
            continue
        try:
            text = page.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise SearchIndexError(f"{path} : {error}") from error
        records += page_records(path, text, area(path))
    return records


def _attribute(value: str) -> str:
    return html.escape(value, quote=True)


def record_document(record: Record) -> str:
    """The HTML document Pagefind indexes for a record.

    The title is the document's `h1`: Pagefind takes it as the `title` metadata (a title match
    boosts a result) and weighs its words as a heading's. The result list leaves these first
    words out of the excerpt. Filters and metadata are inline `key:value` attributes:

    - `contexte` (searchable, default weight): where the record lives, so that "combat"
      also finds the sections of the Combat page and "acoustique" the entries of that group;
    - `principal` (searchable): the title again, only for pages and `h2` sections, so that
      of two sections with the same name the main one comes first (`h2` over `h3`);
    - filter `profondeur`: the heading level, for the result list to order exact title
      matches (never shown as a filter).
    """
    meta = {
        CONTEXT_META: record.context,
        ELIDED_META: " ".join(elided_words("", record.body)),
        ELIDED_TITLE_META: " ".join(elided_words(record.title, "")),
    }
    if record.level <= PRINCIPAL_LEVEL:
        meta[PRINCIPAL_META] = record.title
    if record.annex:
        meta[ANNEX_META] = "1"
    filters = [(name, value) for name, values in record.filters.items() for value in values]
    filters.append((DEPTH_FILTER, str(record.level)))
    tags = [
        f'<span data-pagefind-filter="{_attribute(name)}:{_attribute(value)}"></span>'
        for name, value in filters
    ] + [
        f'<span data-pagefind-meta="{_attribute(name)}:{_attribute(value)}"></span>'
        for name, value in meta.items()
        if value
    ]
    return (
        f'<!DOCTYPE html><html lang="{LANGUAGE}"><head><meta charset="utf-8">'
        f"<title>{html.escape(record.title)}</title></head><body><main data-pagefind-body>"
        f"<h1>{html.escape(record.title)}</h1>{record.body}{''.join(tags)}</main></body></html>"
    )
