"""An entry's or a group's description as Markdown.

Descriptions become Markdown: whitespace runs are collapsed (non-breaking
spaces are kept), each ``•`` starts a list item ``- …`` (the last item runs to
the end of its line or paragraph), inline Markdown (``_italique_``,
``**gras**``) is kept, and only what would change the meaning as Markdown is
backslash-escaped (``\\``, backticks, braces, link-shaped brackets, block
syntax at a line start). ``[dégâts×10]`` stays as written. Raw HTML
(``<``, ``>``, ``&``) is kept in the records and neutralised by the renderers.
"""

from __future__ import annotations

import re

__all__ = [
    "collapse",
    "description_markdown",
]

# --------------------------------------------------------------------------
# Markdown for descriptions
# --------------------------------------------------------------------------

_WS_RE = re.compile(r"[ \t\r\n]+")  # not \s: non-breaking spaces are typography, kept as is
_BULLET_RE = re.compile(r"[ \t]*•[ \t]*")
_LINK_BRACKET_RE = re.compile(r"!?\[(?P<inner>[^\[\]\n]*)\](?P<after>[(\[:]?)")
# Raw HTML and ">" (blockquote) are left to the renderers, which turn ">" into "&gt;".
_BLOCK_START_RE = re.compile(r"^(?:#|[-+*](?=\s|$)|\*\[|!!!|(?:[-*_][ \t]*){3,}$)")
_ORDERED_START_RE = re.compile(r"^(\d+)([.)])(?=\s|$)")


def collapse(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def _escape_inline(text: str) -> str:
    """Escape what Markdown would not show as written; keep ``_x_``, ``**x**`` and ``[x]``."""
    text = text.replace("\\", "\\\\").replace("`", "\\`").replace("{", "\\{").replace("}", "\\}")

    def bracket(m: re.Match[str]) -> str:
        inner, after = m.group("inner"), m.group("after")
        # "[x](url)", "[x][ref]", "[x]: url", "![img]", "[^note]" and "[TOC]" would become
        # links, images, footnotes or a table of contents; "[dégâts×10]" stays plain text.
        if after or m.group().startswith("!") or inner.startswith("^") or inner == "TOC":
            prefix = "!" if m.group().startswith("!") else ""
            return f"{prefix}\\[{inner}\\]{after}"
        return m.group()

    return _LINK_BRACKET_RE.sub(bracket, text)


def _escape_line_start(text: str) -> str:
    # A paragraph starting with "#", "- ", "1. " or ">" would turn into a heading, a list...
    if _BLOCK_START_RE.match(text):
        return "\\" + text
    # "1. x" is an ordered list; "\1." is not an escape, "1\." is.
    return _ORDERED_START_RE.sub(r"\1\\\2", text)


def _description_blocks(raw: str) -> list[tuple[str, str]]:
    """Paragraphs ("p") and bullet items ("li") of a description, whitespace-normalised."""
    blocks: list[tuple[str, str]] = []
    current: list[str] = []
    current_kind = "p"

    def flush() -> None:
        nonlocal current
        text = collapse(" ".join(current))
        if text:
            blocks.append((current_kind, text))
        current = []

    for line in raw.split("\n"):
        if not line.strip():
            flush()
            current_kind = "p"
            continue
        pieces = _BULLET_RE.split(line)
        head, items = pieces[0], pieces[1:]
        if head.strip():
            if current_kind == "li":
                # A line break after a bullet item is a certain end of that item.
                flush()
                current_kind = "p"
            current.append(head)
        for item in items:
            flush()
            current_kind = "li"
            current.append(item)
    flush()
    return blocks


def description_markdown(raw: str) -> str:
    parts: list[str] = []
    previous = ""
    for kind, text in _description_blocks(raw):
        escaped = _escape_line_start(_escape_inline(text))
        if kind == "li":
            parts.append(("\n" if previous == "li" else "\n\n") + "- " + escaped)
        else:
            parts.append("\n\n" + escaped)
        previous = kind
    return "".join(parts).strip("\n")
