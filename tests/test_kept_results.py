"""What a pure step of the build gave, kept for the next build (core/cache.py
`KeptResults`): made once per text, read back by the next build, made again for a text that
changed or by other code, and only what the last build used kept."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from regles.core import cache
from regles.core.cache import KeptResults


class Counted:
    """A step that says how often it ran."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> str:
        self.texts.append(text)
        return text.upper()


def test_a_text_is_made_once_in_a_build_and_read_back_by_the_next(tmp_path: Path) -> None:
    entry = tmp_path / "cache" / "resultats.pickle"
    step = Counted()
    first: KeptResults[str] = KeptResults(entry)
    assert [first.get(t, step) for t in ("a", "b", "a")] == ["A", "B", "A"]
    assert step.texts == ["a", "b"] and first.made == 2
    first.keep()
    assert entry.is_file()
    second: KeptResults[str] = KeptResults(entry)
    assert [second.get(t, step) for t in ("b", "c")] == ["B", "C"]
    assert step.texts == ["a", "b", "c"]  # « b » read back, « c » new
    second.keep()
    third: KeptResults[str] = KeptResults(entry)
    assert third.get("a", step) == "A" and step.texts[-1] == "a"  # not used last time: gone


def test_results_of_other_code_are_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = tmp_path / "resultats.pickle"
    entry.write_bytes(pickle.dumps(("autre-code", {b"x" * 16: "FAUX"})))
    kept: KeptResults[str] = KeptResults(entry)
    step = Counted()
    monkeypatch.setattr(cache, "code_digest", lambda: "ce-code")
    kept.get("a", step)
    kept.keep()
    assert step.texts == ["a"]
    assert pickle.loads(entry.read_bytes())[0] == "ce-code"


@pytest.mark.parametrize("content", [b"", b"\x80 pas un pickle", pickle.dumps(["liste"])])
def test_an_unreadable_entry_only_means_making_again(tmp_path: Path, content: bytes) -> None:
    entry = tmp_path / "resultats.pickle"
    entry.write_bytes(content)
    step = Counted()
    assert KeptResults(entry).get("a", step) == "A" and step.texts == ["a"]


def test_an_unchanged_build_does_not_write_its_entry_again(tmp_path: Path) -> None:
    entry = tmp_path / "resultats.pickle"
    first: KeptResults[str] = KeptResults(entry)
    first.get("a", str.upper)
    first.keep()
    os.utime(entry, ns=(10**18, 10**18))  # a time the entry would lose if written again
    second: KeptResults[str] = KeptResults(entry)
    second.get("a", str.upper)
    second.keep()
    assert entry.stat().st_mtime_ns == 10**18
    third: KeptResults[str] = KeptResults(entry)
    third.get("b", str.upper)
    third.keep()
    assert entry.stat().st_mtime_ns != 10**18
