"""The stages of a build, and the registry each feature fills for them.

A feature (features/<name>/feature.py) is an object made from the site being built
(`SiteContext`) that registers, once, what it does at each stage (`Feature.register`). The
build (core/build.py) runs the stages in order and calls what is registered; it knows no
feature by name. The stages, in the order a build goes through them:

1. `nav`: the nav as mkdocs.yml wrote it, before MkDocs reads it (a feature appends pages);
2. `files`: the site's files before any is built: a feature removes or adds some (the pages'
   one stylesheet and script, an export that is read and not published);
3. `pages`: pages a feature adds to the owner's (entry pages, the offline page, print pages);
4. `indexed`: once every page is read, before any is converted (calculators' placements);
5. `markdown`: each page's Markdown, pass by pass (`directives`: the ```` ``` ```` blocks a
   feature renders, expanded by the last pass);
6. `html`: each page's converted HTML, pass by pass;
7. `converted`: once every page is converted, before the report (the search index asked for);
8. `documents`: each page's whole document, as the theme's templates made it;
9. `emitters`: once every page is written, files made from all of them (the offline copy
   last: it lists every other file).

`start` and `abandon` run when a build starts and when it fails; `template_globals` are what
the theme's templates read of a feature; `offline_later` what the offline copy downloads
last. Passes and emitters are kept in Python-Markdown's `Registry`: by name, highest
priority first, the order readable from the registrations themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from markdown.util import Registry

from regles.core.directives import Directive
from regles.core.link_checks import SiteMap
from regles.core.markdown_text import PageText
from regles.core.report import Problem

__all__ = [
    "DirectiveRenderer",
    "DocumentJob",
    "DocumentPass",
    "Emitter",
    "Feature",
    "FileChanges",
    "FilesPass",
    "GeneratedPage",
    "HtmlJob",
    "HtmlPass",
    "LineSource",
    "MarkdownPass",
    "PageJob",
    "SiteFile",
    "Stages",
    "at_source",
]


@dataclass(frozen=True)
class SiteFile:
    """A file of the site before the build writes it: its path in the site, and its text
    (read when asked: most files are never read)."""

    path: str
    source: Path | None  # its file on disk; None for a file the build made
    read: Callable[[], str]

    @classmethod
    def made(cls, path: str, text: str) -> SiteFile:
        """A file the build made, of that text."""
        return cls(path, None, lambda: text)


@dataclass
class FileChanges:
    """What a files pass does to the site's files: paths removed, files added (path → text),
    and, for the pages' stylesheets and scripts, what the pages link to instead."""

    removed: set[str] = field(default_factory=set)
    added: dict[str, str] = field(default_factory=dict)
    stylesheets: list[str] | None = None
    scripts: list[str] | None = None  # deferred


FilesPass = Callable[[Mapping[str, SiteFile]], FileChanges]


@dataclass(frozen=True)
class LineSource:
    """Where the lines of a generated page come from, from its line `first` on (1-based):
    the `line` of the owner's `file` that holds `what` (« entrée « Goule » »)."""

    first: int
    file: str
    line: int
    what: str


def at_source(problem: Problem, sources: Sequence[LineSource]) -> Problem:
    """`problem`, found on a line of a generated page whose lines come from `sources`, said
    at the owner's line instead, with what is there and the page's name; as it is when it
    has no line or comes before the first source."""
    if problem.line is None:
        return problem
    source = next((s for s in reversed(sources) if s.first <= problem.line), None)
    if source is None:
        return problem
    return replace(
        problem,
        file=source.file,
        line=source.line,
        message=f"{problem.message} ({source.what}, page « {problem.file} »)",
    )


@dataclass(frozen=True)
class GeneratedPage:
    uri: str  # its path in the docs: "sorts/feu.md"
    markdown: str
    in_nav: bool = True
    # What the page is, whatever its address (« base bestiaire.txt : listes »), for a page
    # whose address follows the site's words or folders: every address it had keeps leading
    # to it (features/redirects).
    key: str | None = None
    # Where its lines come from, for a page written from the owner's file (an export), in
    # the order of the page: a problem found in it is said there, where the owner mends it.
    sources: tuple[LineSource, ...] = ()


@dataclass(frozen=True)
class PageJob:
    """What a Markdown pass knows of the page it reads, besides its text."""

    file: str
    site: SiteMap | None = None  # the owner's pages and their anchors: None for a page the
    # generator wrote, which gets no source checks


# A pass reads the page as the previous one left it and returns it, with its problems.
MarkdownPass = Callable[[PageText, PageJob], tuple[PageText, list[Problem]]]
# What a directive block becomes, given the page it is in.
DirectiveRenderer = Callable[[Directive, PageText], str]


@dataclass(frozen=True)
class HtmlJob:
    """What an HTML pass knows of the page it reads."""

    uri: str  # its path in the docs
    destination: str  # its file in the site: "jeu/combat/index.html"
    title: str
    searched: bool = True  # its front matter does not say `search: exclude: true`


HtmlPass = Callable[[str, HtmlJob], str]


@dataclass(frozen=True)
class DocumentJob:
    uri: str  # the page's path in the docs
    content: str | None  # its converted content, inside the document


DocumentPass = Callable[[str, DocumentJob], str]
Emitter = Callable[[Path], None]  # the site's folder, every page written


class Stages:
    """What the features registered, stage by stage (see the module's docstring)."""

    def __init__(self) -> None:
        self.start: list[Callable[[], None]] = []
        self.abandon: list[Callable[[], None]] = []
        self.nav: list[Callable[[list[Any]], None]] = []
        self.files: Registry[FilesPass] = Registry()
        self.pages: list[Callable[[frozenset[str]], list[GeneratedPage]]] = []
        self.indexed: list[Callable[[], list[Problem]]] = []
        self.markdown: Registry[MarkdownPass] = Registry()
        self.directives: dict[str, DirectiveRenderer] = {}
        self.html: Registry[HtmlPass] = Registry()
        self.converted: list[Callable[[Path], None]] = []
        self.documents: Registry[DocumentPass] = Registry()
        self.emitters: Registry[Emitter] = Registry()
        # What the theme's templates read, by name (`regles_app`, `regles_search_words`).
        self.template_globals: dict[str, object] = {}
        # The inline scripts a feature writes into pages (their text, as written): the only
        # ones, with the theme's and the declared pages', that the pages' policy allows.
        self.inline_scripts: set[str] = set()
        # Paths in the site (a folder ends with "/") that the offline copy downloads after
        # the text: a heavy runtime that only some pages use (the calculators' Python).
        self.offline_later: list[str] = []

    def directive(self, kind: str, render: DirectiveRenderer) -> None:
        """Register what a directive block of `kind` becomes: one feature per kind."""
        if kind in self.directives:
            raise ValueError(f"directive « {kind} » registered twice")
        self.directives[kind] = render


class Feature(Protocol):
    """A feature of the generator: it registers what it does at each stage."""

    def register(self, stages: Stages) -> None: ...
