"""Paper: what a printed page needs that the screen does not (in terms of text and paths).

1. `target_edits`: each link of a page's content gets `data-cible`, the name of what it
   leads to (« → Combat, « Initiative » »; a link to another site, its address), that the
   print stylesheet (impression.css) writes after the link: on paper a link is only its
   words. A link whose words already name its target gets none. Written at build time, as
   the names of other pages' sections are known there (and instant navigation makes every
   address absolute in the browser, where another site's link could not be told apart).
2. A print page per game system (`print_page_uri`, `<system folder>/imprimer/`): every page
   of the system, in the nav's order, in one page, so that the system prints whole from one
   « Imprimer » of the browser. It is built from the pages as the site writes them
   (`combine`): each page's headings one level down (its title is a section of the print
   page), its anchors kept unique (an id already taken by an earlier page is prefixed by
   the page's path), its links to a page of the print page turned into links within it, its
   other relative addresses rebased on the print page's own.

Why not mkdocs-print-site-plugin (2.9): it makes one page for the whole site, or one per top
section of the nav (`print_by_section`), not one per system (a nav section may hold pages of
two systems); it writes its pages in `on_post_build`, after this plugin has listed every file
for the offline copy and given every page its security policy (features/offline/offline.py,
features/assets/csp.py), so its pages would be neither offline nor under the policy; it adds its own
stylesheet and script to `extra_css`/`extra_javascript` after this plugin has taken them for
its bundles; and its pages would not have the French spacing, the links and the calculators'
set-up that the site's pages get here.
"""

from __future__ import annotations

import html as html_lib
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from regles.core.markdown_text import markdown_text
from regles.core.slugs import fold
from regles.core.typography import Edit

__all__ = [
    "PLACEHOLDER",
    "PRINT_LINK_CLASS",
    "PrintSource",
    "combine",
    "fill_print_page",
    "print_link",
    "print_page_markdown",
    "print_page_uri",
    "relative_url",
    "site_path",
    "target_edits",
]

PRINT_SLUG = "imprimer"
# Where the print page's Markdown leaves room for the system's pages (`combine`).
PLACEHOLDER = '<div class="regles-impression-contenu"></div>'
PRINT_LINK_CLASS = "regles-imprimer-lien"
PAGE_CLASS = "regles-impression-page"

_LINK = re.compile(r"<a\s(?P<attributes>[^>]*)>(?P<text>.*?)</a>", re.S)
_HREF = re.compile(r'\shref="(?P<href>[^"]*)"')
_CLASS = re.compile(r'\sclass="(?P<classes>[^"]*)"')
_TAG = re.compile(r"<[^>]+>")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_EXTERNAL = re.compile(r"^https?://", re.I)
# Links that lead nowhere a reader of paper would go: the headings' own « ¶ », skip links.
_SKIPPED_LINK_CLASSES = {"headerlink", "md-skip", "md-button"}

_ID = re.compile(r'(?P<lead>\sid=")(?P<value>[^"]*)"')
_ID_REFERENCES = re.compile(
    r"(?P<lead>\s(?:for|aria-labelledby|aria-describedby|aria-controls|aria-owns|"
    r'popovertarget|list|headers|form)=")(?P<value>[^"]*)"'
)
_ADDRESS = re.compile(r'(?P<lead>\s(?:href|src)=")(?P<value>[^"]*)"')
_HEADING = re.compile(r"<(?P<close>/?)h(?P<level>[1-6])(?=[\s>])")


def print_page_uri(folder: str) -> str:
    return f"{folder}/{PRINT_SLUG}.md"


def print_page_markdown(system: str) -> str:
    name = markdown_text(system)
    return (
        f"# Imprimer : {name}\n\n"
        # The name in bold, not between « »: a quoted title after « de » reads as a
        # reference to a section, and the link pass would lead it to any of that name.
        f"Toutes les pages de **{name}**, dans l’ordre du menu, réunies en une seule page "
        "pour l’imprimer ou l’enregistrer en PDF (menu du navigateur, « Imprimer »).\n\n"
        f"{PLACEHOLDER}\n"
    )


def print_link(system: str, href: str) -> str:
    """The link to a system's print page, written under the title of its first page."""
    return (
        f'<p class="{PRINT_LINK_CLASS}"><a href="{html_lib.escape(href, quote=True)}">'
        # Written after the pages' French spacing (core/typography.py): spaced here.
        f"Imprimer toutes les pages de «\u00a0{html_lib.escape(system)}\u00a0»</a></p>"
    )


def site_path(page_url: str, href: str) -> tuple[str, str] | None:
    """The site path (as MkDocs' `File.url`: "jeu/combat/", "" for the home page) and the
    fragment a relative address of the page at `page_url` leads to; None for an address of
    another site, or a root-absolute one."""
    if not href or _SCHEME.match(href) or href.startswith(("/", "//")):
        return None
    path, _, fragment = href.partition("#")
    path = path.partition("?")[0]
    if not path:
        return page_url, fragment
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page_url + "x"), path))
    if joined == ".":
        joined = ""
    elif path.endswith("/"):
        joined += "/"
    return joined, fragment


def relative_url(target: str, from_url: str) -> str:
    """`target` (a site path) as a relative address from the page at `from_url`."""
    base = posixpath.dirname(from_url + "x") or "."
    relative = posixpath.relpath(target or ".", base)
    if target.endswith("/") or not target:
        relative = relative.rstrip("/") + "/"
    return "./" if relative == "./" else relative


def _text(fragment: str) -> str:
    return html_lib.unescape(_TAG.sub("", fragment)).strip()


def target_edits(
    content: str,
    page_url: str,
    titles: Mapping[str, str],
    sections: Mapping[tuple[str, str], str],
) -> tuple[Edit, ...]:
    """The edits (core/typography.py) that give each relative link of `content` to a page
    of the site `data-cible`: the page's title (`titles`, by site path), and the section's
    (`sections`, by site path and anchor) when it names one; only the section's on the same
    page, and nothing when the link's own words are it."""

    def annotate(match: re.Match[str]) -> str:
        attributes = match.group("attributes")
        classes = _CLASS.search(" " + attributes)
        if classes and _SKIPPED_LINK_CLASSES & set(classes.group("classes").split()):
            return match.group(0)
        if "data-cible=" in attributes:
            return match.group(0)
        href = _HREF.search(" " + attributes)
        address = html_lib.unescape(href.group("href")) if href else ""
        if _EXTERNAL.match(address):
            return _with_target(match, address)  # on paper, its address
        target = site_path(page_url, address)
        if target is None:
            return match.group(0)
        path, fragment = target
        title = titles.get(path)
        if title is None:
            return match.group(0)
        section = sections.get((path, fragment)) if fragment else None
        words = fold(_text(match.group("text")))
        if path == page_url:
            if section is None or fold(section) == words:
                return match.group(0)
            label = f"→ « {section} »"
        elif section is not None and words == fold(title):
            label = f"→ « {section} »"  # « Glossaire » for one of its entries
        elif section is not None and words != fold(section):
            label = f"→ {title}, « {section} »"
        elif section is None and words == fold(title):
            return match.group(0)
        else:
            label = f"→ {title}"
        return _with_target(match, label)

    edits: list[Edit] = []
    for match in _LINK.finditer(content):
        link = annotate(match)
        if link != match.group(0):
            edits.append((match.start(), match.end() - match.start(), link))
    return tuple(edits)


def _with_target(link: re.Match[str], label: str) -> str:
    value = html_lib.escape(label, quote=True)
    return f'<a {link.group("attributes")} data-cible="{value}">{link.group("text")}</a>'


@dataclass(frozen=True)
class PrintSource:
    uri: str  # the page's source path: "jeu/combat.md"
    url: str  # its site path: "jeu/combat/"
    html: str  # its content as the site writes it


def _prefix(uri: str) -> str:
    return posixpath.splitext(uri)[0].replace("/", "-")


def _section_id(uri: str) -> str:
    return "page-" + _prefix(uri)


def combine(pages: Sequence[PrintSource], print_url: str, taken: set[str] | None = None) -> str:
    """The pages' contents as sections of the page at `print_url`, in their order (see the
    module's docstring); `taken` are the ids the print page has already."""
    used = set(taken or ())
    used |= {_section_id(page.uri) for page in pages}
    id_maps: dict[str, dict[str, str]] = {}
    for page in pages:
        mapping: dict[str, str] = {}
        for match in _ID.finditer(page.html):
            old = match.group("value")
            if old in mapping:
                continue
            new = old if old not in used else f"{_prefix(page.uri)}--{old}"
            while new in used:
                new += "-"
            used.add(new)
            mapping[old] = new
        id_maps[page.url] = mapping
    sections = {page.url: _section_id(page.uri) for page in pages}
    return "\n".join(_moved(page, print_url, id_maps, sections) for page in pages)


def fill_print_page(document: str, pages: Sequence[PrintSource], print_url: str) -> str:
    """A print page's whole document with the system's pages in place of its `PLACEHOLDER`,
    their ids kept apart from those the document has already; as it is without one."""
    if PLACEHOLDER not in document:
        return document
    taken = {match.group("value") for match in _ID.finditer(document)}
    return document.replace(PLACEHOLDER, combine(pages, print_url, taken), 1)


def _moved(
    page: PrintSource,
    print_url: str,
    id_maps: Mapping[str, Mapping[str, str]],
    sections: Mapping[str, str],
) -> str:
    own = id_maps[page.url]

    def address(match: re.Match[str]) -> str:
        value = html_lib.unescape(match.group("value"))
        target = site_path(page.url, value)
        if target is None:
            return match.group(0)
        path, fragment = target
        if path in id_maps:
            anchor = id_maps[path].get(fragment, fragment) if fragment else sections[path]
            new = "#" + anchor
        else:
            new = relative_url(path, print_url) + ("#" + fragment if fragment else "")
        return match.group("lead") + html_lib.escape(new, quote=True) + '"'

    def ids(match: re.Match[str]) -> str:
        return match.group("lead") + own.get(match.group("value"), match.group("value")) + '"'

    def references(match: re.Match[str]) -> str:
        names = [own.get(name, name) for name in match.group("value").split()]
        return match.group("lead") + " ".join(names) + '"'

    def heading(match: re.Match[str]) -> str:
        level = min(int(match.group("level")) + 1, 6)
        return f"<{match.group('close')}h{level}"

    body = _ID.sub(ids, page.html)
    body = _ID_REFERENCES.sub(references, body)
    body = _ADDRESS.sub(address, body)
    body = _HEADING.sub(heading, body)
    uri = html_lib.escape(page.uri, quote=True)
    return (
        f'<section class="{PAGE_CLASS}" id="{_section_id(page.uri)}" data-page="{uri}">\n'
        f"{body}\n</section>"
    )
