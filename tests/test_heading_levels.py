"""Headings never skip a level (regles/core/checks.py): the outline screen readers and the
table of contents read. The fixture page that skips is tests/integration/imbrication/
content/titres.md (tests/test_bad_content.py)."""

from __future__ import annotations

from regles.core.checks import check_heading_levels
from regles.core.markdown_text import segment
from regles.core.report import Kind


def test_a_heading_that_skips_levels_is_a_warning_naming_both() -> None:
    page = segment("# Titre\n\n#### Trop bas\n\n## Section\n\n### Sous-section\n\n#### Bas\n")
    [problem] = check_heading_levels(page, "p.md")
    assert (problem.kind, problem.line, problem.severity) == (Kind.HEADING_SKIP, 3, "warning")
    assert "(h1 → h4)" in problem.message and "« ## »" in problem.message


def test_a_page_without_a_title_starts_at_level_one() -> None:
    assert check_heading_levels(segment("## Section\n\n### Sous-section\n"), "p.md") == []
    [problem] = check_heading_levels(segment("### Sous-section\n"), "p.md")
    assert "(h1 → h3)" in problem.message


def test_headings_in_code_are_not_headings() -> None:
    assert check_heading_levels(segment("# T\n\n```\n#### code\n```\n"), "p.md") == []
