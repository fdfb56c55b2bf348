"""The pass every page's Markdown goes through: link checks, directives, cross-links."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator import checks
from generator.dice import dice_buttons
from generator.fences import Directive, DirectiveError, expand_directives
from generator.links import (
    TargetIndex,
    check_link_syntax,
    href,
    link_references,
    unlink_absent_pages,
)
from generator.render import markdown_table, note_admonition, widget_form
from generator.report import Problem

__all__ = ["ContentRenderer"]


@dataclass
class ContentRenderer:
    """Turns an owner's page into the Markdown MkDocs renders; problems are returned, not raised."""

    catalog: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import calculators  # the rules package: imported here so tests can stub nothing

        self._calculators = calculators
        self.catalog = {str(entry["id"]): entry for entry in calculators.catalog()}
        self._suggesting: tuple[TargetIndex, checks.Suggester, checks.Suggester] | None = None

    def _suggesters(self, index: TargetIndex) -> tuple[checks.Suggester, checks.Suggester]:
        """Section titles and spell names of one build's index, gathered once."""
        if self._suggesting is None or self._suggesting[0] is not index:
            titles = checks.Suggester(t.title for ts in index.sections.values() for t in ts)
            spells = checks.Suggester(s.name for ss in index.spells.values() for s in ss)
            self._suggesting = (index, titles, spells)
        return self._suggesting[1], self._suggesting[2]

    def render_directive(self, directive: Directive) -> str:
        if directive.kind == "calculateur":
            entry = self.catalog.get(directive.argument)
            if entry is None:
                raise DirectiveError(
                    f"calculateur inconnu « {directive.argument} » ; attendu l’un de : "
                    + ", ".join(sorted(self.catalog))
                )
            form = widget_form(entry)
            rule_page = str(entry.get("page", ""))
            if rule_page and rule_page != directive.file:
                link = href(directive.file, rule_page, None)
                rule = f'<p class="calculateur-regle" markdown="1">[Voir la règle]({link})</p>'
                return f"{rule}\n\n{form}"
            return form
        if directive.kind == "table":
            from calculators import tables

            if directive.argument not in tables.table_ids():
                raise DirectiveError(
                    f"table inconnue « {directive.argument} » ; attendu l’une de : "
                    + ", ".join(tables.table_ids())
                )
            computed = tables.table(directive.argument)
            return markdown_table(computed.headers, computed.rows)
        notes: dict[str, str] = self._calculators.NOTES
        if directive.argument not in notes:
            raise DirectiveError(
                f"note inconnue « {directive.argument} » ; attendu l’une de : "
                + ", ".join(sorted(notes))
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
        ones) turns on the source checks of generator/checks.py."""
        problems = check_link_syntax(markdown, file)
        if site is not None:
            problems += checks.check_source(markdown, file, site)
        text, found = unlink_absent_pages(markdown, file)
        problems += found
        # Links first: directives add lines, and problems must keep the source's line numbers.
        text, found = link_references(text, file, index, college=college)
        problems += checks.with_suggestions(found, *self._suggesters(index))
        text = dice_buttons(text)
        text, found = expand_directives(text, file, self.render_directive)
        problems += found
        return text, problems
