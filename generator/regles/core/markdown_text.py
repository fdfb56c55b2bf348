"""Line-level reading of Markdown sources: one segmentation of a page, shared by every pass.

`segment` reads a page once into prose lines, fenced blocks (directive fences among them),
front matter and inline code; the passes take that `PageText` instead of the raw text, so
that they all agree on what is code and none of them looks for fences again.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Protocol

from regles.core.slugs import slugify, unique_slug

__all__ = [
    "DIRECTIVES",
    "DirectiveFence",
    "Fence",
    "Heading",
    "LineKind",
    "PageText",
    "markdown_text",
    "segment",
    "sub_outside_protected",
]

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
# The site's own blocks, written as fences whose info string names them: ```calculateur id.
# ```calculateurs (no id) lists the page's calculators; ```accueil (no id) is the home page's
# search field and quick links.
DIRECTIVES = ("calculateurs", "calculateur", "table", "note", "accueil")
DIRECTIVE = re.compile(r"^```\s*(" + "|".join(DIRECTIVES) + r")\b[ \t]*(.*?)\s*$")
# MkDocs' own pattern (mkdocs.utils.meta.YAML_RE): what it takes for a front matter.
FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ATTR_LIST = re.compile(r"\s*\{:?\s*([^}]*)\}\s*$")
ATTR_ID = re.compile(r"#([\w-]+)")
SPAN_ID = re.compile(r'<(?:span|a)\s+id="([\w-]+)"\s*>([^<]*)</(?:span|a)>')
INLINE_MARKUP = re.compile(r"[*_`]|\[([^\]]*)\]\([^)]*\)")
# Spans that a text pass must leave alone: links (their words may run over two lines of a
# paragraph), inline code, HTML tags. Matched on the line as each pass leaves it (the links a
# pass adds are protected from the next one).
PROTECTED = re.compile(r"!?\[[^\]]*\]\([^)\n]*\)|`[^`\n]*`|<[^>\n]+>")


class LineKind(Enum):
    PROSE = "prose"
    FENCED = "fenced"  # a fence's opening, content or closing line
    FRONT_MATTER = "front matter"  # read as blank: MkDocs strips it


@dataclass(frozen=True)
class Fence:
    """A fenced block, from its opening line to its closing one (1-based, both included)."""

    start: int
    end: int | None  # never closed: the block runs to the end of the page
    marker: str  # the opening run; only a run of the same sign, as long or longer, closes it
    info: str  # what follows the marker on the opening line: `python`, `calculateur grid`


@dataclass(frozen=True)
class DirectiveFence:
    """A fence that holds one of the site's blocks: ```calculateur id, ```table id…"""

    kind: str
    argument: str
    fence: Fence

    @property
    def line(self) -> int:
        return self.fence.start


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str
    line: int


@dataclass(frozen=True)
class PageText:
    """A page's lines and the kind of each, as `segment` read them from the source.

    Passes rewrite prose lines in place (`with_lines`) and replace whole blocks in the output
    only (`replacing`): every line keeps its number in the source, so does every problem."""

    lines: tuple[str, ...]
    kinds: tuple[LineKind, ...]
    fences: tuple[Fence, ...]
    directives: tuple[DirectiveFence, ...]
    replacements: tuple[tuple[int, int, tuple[str, ...]], ...] = ()  # (first, last, by)
    _code: dict[int, tuple[tuple[int, int], ...]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    @property
    def text(self) -> str:
        """The page as Markdown, each replaced block written in its place."""
        if not self.replacements:
            return "\n".join(self.lines)
        out: list[str] = []
        after = 0
        for first, last, by in sorted(self.replacements):
            out.extend(self.lines[after : first - 1])
            out.extend(by)
            after = last
        out.extend(self.lines[after:])
        return "\n".join(out)

    def prose(self) -> Iterator[tuple[int, str]]:
        """(1-based number, line) of each line outside fences and front matter."""
        for number, (line, kind) in enumerate(zip(self.lines, self.kinds, strict=True), 1):
            if kind is LineKind.PROSE:
                yield number, line

    def fenced(self, number: int) -> bool:
        return self.kinds[number - 1] is LineKind.FENCED

    def with_lines(self, lines: Sequence[str]) -> PageText:
        """The page with prose lines rewritten, one for one: the segmentation stays the
        source's, so a pass must not write a line that would open or close a fence."""
        if len(lines) != len(self.lines):
            raise ValueError(f"{len(lines)} lines given for a page of {len(self.lines)}")
        return replace(self, lines=tuple(lines))

    def replacing(self, first: int, last: int, by: Sequence[str]) -> PageText:
        """The page whose Markdown has lines `by` instead of lines first to last."""
        return replace(self, replacements=(*self.replacements, (first, last, tuple(by))))

    def code_spans(self, number: int) -> tuple[tuple[int, int], ...]:
        """(start, end) offsets of the inline code spans of line `number`, found once."""
        if number not in self._code:
            line = self.lines[number - 1]
            found = INLINE_CODE.finditer(line) if "`" in line else ()
            self._code[number] = tuple(m.span() for m in found)
        return self._code[number]

    def without_code(self, number: int, fill: str = " ") -> str:
        """Line `number` with each character of its inline code spans replaced by `fill`
        (spaces keep the offsets; "" drops the spans)."""
        line = self.lines[number - 1]
        out: list[str] = []
        last = 0
        for start, end in self.code_spans(number):
            out += (line[last:start], fill * (end - start))
            last = end
        return "".join(out) + line[last:] if out else line

    @cached_property
    def headings(self) -> tuple[Heading, ...]:
        """Headings in order, with the anchor the toc extension gives them on the built page."""
        taken: set[str] = set()
        found: list[Heading] = []
        for number, line in self.prose():
            match = HEADING.match(line)
            if not match:
                continue
            raw = match.group(2)
            attrs = ATTR_LIST.search(raw)
            explicit = ATTR_ID.search(attrs.group(1)) if attrs else None
            text = plain_heading_text(raw)
            if explicit:
                anchor = explicit.group(1)
                taken.add(anchor)
            else:
                anchor = unique_slug(slugify(text), taken)
            found.append(Heading(len(match.group(1)), text, anchor, number))
        return tuple(found)

    @cached_property
    def anchor_spans(self) -> tuple[tuple[str, str, int], ...]:
        """`<span id="x">Text</span>` anchors: (id, text, line)."""
        return tuple(
            (m.group(1), m.group(2).strip(), number)
            for number, line in self.prose()
            for m in SPAN_ID.finditer(line)
        )


def segment(text: str, *, front_matter: bool = False) -> PageText:
    """Read a page once. With `front_matter`, a leading YAML block (MkDocs' pattern) is
    blanked, as MkDocs strips it, and the lines after it keep the file's numbers."""
    lines = text.split("\n")
    match = FRONT_MATTER.match(text) if front_matter else None
    masked = match.group(0).count("\n") if match else 0
    lines[:masked] = [""] * masked
    kinds: list[LineKind] = [LineKind.FRONT_MATTER] * masked
    fences: list[Fence] = []
    opening: tuple[int, str, str] | None = None  # start, marker, info of the open fence
    for number, line in enumerate(lines[masked:], start=masked + 1):
        found = FENCE.match(line)
        if opening is None:
            if found:
                opening = (number, found.group(1), line[found.end() :].strip())
            kinds.append(LineKind.FENCED if found else LineKind.PROSE)
            continue
        kinds.append(LineKind.FENCED)
        marker = opening[1]
        if (
            found
            and found.group(1).startswith(marker[0] * len(marker))
            and not line.strip(marker[0] + " \t")
        ):
            fences.append(Fence(opening[0], number, marker, opening[2]))
            opening = None
    if opening is not None:
        fences.append(Fence(opening[0], None, opening[1], opening[2]))
    directives = []
    for fence in fences:
        directive = DIRECTIVE.match(lines[fence.start - 1])
        if directive:
            directives.append(DirectiveFence(directive.group(1), directive.group(2), fence))
    return PageText(tuple(lines), tuple(kinds), tuple(fences), tuple(directives))


# What Markdown would read as markup inside a line: emphasis, code, links, attribute lists,
# a heading's closing hashes; raw HTML and entities are escaped apart.
MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]#])")


def markdown_text(text: str) -> str:
    """`text` (a name from an export, a title from the settings) written into a line of
    Markdown so that the page shows it as written, never as markup."""
    return html.escape(MARKDOWN_SPECIALS.sub(r"\\\1", text), quote=False)


def plain_heading_text(raw: str) -> str:
    text = ATTR_LIST.sub("", raw)
    return INLINE_MARKUP.sub(lambda m: m.group(1) or "", text).strip()


class Substitutes(Protocol):
    """A compiled pattern's `sub`, or what finds the same matches another way."""

    def sub(self, repl: Callable[[re.Match[str]], str], string: str) -> str: ...


def sub_outside_protected(
    pattern: Substitutes, repl: Callable[[re.Match[str]], str], line: str
) -> str:
    """`pattern.sub(repl, line)` applied only to the text between links, code and tags."""
    out: list[str] = []
    last = 0
    for match in PROTECTED.finditer(line):
        out.append(pattern.sub(repl, line[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(pattern.sub(repl, line[last:]))
    return "".join(out)
