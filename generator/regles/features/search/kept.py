"""The last index kept in the build cache with what it was made of (Pagefind, the code that
cuts pages into records, the digest of each page), given again byte for byte for the same
pages, its files linked rather than copied."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from regles.core.cache import link_or_copy
from regles.features.search import records
from regles.features.search.pagefind import UNUSED_BUNDLE_FILES, IndexSummary, pagefind_version
from regles.features.search.records import EXCLUDED_PAGES, LANGUAGE, Area

__all__ = [
    "KEPT_INDEX_PREFIX",
    "KEPT_PAGES_FILE",
    "KeptPages",
    "copy_kept_index",
    "kept_folder",
    "kept_index",
    "kept_summary",
    "made_by",
    "page_digest",
    "same_or_write",
]

KEPT_INDEX_PREFIX = "index-pagefind-"  # in the build cache: the last index written

KEPT_PAGES_FILE = ".pages.json"  # in a kept index: what it was made of (never copied out)


def same_or_write(target: Path, content: bytes, earlier: Path | None) -> None:
    """`target` written with `content`, or linked to `earlier` where that file holds the same
    bytes (its time with it, so the offline step does not hash it again)."""
    if earlier is not None:
        with contextlib.suppress(OSError):
            if earlier.stat().st_size == len(content) and earlier.read_bytes() == content:
                os.link(earlier, target)
                return
    target.write_bytes(content)


def copy_kept_index(kept: Path, output: Path) -> dict[str, int] | None:
    """The kept index given to `output` (replacing it), as path → bytes; None when it
    cannot be read whole (`output` is then left to be written again). Walked with `os`: the
    index is a thousand files and more, for which `shutil.copytree` and `os.path.relpath`
    cost more than the links themselves."""
    written: dict[str, int] = {}
    top = len(os.path.join(kept, ""))
    try:
        if output.exists():
            shutil.rmtree(output)
        for root, _folders, names in os.walk(kept):
            folder = os.path.join(output, root[top:])
            os.makedirs(folder, exist_ok=True)
            prefix = root[top:].replace(os.sep, "/") + "/" if len(root) > top else ""
            for name in names:
                if name == KEPT_PAGES_FILE:
                    continue
                target = os.path.join(folder, name)
                link_or_copy(os.path.join(root, name), target)
                written[prefix + name] = os.stat(target).st_size
    except OSError:
        return None
    return written if "pagefind.js" in written else None


@dataclass(frozen=True)
class KeptPages:
    """What the kept index in `folder` was made of: Pagefind and this module (`made_by`), the
    digest of each page in order, and the records they gave."""

    folder: Path
    made_by: str
    pages: tuple[str, ...]
    records: int
    entries: int

    @classmethod
    def read(cls, folder: Path) -> KeptPages | None:
        try:
            data = json.loads((folder / KEPT_PAGES_FILE).read_text(encoding="utf-8"))
            kept = cls(
                folder,
                str(data["made_by"]),
                tuple(str(page) for page in data["pages"]),
                int(data["records"]),
                int(data["entries"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return kept if kept.pages and kept.records > 0 else None

    def write(self) -> None:
        manifest = {k: v for k, v in asdict(self).items() if k != "folder"}
        (self.folder / KEPT_PAGES_FILE).write_text(json.dumps(manifest), "utf-8")


def made_by(excluded: Iterable[str] = EXCLUDED_PAGES) -> str:
    """What makes an index of the same pages differ: Pagefind's build, what it is asked for,
    and records.py, which cuts pages into records."""
    parts = [
        pagefind_version(),
        LANGUAGE,
        *UNUSED_BUNDLE_FILES,
        repr(sorted(excluded)),
        hashlib.sha256(Path(records.__file__).read_bytes()).hexdigest(),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def page_digest(path: str, text: str, area: Area | None) -> str:
    """A page given to the index, as the kept index remembers it."""
    return hashlib.sha256(f"{path}\0{area!r}\0{text}".encode()).hexdigest()


def kept_index(cache: Path | None, made_by: str) -> KeptPages | None:
    """What the index kept in `cache` was made of, if it was made by the same (`made_by`)."""
    if cache is None:
        return None
    with contextlib.suppress(OSError):
        for folder in cache.glob(KEPT_INDEX_PREFIX + "*"):
            kept = KeptPages.read(folder)
            if kept is not None and kept.made_by == made_by:
                return kept
    return None


def kept_folder(cache: Path, made_by: str, pages: Iterable[str]) -> Path:
    """Where the index of those pages (their digests, in order) is kept in `cache`."""
    inputs = hashlib.sha256(made_by.encode())
    for page in pages:
        inputs.update(page.encode())
    return cache / f"{KEPT_INDEX_PREFIX}{inputs.hexdigest()[:24]}"


def kept_summary(kept: KeptPages, written: Mapping[str, int]) -> IndexSummary:
    """The summary of a kept index given again (`written`: path → bytes)."""
    return IndexSummary(kept.records, kept.entries, len(written), sum(written.values()))
