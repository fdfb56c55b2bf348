"""Directive fences in the owner's pages: ```calculateur id```, ```table id```, ```note id```."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.report import Kind, Problem

__all__ = ["DIRECTIVES", "Directive", "directive_arguments", "expand_directives"]

DIRECTIVES = ("calculateur", "table", "note")
OPEN = re.compile(r"^```\s*(" + "|".join(DIRECTIVES) + r")\b[ \t]*(.*?)\s*$")
CLOSE = re.compile(r"^```\s*$")


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


def directive_arguments(markdown: str, kind: str) -> list[str]:
    """The arguments of a page's directive fences of one kind, in order (```calculateur x)."""
    found = []
    for line in markdown.split("\n"):
        match = OPEN.match(line)
        if match and match.group(1) == kind and match.group(2):
            found.append(match.group(2))
    return found


def malformed(file: str, line: int, message: str) -> Problem:
    """A directive fence that cannot be read as one."""
    return Problem(file, line, "error", Kind.MALFORMED_DIRECTIVE, message)


def expand_directives(markdown: str, file: str, render: Renderer) -> tuple[str, list[Problem]]:
    """Replace each directive fence by what `render` makes of it; collect every failure."""
    problems: list[Problem] = []
    out: list[str] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        match = OPEN.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        start = i + 1
        kind, argument = match.group(1), match.group(2)
        end = next((j for j in range(i + 1, len(lines)) if CLOSE.match(lines[j])), None)
        if end is None:
            problems.append(
                malformed(file, start, f"bloc « ```{kind} » jamais fermé par une ligne « ``` »")
            )
            out.extend(lines[i:])
            break
        body = [line for line in lines[i + 1 : end] if line.strip()]
        if body:
            problems.append(
                malformed(
                    file,
                    start,
                    f"bloc « ```{kind} » : le contenu doit être vide, "
                    f"l’identifiant se met sur la ligne d’ouverture (reçu : {body[0]!r})",
                )
            )
        elif not argument or " " in argument:
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
                out.extend(["", render(Directive(kind, argument, file, start)), ""])
            except DirectiveError as error:
                problems.append(Problem(file, start, "error", error.kind, str(error), argument))
        i = end + 1
    return "\n".join(out), problems
