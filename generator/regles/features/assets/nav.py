"""The site navigation's items, rendered once per folder instead of once per page.

Every page carries the whole navigation (Material's `partials/nav.html`), so a build renders
it once per page: its cost grows as the square of the number of pages. With the 10× entry
export of `make bench` (ten times the groups, so ten times the group pages), it was
8.9 s of a 33 s profiled build, against 0.4 s of 4.9 s with the real export.

An item (a section or a page) that does not hold the page being rendered has nothing active
in it: what changes from page to page is only its links, relative to the page, and whether
its parent is active (Material's classes for `navigation.tabs`). A link to a page outside the
current page's folder (`sorts/acoustique/` → `../vegetal/`) reads the same from every page of
the same parent folder (`sorts/`). So such an item is rendered once per parent folder (and
state of its parent) and reused, unless one of its pages lies inside the current page's
folder (then its links differ, and it is rendered as before). The items of the page's own
section are reused too: the 231 groups of the 10× export are one section.

`theme/partials/nav.html` and `nav-item.html` render every item through
`NavItems`; the plugin gives a new one to each build (`on_env`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from markupsafe import Markup

__all__ = ["PRUNE_FROM", "NavItems", "nav_links"]

# A nav of more pages than this is pruned: a page carries the items of its own section, and
# each other section as one link to its first page (Material's `navigation.prune`, extended
# to the top-level sections that `navigation.sections` keeps open). A page then weighs what
# it shows, not what the site holds: with the whole nav, 1,500 pages made each page carry
# some 2,000 links (857 KB of HTML a page), and the site grow as the square of its pages.
PRUNE_FROM = 150


def nav_links(nav: Iterable[object]) -> int:
    """The pages and links of a nav as `nav:` writes it (core/site.py `SiteContext.nav`)."""
    count = 0
    for entry in nav:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            count += nav_links(value) if isinstance(value, list) else 1
    return count


def _folder(url: str) -> list[str]:
    """The folder a page's relative links start from, as path parts (mkdocs.utils'
    get_relative_url: a last part with a dot is a file name)."""
    parts = [part for part in url.split("/") if part and part != "."]
    if parts and not url.endswith("/") and "." in parts[-1]:
        parts.pop()
    return parts


def _urls(item: Any) -> Iterator[str]:
    """The URLs of the pages and links under a navigation item."""
    url = getattr(item, "url", None)
    if isinstance(url, str):
        yield url
    for child in getattr(item, "children", None) or ():
        yield from _urls(child)


Key = tuple[str, tuple[str, ...], bool]


class NavItems:
    """Rendered items, by (item's path, parent folder of the current page, parent active)."""

    def __init__(self) -> None:
        self._html: dict[Key, Any] = {}
        # By id(item) (the nav lives all build): every folder its links lead into, each as
        # the tuple of its parts, so that a page asks in one lookup, not one per link.
        self._targets: dict[int, frozenset[tuple[str, ...]]] = {}
        self.rendered = 0  # items rendered, for the tests
        self.reused = 0

    def key(self, item: Any, path: str, page: Any, parent: Any = None) -> Key | None:
        url = getattr(page, "url", None)
        if not isinstance(url, str):
            return None  # no page (a theme template): links relative to the site's root
        folder = _folder(url)
        if not folder or getattr(item, "active", False):
            return None
        targets = self._targets.get(id(item))
        if targets is None:
            parts = [_folder(url + "/") for url in _urls(item) if "://" not in url]
            targets = frozenset(tuple(p[:n]) for p in parts for n in range(1, len(p) + 1))
            self._targets[id(item)] = targets
        if tuple(folder) in targets:
            return None  # a link into the current page's folder
        return (path, tuple(folder[:-1]), bool(getattr(parent, "active", False)))

    def __call__(
        self, item: Any, path: str, page: Any, parent: Any = None, *, caller: Callable[[], Any]
    ) -> Any:
        key = self.key(item, path, page, parent)
        if key is None:
            self.rendered += 1
            return _tight(caller())
        if key in self._html:
            self.reused += 1
        else:
            self.rendered += 1
            self._html[key] = _tight(caller())
        return self._html[key]


# Material's nav templates indent every tag and leave a line for each of their statements:
# some 600 bytes of white space an item, half a pruned nav's weight. In the nav (no <pre>
# there), a run of white space that holds a line break reads as the line break alone.
_LINES = re.compile(r"\s*\n\s*")


def _tight(html: Any) -> Markup:
    return Markup(_LINES.sub("\n", str(html)))
