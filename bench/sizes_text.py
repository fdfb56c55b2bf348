"""This repository's French text, cut for the big games of the benchmark (bench/sizes.py).

The rules pages of `content/` (their system folders) give headings and movable blocks:
paragraphs, lists, tables, admonitions and calculator blocks, without what cannot move to
another page (raw HTML, links, footnotes, attribute lists). The source documents of
`tests/content/sources/` give the lines that read as paragraphs and that the pages do not
already carry. The spell export gives its colleges and its spells, each with its levels, its
fields and its description as the export writes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from regles.core.slugs import fold
from regles.features.databases.export import restore_line_breaks
from regles.features.databases.model import read_export

__all__ = [
    "CONTENT",
    "ROOT",
    "SOURCES",
    "Entry",
    "Pool",
    "default_pool",
    "markdown_blocks",
    "read_pool",
]

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SOURCES = ROOT / "tests" / "content" / "sources"
ENTRY_EXPORT = CONTENT / "magie" / "export-magie.txt"
TOOLS_PAGE = CONTENT / "outils.md"


@dataclass(frozen=True)
class Entry:
    """One spell of the export: its name, levels and body (fields and description lines)."""

    name: str
    levels: str
    body: str


@dataclass(frozen=True)
class Pool:
    """What pages and databases are made of."""

    blocks: tuple[str, ...]  # Markdown blocks, each whole (a paragraph, a list, a note…)
    titles: tuple[str, ...]  # headings, each once (folded)
    entries: tuple[Entry, ...]
    groups: tuple[tuple[str, str], ...]  # (name, description) of the export's colleges
    tools_page: str  # this site's page of every calculator


HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\S*)\s*(\S*)")
DIRECTIVES = frozenset({"calculateur", "table", "note"})  # blocks that stand on their own
# What a block cannot carry into another page: raw HTML, links (relative to its own page),
# footnotes, attribute lists, abbreviation definitions.
NOT_MOVABLE = re.compile(r"<[A-Za-z!/]|\]\(|\[\^|\{[:#.]|\{ [#.]|^\*\[|^\[[^\]]+\]:", re.M)
TITLE_MARKUP = re.compile(r"[\[\]{}<>*_`#|\\]")
# A line of a source document that reads as a paragraph (a heading has no final stop).
SOURCE_LINE = re.compile(r"^\S.{79,}[.:!?»)]$")
SOURCE_MARKUP = re.compile(r"[*_#<>|\[\]{}`\\]")
ENTRY_HEADING = re.compile(r"^### (?P<name>.+?) \((?P<levels>[^()]+)\)\s*$")
GROUP_DESCRIPTION = re.compile(r"^\*\*Description [^*]+:\*\* ?")


def markdown_blocks(text: str) -> tuple[list[str], list[str]]:
    """A page's headings and its movable blocks: paragraphs, lists, tables, admonitions
    with their indented body, and directive fences (```calculateur x)."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":  # front matter
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    titles: list[str] = []
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = HEADING.match(line)
        if heading:
            titles.append(heading.group(2))
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].startswith(fence.group(1))),
                len(lines) - 1,
            )
            if fence.group(2) in DIRECTIVES and fence.group(3):
                blocks.append("\n".join(lines[i : end + 1]))
            i = end + 1
            continue
        start = i
        i += 1
        # A block runs to a blank line, and on past it while the next lines are indented
        # (an admonition's body, a list item's second paragraph).
        while i < len(lines):
            if lines[i].strip():
                if HEADING.match(lines[i]) or FENCE.match(lines[i]):
                    break
                i += 1
                continue
            after = next((j for j in range(i, len(lines)) if lines[j].strip()), len(lines))
            if after < len(lines) and lines[after].startswith(("    ", "\t")):
                i = after
                continue
            break
        block = "\n".join(lines[start:i]).rstrip()
        if not NOT_MOVABLE.search(block):
            blocks.append(block)
    return titles, blocks


def _source_paragraphs(text: str, known: str) -> list[str]:
    """The lines of a source document that read as paragraphs and that the pages do not
    already carry (the site holds its documents' text)."""
    return [
        line
        for line in (raw.strip() for raw in text.split("\n"))
        if SOURCE_LINE.match(line) and not SOURCE_MARKUP.search(line) and line not in known
    ]


def _export_parts(text: str) -> tuple[list[tuple[str, str]], list[Entry]]:
    """The export's colleges (name, description) and spells, from its line-broken form."""
    groups: list[tuple[str, str]] = []
    entries: list[Entry] = []
    current: list[str] | None = None
    heading: re.Match[str] | None = None

    def close() -> None:
        if heading is not None and current is not None:
            body = "\n".join(current).strip()
            entries.append(Entry(heading["name"].strip(), heading["levels"].strip(), body))

    lines = restore_line_breaks(text).split("\n")
    for number, line in enumerate(lines):
        if line.startswith("## "):
            close()
            heading, current = None, None
            description = next((x for x in lines[number + 1 :] if x.strip()), "")
            groups.append((line[3:].strip(), GROUP_DESCRIPTION.sub("", description).strip()))
        elif line.startswith("### "):
            close()
            heading, current = ENTRY_HEADING.match(line), []
        elif line.startswith("---"):
            close()
            heading, current = None, None
        elif current is not None:
            current.append(line)
    close()
    return groups, entries


def read_pool(root: Path = ROOT) -> Pool:
    """This repository's French text, cut for the game: read from the files, in a fixed
    order."""
    content, sources = root / CONTENT.relative_to(ROOT), root / SOURCES.relative_to(ROOT)
    titles: list[str] = []
    blocks: list[str] = []
    pages = sorted(p for p in content.rglob("*.md") if p.parent != content)
    texts = [p.read_text(encoding="utf-8") for p in pages]
    for text in texts:
        found, cut = markdown_blocks(text)
        titles += found
        blocks += cut
    known = "\n".join(texts)
    export = root / ENTRY_EXPORT.relative_to(ROOT)
    for path in sorted(sources.glob("*.txt")):
        if path.read_bytes() == export.read_bytes():
            continue  # the export itself: its spells fill the databases
        blocks += _source_paragraphs(path.read_text(encoding="utf-8"), known)
    seen: set[str] = set()
    unique_titles = []
    for title in titles:
        key = fold(title)
        if key not in seen and not TITLE_MARKUP.search(title) and len(key) >= 3:
            seen.add(key)
            unique_titles.append(title)
    groups, entries = _export_parts(read_export(export))
    tools = (root / TOOLS_PAGE.relative_to(ROOT)).read_text(encoding="utf-8")
    return Pool(tuple(dict.fromkeys(blocks)), tuple(unique_titles), tuple(entries),
                tuple(groups), tools)  # fmt: skip


@cache
def default_pool() -> Pool:
    """The pool of this work tree, read once."""
    return read_pool()
