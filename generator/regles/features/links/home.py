"""The ```accueil block: a search field and a grid of quick links, built from the nav.

The owner puts it on the home page, where a phone shows it first: a reader reaches every part
of the site in one tap from the first screen, and starts a search without finding the
header's magnifier. Nothing of it is written by hand, so nothing goes stale when the nav
changes:

- each top-level section of the nav becomes one link, named as the section, to its first page
  (the spell index for the section that holds it, when the site has a spell database);
- each top-level page becomes one link, named as the nav names it (or by its title);
- the page that holds the block is left out, and so are the nav's links to other sites.

The search field is the header's search under another door (assets/js/search.js): typing in
it, or tapping it, carries what it holds into the header's box, which searches. Without
JavaScript there is no search (Pagefind runs in the browser), so the field is hidden (the
page root keeps its class `no-js`, which main.html's head script replaces); the links are plain
links and work."""

from __future__ import annotations

import html
import posixpath
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from regles.core.markdown_text import markdown_text
from regles.features.links.targets import href

__all__ = ["LINKS_LABEL", "QuickLink", "home_block", "quick_links"]

LINKS_LABEL = "Accès rapide"


@dataclass(frozen=True)
class QuickLink:
    title: str
    page: str  # a source page, as the nav names it: `systeme/index.md`
    section: bool  # a section of the nav (true) or a page at its top


def _is_page(target: str) -> bool:
    return not posixpath.isabs(target) and "://" not in target and target.endswith(".md")


def _pages(entries: Iterable[Any]) -> list[str]:
    """The pages of a nav section, depth first, in its order."""
    found: list[str] = []
    for entry in entries:
        if isinstance(entry, str):
            found += [entry] if _is_page(entry) else []
        elif isinstance(entry, dict):
            for value in entry.values():
                if isinstance(value, str):
                    found += [value] if _is_page(value) else []
                elif isinstance(value, list):
                    found += _pages(value)
    return found


def quick_links(
    nav: Iterable[Any] | None,
    titles: Mapping[str, str],
    indexes: Collection[str] = (),
) -> list[QuickLink]:
    """One link per top-level entry of `nav` (MkDocs' `nav:` as written, the databases' pages
    added): a section to its first page, or to a database's index (`indexes`) when it holds
    one; a page by its nav title, else its own title (`titles`: page → its `#` title), else
    its file name. Sections with no page and links to other sites are left out."""
    links: list[QuickLink] = []
    for entry in nav or ():
        if isinstance(entry, str):
            if _is_page(entry):
                stem = posixpath.splitext(posixpath.basename(entry))[0]
                links.append(QuickLink(titles.get(entry, stem), entry, False))
            continue
        if not isinstance(entry, dict):
            continue
        for name, value in entry.items():
            if isinstance(value, str):
                if _is_page(value):
                    links.append(QuickLink(str(name), value, False))
            elif isinstance(value, list):
                pages = _pages(value)
                first = [page for page in pages if page in indexes]
                pages = first[:1] + pages
                if pages:
                    links.append(QuickLink(str(name), pages[0], True))
    return links


# The field alone, its magnifier drawn by the stylesheet (pages.css): Enter or a tap hands
# the query to the header's box, which has the results and their filters.
def _search_form(label: str) -> str:
    return (
        '<form class="regles-accueil-recherche" role="search" data-recherche-relais>'
        '<label class="regles-recherche__cache" for="regles-accueil-saisie">'
        f"{html.escape(label)}</label>"
        '<input type="search" id="regles-accueil-saisie" class="regles-accueil-recherche__saisie" '
        'name="q" placeholder="Rechercher" autocapitalize="off" autocorrect="off" '
        'autocomplete="off" spellcheck="false" enterkeyhint="search" '
        "data-recherche-relais-saisie>"
        "</form>"
    )


def home_block(links: Iterable[QuickLink], page: str, *, label: str) -> str:
    """The block's Markdown for `page`: the search form (`label`: what it searches, as the
    header's box says it), then the links (Markdown links, so that MkDocs writes and checks
    their addresses) in a labelled nav. Empty when no link is left once the page itself is
    taken out."""
    shown = [link for link in links if link.page != page]
    if not shown:
        return ""
    form = _search_form(label)
    items = []
    for link in shown:
        kind = "section" if link.section else "page"
        items.append(
            f'<li class="regles-accueil-liens__{kind}" markdown="1">'
            f"[{markdown_text(link.title)}]({href(page, link.page, None)})</li>"
        )
    return (
        f"{form}\n\n"
        f'<nav class="regles-accueil-liens" aria-label="{LINKS_LABEL}" markdown="1">\n'
        f'<ul markdown="1">\n' + "\n".join(items) + "\n</ul>\n</nav>"
    )
