"""LinkChecker plugin `AncresInternes`: the #anchor of every internal link of a page is
looked up in its target page, each target fetched and parsed once for the whole run.

Why not LinkChecker's own AnchorCheck: with it enabled, LinkChecker keeps the fragment in
its URL cache key, so `page/#a`, `page/#b`… are as many URLs, and each one downloads and
parses the whole page again (BeautifulSoup, then the anchor scan, then the page's links
once more for recursion). The site has ~630 links with an anchor into ~45 pages: about
630 parses of 50–200 KB pages, minutes of CPU (upstream: linkchecker/linkchecker#781).

Without AnchorCheck, LinkChecker checks each page once; this plugin, run on each HTML page
LinkChecker parses, takes the page's links as LinkChecker itself finds them
(`linkparse.find_links` with `LinkTags`) and, for those with a fragment into the site,
checks the fragment against the ids and `<a name>` of the target (what AnchorCheck counts
as anchors). A missing anchor is a warning on the page that holds the link, with its line
and column; the number of anchors checked on a page is an info line. LinkChecker 10 loads
it from $XDG_DATA_HOME/linkchecker/plugins/ only: run it with XDG_DATA_HOME=tests.
"""

from __future__ import annotations

import threading
import urllib.parse
from html.parser import HTMLParser
from typing import Any

from linkcheck.htmlutil import linkparse
from linkcheck.plugins import _ContentPlugin

WARNING_TAG = "url-anchor-not-found"
INFO_PREFIX = "AncresInternes, ancres vérifiées : "


class _Anchors(HTMLParser):
    """Ids of every element and names of `<a>`: the anchors a fragment can point to."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name == "id" or (name == "name" and tag == "a")):
                self.anchors.add(value)

    handle_startendtag = handle_starttag


def soup_anchors(soup: Any) -> set[str]:
    anchors = {str(element["id"]) for element in soup.find_all(id=True)}
    anchors |= {str(element["name"]) for element in soup.find_all("a", attrs={"name": True})}
    return anchors


class AncresInternes(_ContentPlugin):
    """Anchors of internal links, checked from the page that holds the link."""

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.lock = threading.Lock()
        self.anchors: dict[str, set[str] | None] = {}
        self.fetching: dict[str, threading.Lock] = {}

    def applies_to(self, url_data: Any, **kwargs: Any) -> bool:
        return bool(url_data.is_html()) and not url_data.extern[0]

    def check(self, url_data: Any) -> None:
        page, _ = urllib.parse.urldefrag(url_data.url)
        soup = url_data.get_soup()
        with self.lock:
            self.anchors[page] = soup_anchors(soup)
        links: list[tuple[str, int, int | None, str]] = []

        def found(url: str | None, line: int = 0, column: int | None = 0, **kw: Any) -> None:
            if url and "#" in url:
                links.append((url.strip(), line, column, kw.get("base") or ""))

        linkparse.find_links(soup, found, linkparse.LinkTags)
        site = urllib.parse.urlsplit(page)
        ignored = [
            p["pattern"]
            for p in url_data.aggregate.config["externlinks"]
            if p.get("strict") and not p.get("negate")
        ]
        checked = 0
        for url, line, column, base in links:
            target, fragment = urllib.parse.urldefrag(
                urllib.parse.urljoin(urllib.parse.urljoin(page, base), url)
            )
            parts = urllib.parse.urlsplit(target)
            if not fragment or (parts.scheme, parts.netloc) != (site.scheme, site.netloc):
                continue
            if any(pattern.search(target) for pattern in ignored):
                continue
            anchors = self.anchors_of(target, url_data)
            if anchors is None:
                continue  # not an HTML page: LinkChecker reports the link itself if broken
            checked += 1
            anchor = urllib.parse.unquote(fragment)
            if anchor not in anchors and fragment not in anchors:
                url_data.add_warning(
                    f"Anchor `{anchor}' not found in {target} "
                    f"(link at line {line}, column {column}).",
                    tag=WARNING_TAG,
                )
        url_data.add_info(f"{INFO_PREFIX}{checked}")

    def anchors_of(self, page: str, url_data: Any) -> set[str] | None:
        """Anchors of a page, fetched once (None: not an HTML page, or not reachable)."""
        with self.lock:
            if page in self.anchors:
                return self.anchors[page]
            fetching = self.fetching.setdefault(page, threading.Lock())
        with fetching:
            with self.lock:
                if page in self.anchors:
                    return self.anchors[page]
            anchors: set[str] | None = None
            response = url_data.session.get(page, timeout=url_data.aggregate.config["timeout"])
            content_type = response.headers.get("Content-Type", "")
            if response.ok and "html" in content_type:
                # Without a charset, requests would read text/html as Latin-1.
                charset = content_type.partition("charset=")[2].strip() or "utf-8"
                parser = _Anchors()
                parser.feed(response.content.decode(charset, "replace"))
                parser.close()
                anchors = parser.anchors
            with self.lock:
                self.anchors[page] = anchors
            return anchors
