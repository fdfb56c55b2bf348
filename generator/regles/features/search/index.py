"""Search index of the built site: one Pagefind record per rules section, spell and calculator.

Pure build-step code over built pages (no MkDocs import). The plugin hands each page's
article to an `Indexer` (in a child process, `features/search/worker.py`) as soon as MkDocs
has converted it, so that Pagefind indexes on one core while MkDocs renders on the other, and
writes the index once every page is built. The index lands in `site/pagefind/`, where the
header search box (`theme/assets/js/search.js`) loads only the chunks a query needs.

Why records rather than pages: a reader looks for a section or a spell, not for a page. Each
heading with an id starts a record whose URL carries the anchor, whose title is the heading
(Pagefind boosts title matches) and whose filters and metadata say where it belongs:

- rules section (a page in a system's folder, `systems:` in mkdocs.yml): filters `systeme`
  (the system's name) and `type` = Règles; metadata `contexte` = system › page › parent
  headings;
- spell (`h2.sort` of a college page in the spells' folder): filters `type` = Sorts,
  `college` and `systeme` (the spells' own system: `spells: system:`, else their section's
  name); metadata `contexte` = the college;
- any other page (tools, install, licences): `type` = Site. The home page (a list of links),
  the error page and the offline fallback page are left out;
- a calculator's form (`form.calculateur` with an id): `type` = Calculateurs, the page's
  system, the form's title as its title and its description as its text (its section keeps
  them too), so that « chances » finds the calculator of a test's odds.

The built pages stay unchanged: Pagefind receives a small HTML document per record through its
indexing service (an `AddFile` request with an explicit URL), never the page files.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import importlib.metadata
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import IO, Any

from regles.core.systems import Systems
from regles.core.words import Noun
from regles.features.offline.offline import FALLBACK_PAGE

__all__ = [
    "DEPTH_FILTER",
    "EXCLUDED_PAGES",
    "FILTER_COLLEGE",
    "FILTER_SECTION",
    "FILTER_SYSTEM",
    "FILTER_TYPE",
    "INDEX_FOLDER",
    "KIND_CALCULATORS",
    "KIND_RULES",
    "KIND_SITE",
    "KIND_SPELLS",
    "MATERIAL_SEARCH_FILES",
    "UNUSED_BUNDLE_FILES",
    "Area",
    "IndexSummary",
    "Indexer",
    "Record",
    "SearchIndexError",
    "area_of",
    "article",
    "is_indexed",
    "kept_folder",
    "log_summary",
    "page_records",
    "page_url",
    "record_document",
    "remove_material_search",
    "searched",
    "site_records",
]

log = logging.getLogger("mkdocs.plugins.regles.search")

INDEX_FOLDER = "pagefind"
KEPT_INDEX_PREFIX = "index-pagefind-"  # in the build cache: the last index written
LANGUAGE = "fr"

FILTER_SYSTEM = "systeme"
FILTER_TYPE = "type"
FILTER_COLLEGE = "college"
FILTER_SECTION = "rubrique"  # a college page's nav section, shown under its title
KIND_RULES = "Règles"
KIND_SPELLS = "Sorts"  # the default (Database.kind: the database's own word)
KIND_SITE = "Site"
KIND_CALCULATORS = "Calculateurs"  # a calculator's form: a result of its own
CONTEXT_SEPARATOR = " › "
CONTEXT_META = "contexte"
PRINCIPAL_META = "principal"
ANNEX_META = "annexe"  # a record of a page about the spell export: ranked after the others
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

# Files Pagefind writes that the site does not use: its ready-made interfaces. The header box
# talks to pagefind.js directly, and the service worker would otherwise download them all.
UNUSED_BUNDLE_FILES = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-highlight.js",
)


# Material's own search, replaced by this one (paths relative to the site, glob patterns).
MATERIAL_SEARCH_FILES = ("assets/javascripts/lunr", "assets/javascripts/workers/search.*")


@dataclass(frozen=True)
class Area:
    """What a page is for the search: its game system and kind of page, and for a spell
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
# The spell index is a table of every spell name: indexed, it would compete with the spells.
SKIPPED_IDS = frozenset({"table-sorts"})
# Read by their title rather than their text: a spell's levels, "I–IV" on the page, are
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
SPELL_HEADING_CLASS = "sort"
_SPACES = re.compile(r"\s+")


class SearchIndexError(Exception):
    """The search index cannot be built (Pagefind missing or failing, unreadable page)."""


@dataclass(frozen=True)
class Record:
    """One search result: a section of a rules page, a spell, or a page's introduction."""

    url: str  # site-relative, with the anchor: "regles/combat/#abri"
    title: str
    body: str  # the section's HTML, headings and widgets left out
    kind: str
    page: str  # the page's title
    system: str | None = None
    college: str | None = None
    trail: tuple[str, ...] = ()  # headings between the page title and this section
    level: int = 1
    section: str | None = None  # the nav section of a college page
    annex: bool = False  # of a page about the spell export (Area.annex)

    @property
    def context(self) -> str:
        """What the result list shows under the title: where the record lives."""
        if self.college is not None:
            return self.college
        parts = [p for p in (self.system, self.page if self.level > 1 else None) if p]
        return CONTEXT_SEPARATOR.join([*parts, *self.trail])

    @property
    def filters(self) -> dict[str, list[str]]:
        found = {FILTER_TYPE: [self.kind]}
        if self.system:
            found[FILTER_SYSTEM] = [self.system]
        if self.college:
            found[FILTER_COLLEGE] = [self.college]
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
        self._emit(f"<{tag}>")

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
    # A college page: its spells are its `h2.sort` headings, and it is a college only if it
    # has some (the spell index, in the same folder, has none).
    database = area is not None and area.database
    is_college = database and any(SPELL_HEADING_CLASS in s.classes for s in sections)
    college = page_title if is_college else None
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
                college=college,
                trail=tuple(t for lvl, t in trail if lvl > 1),
                level=level,
                section=area.section if area and college and level == 1 else None,
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
      also finds the sections of the Combat page and "acoustique" the spells of that college;
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


@dataclass(frozen=True)
class IndexSummary:
    records: int
    spells: int
    files: int
    bytes: int


class _Service:
    """Pagefind's indexing service (`pagefind --service`), requests pipelined.

    The `pagefind` package's own client (`pagefind.index.PagefindIndex`) reads the service's
    answers in a loop that sleeps 0.1 s before each one: one record costs 0.1 s, the site's
    ~600 records a minute. The protocol is the one that client speaks (requests and answers
    are base64-encoded JSON objects, each followed by a comma; payload types in
    `pagefind.service.types`), so the pinned binary is the same and only the waiting goes.

    Requests are written without waiting for their answers (`send`), which the service
    queues (its stdin reader and stdout writer are threads with unbounded queues) and
    handles one by one in the order received; `receive` reads the next answer. So the
    service indexes on one core while MkDocs renders pages on the other.
    """

    def __init__(self, executable: Path) -> None:
        # The service's error output, kept for the message if it stops.
        self._log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close/kill)
        try:
            self._process = subprocess.Popen(
                [str(executable), "--service"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
            )
        except OSError as error:
            self._log.close()
            raise SearchIndexError(f"Pagefind ne démarre pas ({executable}) : {error}") from None
        self._next_id = 0
        self._unanswered: list[int] = []
        self._buffer = bytearray()
        self._broken = False

    def close(self) -> None:
        """End the service (stdin closed: it exits) and wait for it."""
        if self._process.stdin is not None and not self._process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self._process.stdin.close()
        try:
            self._process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            raise SearchIndexError("le service Pagefind ne s’est pas arrêté en 5 minutes") from None
        finally:
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._log.close()

    def kill(self) -> None:
        """Stop the service now (the build failed: its index will not be written)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()
        self._log.close()

    def send(self, payload: Mapping[str, object]) -> None:
        """Queue a request; its answer comes from a later `receive`."""
        stdin = self._process.stdin
        assert stdin is not None
        self._next_id += 1
        self._unanswered.append(self._next_id)
        if self._broken:
            return  # reported by `receive`, with the service's own message
        message = {"message_id": self._next_id, "payload": payload}
        try:
            stdin.write(base64.b64encode(json.dumps(message).encode()) + b",")
            stdin.flush()
        except BrokenPipeError:
            self._broken = True

    def receive(self) -> dict[str, Any]:
        """The answer to the oldest request not yet answered."""
        stdout = self._process.stdout
        assert stdout is not None and self._unanswered
        expected = self._unanswered.pop(0)
        while b"," not in self._buffer:
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise SearchIndexError(f"le service Pagefind s’est arrêté{self._stderr()}")
            self._buffer += chunk
        cut = self._buffer.index(b",")
        answer = json.loads(base64.b64decode(bytes(self._buffer[:cut])))
        del self._buffer[: cut + 1]
        if answer.get("message_id") != expected:
            raise SearchIndexError(
                f"Pagefind a répondu au message {answer.get('message_id')}, "
                f"le {expected} était attendu"
            )
        result: dict[str, Any] = answer["payload"]
        if result.get("type") == "Error":
            raise SearchIndexError(f"Pagefind : {result.get('message')}")
        return result

    def wait_all(self) -> dict[str, Any]:
        """Wait for the answers to every request sent (an error answer raises); the last."""
        last: dict[str, Any] = {}
        while self._unanswered:
            last = self.receive()
        return last

    def _stderr(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode("utf-8", "replace").strip()
        return f" : {text}" if text else ""


def _executable() -> Path:
    try:
        from pagefind.service import get_executable
    except ImportError as error:
        raise SearchIndexError(f"le paquet Python « pagefind » manque : {error}") from error
    executable = get_executable()
    if executable is None:
        raise SearchIndexError("exécutable Pagefind introuvable (paquet « pagefind[bin] »)")
    return Path(executable)


def _pagefind_version() -> str:
    """The Pagefind that `_executable` would start, read without importing its client (which
    loads asyncio: some 35 ms of CPU, for nothing when the kept index is given): the
    versions of its distributions, and the executable named by the environment, if any."""
    versions = []
    for name in ("pagefind", "pagefind_bin_extended", "pagefind_bin"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} ?")
    return ", ".join([*versions, os.environ.get("PAGEFIND_BINARY_PATH", "")])


KEPT_PAGES_FILE = ".pages.json"  # in a kept index: what it was made of (never copied out)


def _link_or_copy(source: str, target: str) -> None:
    """`target` made the same file as `source` (a hard link), or a copy of it with its times
    where a link cannot be made (another file system, one without links).

    The site's index is some 640 files, and on this project's machines making a file costs
    0.7–1 ms: 0.45–0.65 s to copy the index, 15 ms to link it. Sharing the files is safe because
    nothing writes into an index file once Pagefind's answer is written: a new index goes
    into a new folder (`finish` removes the old one first, `_keep` writes a new kept one)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)  # with the files' times: the offline step's digests hold


def _same_or_write(target: Path, content: bytes, earlier: Path | None) -> None:
    """`target` written with `content`, or linked to `earlier` where that file holds the same
    bytes (its time with it, so the offline step does not hash it again)."""
    if earlier is not None:
        with contextlib.suppress(OSError):
            if earlier.stat().st_size == len(content) and earlier.read_bytes() == content:
                os.link(earlier, target)
                return
    target.write_bytes(content)


def copy_kept_index(kept: Path, output: Path) -> dict[str, int] | None:
    """The kept index given to `output` (replacing it), as path → bytes; None when it
    cannot be read whole (`output` is then left to be written again)."""
    try:
        if output.exists():
            shutil.rmtree(output)
        shutil.copytree(
            kept,
            output,
            ignore=shutil.ignore_patterns(KEPT_PAGES_FILE),
            copy_function=_link_or_copy,
        )
        written = {
            path.relative_to(output).as_posix(): path.stat().st_size
            for path in output.rglob("*")
            if path.is_file()
        }
    except OSError:
        return None
    return written if "pagefind.js" in written else None


@dataclass(frozen=True)
class _KeptPages:
    """What the kept index in `folder` was made of: Pagefind and this module (`made_by`), the
    digest of each page in order, and the records they gave."""

    folder: Path
    made_by: str
    pages: tuple[str, ...]
    records: int
    spells: int

    @classmethod
    def read(cls, folder: Path) -> _KeptPages | None:
        try:
            data = json.loads((folder / KEPT_PAGES_FILE).read_text(encoding="utf-8"))
            kept = cls(
                folder,
                str(data["made_by"]),
                tuple(str(page) for page in data["pages"]),
                int(data["records"]),
                int(data["spells"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return kept if kept.pages and kept.records > 0 else None

    def write(self) -> None:
        manifest = {k: v for k, v in asdict(self).items() if k != "folder"}
        (self.folder / KEPT_PAGES_FILE).write_text(json.dumps(manifest), "utf-8")


def made_by(excluded: Iterable[str] = EXCLUDED_PAGES) -> str:
    """What makes an index of the same pages differ: Pagefind's build, what it is asked for,
    and this module (which cuts pages into records)."""
    parts = [
        _pagefind_version(),
        LANGUAGE,
        *UNUSED_BUNDLE_FILES,
        repr(sorted(excluded)),
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def page_digest(path: str, text: str, area: Area | None) -> str:
    """A page given to the index, as the kept index remembers it."""
    return hashlib.sha256(f"{path}\0{area!r}\0{text}".encode()).hexdigest()


def kept_index(cache: Path | None, made_by: str) -> _KeptPages | None:
    """What the index kept in `cache` was made of, if it was made by the same (`made_by`)."""
    if cache is None:
        return None
    with contextlib.suppress(OSError):
        for folder in cache.glob(KEPT_INDEX_PREFIX + "*"):
            kept = _KeptPages.read(folder)
            if kept is not None and kept.made_by == made_by:
                return kept
    return None


def kept_folder(cache: Path, made_by: str, pages: Iterable[str]) -> Path:
    """Where the index of those pages (their digests, in order) is kept in `cache`."""
    inputs = hashlib.sha256(made_by.encode())
    for page in pages:
        inputs.update(page.encode())
    return cache / f"{KEPT_INDEX_PREFIX}{inputs.hexdigest()[:24]}"


def kept_summary(kept: _KeptPages, written: Mapping[str, int]) -> IndexSummary:
    """The summary of a kept index given again (`written`: path → bytes)."""
    return IndexSummary(kept.records, kept.spells, len(written), sum(written.values()))


class Indexer:
    """A search index fed page by page while the site is built, written at the end.

    `add_page` cuts a built page into records and hands them to Pagefind at once, without
    waiting: the service indexes them while the next pages are rendered. `start_writing`
    asks for the index and `finish` writes it; `abandon` stops the service when the build
    fails before that.

    With a build cache, the last index is kept there with what it was made of, and given
    again, byte for byte, for the same pages (see `_KeptPages`). As long as the pages are
    those of the kept index, in the same order, they are only held back; Pagefind is not
    even started when they all are. The first page that differs starts it, with the pages
    held back.
    """

    def __init__(
        self,
        excluded: Iterable[str] = EXCLUDED_PAGES,
        cache: Path | None = None,
    ) -> None:
        self.excluded = frozenset(excluded)
        self.records = 0
        self.spells = 0
        self.cache = cache
        self._made_by = made_by(self.excluded)
        self._pages: list[str] = []  # digests of the pages given, in order
        self._held: list[tuple[str, str, Area | None]] = []  # those of the kept index so far
        self._expected = kept_index(cache, self._made_by)
        self._service: _Service | None = None
        self._index_id: str | None = None
        self._output: Path | None = None
        if self._expected is None:
            self._start()

    def _start(self) -> None:
        """Start Pagefind's service, and give it the pages held back."""
        service = _Service(_executable())
        service.send({"type": "NewIndex", "config": {"force_language": LANGUAGE}})
        try:
            self._index_id = service.receive()["index_id"]
        except BaseException:
            service.kill()
            raise
        self._service = service
        self.records = self.spells = 0  # every page given so far is held back
        held, self._held = self._held, []
        for path, text, area in held:
            self._add(page_records(path, text, area))

    def add_page(self, path: str, text: str, area: Area | None) -> None:
        """Index the page built at `path` (inside the site) from its HTML, unless excluded:
        a whole page, or the article alone (see `article`); `area` says what it is."""
        if not is_indexed(path, self.excluded):
            return
        self._pages.append(page_digest(path, text, area))
        if self._service is None:
            expected = self._expected.pages if self._expected is not None else ()
            count = len(self._pages)
            if count <= len(expected) and expected[count - 1] == self._pages[-1]:
                self._held.append((path, text, area))
                return
            self._start()
        self._add(page_records(path, text, area))

    def _add(self, records: Iterable[Record]) -> None:
        assert self._service is not None
        for record in records:
            self._service.send(
                {
                    "type": "AddFile",
                    "index_id": self._index_id,
                    "url": record.url,
                    "file_path": None,
                    "file_contents": record_document(record),
                }
            )
            self.records += 1
            self.spells += record.college is not None and record.level > 1

    def start_writing(self, output: Path) -> None:
        """Ask for the index of every page given, for `output`, without waiting; `finish`
        waits for it and writes it there (replacing the folder)."""
        self._output = output
        if self._service is None:
            expected = self._expected
            if expected is not None and tuple(self._pages) == expected.pages:
                self.records, self.spells = expected.records, expected.spells
                return  # `finish` gives it (`copy_kept_index`)
            self._start()
        self._ask_for_files()

    def _ask_for_files(self) -> None:
        # The files come back in the answer and are written here: Pagefind's own WriteFiles
        # answers before its last writes reach the disk (tokio files, never flushed), and the
        # service exits as soon as its input closes: an empty pagefind-entry.json, now and then.
        assert self._service is not None
        self._service.send({"type": "GetFiles", "index_id": self._index_id})

    # The index of the same pages is kept in the build cache and given again as it was:
    # Pagefind names some of its files differently at each run, so an index made again
    # would change the offline download's version, and readers would be offered a new
    # version of a site that did not change. The cache only saves that, and the time:
    # a folder that cannot be written or read means making the index again.

    def _kept_folder(self) -> Path | None:
        return kept_folder(self.cache, self._made_by, self._pages) if self.cache else None

    def _keep(self, output: Path) -> None:
        folder = self._kept_folder()
        if folder is None:
            return
        partial = folder.with_name(folder.name + ".part")
        with contextlib.suppress(OSError):
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(output, partial, copy_function=_link_or_copy)
            kept = _KeptPages(partial, self._made_by, tuple(self._pages), self.records, self.spells)
            kept.write()
            for old in folder.parent.glob(KEPT_INDEX_PREFIX + "*"):
                if old != partial:
                    shutil.rmtree(old, ignore_errors=True)
            partial.rename(folder)

    def finish(self) -> IndexSummary:
        """Wait for the index `start_writing` asked for and write it, without Pagefind's UI
        bundles."""
        output = self._output
        if output is None:
            raise SearchIndexError("index jamais écrit (start_writing manquant)")
        try:
            if self._service is None:  # the pages of the kept index: it is given again
                assert self._expected is not None
                copied = copy_kept_index(self._expected.folder, output)
                if copied is not None:
                    return self._summary(copied)
                self._start()  # the kept copy could not be read
                self._ask_for_files()
            assert self._service is not None
            answer = self._service.wait_all()  # a page Pagefind refused fails the build
        except BaseException:
            self.abandon()
            raise
        self._service.close()
        if output.exists():
            shutil.rmtree(output)
        # Pagefind names most of its files by their content: after an edit, all but a few are
        # those of the kept index, which are linked instead of written (`_same_or_write`).
        earlier = self._expected.folder if self._expected is not None else None
        written: dict[str, int] = {}  # path in the index → bytes
        for item in answer.get("files") or []:
            relative = PurePosixPath(str(item.get("path", "")))
            if relative.is_absolute() or ".." in relative.parts or not relative.parts:
                raise SearchIndexError(f"Pagefind : chemin de fichier inattendu « {relative} »")
            if relative.as_posix() in UNUSED_BUNDLE_FILES:
                continue
            if relative.as_posix() in written:  # written again, it could be a linked file
                raise SearchIndexError(f"Pagefind : fichier « {relative} » donné deux fois")
            content = base64.b64decode(item.get("content", ""))
            target = output / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            _same_or_write(target, content, earlier / relative if earlier else None)
            written[relative.as_posix()] = len(content)
        if "pagefind.js" not in written:
            raise SearchIndexError(f"Pagefind n’a pas donné {output / 'pagefind.js'}")
        self._keep(output)
        return self._summary(written)

    def _summary(self, written: Mapping[str, int]) -> IndexSummary:
        return IndexSummary(
            records=self.records,
            spells=self.spells,
            files=len(written),
            bytes=sum(written.values()),
        )

    def abandon(self) -> None:
        if self._service is not None:
            self._service.kill()


def remove_material_search(site: Path) -> list[str]:
    """Delete the files of Material's own search that the theme copies into every site.

    Material starts its search only from a `data-md-component="search"` element, which the
    header no longer has: its lunr scripts and search worker (~1.2 MB) would never be loaded,
    but the service worker would still download them for offline use. Returns what went.
    """
    removed = []
    for pattern in MATERIAL_SEARCH_FILES:
        for path in sorted(site.glob(pattern)):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
            removed.append(path.relative_to(site).as_posix())
            if path.parent != site and not any(path.parent.iterdir()):
                path.parent.rmdir()  # workers/ held only the search worker
    return removed


def log_summary(summary: IndexSummary, entries: Sequence[Noun] = ()) -> None:
    """The index's size in the build's log; with the databases' `entries` (their words for
    one), their entries among its records, in the game's words (« dont 10 prières »)."""
    n = summary.spells
    if len(entries) == 1:
        among = f" (dont {n} {entries[0].word(n)})"
    else:
        among = f" (dont {n} {'entrées' if n > 1 else 'entrée'} de {len(entries)} bases)"
    among = among if entries else ""
    log.info(
        "Recherche : %d entrées%s, %d fichiers, %d Kio dans %s/",
        summary.records,
        among,
        summary.files,
        summary.bytes // 1024,
        INDEX_FOLDER,
    )
