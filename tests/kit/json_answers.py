"""What every answer of a rules package's JSON bridge must be (regles.kit.bridge), and the
texts and JSON values that try it: shared by the kit's tests (tests/kit/) and those of a
site's own calculators (tests/content/calculators/)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

__all__ = ["ANY_CHARACTER", "JSON_VALUES", "answer_of", "any_text"]


def answer_of(run_json: Callable[[str, str], str], name: str, text: str) -> dict[str, Any]:
    """run_json's answer, checked to be what the worker can always carry and read."""
    answer = run_json(name, text)
    answer.encode("utf-8")  # no lone surrogate: the worker and the page get UTF-8
    parsed = json.loads(answer)
    assert isinstance(parsed, dict) and isinstance(parsed["ok"], bool)
    if not parsed["ok"]:
        error = parsed["error"]
        assert set(error) == {"kind", "field", "message"}
        assert error["kind"] in ("input", "calculator", "internal")
        assert isinstance(error["message"], str) and error["message"]
    return parsed


# Any character, with lone surrogates and JSON's own characters drawn often (text() of
# such an alphabet seldom keeps a surrogate: the characters are drawn one by one).
ANY_CHARACTER = (
    st.characters(codec=None, exclude_categories=())
    | st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"])
    | st.sampled_from('[]{}":,\\ 0123456789d+-')
)


def any_text(max_size: int) -> st.SearchStrategy[str]:
    return st.lists(ANY_CHARACTER, max_size=max_size).map("".join)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | any_text(12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(any_text(8), children, max_size=4)
    ),
    max_leaves=12,
)
