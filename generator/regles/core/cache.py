"""The build cache (`build/cache`): what a build keeps so as not to make it again.

It only saves time. A folder that cannot be written is not an error: the next build does
the work again. An entry is written whole or not at all, so that a build stopped halfway
leaves no half entry for the next one to read.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

__all__ = ["keep_text"]


def keep_text(path: Path, text: str) -> None:
    """Write `text` to the cache entry `path` (through `path.part`), if the cache allows."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
