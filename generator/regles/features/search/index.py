"""Search index of the built site: one Pagefind record per rules section, entry and calculator.

Pure build-step code over built pages (no MkDocs import). The plugin hands each page's
article to an `Indexer` (in a child process, `features/search/worker.py`) as soon as MkDocs
has converted it, so that Pagefind indexes on one core while MkDocs renders on the other, and
writes the index once every page is built. The index lands in `site/pagefind/`, where the
header search box (`theme/assets/js/search.js`) loads only the chunks a query needs.

Why records rather than pages: a reader looks for a section or an entry, not for a page. Each
heading with an id starts a record whose URL carries the anchor, whose title is the heading
(Pagefind boosts title matches) and whose filters and metadata say where it belongs:

- rules section (a page in a system's folder, `systems:` in mkdocs.yml): filters `systeme`
  (the system's name) and `type` = Règles; metadata `contexte` = system › page › parent
  headings;
- entry (`h2.entry` of a group page in the entries' folder): filters `type` = Sorts,
  `groupe` and `systeme` (the entries' own system: `spells: system:`, else their section's
  name); metadata `contexte` = the group;
- any other page (tools, install, licences): `type` = Site. The home page (a list of links),
  the error page and the offline fallback page are left out;
- a calculator's form (`form.calculateur` with an id): `type` = Calculateurs, the page's
  system, the form's title as its title and its description as its text (its section keeps
  them too), so that « chances » finds the calculator of a test's odds.

The built pages stay unchanged: Pagefind receives a small HTML document per record through its
indexing service (an `AddFile` request with an explicit URL), never the page files.

Here, the `Indexer` that a build feeds; records.py cuts a page into records, pagefind.py runs
the service, kept.py keeps the last index in the build cache and gives it again.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import shutil
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from regles.core.cache import link_or_copy
from regles.core.words import Noun, file_size
from regles.features.search.kept import (
    KEPT_INDEX_PREFIX,
    KeptPages,
    copy_kept_index,
    kept_folder,
    kept_index,
    made_by,
    page_digest,
    same_or_write,
)
from regles.features.search.pagefind import UNUSED_BUNDLE_FILES, IndexSummary, Service, executable
from regles.features.search.records import (
    EXCLUDED_PAGES,
    INDEX_FOLDER,
    LANGUAGE,
    Area,
    Record,
    SearchIndexError,
    is_indexed,
    page_records,
    record_document,
)

__all__ = [
    "MATERIAL_SEARCH_FILES",
    "Indexer",
    "log_summary",
    "remove_material_search",
]

log = logging.getLogger("mkdocs.plugins.regles.search")


# Material's own search, replaced by this one (paths relative to the site, glob patterns).
MATERIAL_SEARCH_FILES = ("assets/javascripts/lunr", "assets/javascripts/workers/search.*")


class Indexer:
    """A search index fed page by page while the site is built, written at the end.

    `add_page` cuts a built page into records and hands them to Pagefind at once, without
    waiting: the service indexes them while the next pages are rendered. `start_writing`
    asks for the index and `finish` writes it; `abandon` stops the service when the build
    fails before that.

    With a build cache, the last index is kept there with what it was made of, and given
    again, byte for byte, for the same pages (see `KeptPages`). As long as the pages are
    those of the kept index, in the same order, they are only held back; Pagefind is not
    even started when they all are. The first page that differs starts it, with the pages
    held back.
    """

    def __init__(
        self,
        excluded: Iterable[str] = EXCLUDED_PAGES,
        cache: Path | None = None,
    ) -> None:
        self.excluded = frozenset(excluded)
        self.records = 0
        self.entries = 0
        self.cache = cache
        self._made_by = made_by(self.excluded)
        self._pages: list[str] = []  # digests of the pages given, in order
        self._held: list[tuple[str, str, Area | None]] = []  # those of the kept index so far
        self._expected = kept_index(cache, self._made_by)
        self._service: Service | None = None
        self._index_id: str | None = None
        self._output: Path | None = None
        if self._expected is None:
            self._start()

    def _start(self) -> None:
        """Start Pagefind's service, and give it the pages held back."""
        service = Service(executable())
        service.send({"type": "NewIndex", "config": {"force_language": LANGUAGE}})
        try:
            self._index_id = service.receive()["index_id"]
        except BaseException:
            service.kill()
            raise
        self._service = service
        self.records = self.entries = 0  # every page given so far is held back
        held, self._held = self._held, []
        for path, text, area in held:
            self._add(page_records(path, text, area))

    def add_page(self, path: str, text: str, area: Area | None) -> None:
        """Index the page built at `path` (inside the site) from its HTML, unless excluded:
        a whole page, or the article alone (see `article`); `area` says what it is."""
        if not is_indexed(path, self.excluded):
            return
        self._pages.append(page_digest(path, text, area))
        if self._service is None:
            expected = self._expected.pages if self._expected is not None else ()
            count = len(self._pages)
            if count <= len(expected) and expected[count - 1] == self._pages[-1]:
                self._held.append((path, text, area))
                return
            self._start()
        self._add(page_records(path, text, area))

    def _add(self, records: Iterable[Record]) -> None:
        assert self._service is not None
        for record in records:
            self._service.send(
                {
                    "type": "AddFile",
                    "index_id": self._index_id,
                    "url": record.url,
                    "file_path": None,
                    "file_contents": record_document(record),
                }
            )
            self.records += 1
            self.entries += record.group is not None and record.level > 1

    def start_writing(self, output: Path) -> None:
        """Ask for the index of every page given, for `output`, without waiting; `finish`
        waits for it and writes it there (replacing the folder)."""
        self._output = output
        if self._service is None:
            expected = self._expected
            if expected is not None and tuple(self._pages) == expected.pages:
                self.records, self.entries = expected.records, expected.entries
                return  # `finish` gives it (`copy_kept_index`)
            self._start()
        self._ask_for_files()

    def _ask_for_files(self) -> None:
        # The files come back in the answer and are written here: Pagefind's own WriteFiles
        # answers before its last writes reach the disk (tokio files, never flushed), and the
        # service exits as soon as its input closes: an empty pagefind-entry.json, now and then.
        assert self._service is not None
        self._service.send({"type": "GetFiles", "index_id": self._index_id})

    # The index of the same pages is kept in the build cache and given again as it was:
    # Pagefind names some of its files differently at each run, so an index made again
    # would change the offline download's version, and readers would be offered a new
    # version of a site that did not change. The cache only saves that, and the time:
    # a folder that cannot be written or read means making the index again.

    def _kept_folder(self) -> Path | None:
        return kept_folder(self.cache, self._made_by, self._pages) if self.cache else None

    def _keep(self, output: Path) -> None:
        folder = self._kept_folder()
        if folder is None:
            return
        partial = folder.with_name(folder.name + ".part")
        with contextlib.suppress(OSError):
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(output, partial, copy_function=link_or_copy)
            kept = KeptPages(partial, self._made_by, tuple(self._pages), self.records, self.entries)
            kept.write()
            for old in folder.parent.glob(KEPT_INDEX_PREFIX + "*"):
                if old != partial:
                    shutil.rmtree(old, ignore_errors=True)
            partial.rename(folder)

    def finish(self) -> IndexSummary:
        """Wait for the index `start_writing` asked for and write it, without Pagefind's UI
        bundles."""
        output = self._output
        if output is None:
            raise SearchIndexError("index jamais écrit (start_writing manquant)")
        try:
            if self._service is None:  # the pages of the kept index: it is given again
                assert self._expected is not None
                copied = copy_kept_index(self._expected.folder, output)
                if copied is not None:
                    return self._summary(copied)
                self._start()  # the kept copy could not be read
                self._ask_for_files()
            assert self._service is not None
            answer = self._service.wait_all()  # a page Pagefind refused fails the build
        except BaseException:
            self.abandon()
            raise
        self._service.close()
        if output.exists():
            shutil.rmtree(output)
        # Pagefind names most of its files by their content: after an edit, all but a few are
        # those of the kept index, which are linked instead of written (`same_or_write`).
        earlier = self._expected.folder if self._expected is not None else None
        written: dict[str, int] = {}  # path in the index → bytes
        for item in answer.get("files") or []:
            relative = PurePosixPath(str(item.get("path", "")))
            if relative.is_absolute() or ".." in relative.parts or not relative.parts:
                raise SearchIndexError(f"Pagefind : chemin de fichier inattendu « {relative} »")
            if relative.as_posix() in UNUSED_BUNDLE_FILES:
                continue
            if relative.as_posix() in written:  # written again, it could be a linked file
                raise SearchIndexError(f"Pagefind : fichier « {relative} » donné deux fois")
            content = base64.b64decode(item.get("content", ""))
            target = output / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            same_or_write(target, content, earlier / relative if earlier else None)
            written[relative.as_posix()] = len(content)
        if "pagefind.js" not in written:
            raise SearchIndexError(f"Pagefind n’a pas donné {output / 'pagefind.js'}")
        self._keep(output)
        return self._summary(written)

    def _summary(self, written: Mapping[str, int]) -> IndexSummary:
        return IndexSummary(
            records=self.records,
            entries=self.entries,
            files=len(written),
            bytes=sum(written.values()),
        )

    def abandon(self) -> None:
        if self._service is not None:
            self._service.kill()


def remove_material_search(site: Path) -> list[str]:
    """Delete the files of Material's own search that the theme copies into every site.

    Material starts its search only from a `data-md-component="search"` element, which the
    header no longer has: its lunr scripts and search worker (~1.2 MB) would never be loaded,
    but the service worker would still download them for offline use. Returns what went.
    """
    removed = []
    for pattern in MATERIAL_SEARCH_FILES:
        for path in sorted(site.glob(pattern)):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
            removed.append(path.relative_to(site).as_posix())
            if path.parent != site and not any(path.parent.iterdir()):
                path.parent.rmdir()  # workers/ held only the search worker
    return removed


def log_summary(summary: IndexSummary, entries: Sequence[Noun] = ()) -> None:
    """The index's size in the build's log; with the databases' `entries` (their words for
    one), their entries among its records, in the game's words (« dont 10 prières »)."""
    n = summary.entries
    if len(entries) == 1:
        among = f" (dont {n} {entries[0].word(n)})"
    else:
        among = f" (dont {n} {'entrées' if n > 1 else 'entrée'} de {len(entries)} bases)"
    among = among if entries else ""
    log.info(
        "Recherche : %d entrées%s, %d fichiers, %s dans %s/",
        summary.records,
        among,
        summary.files,
        file_size(summary.bytes),
        INDEX_FOLDER,
    )
