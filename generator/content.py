"""The pass every page's Markdown goes through: link checks, directives, cross-links."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
        self, markdown: str, file: str, index: TargetIndex, college: str | None = None
    ) -> tuple[str, list[Problem]]:
        problems = check_link_syntax(markdown, file)
        text, found = unlink_absent_pages(markdown, file)
        problems += found
        # Links first: directives add lines, and problems must keep the source's line numbers.
        text, found = link_references(text, file, index, college=college)
        problems += found
        text, _ = dice_buttons(text)
        text, found = expand_directives(text, file, self.render_directive)
        problems += found
        return text, problems
