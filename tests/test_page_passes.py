"""The passes over a page's Markdown (core/build.py and the features' passes, core/stages.py):
they share one reading of it, in the order their priorities give."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regles.core import markdown_text
from regles.core.build import SiteBuild
from regles.core.markdown_text import PageText
from regles.core.report import Kind, Problem
from regles.core.stages import PageJob
from tests.conftest import new_build
from tests.conftest import render as render_page


@pytest.fixture(scope="module")
def renderer(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    return new_build(tmp_path_factory.mktemp("passes"))


def render(renderer: SiteBuild, text: str) -> tuple[str, list[tuple[Kind, int | None]]]:
    out, problems = render_page(renderer, text)
    return out, [(p.kind, p.line) for p in problems]


SHOWN = "```calculateur dice\n```"


@pytest.mark.parametrize("fence", ["````markdown", "~~~", "```text"])
def test_a_directive_shown_inside_another_fence_is_not_expanded(
    renderer: SiteBuild, fence: str
) -> None:
    closing = re.sub(r"\w+$", "", fence)
    if closing == "```":  # a ``` block ends at the first ``` line: show the opening only
        text = f"Écrivez :\n\n{fence}\n```calculateur dice\n{closing}\n"
    else:
        text = f"Écrivez :\n\n{fence}\n{SHOWN}\n{closing}\n"
    assert render(renderer, text) == (text, [])


def test_a_calculator_shown_and_placed_on_one_page_has_its_ids_once(
    renderer: SiteBuild,
) -> None:
    out, problems = render(renderer, f"{SHOWN}\n\nAinsi :\n\n````markdown\n{SHOWN}\n````\n")
    assert problems == []
    assert out.count('id="calc-dice"') == 1


def test_an_indented_directive_looking_fence_left_open_is_an_unclosed_block(
    renderer: SiteBuild,
) -> None:
    # Not a directive (those start at the margin): a code block that swallows the page.
    _, problems = render(renderer, "Texte.\n\n  ```calculateur dice\n\nLancez 1d6.\n")
    assert problems == [(Kind.UNCLOSED_FENCE, 3)]


def test_a_directive_ends_where_its_fence_ends_for_every_pass(renderer: SiteBuild) -> None:
    # A longer run closes it, as it closes any ``` fence: the text after it is prose.
    out, problems = render(renderer, "```calculateur dice\n````\n\nLancez 1d6.\n")
    assert problems == []
    assert 'id="calc-dice"' in out and 'data-de="1d6"' in out


class CountingPattern:
    """A compiled pattern that counts the lines it is asked to match."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.lines = 0

    def match(self, line: str) -> re.Match[str] | None:
        self.lines += 1
        return self.pattern.match(line)


PAGE = """# Titre

Voir « Titre ». Lancez 1d6 ; [ailleurs](/regles/x/).

```python
x = "1d6"
```

| a | b |
| --- | --- |
| `c` | d |

<div markdown="1">
```calculateur dice
```
</div>
"""


def test_rendering_reads_each_line_of_a_page_for_fences_once(
    renderer: SiteBuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    fence = CountingPattern(markdown_text.FENCE)
    monkeypatch.setattr(markdown_text, "FENCE", fence)
    out, problems = render(renderer, PAGE)
    assert fence.lines == len(PAGE.split("\n"))
    assert 'id="calc-dice"' in out and (Kind.ABSENT_PAGE, 3) in problems


def test_indexing_reads_each_page_for_fences_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = new_build(tmp_path)
    shown = f"# Outils\n\n````markdown\n{SHOWN}\n````\n"
    pages = [("index.md", PAGE), ("outils.md", shown)]
    fence = CountingPattern(markdown_text.FENCE)
    monkeypatch.setattr(markdown_text, "FENCE", fence)
    build.index_pages(pages, [uri for uri, _ in pages], None, "")
    assert fence.lines == sum(len(text.split("\n")) for _, text in pages)
    # The block shown inside a ```` fence places no calculator.
    assert build.calculators.placements == [("index.md", "dice")]
    assert build.site.site_map.anchors["outils.md"] == {"outils"}


def test_the_passes_keep_their_order_links_first_directives_last(tmp_path: Path) -> None:
    passes = new_build(tmp_path).stages.markdown
    names = ["link_syntax", "source_checks", "absent_pages", "references", "dice", "directives"]
    assert [passes.get_index_for_name(name) for name in names] == list(range(len(names)))


def test_a_pass_registered_between_two_reads_what_the_first_left(tmp_path: Path) -> None:
    build = new_build(tmp_path)
    seen: list[str] = []

    def spy(page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        seen.append(page.text)
        return page, []

    build.stages.markdown.register(spy, "spy", 15)
    out, _ = render(build, f"Lancez 1d6.\n\n{SHOWN}\n")
    assert 'data-de="1d6"' in seen[0] and SHOWN in seen[0]  # after the dice, before directives
    assert SHOWN not in out


BROKEN = """from regles.kit import Calculator, CalculatorInputError, Field, Output, Values


def _refuse(values: Values) -> dict[str, object]:
    raise CalculatorInputError("n", "N doit être positif.")


CALCULATORS = (
    Calculator("broken", "Cassé", "", (Field("n", "N", "int", default=0),),
               (Output("x", "X"),), _refuse),
)
"""


def test_a_calculator_whose_starting_values_fail_is_reported_at_its_block(
    tmp_path: Path,
) -> None:
    # A rules package whose calculator refuses its own defaults: the build says which
    # calculator and why, at the block's line, under its own kind (not "unknown").
    package = tmp_path / "regles_cassees"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from regles.kit import discover\nrules = discover(__name__)\n", "utf-8"
    )
    (package / "casse.py").write_text(BROKEN, "utf-8")
    build = new_build(tmp_path, calculators=package)
    _, problems = render_page(build, "Texte\n\n```calculateur broken\n```\n")
    assert [(p.kind, p.line) for p in problems] == [(Kind.CALCULATOR_WITHOUT_RESULT, 3)]
    assert "N doit être positif." in problems[0].message
    assert "« broken »" in problems[0].message
