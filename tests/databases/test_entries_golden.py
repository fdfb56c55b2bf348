"""Golden renders: each `golden/<cas>.md` gives `<cas>.expected.md` and `<cas>.expected.html`.

`<cas>.expected.md` holds every college page (each after a `<!-- page: … -->` line) and
the problems; `<cas>.expected.html` the « Tous les sorts » page. Run with
`UPDATE_GOLDEN=1` to rewrite the expectations after an intended change, then review the
diff before committing.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from regles.core.report import Problem
from regles.features.databases.export import parse_export
from regles.features.databases.model import read_export
from regles.features.databases.pages import mention_linker, render_entry_index, render_group_page

GOLDEN = Path(__file__).resolve().parent / "golden"
EXPECTED_SUFFIXES = (".expected.md", ".expected.html")
CASES = sorted(p for p in GOLDEN.glob("*.md") if not p.name.endswith(EXPECTED_SUFFIXES))


def render_case(path: Path) -> dict[str, str]:
    result = parse_export(read_export(path), source=f"golden/{path.name}")
    pages = []
    for group in result.groups:
        page = render_group_page(group, mention_linker(result, group))
        pages.append(f"<!-- page: magie/{group.slug}/ -->\n{page}")
    problems = "".join(f"{describe(p)}\n" for p in result.problems) or "aucun\n"
    return {
        ".expected.md": "\n".join(pages) + "\n<!-- problèmes -->\n" + problems,
        ".expected.html": render_entry_index(result, "Tous les sorts"),
    }


def describe(problem: Problem) -> str:
    """A problem of the parse on one line: place, severity, message, college and spell."""
    where = " / ".join(x for x in (problem.context, problem.subject) if x)
    label = "erreur" if problem.severity == "error" else "avertissement"
    suffix = f" [{where}]" if where else ""
    return f"{problem.file}:{problem.line}:{problem.column}: {label}: {problem.message}{suffix}"


def test_cases_are_collected() -> None:
    assert {p.stem for p in CASES} >= {"extrait-seed", "pieges", "lignes"}


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_golden(case: Path) -> None:
    update = os.environ.get("UPDATE_GOLDEN") == "1"
    failures = []
    for suffix, actual in render_case(case).items():
        expected_path = case.with_name(case.stem + suffix)
        if update:
            expected_path.write_text(actual, encoding="utf-8")
            continue
        if not expected_path.exists():
            failures.append(f"{expected_path.name} absent : relancer avec UPDATE_GOLDEN=1")
            continue
        expected = expected_path.read_text(encoding="utf-8")
        if actual != expected:
            diff = difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"{expected_path.name} (attendu)",
                tofile=f"{expected_path.name} (obtenu)",
            )
            failures.append("".join(diff))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)
