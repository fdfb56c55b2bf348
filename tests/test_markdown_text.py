"""The segmentation of a page (markdown_text.segment): what every pass reads as prose or code."""

from __future__ import annotations

import pytest

from regles.core.markdown_text import Fence, LineKind, PageText, segment

P, F, M = LineKind.PROSE, LineKind.FENCED, LineKind.FRONT_MATTER


def kinds(text: str) -> list[LineKind]:
    return list(segment(text).kinds)


def test_backtick_and_tilde_fences_with_their_info_string() -> None:
    page = segment("a\n```python\nx = 1\n```\nb\n~~~ text\n```\n~~~\nc")
    assert list(page.kinds) == [P, F, F, F, P, F, F, F, P]
    assert page.fences == (Fence(2, 4, "```", "python"), Fence(6, 8, "~~~", "text"))
    assert list(page.prose()) == [(1, "a"), (5, "b"), (9, "c")]


def test_only_a_run_of_the_same_sign_as_long_or_longer_closes_a_fence() -> None:
    page = segment("````\n```\n~~~~\n`````  \nafter")
    assert page.fences == (Fence(1, 4, "````", ""),)
    assert list(page.kinds) == [F, F, F, F, P]


def test_a_closing_line_holds_nothing_but_the_run_and_blanks() -> None:
    page = segment("```\n``` x\n```\t\nafter")
    assert page.fences == (Fence(1, 3, "```", ""),)


def test_an_unclosed_fence_runs_to_the_end_of_the_page() -> None:
    page = segment("# A\n```python\n# not a heading\n[x](y]\n")
    assert page.fences == (Fence(2, None, "```", "python"),)
    assert list(page.kinds) == [P, F, F, F, F]
    assert [h.text for h in page.headings] == ["A"]


def test_fences_indented_up_to_three_spaces_only() -> None:
    assert kinds("   ```\nx\n  ```\ny") == [F, F, F, P]
    # Four spaces make no fence (at the top level, Markdown's indented code).
    assert kinds("    ```\nx") == [P, P]


def test_directive_fences_are_recognised_once_with_kind_and_argument() -> None:
    page = segment(
        "```calculateur chance\n```\n``` table modificateurs\n```\n```note\n```\n```python\n```"
    )
    assert [(d.kind, d.argument, d.line, d.fence.end) for d in page.directives] == [
        ("calculateur", "chance", 1, 2),
        ("table", "modificateurs", 3, 4),
        ("note", "", 5, 6),
    ]


def test_a_directive_looking_line_inside_another_fence_is_that_fence_s_text() -> None:
    text = "````markdown\n```calculateur chance\n```\n````\n~~~\n```note x\n```\n~~~"
    page = segment(text)
    assert page.directives == ()
    assert [f.start for f in page.fences] == [1, 5]


def test_an_indented_directive_looking_fence_is_an_ordinary_fence() -> None:
    page = segment("  ```calculateur chance\n  ```")
    assert page.directives == ()
    assert page.fences == (Fence(1, 2, "```", "calculateur chance"),)


def test_inline_code_spans_are_found_per_line_and_filled_or_dropped() -> None:
    page = segment("a `b` c ``d`e`` f\nno code\n`open")
    assert page.code_spans(1) == ((2, 5), (8, 15))
    assert page.without_code(1) == "a     c         f"
    assert page.without_code(1, "x") == "a xxx c xxxxxxx f"
    assert page.without_code(1, "") == "a  c  f"
    assert page.code_spans(2) == () and page.without_code(2) == "no code"
    assert page.without_code(3) == "`open"  # never closed: not code


def test_raw_html_blocks_stay_prose_for_the_passes() -> None:
    # md_in_html blocks hold Markdown that the passes link; tags are left to checks.py.
    page = segment('<div markdown="1">\nVoir « Combat ».\n</div>\n<pre>\ntexte\n</pre>')
    assert list(page.kinds) == [P] * 6
    assert page.fences == ()


def test_a_front_matter_is_blanked_and_the_lines_keep_the_file_s_numbers() -> None:
    text = "---\ntitle: x\n---\n# Titre\n```\ncode\n```"
    page = segment(text, front_matter=True)
    assert list(page.kinds) == [M, M, M, P, F, F, F]
    assert page.lines[:3] == ("", "", "")
    assert [(h.text, h.line) for h in page.headings] == [("Titre", 4)]
    assert page.fences == (Fence(5, 7, "```", ""),)
    # As MkDocs hands the page over (front matter stripped), the dashes are text.
    assert kinds(text)[:3] == [P, P, P]


def test_a_front_matter_left_open_is_no_front_matter() -> None:
    page = segment("---\ntitle: x\n# Titre", front_matter=True)
    assert list(page.kinds) == [P, P, P]


def test_rewritten_lines_keep_the_segmentation_and_replaced_blocks_the_numbers() -> None:
    page = segment("a\n```calculateur chance\n```\nb 1d6")
    rewritten = page.with_lines(["A", *page.lines[1:3], "B"])
    assert rewritten.fences == page.fences and rewritten.kinds == page.kinds
    assert rewritten.replacing(2, 3, ["", "<form>", ""]).text == "A\n\n<form>\n\nB"
    assert rewritten.replacing(2, 3, []).text == "A\nB"
    assert page.text == "a\n```calculateur chance\n```\nb 1d6"
    with pytest.raises(ValueError):
        page.with_lines(["a"])


def test_headings_and_anchor_spans_are_read_once_per_page() -> None:
    page = segment('# A\n<span id="etat-a-terre">À terre</span>')
    assert page.headings is page.headings
    assert page.anchor_spans == (("etat-a-terre", "À terre", 2),)
    assert isinstance(page.with_lines(["# B", ""]), PageText)
    assert [h.text for h in page.with_lines(["# B", ""]).headings] == ["B"]
