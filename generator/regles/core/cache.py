"""The build cache (`build/cache`): what a build keeps so as not to make it again.

It only saves time. A folder that cannot be written is not an error: the next build does
the work again. An entry is written whole or not at all, so that a build stopped halfway
leaves no half entry for the next one to read.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["code_digest", "keep_bytes", "keep_object", "keep_text", "kept_object"]

PACKAGE = Path(__file__).resolve().parents[1]  # regles/


def keep_text(path: Path, text: str) -> None:
    """Write `text` to the cache entry `path` (through `path.part`), if the cache allows."""
    keep_bytes(path, text.encode("utf-8"))


def keep_bytes(path: Path, data: bytes) -> None:
    """Write `data` to the cache entry `path` (through `path.part`), if the cache allows."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        partial.write_bytes(data)
        partial.replace(path)


@cache
def code_digest() -> str:
    """A digest of the generator's own Python code: what a cache entry made by that code
    depends on besides its inputs (an upgrade, an edit, and the entry is made again)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def kept_object(path: Path) -> Any | None:
    """The object kept in the cache entry `path` (`keep_object`), None if there is none or
    it cannot be read."""
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # a missing, cut or foreign entry: made again
        return None


def keep_object(path: Path, value: object, stale: str | None = None) -> None:
    """Keep `value` in the cache entry `path` (pickled: the entry is only read by the build
    that wrote the same code, `code_digest`); the entries matching the glob `stale` in the
    same folder, older ones of the same kind, removed."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    keep_bytes(path, data)
    if stale is not None:
        with contextlib.suppress(OSError):
            for old in path.parent.glob(stale):
                if old != path:
                    old.unlink()
