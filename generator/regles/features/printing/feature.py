"""Paper, as a feature of the build: each link followed by its target written out, a print
page per system (all its pages in reading order, in one), and a link to it under the title
of the system's first page (printing.py; the print styles are the theme's impression.css)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from regles.core.report import Kind, Problem
from regles.core.site import SiteContext
from regles.core.stages import DocumentJob, GeneratedPage, HtmlJob, Stages
from regles.core.typography import apply_edits
from regles.features.links.feature import LinksFeature
from regles.features.links.targets import EntryTarget
from regles.features.printing.printing import (
    PrintSource,
    fill_print_page,
    print_link,
    print_page_markdown,
    print_page_uri,
    relative_url,
    target_edits,
)

__all__ = ["PrintingFeature"]

# In the build cache: the links each page's content had annotated, for the same targets.
TARGETS_CACHE = "cibles-des-liens.pickle"


class PrintingFeature:
    """The print pages (`print_pages`: path → the system's folder) and the converted pages
    they are made of (`contents`). It reads the link targets of `links` and `entries`."""

    def __init__(
        self, site: SiteContext, links: LinksFeature, entries: Callable[[], list[EntryTarget]]
    ) -> None:
        self.site = site
        self.links = links
        self.entries = entries
        self.print_pages: dict[str, str] = {}
        self.contents: dict[str, str] = {}
        self._targets: tuple[dict[str, str], dict[tuple[str, str], str]] | None = None
        self._targets_digest = ""  # of `_targets`: what a page's annotations depend on
        self._by_system: dict[str, list[str]] | None = None  # each system's pages, in order

    def register(self, stages: Stages) -> None:
        stages.pages.append(self.pages)
        stages.indexed.append(self.forget_targets)
        stages.html.register(self.for_paper, "paper", 50)
        stages.documents.register(self.fill, "print_page", 70)

    def pages(self, owner: frozenset[str]) -> list[GeneratedPage]:
        """A print page for each system that has pages, out of the nav; none where the owner
        wrote a page of that path. They are searched each on their own, not as one."""
        systems = self.site.systems
        folders = sorted({f for uri in owner if (f := systems.folder_of(uri)) is not None})
        pages = []
        for folder in folders:
            uri = print_page_uri(folder)
            if uri in owner:
                self.site.report.add(
                    Problem(
                        uri,
                        None,
                        "warning",
                        Kind.PRINT_PAGE_TAKEN,
                        f"le système « {systems.names[folder]} » n’a pas de page "
                        f"d’impression : « {uri} » est l’adresse qu’elle aurait, et cette page "
                        "du contenu la prend (renommez-la pour avoir les deux)",
                        uri,
                    )
                )
                continue
            self.print_pages[uri] = folder
            name = systems.names[folder]
            # Its key is the system's name: a system whose folder is renamed keeps its page.
            key = f"impression : {name}"
            pages.append(GeneratedPage(uri, print_page_markdown(name), False, key))
        self.site.not_searched |= set(self.print_pages)
        return pages

    def for_paper(self, html: str, job: HtmlJob) -> str:
        """The page's links annotated with their targets; the first page of a system with a
        print page gets a link to it under its title; a system's page kept for its print
        page."""
        url = self.site.page_urls.get(job.uri)
        if url is None:
            return html
        titles, sections = self.targets()
        # The same content, address and targets as a page of the last build: its links.
        edits = self.site.kept(TARGETS_CACHE).get(
            f"{self._targets_digest}\0{url}\0{html}",
            lambda _: target_edits(html, url, titles, sections),
        )
        html = apply_edits(html, edits)
        folder = self.site.systems.folder_of(job.uri)
        if folder is None or job.uri in self.print_pages:
            return html
        print_uri = print_page_uri(folder)
        print_url = self.site.page_urls.get(print_uri)
        if print_uri not in self.print_pages or print_url is None:
            return html
        self.contents[job.uri] = html
        if self._system_pages(folder)[:1] == [job.uri]:
            link = print_link(self.site.systems.names[folder], relative_url(print_url, url))
            end = html.find("</h1>")
            at = end + len("</h1>") if end != -1 else 0
            html = html[:at] + link + html[at:]
        return html

    def print_page_of(self, uri: str) -> str | None:
        """The print page that holds the page's content, if any (made again with it when
        it is rebuilt alone: regles/serve.py)."""
        folder = self.site.systems.folder_of(uri)
        if folder is None or uri not in self.contents:
            return None
        return next((page for page, f in self.print_pages.items() if f == folder), None)

    def _system_pages(self, folder: str) -> list[str]:
        """The pages of a system in reading order, its print page left out: found for every
        system at once, the first time a page asks (the reading order is known by then)."""
        if self._by_system is None:
            systems = self.site.systems
            self._by_system = {}
            for uri in self.site.reading_order:
                found = systems.folder_of(uri)
                if found is not None and uri not in self.print_pages:
                    self._by_system.setdefault(found, []).append(uri)
        return self._by_system.get(folder, [])

    def forget_targets(self) -> list[Problem]:
        """The link targets read again once the pages are (`targets`)."""
        self._targets = None
        return []

    def targets(self) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
        """Page titles by site path, section titles by site path and anchor."""
        if self._targets is None:
            urls = self.site.page_urls
            titles = {
                urls[uri]: title for uri, title in self.site.page_titles.items() if uri in urls
            }
            sections: dict[tuple[str, str], str] = {}
            for uri, headings in self.links.index.headings.items():
                url = urls.get(uri)
                for heading in headings:
                    if url is not None and heading.anchor is not None:
                        sections[(url, heading.anchor)] = heading.title
            for entry in self.entries():
                url = urls.get(entry.page)
                if url is not None:
                    sections[(url, entry.anchor)] = entry.name
            self._targets = titles, sections
            listed = repr((sorted(titles.items()), sorted(sections.items())))
            self._targets_digest = hashlib.sha256(listed.encode()).hexdigest()
        return self._targets

    def fill(self, document: str, job: DocumentJob) -> str:
        """A system's print page gets the system's pages."""
        if job.uri not in self.print_pages:
            return document
        sources = [
            PrintSource(page, self.site.page_urls[page], self.contents[page])
            for page in self._system_pages(self.print_pages[job.uri])
            if page in self.contents
        ]
        return fill_print_page(document, sources, self.site.page_urls[job.uri])
