"""Checks of the owner's sources that MkDocs does not make, or makes without a line number.

Every function here is pure: it takes a page as `markdown_text.segment` reads it (or text, or
bytes) and a source path relative to the docs folder, and returns Problems. Each one guards
against a page that would be built silently wrong: a file that is not UTF-8, an empty page, a
front matter MkDocs ignores, a fence or an HTML block that swallows the rest of the page, a
table broken by a list, a nav entry without its page. Links and anchors are link_checks.py's.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import yaml

from regles.core.link_checks import (
    EXTERNAL,
    SiteMap,
    check_local_links,
    check_page_ids,
    close_page,
)
from regles.core.markdown_text import FRONT_MATTER, LineKind, PageText
from regles.core.report import Kind, Problem

__all__ = [
    "check_empty",
    "check_fences",
    "check_front_matter",
    "check_nav",
    "check_raw_html",
    "check_scripts",
    "check_source",
    "check_tables",
    "decode_source",
    "front_matter_lines",
    "mask_front_matter",
    "shift_lines",
]


# Files: encoding, emptiness, front matter ------------------------------------------------


def decode_source(data: bytes, file: str) -> tuple[str, list[Problem]]:
    """The text of a page; a file that is not UTF-8 is decoded with « � » and reported.

    MkDocs itself would stop on the first invalid byte with a traceback; this way the build
    goes on, lists every other problem too, and fails at the end naming the file and line.
    Windows (and old Mac) line ends become "\n": every pass reads lines, and a fence line
    ending in "\r" would not close its block.
    """
    body = data.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return body.decode("utf-8"), []
    except UnicodeDecodeError as error:
        start = error.start
        line = body.count(b"\n", 0, start) + 1
        column = start - (body.rfind(b"\n", 0, start) + 1) + 1
        invalid = sum(1 for _ in re.finditer("\ufffd", body.decode("utf-8", "replace")))
        guess = ""
        try:
            body.decode("cp1252")
            guess = " (probablement Windows-1252 ou Latin-1)"
        except UnicodeDecodeError:
            pass
        message = (
            f"fichier non UTF-8{guess} : octet 0x{body[start]:02X} invalide colonne {column}"
            f" ({invalid} octet(s) invalide(s) en tout) ; enregistrez le fichier en UTF-8"
        )
        return body.decode("utf-8", "replace"), [
            Problem(file, line, "error", Kind.ENCODING, message)
        ]


def front_matter_lines(text: str) -> int:
    """Number of lines of the front matter MkDocs strips from the page (0 without one)."""
    match = FRONT_MATTER.match(text)
    return match.group(0).count("\n") if match else 0


def mask_front_matter(text: str) -> str:
    """The page with its front matter blanked out, so that line numbers stay the source's."""
    count = front_matter_lines(text)
    if not count:
        return text
    lines = text.split("\n")
    return "\n".join([""] * count + lines[count:])


def check_empty(text: str, file: str) -> list[Problem]:
    """An empty page (or one with only a front matter) builds into a page without content."""
    if mask_front_matter(text).strip():
        return []
    return [
        Problem(
            file,
            1,
            "warning",
            Kind.EMPTY_PAGE,
            "page vide : le fichier ne contient aucun texte, la page construite serait blanche",
        )
    ]


def check_front_matter(text: str, file: str) -> list[Problem]:
    """A front matter MkDocs cannot read is silently shown as text at the top of the page."""
    match = FRONT_MATTER.match(text)
    if match is None:
        return []
    try:
        data = yaml.load(match.group(1), Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = 2 + mark.line if mark is not None else 1
        what = getattr(error, "problem", None) or str(error).split("\n", 1)[0]
        return [
            Problem(
                file,
                line,
                "error",
                Kind.FRONT_MATTER,
                f"en-tête YAML invalide ({what}) : MkDocs l’ignorerait et l’afficherait "
                "comme du texte en haut de la page",
            )
        ]
    if data is not None and not isinstance(data, dict):
        return [
            Problem(
                file,
                1,
                "error",
                Kind.FRONT_MATTER,
                "en-tête YAML sans paires « clé: valeur » (reçu : "
                f"{type(data).__name__}) : MkDocs l’ignorerait et l’afficherait comme du texte",
            )
        ]
    return []


# Markdown nesting: fences, raw HTML blocks, tables -----------------------------------------


def check_fences(page: PageText, file: str) -> list[Problem]:
    """A code fence never closed: the site's passes would skip the rest of the page, and
    Python-Markdown shows the fence as text. Directive fences are reported by fences.py."""
    # Only the last fence can be left open: it runs to the end of the page.
    last = page.fences[-1] if page.fences else None
    if last is None or last.end is not None:
        return []
    if page.directives and page.directives[-1].fence is last:
        return []
    first = page.lines[last.start - 1].strip()
    return [
        Problem(
            file,
            last.start,
            "error",
            Kind.UNCLOSED_FENCE,
            f"bloc de code « {first} » jamais fermé par une ligne « {last.marker} » : la ligne "
            "s’affiche telle quelle et la suite de la page n’est ni reliée ni indexée",
        )
    ]


# Elements whose end tag is required: left open, they take in the rest of the page.
BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "audio", "blockquote", "canvas", "details"),
        *("dialog", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form"),
        *("header", "iframe", "main", "nav", "noscript", "ol", "pre", "script", "section"),
        *("select", "style", "summary", "table", "template", "textarea", "ul", "video"),
    }
)
RAW_TEXT_TAGS = frozenset({"script", "style", "textarea", "pre"})
TAG = re.compile(r"<!--|<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\s[^<>]*?)?)(/?)>")
MARKDOWN_ATTR = re.compile(r"""\bmarkdown\s*=\s*["']?(\w*)""")
# Lines Python-Markdown leaves as they are inside a raw HTML block.
MARKDOWN_LOOKING = re.compile(
    r"^\s{0,3}(?:#{1,6}\s|[-*+]\s+\S|\d+[.)]\s+\S|>\s)|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\n]+\)"
)


def _scannable(page: PageText) -> str:
    """The page with fenced lines and inline code blanked out, same offsets and lines."""
    return "\n".join(
        " " * len(line) if page.fenced(number) else page.without_code(number)
        for number, line in enumerate(page.lines, start=1)
    )


@dataclass
class _Open:
    tag: str
    line: int
    markdown: str | None  # value of its markdown attribute, None without one
    at_line_start: bool
    body_start: int  # offset after the start tag


def check_raw_html(page: PageText, file: str) -> list[Problem]:
    """Raw HTML blocks that break the page: never closed (they swallow what follows),
    closed by the wrong tag, closed without being opened, an HTML comment never closed,
    and Markdown written in a block that Python-Markdown leaves as raw HTML."""
    text = _scannable(page)
    newlines = [m.start() for m in re.finditer("\n", text)]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(newlines, offset - 1) + 1

    problems: list[Problem] = []
    stack: list[_Open] = []
    pos = 0
    while True:
        match = TAG.search(text, pos)
        if match is None:
            break
        pos = match.end()
        if match.group(0) == "<!--":
            end = text.find("-->", match.end())
            if end < 0:
                problems.append(
                    Problem(
                        file,
                        line_of(match.start()),
                        "error",
                        Kind.MALFORMED_HTML,
                        "commentaire HTML « <!-- » jamais fermé par « --> » : "
                        "il s’affiche comme du texte dans la page",
                    )
                )
                break
            pos = end + 3
            continue
        closing, tag = match.group(1) == "/", match.group(2).lower()
        if tag not in BLOCK_TAGS:
            continue
        here = line_of(match.start())
        if not closing:
            if match.group(4):  # <div/>: nothing to close
                continue
            attr = MARKDOWN_ATTR.search(match.group(3))
            line_start = text.rfind("\n", 0, match.start()) + 1
            opened = _Open(
                tag,
                here,
                attr.group(1) if attr else None,
                not text[line_start : match.start()].strip(),
                match.end(),
            )
            if tag in RAW_TEXT_TAGS:
                closed = re.compile(rf"</{tag}\s*>", re.IGNORECASE).search(text, match.end())
                if closed is None:
                    stack.append(opened)
                    break
                pos = closed.end()
                continue
            stack.append(opened)
            continue
        if not any(o.tag == tag for o in stack):
            problems.append(
                Problem(
                    file,
                    here,
                    "error",
                    Kind.MALFORMED_HTML,
                    f"« </{tag}> » ferme une balise qui n’a pas été ouverte",
                )
            )
            continue
        while stack:
            top = stack.pop()
            if top.tag == tag:
                problems += _markdown_in_raw_block(top, stack, text, match.start(), file)
                break
            problems.append(
                Problem(
                    file,
                    top.line,
                    "error",
                    Kind.MALFORMED_HTML,
                    f"balise « <{top.tag}> » pas fermée avant « </{tag}> » (ligne {here})",
                )
            )
    for top in stack:
        problems.append(
            Problem(
                file,
                top.line,
                "error",
                Kind.MALFORMED_HTML,
                f"balise « <{top.tag}> » jamais fermée par « </{top.tag}> » : "
                "elle avale toute la suite de la page",
            )
        )
    return problems


def _markdown_in_raw_block(
    block: _Open, parents: Sequence[_Open], text: str, end: int, file: str
) -> list[Problem]:
    """Markdown inside a raw HTML block is shown as written unless markdown="1" is set."""
    if not block.at_line_start or block.tag in RAW_TEXT_TAGS:
        return []
    if block.markdown is not None or any(p.markdown is not None for p in parents):
        return []  # the owner chose: markdown="1" renders it, markdown="0" keeps it raw
    inner = text[block.body_start : end]
    for offset, line in enumerate(inner.split("\n")):
        if MARKDOWN_LOOKING.search(line):
            return [
                Problem(
                    file,
                    block.line + offset,
                    "warning",
                    Kind.RAW_MARKDOWN_IN_HTML,
                    f"Markdown dans le bloc HTML « <{block.tag}> » : il s’afficherait tel quel "
                    f'(« {line.strip()[:40]} ») ; ajoutez markdown="1" à la balise',
                )
            ]
    return []


# Code a page's HTML would run: a script element, an event attribute (onclick=…), a
# javascript: address. Found in the page with its code blanked out.
SCRIPT_TAG = re.compile(r"<script\b", re.IGNORECASE)
EVENT_ATTRIBUTE = re.compile(r"<[A-Za-z][^<>]*?\s(on[a-z]+)\s*=", re.IGNORECASE)
SCRIPT_ADDRESS = re.compile(
    r"""(?:href|src|action)\s*=\s*["']?\s*javascript:|\]\(\s*<?javascript:""", re.IGNORECASE
)
PAGE_SCRIPTS_SETTING = "pages_with_scripts"


def check_scripts(page: PageText, file: str) -> list[Problem]:
    """Code written into a page: the site runs none that it does not declare. A page that
    needs a script is named under `pages_with_scripts`; an event attribute or a
    javascript: address never runs (the pages' security policy refuses them)."""
    problems = []
    for number, line in enumerate(_scannable(page).split("\n"), start=1):
        if SCRIPT_TAG.search(line):
            message = (
                "script dans la page : le site ne lance que les scripts qu’il déclare ; "
                f"nommez cette page sous « {PAGE_SCRIPTS_SETTING} » du greffon regles si ce "
                "script doit tourner, sinon retirez-le"
            )
        elif found := EVENT_ATTRIBUTE.search(line):
            message = (
                f"attribut « {found.group(1)} » : du code dans une balise ne tourne jamais "
                "sur ce site (sa politique de sécurité le refuse) ; retirez-le"
            )
        elif SCRIPT_ADDRESS.search(line):
            message = (
                "adresse « javascript: » : elle ne tourne jamais sur ce site (sa politique de "
                "sécurité la refuse) ; retirez-la"
            )
        else:
            continue
        problems.append(Problem(file, number, "error", Kind.PAGE_SCRIPT, message))
    return problems


DELIMITER_ROW = re.compile(r"^\s{0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+\S")


def _cells(row: str) -> list[str]:
    """The cells of a table row whose inline code is already filled with « x »."""
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip() for cell in UNESCAPED_PIPE.split(row)]


def check_tables(page: PageText, file: str) -> list[Problem]:
    """Markdown tables cannot hold a list: a line without « | » right after a table becomes
    a row of it, and « - x » in a cell stays text."""
    problems: list[Problem] = []
    lines = [
        (number, line, kind is LineKind.FENCED)
        for number, (line, kind) in enumerate(zip(page.lines, page.kinds, strict=True), 1)
    ]
    i = 0
    while i + 1 < len(lines):
        number, line, fenced = lines[i]
        _, nxt, next_fenced = lines[i + 1]
        is_table = (
            not fenced
            and not next_fenced
            and "|" in line
            and "|" in nxt
            and DELIMITER_ROW.match(nxt) is not None
            and "-" in nxt
            and (i == 0 or not lines[i - 1][1].strip())
        )
        if not is_table:
            i += 1
            continue
        j = i + 2
        while j < len(lines) and lines[j][1].strip() and not lines[j][2]:
            row_number, row, _ = lines[j]
            if not UNESCAPED_PIPE.search(row):
                kind = "un élément de liste" if LIST_ITEM.match(row.strip()) else "une ligne"
                problems.append(
                    Problem(
                        file,
                        row_number,
                        "error",
                        Kind.MALFORMED_TABLE,
                        f"{kind} sans « | » collé au tableau de la ligne {number} en devient "
                        "une rangée : laissez une ligne vide entre le tableau et la liste",
                    )
                )
            else:
                for cell in _cells(page.without_code(row_number, "x")):
                    if LIST_ITEM.match(cell):
                        problems.append(
                            Problem(
                                file,
                                row_number,
                                "warning",
                                Kind.MALFORMED_TABLE,
                                f"liste dans une cellule de tableau (« {cell[:30]} ») : "
                                "Markdown n’en fait pas une liste, elle reste du texte",
                            )
                        )
                        break
            j += 1
        i = j
    return problems


def check_heading_levels(page: PageText, file: str) -> list[Problem]:
    """A heading more than one level below the one before it (« # » then « #### »): screen
    readers and the table of contents read the page's outline by its levels, and a hole
    there reads as a missing section. The theme titles a page that has no « # » with its
    name: the page starts at level 1."""
    problems: list[Problem] = []
    before = 1
    for heading in page.headings:
        if heading.level > before + 1:
            problems.append(
                Problem(
                    file,
                    heading.line,
                    "warning",
                    Kind.HEADING_SKIP,
                    f"titre de niveau {heading.level} après un titre de niveau {before} "
                    f"(h{before} → h{heading.level}) : écrivez « {'#' * (before + 1)} » "
                    f"pour « {heading.text} », ou ajoutez le titre qui manque entre eux",
                    heading.text,
                )
            )
        before = heading.level
    return problems


def check_source(page: PageText, file: str, site: SiteMap) -> list[Problem]:
    """Every check of one page's Markdown source (its front matter blanked out)."""
    return [
        *check_fences(page, file),
        *check_raw_html(page, file),
        *check_tables(page, file),
        *check_heading_levels(page, file),
        *check_page_ids(page, file),
        *check_local_links(page, file, site),
    ]


def shift_lines(problems: Iterable[Problem], offset: int) -> list[Problem]:
    """Problems found in a page whose first lines (its front matter) were cut off."""
    return [
        replace(p, line=p.line + offset) if offset and p.line is not None else p for p in problems
    ]


# Navigation ------------------------------------------------------------------------------


def _nav_paths(nav: Any) -> Iterator[str]:
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_paths(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from _nav_paths(value)


def check_nav(nav: Any, pages: Iterable[str], config_text: str, config_name: str) -> list[Problem]:
    """Nav entries whose page is not in the docs folder, with their line in mkdocs.yml."""
    known = set(pages)
    lines = config_text.split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r"^nav\s*:", line)), 0)
    problems: list[Problem] = []
    for path in _nav_paths(nav):
        if EXTERNAL.match(path) or path.startswith("/") or not path.endswith(".md"):
            continue
        if posixpath.normpath(path) in known:
            continue
        line = next((i + 1 for i in range(start, len(lines)) if path in lines[i]), start + 1)
        guess = close_page(path, known)
        hint = f" ; vouliez-vous dire « {guess} » ?" if guess else ""
        problems.append(
            Problem(
                config_name,
                line,
                "error",
                Kind.NAV_PAGE_MISSING,
                f"nav : la page « {path} » n’existe pas dans le dossier des pages{hint}",
                path,
            )
        )
    return problems
