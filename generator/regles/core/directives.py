"""Directive fences in the owner's pages: ```calculateur id```, ```table id```, ```note id```,
```calculateurs``` (the list of the page's calculators) and ```accueil``` (a search field and
quick links made from the nav, features/links/home.py), which take no id.

`markdown_text.segment` finds them, once, among the page's fences: a directive-looking line
inside another block (a ```` fence showing how to write one) is that block's text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from regles.core.markdown_text import PageText
from regles.core.report import Kind, Problem

__all__ = [
    "WITHOUT_ARGUMENT",
    "Directive",
    "DirectiveError",
    "directive_arguments",
    "expand_directives",
]

# The directives that take no identifier, and where what they show comes from.
MADE_FROM = {
    "calculateurs": "il liste les calculateurs de sa page",
    "accueil": "ses liens viennent de la nav de mkdocs.yml",
}
WITHOUT_ARGUMENT = frozenset(MADE_FROM)


@dataclass(frozen=True)
class Directive:
    kind: str
    argument: str
    file: str
    line: int


class DirectiveError(Exception):
    """A directive that cannot be rendered; the message names what is wrong, in French."""

    def __init__(self, kind: Kind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


Renderer = Callable[[Directive], str]


def directive_arguments(page: PageText, kind: str) -> list[str]:
    """The arguments of a page's directive fences of one kind, in order (```calculateur x)."""
    return [d.argument for d in page.directives if d.kind == kind and d.argument]


def malformed(file: str, line: int, message: str) -> Problem:
    """A directive fence that cannot be read as one."""
    return Problem(file, line, "error", Kind.MALFORMED_DIRECTIVE, message)


def expand_directives(
    page: PageText, file: str, render: Renderer
) -> tuple[PageText, list[Problem]]:
    """Replace each directive fence by what `render` makes of it; collect every failure.
    A fence that cannot be rendered is left out of the page (the build fails on it)."""
    problems: list[Problem] = []
    for directive in page.directives:
        kind, argument, start, end = (
            directive.kind,
            directive.argument,
            directive.line,
            directive.fence.end,
        )
        if end is None:  # the page's last fence: the rest of the page stays as written
            problems.append(
                malformed(file, start, f"bloc « ```{kind} » jamais fermé par une ligne « ``` »")
            )
            break
        body = [line for line in page.lines[start : end - 1] if line.strip()]
        rendered: list[str] = []
        if body:
            where = (
                ""
                if kind in WITHOUT_ARGUMENT
                else ", l’identifiant se met sur la ligne d’ouverture"
            )
            problems.append(
                malformed(
                    file,
                    start,
                    f"bloc « ```{kind} » : le contenu doit être vide{where} (reçu : {body[0]!r})",
                )
            )
        elif kind in WITHOUT_ARGUMENT and argument:
            problems.append(
                malformed(
                    file,
                    start,
                    f"bloc « ```{kind} » : rien n’est attendu après « {kind} », "
                    f"{MADE_FROM[kind]} (reçu : {argument!r})",
                )
            )
        elif kind not in WITHOUT_ARGUMENT and (not argument or " " in argument):
            problems.append(
                malformed(
                    file,
                    start,
                    f"bloc « ```{kind} » : un identifiant attendu après « {kind} », "
                    f"reçu : {argument!r}",
                )
            )
        else:
            try:
                rendered = ["", render(Directive(kind, argument, file, start)), ""]
            except DirectiveError as error:
                subject = argument or None
                problems.append(Problem(file, start, "error", error.kind, str(error), subject))
        page = page.replacing(start, end, rendered)
    return page, problems
