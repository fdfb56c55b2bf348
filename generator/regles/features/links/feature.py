"""Cross-links, as a feature of the build: the owner's link syntax checked, links to absent
pages unlinked, « Section » references and italic mentions made links (references.py), the
tables' directions annotated (directions.py), and the ```` ```accueil ```` block (home.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from regles.core import link_checks
from regles.core.directives import Directive, DirectiveError
from regles.core.markdown_text import PageText
from regles.core.report import Kind, Problem
from regles.core.site import SiteContext
from regles.core.stages import HtmlJob, PageJob, Stages
from regles.features.databases.phrases import site_phrases
from regles.features.links.directions import annotate_directions
from regles.features.links.home import home_block, quick_links
from regles.features.links.references import check_link_syntax, link_references, unlink_absent_pages
from regles.features.links.targets import EntryTarget, TargetIndex

__all__ = ["LinksFeature"]

# In the build cache: the title or entry name each unresolved mention was one slip from.
SUGGESTIONS_CACHE = "suggestions.pickle"


class LinksFeature:
    """The site's link targets (`index`, made once every page is read) and the passes that
    link a page to them. `entries` are the targets a database gives (features/databases), `groups`
    the group of each page of a database (an entry mention prefers its own group's entry),
    `lists_first` the pages a section's quick link leads to when the section holds one,
    `sections` the page a section of the nav without a page of its own leads to (a
    database's section, « Bestiaire » → its index)."""

    def __init__(
        self,
        site: SiteContext,
        entries: Callable[[], list[EntryTarget]],
        groups: Mapping[str, str],
        lists_first: Sequence[str] = (),
        sections: Mapping[str, str] | None = None,
    ) -> None:
        self.site = site
        self.entries = entries
        self.groups = groups
        self.lists_first = lists_first
        self.sections = dict(sections or {})
        self.index = TargetIndex()
        self._suggesters: tuple[link_checks.Suggester, link_checks.Suggester] | None = None

    def register(self, stages: Stages) -> None:
        stages.indexed.append(self.build_index)
        # Highest first, and problems are listed in that order. The checks read the source as
        # written; references are found in the text the unlinking leaves (the words of a link
        # to an absent page may be one).
        stages.markdown.register(self.link_syntax, "link_syntax", 60)
        stages.markdown.register(self.absent_pages, "absent_pages", 40)
        stages.markdown.register(self.references, "references", 30)
        stages.directive("accueil", self.home)
        # Before the French spacing and the search index read the text (core/build.py).
        stages.html.register(self.directions, "directions", 70)

    # Once every page is read --------------------------------------------------------------

    def build_index(self) -> list[Problem]:
        """The link targets of every page but a database's group pages (their entries are
        targets of their own), and the pages the settings name, checked."""
        settings = self.site.settings
        owner = [(uri, page) for uri, page in self.site.pages if uri not in self.groups]
        self.index = TargetIndex.build(
            owner,
            self.entries(),
            glossaries=settings.glossaries,
            old_paths=settings.old_paths,
            scope_of=self.site.systems.scope_of,
            scope_reaches=self.site.systems.reaches,
            sections=self.sections,
        )
        self._suggesters = None
        return self._missing_pages({uri for uri, _ in self.site.pages})

    def _missing_pages(self, known: set[str]) -> list[Problem]:
        """A glossary or a new home of an old address that names no page of the docs."""
        settings = self.site.settings
        named = [
            (f"le glossaire du système « {folder} »", page)
            for folder, page in settings.glossaries.items()
        ] + [(f"l’adresse « {old} » (old_paths)", page) for old, page in settings.old_paths.items()]
        return [
            Problem(
                settings.config_name,
                None,
                "error",
                Kind.SETTING_PAGE_MISSING,
                f"{what} nomme la page « {page} », qui n’est pas dans le contenu",
                page,
            )
            for what, page in named
            if page not in known
        ]

    def suggesters(self) -> tuple[link_checks.Suggester, link_checks.Suggester]:
        """Section titles and entry names of the index, gathered once per build."""
        if self._suggesters is None:
            index = self.index
            kept = self.site.kept(SUGGESTIONS_CACHE)
            titles = link_checks.Suggester(
                (t.title for ts in index.sections.values() for t in ts), kept
            )
            entries = link_checks.Suggester(
                (s.name for ss in index.entries.values() for s in ss), kept
            )
            self._suggesters = (titles, entries)
        return self._suggesters

    # Markdown passes ------------------------------------------------------------------------

    def link_syntax(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        return page, check_link_syntax(page, job.file)

    def absent_pages(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        return unlink_absent_pages(page, job.file, self.index)

    def references(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        titles, entries = self.suggesters()
        page, found = link_references(
            page,
            job.file,
            self.index,
            group=self.groups.get(job.file),
            typo=lambda name: link_checks.reference_typo(titles, name),
        )
        return page, link_checks.with_suggestions(found, titles, entries)

    def home(self, directive: Directive, page: PageText) -> str:
        """The ```accueil block: a search field and the nav's quick links."""
        links = quick_links(self.site.nav, self.site.page_titles, self.lists_first)
        label = site_phrases(self.site.settings.databases)["search_label"]
        block = home_block(links, directive.file, label=label)
        if not block:
            raise DirectiveError(
                Kind.EMPTY_HOME_LINKS,
                "bloc « ```accueil » : la nav de mkdocs.yml ne nomme aucune autre page "
                "de ce site, il n’aurait aucun lien",
            )
        return block

    # HTML pass -----------------------------------------------------------------------------

    def directions(self, html: str, job: HtmlJob) -> str:
        """« Le tableau à droite » annotated: the table is not to the right on a phone."""
        return annotate_directions(html)
