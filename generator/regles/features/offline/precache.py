"""What the offline copy lists and packs: every file of the built site with its hash (the
precache list), the shell a first visit stores one file at a time, and the packs that carry
the other text files in a few large downloads."""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import gzip
import hashlib
import json
import mimetypes
import os
import posixpath
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from typing import Any
from urllib.parse import quote, unquote

from regles.core.cache import keep_bytes, keep_text, link_or_copy

__all__ = [
    "FALLBACK_PAGE",
    "PACK_FOLDER",
    "SERVICE_WORKER_FILE",
    "Pack",
    "PrecacheEntry",
    "file_entry",
    "is_later",
    "is_precached",
    "is_shell",
    "mark_shell",
    "media_type",
    "precache_entries",
    "site_version",
    "write_packs",
]

SERVICE_WORKER_FILE = "sw.js"
# Page shown for a navigation that is neither cached nor reachable: the generator's own
# (`fallback_page`), unless the docs hold a page of that name, which replaces it.
FALLBACK_PAGE = "hors-ligne/"


@dataclass(frozen=True)
class PrecacheEntry:
    url: str  # relative to the site root, percent-encoded, never starting with "/"
    revision: str  # content hash (hex)
    integrity: str  # Subresource Integrity: "sha256-<base64>"
    size: int  # bytes
    later: bool = False  # downloaded after the text (see the module's docstring)
    shell: bool = False  # stored at install, before the worker takes the pages (`is_shell`)
    pack: int | None = None  # the pack that also carries it (`write_packs`)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "url": self.url,
            "revision": self.revision,
            "integrity": self.integrity,
            "size": self.size,
        }
        if self.later:
            data["later"] = True
        if self.shell:
            data["shell"] = True
        if self.pack is not None:
            data["pack"] = self.pack
        return data


@dataclass(frozen=True)
class Pack:
    url: str  # relative to the site root, like an entry's
    size: int  # bytes of the pack file (gzip)

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "size": self.size}


# Precache list ------------------------------------------------------------------------------


def _url(relative: str) -> str:
    """A path inside the site as the precache list writes it: percent-encoded, relative."""
    return quote(relative, safe="/-_.~")


def file_entry(site_dir: Path, path: Path) -> PrecacheEntry:
    """The precache entry of one file of the site, hashed from its bytes."""
    return _hashed(path.relative_to(site_dir).as_posix(), path)


def _hashed(relative: str, path: str | Path) -> PrecacheEntry:
    with open(path, "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        raw = hashlib.file_digest(stream, "sha256").digest()
    return PrecacheEntry(
        url=_url(relative),
        revision=raw.hex()[:20],
        integrity="sha256-" + base64.b64encode(raw).decode("ascii"),
        size=size,
    )


def _site_files(site_dir: Path) -> list[tuple[str, str, os.stat_result]]:
    """Every file of the site that is published (no dot file or folder), as (path relative
    to `site_dir` with "/", path, its stat), in the order of `sorted(site_dir.rglob("*"))`.
    Folders are walked with `os` rather than `pathlib`: the site is a thousand files and
    more, each of which pathlib would make an object of, twice."""
    found = []
    top = len(os.path.join(site_dir, ""))  # a path's part after the site's folder and "/"
    for root, folders, names in os.walk(site_dir):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            if name.startswith("."):
                continue
            path = os.path.join(root, name)
            try:
                stat = os.stat(path)
            except OSError:  # a link to nothing
                continue
            if S_ISREG(stat.st_mode):
                relative = path[top:].replace(os.sep, "/")
                found.append((relative, path, stat))
    found.sort(key=lambda file: file[0].split("/"))
    return found


def _is_published(relative: str) -> bool:
    return not any(part.startswith(".") for part in relative.split("/"))


# Files that only a browser's developer tools ask for: Material's source maps (1.1 MB, as
# much as all the rule pages together). Published, but not downloaded by every reader who
# installs the site.
DEVELOPER_ONLY_SUFFIXES = (".map",)


def is_precached(relative: str) -> bool:
    """Whether a file of the site (its path in the site, with "/") is listed."""
    return (
        _is_published(relative)
        and not relative.endswith(DEVELOPER_ONLY_SUFFIXES)
        and not relative.startswith(PACK_FOLDER)
    )


DIGEST_CACHE = "precache-digests.json"


def _read_digests(cache: Path | None) -> dict[str, list[Any]]:
    if cache is None:
        return {}
    try:
        data = json.loads((cache / DIGEST_CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def is_later(relative: str, later: Iterable[str]) -> bool:
    """Whether a file (its path in the site) is one of `later`: paths of files, or of folders
    when they end with "/"."""
    return any(
        relative.startswith(path) if path.endswith("/") else relative == path for path in later
    )


def precache_entries(
    site_dir: Path,
    exclude: Iterable[str] = (SERVICE_WORKER_FILE,),
    cache: Path | None = None,
    later: Iterable[str] = (),
) -> list[PrecacheEntry]:
    """Every file of the site but `exclude` (paths relative to the root), dot files and
    source maps; those of `later` (see `is_later`) are marked to come after the others.

    With a `cache` folder, a file whose path, size and modification time (in nanoseconds)
    are those of the previous build keeps its hashes. Only files given with their times are
    in that case: Pyodide's, copied (pyodide_assets.py), 20 MB not read again on every build,
    and a search index kept from an earlier build (search.py). Every file written by the
    build has a new time, so it is hashed again. A cache folder that cannot be written only
    means hashing every file again at the next build."""
    skipped = set(exclude)
    later = tuple(later)
    known = _read_digests(cache)
    seen: dict[str, list[Any]] = {}
    entries = []
    for relative, path, stat in _site_files(site_dir):
        if relative in skipped or not is_precached(relative):
            continue
        old = known.get(relative)
        if isinstance(old, list) and len(old) == 4 and old[:2] == [stat.st_size, stat.st_mtime_ns]:
            entry = PrecacheEntry(
                url=_url(relative),
                revision=str(old[2]),
                integrity=str(old[3]),
                size=stat.st_size,
            )
        else:
            entry = _hashed(relative, path)
        seen[relative] = [stat.st_size, stat.st_mtime_ns, entry.revision, entry.integrity]
        if is_later(relative, later):
            entry = dataclasses.replace(entry, later=True)
        entries.append(entry)
    if cache is not None and seen != known:
        keep_text(cache / DIGEST_CACHE, json.dumps(seen))
    return entries


def site_version(entries: Sequence[PrecacheEntry]) -> str:
    """One hash for the whole list: changes as soon as any file or file name changes."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(f"{entry.url}\0{entry.revision}\n".encode())
    return digest.hexdigest()[:16]


# The shell and the packs --------------------------------------------------------------------

# What every page needs to look and work as it should: with the offline page, what the install
# stores, one file at a time, before the worker takes the pages over (a few hundred kB).
SHELL_SUFFIXES = (".css", ".js", ".mjs", ".woff", ".woff2", ".svg", ".png", ".ico", ".webmanifest")


def is_shell(entry: PrecacheEntry, fallback: str = FALLBACK_PAGE) -> bool:
    return not entry.later and (
        entry.url == _url(fallback + "index.html") or entry.url.endswith(SHELL_SUFFIXES)
    )


def mark_shell(
    entries: Iterable[PrecacheEntry], fallback: str = FALLBACK_PAGE
) -> list[PrecacheEntry]:
    return [dataclasses.replace(e, shell=True) if is_shell(e, fallback) else e for e in entries]


# Where the packs go (rewritten at each build; never listed themselves: they only carry files).
PACK_FOLDER = "assets/offline/"
# Bytes of files per pack, before compression. This site's 4.7 MB of packed text makes ten
# packs: enough to keep the link busy while the worker stores what has arrived, and an
# interrupted pack only leaves its own files to fetch one by one.
PACK_TARGET = 512 * 1024
# Python's own table, not the build machine's (/etc/mime.types): the same packs everywhere.
_MEDIA_TYPES = mimetypes.MimeTypes()
_UTF8_TYPES = ("application/json", "application/xml", "text/javascript", "application/javascript")


def media_type(url: str) -> str:
    """The Content-Type a file of the site is stored with when it comes out of a pack, as
    GitHub Pages serves it."""
    suffix = posixpath.splitext(url)[1]
    if suffix.lower() in _MEDIA_TYPES.encodings_map or suffix in _MEDIA_TYPES.suffix_map:
        return _media_type(url)  # « .gz », « .tgz »: the type is read from the whole name
    return _media_type("file" + suffix)  # the same for every file of this suffix


@functools.lru_cache(maxsize=64)
def _media_type(url: str) -> str:
    kind = _MEDIA_TYPES.guess_type(url, strict=False)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind in _UTF8_TYPES else kind


def _pack_groups(entries: Sequence[PrecacheEntry]) -> list[list[PrecacheEntry]]:
    groups: list[list[PrecacheEntry]] = []
    size = PACK_TARGET
    for entry in entries:
        if size + entry.size > PACK_TARGET and size > 0:
            groups.append([])
            size = 0
        groups[-1].append(entry)
        size += entry.size
    return groups


PACK_CACHE = "paquets"  # the packs a build made, in the build cache, by their header's hash


def write_packs(
    site_dir: Path, entries: Sequence[PrecacheEntry], cache: Path | None = None
) -> tuple[list[PrecacheEntry], list[Pack]]:
    """Write the text that is not the shell (pages, search fragments, data) into packs, and
    return the entries, each packed one with its pack's number, and the packs.

    A pack is gzip of: the length of its header (4 bytes, big-endian), its header (JSON, a
    list of [url, size, Content-Type, revision] in the order of the files), then the files'
    bytes one after the other. Its name holds its hash: a CDN never serves one deploy's pack
    to another. The service worker stores a pack whole and serves its files out of it (sw.js,
    "Packs"), and an update keeps the packs that still hold files of the new version, known
    by address and revision.

    A pack's header names each of its files with its revision (the hash of its bytes): the
    same header, the same pack. Compressing the text is most of this step, so each pack is
    kept in `cache` under its header's hash and taken from there by the next build, which
    compresses only the packs whose files changed.
    """
    folder = site_dir / PACK_FOLDER
    shutil.rmtree(folder, ignore_errors=True)
    groups = _pack_groups([e for e in entries if not e.later and not e.shell])
    if groups:
        folder.mkdir(parents=True)
    numbers: dict[str, int] = {}
    packs = []
    used: set[Path] = set()
    for number, group in enumerate(groups):
        files = [[e.url, e.size, media_type(e.url), e.revision] for e in group]
        header = json.dumps(files).encode()
        key = hashlib.sha256(header).hexdigest()[:32]
        kept = cache / PACK_CACHE / f"{key}.bin" if cache is not None else None
        data = _kept_pack(kept)
        if kept is not None:
            used.add(kept)
        fresh = data is None
        if data is None:
            parts = [len(header).to_bytes(4, "big"), header]
            parts += [(site_dir / unquote(e.url)).read_bytes() for e in group]
            data = gzip.compress(b"".join(parts), compresslevel=9, mtime=0)
            if kept is not None:
                keep_bytes(kept, data)
        name = f"{PACK_FOLDER}text-{hashlib.sha256(data).hexdigest()[:16]}.bin"
        if fresh or kept is None:
            (site_dir / name).write_bytes(data)
        else:  # nothing writes into a pack once made: the cache's is the site's
            link_or_copy(str(kept), str(site_dir / name))
        packs.append(Pack(name, len(data)))
        numbers.update((e.url, number) for e in group)
    if cache is not None:  # the packs of older builds: the cache keeps the last one's only
        with contextlib.suppress(OSError):
            for old in (cache / PACK_CACHE).glob("*.bin"):
                if old not in used:
                    old.unlink()
    packed = [
        dataclasses.replace(e, pack=numbers[e.url]) if e.url in numbers else e for e in entries
    ]
    return packed, packs


def _kept_pack(path: Path | None) -> bytes | None:
    try:
        return path.read_bytes() if path is not None else None
    except OSError:
        return None
