"""Build report: every problem found during a build, collected and reported together."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Literal

__all__ = ["BuildReport", "Problem", "Severity"]

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Problem:
    """One problem, located in a source file (path relative to the docs folder)."""

    file: str
    line: int | None
    severity: Severity
    kind: str
    message: str
    subject: str | None = None

    def sort_key(self) -> tuple[str, int, str, str, str, str]:
        """By file, then line (a problem of the whole file, with no line, comes first)."""
        return (
            self.file,
            self.line or 0,
            self.severity,
            self.kind,
            self.message,
            self.subject or "",
        )

    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        about = f" [{self.subject}]" if self.subject else ""
        return f"{self.location()}{about}: {self.message}"


@dataclass
class BuildReport:
    """Problems of one build; errors fail it, the rest is listed for the owner."""

    problems: list[Problem] = field(default_factory=list)
    # The problems already listed, for `add` to drop a repeat at once (a list search made
    # the build quadratic in the number of problems: 1.1 s for a 10x spell export). Only
    # `add` and `clear` change `problems`.
    _seen: set[Problem] = field(default_factory=set, init=False, repr=False, compare=False)

    def add(self, problem: Problem) -> None:
        if problem not in self._seen:
            self._seen.add(problem)
            self.problems.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.add(problem)

    def clear(self) -> None:
        self.problems.clear()
        self._seen.clear()

    def of(self, severity: Severity) -> list[Problem]:
        return sorted((p for p in self.problems if p.severity == severity), key=Problem.sort_key)

    def grouped(self, severity: Severity) -> dict[str, list[Problem]]:
        """Problems of one severity grouped by kind, each group sorted by place."""
        groups: dict[str, list[Problem]] = defaultdict(list)
        for problem in self.of(severity):
            groups[problem.kind].append(problem)
        return dict(sorted(groups.items()))

    def format(self, severity: Severity) -> str:
        lines: list[str] = []
        for kind, problems in self.grouped(severity).items():
            lines.append(f"{kind} ({len(problems)}) :")
            lines.extend(f"  {p}" for p in problems)
        return "\n".join(lines)

    def to_json(self) -> str:
        problems = sorted(self.problems, key=Problem.sort_key)
        return json.dumps([asdict(p) for p in problems], ensure_ascii=False, indent=1)
