"""The entry database in the site: its export read, its pages, nav entries, link targets and
data file, and what the export gets wrong, for the build report.

Declared by the site's owner (`spells:` of the `regles` plugin in mkdocs.yml); a site without
that block has no entry pages. The export's format is read by `features/databases/export.py`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from regles.core import checks
from regles.core.cache import code_digest, keep_object, kept_object
from regles.core.report import Kind, Problem
from regles.core.slugs import slugify
from regles.core.stages import LineSource
from regles.core.typography import spaced_markdown
from regles.core.words import DEFAULT_WORDS, Words, capitalized
from regles.features.databases import terms as entry_terms
from regles.features.databases.columns import Column, index_columns
from regles.features.databases.export import parse_export
from regles.features.databases.model import ExportError, Group, ParseResult, read_export
from regles.features.databases.pages import (
    ENTRY_HEADING,
    ENTRY_TABLE_MARK,
    IndexLabels,
    entry_records,
    render_entry_index,
    render_entry_table,
    render_group_page,
    render_lists_page,
)
from regles.features.links.targets import EntryTarget

__all__ = ["Book", "DatabaseSettings", "read_book"]

DATA_FOLDER = "data/bases"  # a database's entries: <its folder, as a slug>.json
DEFAULT_FIELDS_TITLE = "Champs et abréviations"
# Each page's part in its database, in its key (`Book.page_keys`), as the site's
# addresses file shows it to the owner.
INDEX_KEY, FIELDS_KEY, LISTS_KEY, GROUP_KEY = "index", "champs", "listes", "groupe"
CACHE_PREFIX = "livre-"  # a book kept in the build cache


@dataclass(frozen=True)
class DatabaseSettings:
    export: Path
    export_name: str  # as the report names it: relative to the project's folder
    folder: str  # of the entry pages in the docs
    section: str  # the nav section they are appended to
    index_title: str
    system: str | None = None  # as the search filters name it; None: the section's name
    fields_title: str = DEFAULT_FIELDS_TITLE  # the page of the export's fields and terms
    lists_title: str = "Mon grimoire"  # the page of the reader's lists of entries
    terms: Mapping[str, str] = field(default_factory=dict)  # the owner's definitions
    words: Words = DEFAULT_WORDS  # the game's words for an entry, a group, a list
    linked_from: tuple[str, ...] = ()  # systems (folders) whose pages link to its entries
    # The index's columns, (field, its label or None), in their order; None: the export's
    # (features/databases/columns.py).
    columns: tuple[tuple[str, str | None], ...] | None = None
    # The fields its index filters by; None: those the export gives (columns.py).
    filters: tuple[str, ...] | None = None
    config_name: str = "mkdocs.yml"  # where they are, as the report names it

    @cached_property
    def index_uri(self) -> str:
        return f"{self.folder}/{slugify(self.index_title)}.md"

    @cached_property
    def fields_uri(self) -> str:
        return f"{self.folder}/{slugify(self.fields_title)}.md"

    @property
    def lists_uri(self) -> str:
        """The readers' lists' page: `<folder>/<a list, in the game's words>/` (by default
        `<folder>/grimoire/`), whatever its title, as share links name it."""
        return f"{self.folder}/{list_slug(self.words)}.md"

    @property
    def data_file(self) -> str:
        """Its entries for the scripts, from the site root: `data/bases/<folder>.json`."""
        return f"{DATA_FOLDER}/{slugify(self.folder)}.json"

    @property
    def system_name(self) -> str:
        """The entries' system in the search filters: its own name, else its section's."""
        return (self.system or "").strip() or self.section

    def group_uri(self, group: Group) -> str:
        return f"{self.folder}/{group.slug}.md"


@dataclass(frozen=True)
class Book:
    """The entries of one export, and where the site puts them."""

    settings: DatabaseSettings
    result: ParseResult

    @cached_property
    def terms(self) -> entry_terms.ExportTerms:
        """The export's fields, levels and abbreviations (the fields page)."""
        return entry_terms.read_terms(self.result, self.settings.terms)

    @cached_property
    def labels(self) -> IndexLabels:
        names = {name: label for name, label in self.settings.columns or () if label}
        # An export without levels has no column of them.
        levels = entry_terms.level_label(self.terms) if self.result.has_levels else None
        return IndexLabels(levels, self.settings.words, names)

    @cached_property
    def columns(self) -> tuple[Column, ...]:
        """The index's columns: the site's (`columns:`), else the export's."""
        chosen = self.settings.columns
        entries = [dict(s.fields) for s in self.result.entries]
        names = None if chosen is None else [name for name, _ in chosen]
        return index_columns(entries, names, self.settings.filters)

    def _file(self, uri: str) -> str:
        return uri.rsplit("/", 1)[-1]

    def pages(self) -> list[tuple[str, str]]:
        """(path in the docs, Markdown) of the entry index, the fields page, each group,
        then the lists' page."""
        settings = self.settings
        fields_page = (settings.fields_title, self._file(settings.fields_uri))
        index = render_entry_index(
            self.result,
            settings.index_title,
            table_mark=True,
            fields_page=fields_page,
            labels=self.labels,
            columns=self.columns,
        )
        fields = entry_terms.render_fields_page(
            self.terms,
            settings.fields_title,
            settings.index_title,
            self._file(settings.index_uri),
            settings.words,
        )
        lists = render_lists_page(
            settings.lists_title,
            (settings.index_title, self._file(settings.index_uri)),
            self.labels,
            self.columns,
        )
        pages = [(settings.index_uri, index), (settings.fields_uri, fields)]
        links = [fields_page, (settings.index_title, self._file(settings.index_uri))]
        for c in self.result.groups:
            intro = entry_terms.group_intro(self.result, c, links, settings.words)
            pages.append((settings.group_uri(c), render_group_page(c, intro=intro)))
        pages.append((settings.lists_uri, lists))
        return pages

    def line_sources(self, pages: Iterable[tuple[str, str]]) -> dict[str, tuple[LineSource, ...]]:
        """Where the lines of each group page of `pages` (as `pages()` writes them) come from
        in the export (`GeneratedPage.sources`): its group's heading up to its first entry,
        then each entry's heading, for a problem found in the page (an italic mention that
        names nothing) to be said at the export's line, with the entry's name."""
        settings = self.settings
        words = settings.words
        sources: dict[str, tuple[LineSource, ...]] = {}
        for uri, markdown in pages:
            group = self._groups_by_uri.get(uri)
            if group is None:
                continue
            slugs = {entry.slug: entry for entry in group.entries}
            found = [
                LineSource(
                    1,
                    settings.export_name,
                    group.position.line,
                    f"{words.group.one} « {group.name} »",
                )
            ]
            for number, line in enumerate(markdown.split("\n"), 1):
                heading = ENTRY_HEADING.match(line)
                entry = slugs.get(heading[1]) if heading else None
                if entry is not None:
                    found.append(
                        LineSource(
                            number,
                            settings.export_name,
                            entry.position.line,
                            f"{words.entry.one} « {entry.name} »",
                        )
                    )
            sources[uri] = tuple(found)
        return sources

    @cached_property
    def _groups_by_uri(self) -> dict[str, Group]:
        return {self.settings.group_uri(group): group for group in self.result.groups}

    def page_keys(self) -> dict[str, str]:
        """What each of its pages is, whatever its address (`GeneratedPage.key`): the
        database, by its export, then the page's part in it."""
        settings = self.settings
        base = f"base {settings.export_name} :"
        keys = {
            settings.group_uri(c): f"{base} {GROUP_KEY} « {c.name} »" for c in self.result.groups
        }
        keys[settings.index_uri] = f"{base} {INDEX_KEY}"
        keys[settings.fields_uri] = f"{base} {FIELDS_KEY}"
        keys[settings.lists_uri] = f"{base} {LISTS_KEY}"
        return keys

    def default_uris(self) -> dict[str, str]:
        """Where its index, fields and lists pages would be with the default words and
        titles, by their keys: the addresses a site had before it chose its own."""
        settings = dataclasses.replace(
            self.settings,
            index_title=capitalized(DEFAULT_WORDS.entry.every()),
            fields_title=DEFAULT_FIELDS_TITLE,
            words=DEFAULT_WORDS,
        )
        base = f"base {settings.export_name} :"
        return {
            f"{base} {INDEX_KEY}": settings.index_uri,
            f"{base} {FIELDS_KEY}": settings.fields_uri,
            f"{base} {LISTS_KEY}": settings.lists_uri,
        }

    def group_pages(self) -> dict[str, str]:
        """Group name of each group page."""
        return {self.settings.group_uri(c): c.name for c in self.result.groups}

    def targets(self) -> list[EntryTarget]:
        """What an italic mention of an entry can link to."""
        return [
            EntryTarget(self.settings.group_uri(group), entry.slug, entry.name, group.name)
            for group in self.result.groups
            for entry in group.entries
        ]

    def extend_nav(self, nav: list[Any]) -> None:
        """Append the entry pages to the nav section named `section`, or a new one."""
        settings = self.settings
        pages: list[Any] = [
            {settings.index_title: settings.index_uri},
            {settings.lists_title: settings.lists_uri},
            {settings.fields_title: settings.fields_uri},
        ]
        pages += [{c.name: settings.group_uri(c)} for c in self.result.groups]
        for item in nav:
            if isinstance(item, dict) and settings.section in item:
                section = item[settings.section]
                if isinstance(section, list):
                    section.extend(pages)
                    return
        nav.append({settings.section: pages})

    def with_table(self, html: str) -> str:
        """The entry index's converted page with its table where its Markdown left the mark
        (`pages.render_entry_index`): the table is HTML already, and Python-Markdown would
        read its hundreds of rows through its HTML parser."""
        mark = ENTRY_TABLE_MARK
        if html.count(mark) != 1:
            raise ValueError(
                f"« {self.settings.index_title} » : la marque du tableau de l’index ({mark}) "
                "n’est pas une fois dans la page convertie"
            )
        table = render_entry_table(self.result, self.labels, self.columns)
        return html.replace(mark, table)

    @cached_property
    def data(self) -> str:
        """The text of its data file (`records`, as JSON): made once, with the book, and kept
        with it in the build cache."""
        # Never « Infinity » nor « NaN », which no browser reads as JSON: an error here.
        return json.dumps(self.records(), ensure_ascii=False, allow_nan=False)

    def records(self) -> list[dict[str, object]]:
        """The records of its data file (`DatabaseSettings.data_file`). Their descriptions get
        the pages' French spacing: the list shows and prints them as the scripts write
        them, past the built pages' typography. Names and fields are left as exported: the
        filters read the fields as words, and a kept list names its entries."""
        records = entry_records(self.result, self.settings.folder, self.columns)
        for record in records:
            record["description"] = spaced_markdown(str(record["description"]))
        return records


def read_book(
    settings: DatabaseSettings, cache: Path | None = None
) -> tuple[Book | None, list[Problem]]:
    """The entry book of the export, and every problem of the export for the report; no
    book when the export cannot be read at all. With a `cache` folder, the book of the same
    export read with the same settings and code is kept there and read again (reading the
    export and its terms is most of a warm build's own work)."""
    name = settings.export_name
    problems: list[Problem] = []
    try:
        text = read_export(settings.export)
    except FileNotFoundError:
        message = (
            f"export introuvable : ce fichier (option export de la base « {settings.folder} » "
            "du greffon regles) n’existe pas"
        )
        return None, [Problem(name, None, "error", Kind.EXPORT_UNREADABLE, message)]
    except OSError as error:
        reason = error.strerror or type(error).__name__
        message = f"export illisible : {reason}"
        return None, [Problem(name, None, "error", Kind.EXPORT_UNREADABLE, message)]
    except ExportError:
        # Every other fault of the export is listed too: read it with « � » in place.
        text, found = checks.decode_source(settings.export.read_bytes(), name)
        problems += [dataclasses.replace(p, kind=Kind.EXPORT_UNREADABLE) for p in found]
    book = _parsed(settings, text, cache)
    result = book.result
    problems += export_problems(result, settings.words)
    problems += header_problems(result)
    problems += [
        setting_warning(
            settings,
            Kind.UNKNOWN_TERM,
            term,
            f"terme « {term} » (terms de la base « {settings.folder} ») : l’export ne "
            "l’emploie nulle part, ni dans un texte ni dans le nom d’un champ ; sa définition "
            "n’est montrée nulle part",
        )
        for term in book.terms.unused_terms
    ]
    used = {name for s in result.entries for name in s.fields}
    problems += [
        setting_warning(
            settings,
            Kind.UNKNOWN_COLUMN,
            name,
            f"colonne « {name} » (columns de la base « {settings.folder} ») : aucune entrée "
            f"de l’export n’a ce champ ; ses champs : {', '.join(sorted(used)) or 'aucun'}",
        )
        for name, _ in settings.columns or ()
        if name not in used
    ]
    shown = {c.field for c in book.columns}
    problems += [
        setting_warning(
            settings,
            Kind.UNKNOWN_COLUMN,
            name,
            f"filtre « {name} » (filters de la base « {settings.folder} ») : ce champ n’est "
            f"pas une colonne de l’index ; ses colonnes : {', '.join(sorted(shown)) or 'aucune'}",
        )
        for name in settings.filters or ()
        if name not in shown
    ]
    return book, problems


def setting_warning(settings: DatabaseSettings, kind: Kind, subject: str, message: str) -> Problem:
    """A warning about what a database's settings name (a term, a column) that its export
    does not have: in the configuration file, without a line."""
    return Problem(settings.config_name, None, "warning", kind, message, subject)


def list_slug(words: Words) -> str:
    """The address, in its database's folder, of the page of the readers' lists: « grimoire »,
    « livre-de-prieres »."""
    return slugify(words.list.one) or "listes"


def _parsed(settings: DatabaseSettings, text: str, cache: Path | None) -> Book:
    """The export's text parsed, its terms read; from the cache when it has them."""
    key = hashlib.sha256(f"{code_digest()}\0{settings!r}\0{text}".encode()).hexdigest()[:24]
    # One entry per database (its folder, unique in a site; a slug has no dot, so that
    # « betes. » is no prefix of « betes-de-nuit. »): keeping one book removes the older
    # ones of that database only, not the other databases' books.
    own = f"{CACHE_PREFIX}{slugify(settings.folder) or 'base'}."
    entry = cache / f"{own}{key}.pickle" if cache is not None else None
    kept = kept_object(entry) if entry is not None else None
    if isinstance(kept, Book) and kept.settings == settings:
        return kept
    reserved = {
        slugify(settings.index_title),
        slugify(settings.fields_title),
        list_slug(settings.words),
    }
    book = Book(
        settings,
        parse_export(
            text,
            source=settings.export_name,
            reserved_slugs=reserved,
            group=settings.words.group,
            entry=settings.words.entry,
        ),
    )
    _ = book.terms, book.data  # made now, and kept with the book
    if entry is not None:
        keep_object(entry, book, stale=f"{own}*.pickle")
    return book


def header_problems(result: ParseResult) -> list[Problem]:
    """The export's title and date, which its pages show: a warning for each one missing."""
    problems = []
    if not result.title:
        problems.append(
            Problem(
                result.source,
                1,
                "warning",
                Kind.EXPORT_HEADER,
                "export sans titre : sa première ligne devrait être « # <titre> _Généré le "
                "<date>_ » ; ses pages disent « Export sans titre »",
            )
        )
    if not result.generated:
        problems.append(
            Problem(
                result.source,
                1,
                "warning",
                Kind.EXPORT_HEADER,
                "export sans date de génération (« _Généré le <date>_ » après le titre) : "
                "ses pages disent « date de génération absente de l’export »",
            )
        )
    return problems


def export_problems(result: ParseResult, words: Words = DEFAULT_WORDS) -> list[Problem]:
    """The parse's problems as the report lists them, and its summary in the game's words."""
    last = _last_entry(result)
    problems = []
    for p in result.problems:
        # An uncertain split is for the owner to check, not a fault: it must not fail a
        # --strict build, so it goes to the report as information.
        uncertain = p.kind is Kind.UNCERTAIN_SPLIT
        message, entry, group = p.message, p.subject, p.context
        if p.kind is Kind.EXPORT_TRUNCATED and last is not None:
            # The entry the export stops in is kept, cut short: name it.
            message += f" ; la dernière entrée, ligne {last[1]}, est sans doute coupée"
            entry, group = entry or last[0], group or last[2]
        # Text before the first group is in none: no name to quote.
        in_group = f", {words.group.one} « {group} »" if group else ""
        problems.append(
            dataclasses.replace(
                p,
                severity="info" if uncertain else p.severity,
                message=f"colonne {p.column}{in_group} : {message}",
                subject=entry,
                context=group,
            )
        )
    # On line 1: the report sorts problems by line, and this file has numbered ones.
    problems.append(
        Problem(
            result.source,
            1,
            "info",
            Kind.EXPORT_SUMMARY,
            summary_text(len(result.groups), len(result.entries), len(result.rejected), words),
        )
    )
    return problems


def summary_text(groups: int, entries: int, rejected: int, words: Words) -> str:
    """« 23 collèges, 422 sorts publiés, aucun sort écarté pour erreur »."""
    return (
        f"{words.group.count(groups)}, {words.entry.count(entries)} "
        f"{words.entry.agreed('publié', entries)}, {words.entry.count(rejected)} "
        f"{words.entry.agreed('écarté', rejected)} pour erreur"
    )


def _last_entry(result: ParseResult) -> tuple[str, int, str | None] | None:
    """Name, line and group of the export's last `###` entry, kept or rejected."""
    entries: list[tuple[int, str, int, str | None]] = [
        (s.position.offset, s.name, s.position.line, s.group) for s in result.entries
    ]
    entries += [(r.position.offset, r.heading, r.position.line, r.group) for r in result.rejected]
    if not entries:
        return None
    _, name, line, group = max(entries)
    return name, line, group
