"""French typography of the built pages: no line break where French print never has one.

In French, « ; ! ? » take a narrow no-break space (U+202F) before them, « : » a no-break
space (U+00A0), and the guillemets « » a no-break space inside; a number is not cut from its
unit (« 9 m », « 1d6 heures », « 50 % », the last with U+202F). The owner types ordinary
spaces: at 360 px a line then breaks before « ; le lien » or after « « ». The Markdown
source is never changed; each page's HTML is, in its text only:

- only the text between tags changes: never a tag, an attribute (a link's address, a form's
  value, a `data-` description), a comment, nor the text of `CODE_TAGS` (code, preformatted
  text, keys typed, scripts, styles, a text area's or a list option's value);
- only ordinary spaces (and line breaks) that are already there are replaced: no space is
  added where the owner wrote none (« http://x », « 10:30 », « 1d6! » stay as written);
- the pass is idempotent: a page's article goes through it when MkDocs has converted it (the
  search index gets that text), then the whole document (nav, table of contents, title) when
  the templates are rendered.

The HTML is cut into tags and text by one regular expression (`TOKEN`), quoted attribute
values kept whole: `html.parser` does the same walk about fifteen times slower (0.9 s more on
the 2.8 MB of the site's pages), for a pass that only needs to tell text from markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

__all__ = [
    "CODE_TAGS",
    "UNITS",
    "Edit",
    "apply_edits",
    "french_spacing",
    "map_prose",
    "spaced_markdown",
    "spaced_marks",
    "spaced_text",
]

NBSP = "\u00a0"  # no-break space: before « : », inside « », between a number and its unit
NNBSP = "\u202f"  # narrow no-break space: before « ; ! ? » and « % »

# Elements whose text is not prose: left exactly as written. A calculator's `output` is
# the rules code's answer, which the page's script rewrites at each edit as the code wrote
# it: spaced at build only, it would change under the reader's eyes at the first edit.
CODE_TAGS = frozenset(
    {"code", "pre", "kbd", "samp", "var", "script", "style", "textarea", "option", "math", "output"}
)
# Elements whose content is raw text (no tags inside, whatever it looks like).
RAW_TEXT_TAGS = frozenset({"script", "style", "textarea"})

# A comment, a CDATA section, a doctype, or a tag with its attributes (a quoted value may
# hold « > »). Anything else, a « < » followed by a space among them, is text.
TOKEN = re.compile(
    r"(<!--.*?-->|<!\[CDATA\[.*?\]\]>|<[!?][^>]*>"
    r"|</?[A-Za-z][^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*>)",
    re.S,
)
# A comment (skipped: its text is no element), or the start tag of an element of CODE_TAGS.
_CODE_START = re.compile(
    r"<!--.*?-->|<(" + "|".join(sorted(CODE_TAGS)) + r")(?=[\s/>])[^>]*>", re.S | re.I
)

# Units a number is not cut from. Written as the pages write them (French), longest first
# where one begins another; a unit is a whole word (« 9 mois », not « 9 m » + « ois »).
UNITS = (
    "km", "cm", "mm", "m²", "m³", "m", "kg", "g", "l", "h", "min",
    "kilomètres", "kilomètre", "mètres", "mètre", "centimètres", "centimètre",
    "kilogrammes", "kilogramme", "kilos", "kilo", "grammes", "gramme", "litres", "litre",
    "livres", "livre", "pieds", "pied", "cases", "case",
    "secondes", "seconde", "minutes", "minute", "heures", "heure", "jours", "jour",
    "semaines", "semaine", "mois", "années", "année", "ans", "an", "rounds", "round",
    "tours", "tour", "po", "pa", "pc", "pe", "pp",
)  # fmt: skip

_SPACE = r"[ \t\r\n]+"
_BEFORE_NARROW = re.compile(r"[ \t\r\n\u00a0]+(?=[;!?])")
_BEFORE_COLON = re.compile(_SPACE + r"(?=:)")
_AFTER_OPENING = re.compile(r"(?<=«)" + _SPACE)
_BEFORE_CLOSING = re.compile(_SPACE + r"(?=»)")
# Only an ordinary space: a calculator's figures keep the no-break space Intl writes.
_BEFORE_PERCENT = re.compile(r"(?<=\d)" + _SPACE + r"(?=%)")
_UNIT_AHEAD = r"(?=(?:" + "|".join(map(re.escape, UNITS)) + r")(?![\w²³]))"
_BEFORE_UNIT = re.compile(r"(?<=\d)" + _SPACE + _UNIT_AHEAD)
_LEADING_UNIT = re.compile(_SPACE + _UNIT_AHEAD)
_SPACE_CHARS = frozenset(" \t\r\n")
# A text node with none of these has nothing to change (most of them: words between tags).
_MARKS = re.compile(r"[;:!?«»%]|\d\s")
_ANY_MARK = re.compile(r"[ \t\r\n\u00a0][;:!?»%]|«[ \t\r\n]|\d[ \t\r\n<]")


def spaced_marks(text: str) -> str:
    """`text` with French spacing around its marks: a narrow no-break space before ; ! ? and
    %, a no-break space before : and inside « ». Only the spaces already there change. The
    page scripts' `frenchSpacing` (theme/assets/js/page.js) does the same, which a test
    checks on the same inputs (tests/test_typography.py)."""
    text = _BEFORE_NARROW.sub(NNBSP, text)
    text = _BEFORE_COLON.sub(NBSP, text)
    text = _AFTER_OPENING.sub(NBSP, text)
    text = _BEFORE_CLOSING.sub(NBSP, text)
    return _BEFORE_PERCENT.sub(NNBSP, text)


# The same runs come back on every page (the navigation, the header, the footer).
@functools.lru_cache(maxsize=8192)
def spaced_text(text: str) -> str:
    """One run of prose text (HTML text, entities as written) with French spacing: its marks
    (`spaced_marks`), and no number cut from its unit."""
    if text.isspace() or not _MARKS.search(text):  # most text between tags
        return text
    return _BEFORE_UNIT.sub(NBSP, spaced_marks(text))


# A Markdown code span: `…` (its text is code, left as written).
_CODE_SPAN = re.compile(r"(`[^`\n]*`)")


def spaced_markdown(text: str) -> str:
    """A Markdown text shown by the pages' scripts (an entry's description in the list)
    with the pages' French spacing, line by line: no line break is ever joined, so lists and
    paragraphs stay as they were, and code spans are left as written."""
    return "\n".join(
        "".join(
            part if part.startswith("`") else spaced_text(part) for part in _CODE_SPAN.split(line)
        )
        for line in text.split("\n")
    )


def _code_regions(html: str) -> list[tuple[int, int]]:
    """(start, end) of each element of `CODE_TAGS` in `html`, from its start tag to the end of
    its end tag (to the end of `html` if it is never closed); comments skipped. An attribute
    value never holds a raw « < » (escaped HTML writes « &lt; »): every match is a tag."""
    regions: list[tuple[int, int]] = []
    position = 0
    while True:
        match = _CODE_START.search(html, position)
        if match is None:
            return regions
        name = match.group(1)
        if name is None or match.group(0).endswith("/>"):  # a comment, or <code/>
            position = match.end()
            continue
        name = name.lower()
        if name in RAW_TEXT_TAGS:
            end_tag = re.compile(rf"</{name}\s*>", re.I).search(html, match.end())
            end = end_tag.end() if end_tag is not None else len(html)
        else:
            depth, end = 1, len(html)
            for tag in re.compile(rf"<(/?){name}\b[^>]*>", re.I).finditer(html, match.end()):
                depth += -1 if tag.group(1) else 1
                if depth == 0:
                    end = tag.end()
                    break
        regions.append((match.start(), end))
        position = end


def map_prose(html: str, change: Callable[[str, int], str]) -> str:
    """`html` with each run of prose text (between two tokens, outside code) replaced by
    `change(text, offset)`, `offset` being where the text starts in `html`."""
    out: list[str] = []
    position = 0
    for start, end in [*_code_regions(html), (len(html), len(html))]:
        parts = TOKEN.split(html[position:start])
        at = position
        for i, part in enumerate(parts):
            # Text and tokens alternate: parts[0] is text, parts[1] a token, parts[2] text…
            out.append(change(part, at) if i % 2 == 0 and part else part)
            at += len(part)
        out.append(html[start:end])
        position = end
    return "".join(out)


# One change of a text: the `length` characters at `start` become `text`.
Edit = tuple[int, int, str]


def _markup_edits(html: str, start: int, edits: list[Edit]) -> None:
    """The changes of a stretch of HTML without code (at `start` in its page): each text
    between two tokens spaced."""
    parts = TOKEN.split(html)
    at = start
    for i in range(0, len(parts), 2):
        text = parts[i]
        spaced = spaced_text(text) if text else text
        # A number in an element of its own, its unit after it: « <button>1d6</button> heures ».
        if (
            i >= 2
            and text[:1] in _SPACE_CHARS
            and parts[i - 1].startswith("</")
            and parts[i - 2][-1:].isdigit()
            and _LEADING_UNIT.match(spaced)
        ):
            spaced = _LEADING_UNIT.sub(NBSP, spaced, count=1)
        if spaced != text:
            edits.append((at, len(text), spaced))
        at += len(text) + (len(parts[i + 1]) if i + 1 < len(parts) else 0)


def spacing_edits(html: str) -> tuple[Edit, ...]:
    """The changes `french_spacing` makes to `html`, in order: each text that changes, by
    where it starts, its length and its spaced text. A few per page, where the page is tens
    of kilobytes: what the build cache keeps of a page it spaced (core/build.py)."""
    if not _ANY_MARK.search(html):
        return ()
    edits: list[Edit] = []
    position = 0
    for start, end in _code_regions(html):
        _markup_edits(html[position:start], position, edits)
        position = end
    _markup_edits(html[position:], position, edits)
    return tuple(edits)


def apply_edits(html: str, edits: tuple[Edit, ...]) -> str:
    """`html` with its `edits` (those `spacing_edits` gave for it) made."""
    if not edits:
        return html
    out: list[str] = []
    position = 0
    for start, length, text in edits:
        out += (html[position:start], text)
        position = start + length
    out.append(html[position:])
    return "".join(out)


def french_spacing(html: str) -> str:
    """`html` (a page's content or its whole document) with French spacing in its text,
    its tags, attributes, comments and code untouched."""
    return apply_edits(html, spacing_edits(html))
