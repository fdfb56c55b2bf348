"""The passes every page's Markdown goes through: link checks, directives, cross-links.

The page is read once (`markdown_text.segment`); each pass, registered by name with a
priority (`ContentRenderer.passes`), takes that reading and hands on the page it made."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown.util import Registry

from regles.core import checks
from regles.core.directives import Directive, DirectiveError, directive_arguments, expand_directives
from regles.core.markdown_text import PageText, segment
from regles.core.report import Kind, Problem
from regles.features.calculators.dice_buttons import dice_buttons
from regles.features.calculators.forms import (
    markdown_table,
    note_admonition,
    start_value,
    widget_form,
)
from regles.features.calculators.links import calculator_list
from regles.features.links.home import QuickLink, home_block
from regles.features.links.references import (
    TargetIndex,
    check_link_syntax,
    href,
    link_references,
    unlink_absent_pages,
)
from regles.kit.discovery import RulesPackage, discover

__all__ = ["ContentRenderer", "PageJob", "Pass", "calculator_homes"]


@dataclass(frozen=True)
class PageJob:
    """What a pass knows of the page it reads, besides its text."""

    file: str
    index: TargetIndex
    college: str | None = None
    site: checks.SiteMap | None = None  # the owner's pages: turns on the source checks


# A pass reads the page as the previous one left it and returns it, with its problems.
Pass = Callable[[PageText, PageJob], tuple[PageText, list[Problem]]]


def calculator_homes(
    placements: Iterable[tuple[str, str]], in_system: Callable[[str], bool]
) -> dict[str, str]:
    """Each calculator's home page, from the (page, calculator id) of its blocks in the
    pages' order: the first page of a game system that places it, where its rule is
    written. A calculator placed only outside the systems (a tools page) has none."""
    homes: dict[str, str] = {}
    for page, calculator in placements:
        if in_system(page):
            homes.setdefault(calculator, page)
    return homes


@dataclass
class ContentRenderer:
    """Turns an owner's page into the Markdown MkDocs renders; problems are returned, not raised.

    `rules` are the site's rules (features/calculators/package.py: its calculators' `catalog()` and
    `run_json`, its `table(id)` and `notes`); `homes` gives each calculator's home page
    (`calculator_homes`): a block placed elsewhere links to it; `quick_links` are the ```accueil
    block's links (`home_links.quick_links`, from the nav), `spells` whether the site has a spell
    database (the search field then says it finds spells)."""

    rules: RulesPackage = field(default_factory=lambda: discover(None))
    homes: dict[str, str] = field(default_factory=dict)
    quick_links: list[QuickLink] = field(default_factory=list)
    spells: bool = False
    catalog: dict[str, dict[str, Any]] = field(default_factory=dict, init=False)
    # Python-Markdown's registry of processors: by name, highest priority first.
    passes: Registry[Pass] = field(default_factory=Registry, init=False)

    def __post_init__(self) -> None:
        self.catalog = {str(entry["id"]): entry for entry in self.rules.catalog()}
        self._suggesting: tuple[TargetIndex, checks.Suggester, checks.Suggester] | None = None
        self._defaults: dict[str, dict[str, object]] = {}  # calculator → default outputs
        # Highest first, and problems are listed in that order. The checks read the source as
        # written; references are found in the text the unlinking leaves (the words of a link
        # to an absent page may be one); dice buttons go into the linked text; directives
        # come last: what they render is no owner's text for another pass to read.
        self.passes.register(self._link_syntax, "link_syntax", 60)
        self.passes.register(self._source_checks, "source_checks", 50)
        self.passes.register(self._absent_pages, "absent_pages", 40)
        self.passes.register(self._references, "references", 30)
        self.passes.register(self._dice, "dice", 20)
        self.passes.register(self._directives, "directives", 10)

    def _suggesters(self, index: TargetIndex) -> tuple[checks.Suggester, checks.Suggester]:
        """Section titles and spell names of one build's index, gathered once."""
        if self._suggesting is None or self._suggesting[0] is not index:
            titles = checks.Suggester(t.title for ts in index.sections.values() for t in ts)
            spells = checks.Suggester(s.name for ss in index.spells.values() for s in ss)
            self._suggesting = (index, titles, spells)
        return self._suggesting[1], self._suggesting[2]

    def _default_result(self, entry: dict[str, Any]) -> dict[str, object]:
        """The outputs of a calculator for the inputs its form starts from, by the rules
        package's own `run_json` (the browser's call), once per build; the draws of the dice
        are made with a fixed seed, so the page is the same at every build (and the page
        shows none)."""
        calc_id = str(entry["id"])
        if calc_id not in self._defaults:
            inputs: dict[str, object] = {}
            for spec in entry["inputs"]:
                if spec["name"] == "seed":
                    inputs["seed"] = 0
                elif start_value(spec) is not None:
                    inputs[spec["name"]] = start_value(spec)
            answer = json.loads(self.rules.run_json(calc_id, json.dumps(inputs)))
            if not answer.get("ok"):
                error = answer.get("error") or {}
                raise DirectiveError(
                    Kind.CALCULATOR_WITHOUT_RESULT,
                    f"calculateur « {calc_id} » : ses valeurs par défaut ne donnent pas de "
                    f"résultat ({error.get('message', 'erreur')})",
                )
            self._defaults[calc_id] = dict(answer["outputs"])
        return self._defaults[calc_id]

    def render_directive(self, directive: Directive, placed: Sequence[str] = ()) -> str:
        """What one directive fence becomes; `placed` are the ids of the calculators that
        the page places (```calculateur id), in order, for its ```calculateurs list."""
        if directive.kind == "calculateurs":
            entries = [self.catalog[c] for c in dict.fromkeys(placed) if c in self.catalog]
            if not entries:
                raise DirectiveError(
                    Kind.EMPTY_CALCULATOR_LIST,
                    "bloc « ```calculateurs » sur une page sans calculateur : il liste les "
                    "blocs « ```calculateur identifiant » de sa page",
                )
            return calculator_list(entries)
        if directive.kind == "accueil":
            block = home_block(self.quick_links, directive.file, spells=self.spells)
            if not block:
                raise DirectiveError(
                    Kind.EMPTY_HOME_LINKS,
                    "bloc « ```accueil » : la nav de mkdocs.yml ne nomme aucune autre page "
                    "de ce site, il n’aurait aucun lien",
                )
            return block
        if directive.kind == "calculateur":
            entry = self.catalog.get(directive.argument)
            if entry is None:
                raise DirectiveError(
                    Kind.UNKNOWN_CALCULATOR,
                    f"calculateur inconnu « {directive.argument} » ; attendu l’un de : "
                    + ", ".join(sorted(self.catalog)),
                )
            form = widget_form(entry, self._default_result(entry))
            rule_page = self.homes.get(directive.argument)
            if rule_page and rule_page != directive.file:
                link = href(directive.file, rule_page, None)
                rule = f'<p class="calculateur-regle" markdown="1">[Voir la règle]({link})</p>'
                return f"{rule}\n\n{form}"
            return form
        if directive.kind == "table":
            known = self.rules.table_ids()
            if directive.argument not in known:
                raise DirectiveError(
                    Kind.UNKNOWN_TABLE,
                    f"table inconnue « {directive.argument} » ; attendu l’une de : "
                    + (", ".join(known) or "aucune (le paquet des calculateurs n’en a pas)"),
                )
            computed = self.rules.table(directive.argument)
            return markdown_table(computed.headers, computed.rows)
        notes = self.rules.notes
        if directive.argument not in notes:
            raise DirectiveError(
                Kind.UNKNOWN_NOTE,
                f"note inconnue « {directive.argument} » ; attendu l’une de : "
                + (", ".join(sorted(notes)) or "aucune (le paquet des calculateurs n’en a pas)"),
            )
        return note_admonition(notes[directive.argument])

    def render(
        self,
        markdown: str,
        file: str,
        index: TargetIndex,
        college: str | None = None,
        site: checks.SiteMap | None = None,
    ) -> tuple[str, list[Problem]]:
        """The page to render and its problems; `site` (the owner's pages, not the generated
        ones) turns on the source checks of core/checks.py."""
        page = segment(markdown)
        job = PageJob(file, index, college, site)
        problems: list[Problem] = []
        for step in self.passes:
            page, found = step(page, job)
            problems += found
        return page.text, problems

    # The passes, in the order of their priorities above.

    def _link_syntax(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        return page, check_link_syntax(page, job.file)

    def _source_checks(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        if job.site is None:
            return page, []
        return page, checks.check_source(page, job.file, job.site)

    def _absent_pages(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        return unlink_absent_pages(page, job.file, job.index)

    def _references(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        titles, spells = self._suggesters(job.index)
        page, found = link_references(
            page,
            job.file,
            job.index,
            college=job.college,
            typo=lambda name: checks.reference_typo(titles, name),
        )
        return page, checks.with_suggestions(found, titles, spells)

    def _dice(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        return dice_buttons(page), []

    def _directives(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        placed = directive_arguments(page, "calculateur")
        return expand_directives(
            page, job.file, lambda directive: self.render_directive(directive, placed)
        )
