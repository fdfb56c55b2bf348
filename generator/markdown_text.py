"""Line-level reading of Markdown sources: fences, headings and the anchors they produce."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from generator.slugs import slugify, unique_slug

__all__ = [
    "Heading",
    "anchor_spans",
    "headings",
    "prose_lines",
    "sub_outside_protected",
]

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ATTR_LIST = re.compile(r"\s*\{:?\s*([^}]*)\}\s*$")
ATTR_ID = re.compile(r"#([\w-]+)")
SPAN_ID = re.compile(r'<(?:span|a)\s+id="([\w-]+)"\s*>([^<]*)</(?:span|a)>')
INLINE_MARKUP = re.compile(r"[*_`]|\[([^\]]*)\]\([^)]*\)")
# Spans that a text pass must leave alone: links, inline code, HTML tags.
PROTECTED = re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)|`[^`\n]*`|<[^>\n]+>")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str
    line: int


def prose_lines(markdown: str) -> Iterator[tuple[int, str, bool]]:
    """Each line with its 1-based number and whether it lies inside a fenced block."""
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n"), start=1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            yield number, line, True
        elif fence is not None:
            if (
                match
                and match.group(1).startswith(fence[0] * len(fence))
                and not line.strip(fence[0] + " \t")
            ):
                fence = None
            yield number, line, True
        else:
            yield number, line, False


def plain_heading_text(raw: str) -> str:
    text = ATTR_LIST.sub("", raw)
    return INLINE_MARKUP.sub(lambda m: m.group(1) or "", text).strip()


def headings(markdown: str) -> list[Heading]:
    """Headings in order, with the anchor the toc extension gives them on the built page."""
    taken: set[str] = set()
    found: list[Heading] = []
    for number, line, fenced in prose_lines(markdown):
        match = None if fenced else HEADING.match(line)
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
    return found


def anchor_spans(markdown: str) -> list[tuple[str, str, int]]:
    """`<span id="x">Text</span>` anchors: (id, text, line)."""
    return [
        (m.group(1), m.group(2).strip(), number)
        for number, line, fenced in prose_lines(markdown)
        if not fenced
        for m in SPAN_ID.finditer(line)
    ]


def sub_outside_protected(
    pattern: re.Pattern[str], repl: Callable[[re.Match[str]], str], line: str
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
