"""The search index of a served site made again after a page changed (`mkdocs serve`): the
same Pagefind run as a build's, its files written where they differ only.

Pagefind makes a whole index at a time: every record is given again (each page's records
are cut once and kept, by the page's digest). Its index of the search of a site of some
700 pages is some 14,000 files, most named by their content, and a page edited changes a
few dozen; making or removing a file costs about a millisecond on the machines this
project runs on. So the index is updated in place: a file is written only when its bytes
changed, and the index kept in the build cache (index.py) is updated the same way, so that
the next build of the same pages gives this very index again.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from regles.core.cache import link_or_copy
from regles.features.search.kept import (
    KEPT_INDEX_PREFIX,
    KEPT_PAGES_FILE,
    KeptPages,
    kept_folder,
    kept_index,
    made_by,
    page_digest,
)
from regles.features.search.pagefind import UNUSED_BUNDLE_FILES, IndexSummary, Service, executable
from regles.features.search.records import (
    INDEX_FOLDER,
    LANGUAGE,
    Area,
    SearchIndexError,
    is_indexed,
    page_records,
    record_document,
)

__all__ = ["Cancelled", "IndexChanges", "IndexUpdate", "RecordCache"]


@dataclass(frozen=True)
class _PageRecords:
    documents: tuple[tuple[str, str], ...]  # (url, document Pagefind indexes), in order
    entries: int


class RecordCache:
    """Each page's records as Pagefind gets them, by the page's digest: kept across the
    rebuilds of a served site, whose pages mostly stay the same."""

    def __init__(self) -> None:
        self._pages: dict[str, _PageRecords] = {}

    def of(self, digest: str, path: str, text: str, area: Area | None) -> _PageRecords:
        found = self._pages.get(digest)
        if found is None:
            records = page_records(path, text, area)
            found = _PageRecords(
                tuple((r.url, record_document(r)) for r in records),
                sum(r.group is not None and r.level > 1 for r in records),
            )
            self._pages[digest] = found
        return found

    def keep_only(self, digests: set[str]) -> None:
        """Forget the pages that are no longer the site's."""
        for digest in self._pages.keys() - digests:
            del self._pages[digest]


@dataclass(frozen=True)
class IndexChanges:
    """What an update did to the site: files written and removed (paths in the site)."""

    written: frozenset[str]
    removed: frozenset[str]
    summary: IndexSummary


class Cancelled(Exception):
    """A newer change of the sources: this update is no longer wanted."""


class IndexUpdate:
    """The index of one built site (`site_dir`), updated again and again: `pages` are the
    digests of the pages its index was made of, in order; `written` what it knows of the
    files of its index (path in the index → digest of their bytes), read when first needed.
    An update stops (Cancelled) once its `cancel` event is set, at once if `stop` is called
    then, from another thread: Pagefind's answer is not waited for."""

    def __init__(self, site_dir: Path, cache: Path | None, pages: tuple[str, ...]) -> None:
        self.output = site_dir / INDEX_FOLDER
        self.cache = cache
        self.made_by = made_by()
        self.pages = pages
        self.written: dict[str, str] | None = None
        self._cancel = threading.Event()
        self._service: Service | None = None

    def stop(self) -> None:
        """The service of the update under way killed (its `cancel` event set first)."""
        service = self._service
        if service is not None:
            service.kill()  # its answer, awaited, ends: the update sees it is cancelled

    def _check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled

    def run(
        self,
        pages: Sequence[tuple[str, str, Area | None]],
        records: RecordCache,
        cancel: threading.Event,
    ) -> IndexChanges:
        """The index of `pages` (path in the site, article, area, in the build's order)
        written into the site; Cancelled if `cancel` is set first."""
        self._cancel = cancel
        indexed = [page for page in pages if is_indexed(page[0])]
        digests = tuple(page_digest(*page) for page in indexed)
        made = []
        for digest, page in zip(digests, indexed, strict=True):
            self._check()
            made.append(records.of(digest, *page))
        records.keep_only(set(digests))
        try:
            answer = self._index(made)
        except SearchIndexError:
            self._check()  # the service killed by `stop`
            raise
        files = _answered_files(answer)
        self._check()
        written, removed = self._write(files)
        summary = IndexSummary(
            sum(len(page.documents) for page in made),
            sum(page.entries for page in made),
            len(files),
            sum(map(len, files.values())),
        )
        self._keep(digests, written, removed, summary)
        return IndexChanges(
            frozenset(f"{INDEX_FOLDER}/{p}" for p in written),
            frozenset(f"{INDEX_FOLDER}/{p}" for p in removed),
            summary,
        )

    def _index(self, made: Sequence[_PageRecords]) -> dict[str, object]:
        """Pagefind's answer for an index of these records."""
        service = self._service = Service(executable())
        try:
            self._check()
            service.send({"type": "NewIndex", "config": {"force_language": LANGUAGE}})
            index_id = service.receive()["index_id"]
            for page in made:
                self._check()
                for url, document in page.documents:
                    payload = {
                        "type": "AddFile",
                        "index_id": index_id,
                        "url": url,
                        "file_path": None,
                        "file_contents": document,
                    }
                    service.send(payload)
            service.send({"type": "GetFiles", "index_id": index_id})
            answer = service.wait_all()
        except BaseException:
            service.kill()
            raise
        finally:
            self._service = None
        service.close()
        return answer

    def _known(self) -> dict[str, str]:
        """The files of the index in the site, with their digests: read once."""
        if self.written is None:
            found = {}
            for path in sorted(self.output.rglob("*")):
                self._check()
                if path.is_file():
                    found[path.relative_to(self.output).as_posix()] = _digest(path.read_bytes())
            self.written = found
        return self.written

    def _write(self, files: dict[str, bytes]) -> tuple[set[str], set[str]]:
        """The new index's files where they differ from the site's, then the site's files
        it no longer has removed: (written, removed), paths in the index."""
        known = self._known()
        written: set[str] = set()
        for relative, content in files.items():
            digest = _digest(content)
            if known.get(relative) == digest:
                continue
            target = self.output / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            _replace(target, content)
            known[relative] = digest
            written.add(relative)
        removed = set(known) - set(files)
        for relative in removed:
            with contextlib.suppress(FileNotFoundError):
                (self.output / relative).unlink()
            del known[relative]
        return written, removed

    def _keep(
        self, pages: tuple[str, ...], written: set[str], removed: set[str], summary: IndexSummary
    ) -> None:
        """The index kept in the build cache made this one (index.py `Indexer._keep`): the
        same changes made to it, or, when it is not the one this index was made from, the
        whole index linked there. Best effort: a cache that cannot be written only means
        a build making the index again."""
        cache = self.cache
        if cache is None:
            return
        folder = kept_folder(cache, self.made_by, pages)
        partial = folder.with_name(folder.name + ".part")
        with contextlib.suppress(OSError):
            shutil.rmtree(partial, ignore_errors=True)
            old = kept_index(cache, self.made_by)
            if old is not None and old.pages == self.pages:
                old.folder.rename(partial)
                # Without its manifest until it is whole again: never taken for the old one.
                (partial / KEPT_PAGES_FILE).unlink()
                for relative in removed:
                    (partial / relative).unlink(missing_ok=True)
                for relative in written:
                    target = partial / relative
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.unlink(missing_ok=True)  # the site's old file: it must stay
                    link_or_copy(str(self.output / relative), str(target))
            else:
                shutil.copytree(self.output, partial, copy_function=link_or_copy)
            KeptPages(partial, self.made_by, pages, summary.records, summary.entries).write()
            for other in cache.glob(KEPT_INDEX_PREFIX + "*"):
                if other != partial:
                    shutil.rmtree(other, ignore_errors=True)
            partial.rename(folder)
        self.pages = pages


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _replace(target: Path, content: bytes) -> None:
    """`target` holding `content`, through a new file: the old one may be a link to the
    kept index's, which must not change, and a reader never gets half a file."""
    partial = target.with_name(target.name + ".part")
    try:
        partial.write_bytes(content)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _answered_files(answer: dict[str, object]) -> dict[str, bytes]:
    """Pagefind's files (path in the index → bytes), without its interfaces (index.py)."""
    files: dict[str, bytes] = {}
    items = answer.get("files")
    for item in items if isinstance(items, list) else []:
        relative = PurePosixPath(str(item.get("path", "")))
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            raise SearchIndexError(f"Pagefind : chemin de fichier inattendu « {relative} »")
        name = relative.as_posix()
        if name in UNUSED_BUNDLE_FILES:
            continue
        if name in files:
            raise SearchIndexError(f"Pagefind : fichier « {relative} » donné deux fois")
        files[name] = base64.b64decode(item.get("content", ""))
    if "pagefind.js" not in files:
        raise SearchIndexError("Pagefind n’a pas donné pagefind.js")
    return files
