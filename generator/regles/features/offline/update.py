"""The offline copy of a served site updated after a page changed (`mkdocs serve`): the
precache list of the last build, with only the files written or removed since hashed again
or left out, then the packs and `sw.js` as a build writes them (offline.py).

A build lists the site by walking it and reading each file's time (some 15,000 files for a
site of 700 pages, most of them the search index's): a second or two. The files a page's
rebuild writes are known, so the list is updated from them alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from regles.features.offline.offline import OfflineSummary, write_listed
from regles.features.offline.precache import (
    SERVICE_WORKER_FILE,
    PrecacheEntry,
    file_entry,
    is_later,
    is_precached,
)

__all__ = ["refreshed_entries", "update_offline"]


def refreshed_entries(
    site_dir: Path,
    entries: Sequence[PrecacheEntry],
    touched: Iterable[str],
    later: Iterable[str] = (),
) -> list[PrecacheEntry]:
    """The precache list of the site once the files `touched` (paths in the site) were
    written or removed: `entries` as `precache_entries` gave them (the shell and packs
    marks are made again), in its order (paths' parts, as it walks the site)."""
    later = tuple(later)
    listed = {unquote(e.url): dataclasses.replace(e, shell=False, pack=None) for e in entries}
    for relative in touched:
        path = site_dir / relative
        if not path.is_file():
            listed.pop(relative, None)
        elif relative != SERVICE_WORKER_FILE and is_precached(relative):
            entry = file_entry(site_dir, path)
            listed[relative] = dataclasses.replace(entry, later=is_later(relative, later))
    return [listed[relative] for relative in sorted(listed, key=PurePosixPath)]


def update_offline(
    site_dir: Path,
    summary: OfflineSummary,
    touched: Iterable[str],
    *,
    template: Path,
    workbox: str,
    cache: Path | None = None,
    later: Iterable[str] = (),
) -> OfflineSummary:
    """The packs and `sw.js` of the site once those files were written or removed, from
    the `summary` of the last offline step (offline.py `write_service_worker`)."""
    entries = refreshed_entries(site_dir, summary.entries, touched, later)
    return write_listed(site_dir, entries, template, workbox=workbox, cache=cache)
