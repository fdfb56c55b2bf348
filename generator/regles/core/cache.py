"""The build cache (`build/cache`): what a build keeps so as not to make it again.

It only saves time. A folder that cannot be written is not an error: the next build does
the work again. An entry is written whole or not at all, so that a build stopped halfway
leaves no half entry for the next one to read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = [
    "KeptResults",
    "code_digest",
    "keep_bytes",
    "keep_object",
    "keep_text",
    "kept_object",
    "link_or_copy",
]

T = TypeVar("T")

PACKAGE = Path(__file__).resolve().parents[1]  # regles/


def link_or_copy(source: str, target: str) -> None:
    """`target` made the same file as `source` (a hard link), or a copy of it with its times
    where a link cannot be made (another file system, one without links): a file of the site
    that the build cache or an npm package holds already, and that nothing writes into once
    made (a build writes a new file, never into an old one).

    The search index is some 640 files for this site, and on this project's machines making
    a file costs 0.7–1 ms: 0.45–0.65 s to copy the index, 15 ms to link it."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)  # with its times: the offline step's digests hold


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


class KeptResults(Generic[T]):
    """What a step of the build that depends on nothing but its text and the generator's
    code (`code_digest`) gave for each text, by the text's digest: what the last build gave
    is kept in the cache entry `path` (`keep`, once the build is done) for the next one,
    which only makes again what is new. Within a build, a text met twice is made once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._kept: dict[bytes, T] | None = None  # read at the first text
        self._given: dict[bytes, T] = {}
        self.made = 0  # texts made again: none, and `keep` has nothing new to write

    def _read(self) -> dict[bytes, T]:
        kept = kept_object(self.path) if self.path is not None else None
        if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == code_digest()):
            return {}  # none, or made by other code
        return kept[1] if isinstance(kept[1], dict) else {}

    def get(self, text: str, make: Callable[[str], T]) -> T:
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]
        if key in self._given:
            return self._given[key]
        if self._kept is None:
            self._kept = self._read()
        if key in self._kept:
            value = self._kept[key]
        else:
            value = make(text)
            self.made += 1
        self._given[key] = value
        return value

    def keep(self) -> None:
        """Keep what this build gave (and only that: the entry does not grow with every
        build), unless it is what was kept already."""
        if self.path is None or (self.made == 0 and len(self._given) == len(self._kept or {})):
            return
        keep_object(self.path, (code_digest(), self._given))
