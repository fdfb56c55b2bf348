"""A game system's glossary, as a feature of the build: its entries read from its built page,
and `data/glossary.json`, which the previews over the links to them read (the links
themselves are made with the others, features/links/references.py)."""

from __future__ import annotations

import json
from pathlib import Path

from regles.core.site import SiteContext
from regles.core.stages import HtmlJob, Stages
from regles.features.glossary.glossary import DATA_FILE, glossary_records
from regles.features.search import records as search

__all__ = ["GlossaryFeature"]


class GlossaryFeature:
    """The entries of each glossary page, once it is converted (`entries`: page → records)."""

    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.pages = frozenset(site.settings.glossaries.values())
        self.entries: dict[str, list[dict[str, object]]] = {}

    def register(self, stages: Stages) -> None:
        if not self.pages:
            return
        # Once the page reads as the search reads it (French spacing done, core/build.py).
        stages.html.register(self.read_entries, "glossary_entries", 40)
        stages.emitters.register(self.write_data, "glossary_data", 80)

    def read_entries(self, html: str, job: HtmlJob) -> str:
        if job.uri in self.pages:
            records = search.page_records(job.destination, search.article(html, job.title), None)
            self.entries[job.uri] = glossary_records(
                (r.url, r.title, r.body) for r in records if r.level > 1
            )
        return html

    def write_data(self, site_dir: Path) -> None:
        """`data/glossary.json`: every glossary entry's term and definition."""
        records = [r for page in sorted(self.entries) for r in self.entries[page]]
        data = site_dir / DATA_FILE
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
