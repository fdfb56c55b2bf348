"""The search index built in a child process (`regles/features/search/worker.py`), as the build
uses it: pages in, an index written, errors raised with the child's message."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from regles.core.systems import Database, Systems
from regles.features.search import index as search_index
from regles.features.search import kept as search_kept
from regles.features.search import pagefind as search_pagefind
from regles.features.search import records as search
from regles.features.search.worker import IndexWorker, serve

SYSTEMS = Systems({"dnd5e": "D&D 5e"}, (Database("magie"),))

PAGE = (
    '<h1 id="combat">Combat</h1><p>Intro.</p>'
    '<h2 id="abri">Abri</h2><p>Un abri partiel donne +2 à la CA.</p>'
)


def test_the_child_writes_the_index_of_the_pages_it_was_given(tmp_path: Path) -> None:
    worker = IndexWorker()
    worker.add_page(
        "dnd5e/combat/index.html",
        search.article(PAGE, "Combat"),
        search.area_of(SYSTEMS, "dnd5e/combat/index.html"),
    )
    worker.add_page(
        "index.html",
        search.article("<h1>Accueil</h1>", "Accueil"),
        search.area_of(SYSTEMS, "index.html"),
    )  # excluded
    worker.start_writing(tmp_path / "pagefind")
    summary = worker.finish()
    assert (summary.records, summary.entries) == (2, 0)
    assert (tmp_path / "pagefind" / "pagefind.js").is_file()
    assert summary.files == sum(1 for p in (tmp_path / "pagefind").rglob("*") if p.is_file())


def test_an_index_of_nothing_is_an_empty_index(tmp_path: Path) -> None:
    # A new site may have its home page alone, which is not indexed: its search box still
    # loads, and finds nothing.
    worker = IndexWorker()
    worker.start_writing(tmp_path / "pagefind")
    summary = worker.finish()
    assert (summary.records, summary.entries) == (0, 0)
    assert (tmp_path / "pagefind" / "pagefind.js").is_file()


def test_an_abandoned_index_stops_the_child() -> None:
    worker = IndexWorker()
    worker.add_page(
        "dnd5e/combat/index.html",
        search.article(PAGE, "Combat"),
        search.area_of(SYSTEMS, "dnd5e/combat/index.html"),
    )
    child = worker._child
    assert child is not None  # no kept index: the child starts with the first page
    worker.abandon()
    assert child._process.poll() is not None


def test_the_child_reports_a_missing_pagefind_as_an_answer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "absent"
    monkeypatch.setattr(search_index, "executable", lambda: missing)
    answer = io.StringIO()
    assert serve(iter(()), answer) == 1
    (line,) = answer.getvalue().splitlines()
    assert json.loads(line)["error"].startswith(f"Pagefind ne démarre pas ({missing})")


def files_of(folder: Path) -> dict[str, Path]:
    """Every file under `folder`, by its path inside it."""
    return {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}


def index_files(folder: Path) -> dict[str, bytes]:
    return {name: path.read_bytes() for name, path in files_of(folder).items()}


def inodes(folder: Path) -> dict[str, int]:
    return {name: path.stat().st_ino for name, path in files_of(folder).items()}


def kept_index(cache: Path) -> Path:
    """The one index kept in `cache` (a second one would fail the unpacking)."""
    (kept,) = cache.glob(search_kept.KEPT_INDEX_PREFIX + "*")
    return kept


def build_index(output: Path, cache: Path | None, page: str = PAGE) -> search_pagefind.IndexSummary:
    worker = IndexWorker(cache=cache)
    worker.add_page(
        "dnd5e/combat/index.html",
        search.article(page, "Combat"),
        search.area_of(SYSTEMS, "dnd5e/combat/index.html"),
    )
    worker.start_writing(output)
    return worker.finish()


def test_the_index_of_the_same_records_is_given_again_from_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = build_index(tmp_path / "un", cache)
    kept = kept_index(cache)
    (kept / "repere").write_text("copié du cache", "utf-8")  # to see where the next one comes from
    second = build_index(tmp_path / "deux", cache)
    files = index_files(tmp_path / "deux")
    assert files.pop("repere") == "copié du cache".encode()
    assert files == index_files(tmp_path / "un")
    assert (second.records, second.files - 1) == (first.records, first.files)
    # Other records: a new index, which replaces the kept one.
    build_index(tmp_path / "trois", cache, PAGE.replace("+2", "+5"))
    assert "repere" not in index_files(tmp_path / "trois")
    replacing = kept_index(cache)
    assert replacing != kept


def test_the_same_pages_start_no_child_and_a_changed_one_does(tmp_path: Path) -> None:
    # A build of unchanged pages costs no second Python: the pages are only compared.
    cache = tmp_path / "cache"
    build_index(tmp_path / "un", cache)
    worker = IndexWorker(cache=cache)
    area = search.area_of(SYSTEMS, "dnd5e/combat/index.html")
    worker.add_page("dnd5e/combat/index.html", search.article(PAGE, "Combat"), area)
    worker.start_writing(tmp_path / "deux")
    assert worker._child is None
    assert worker.finish().records == 2
    changed = IndexWorker(cache=cache)
    page = search.article(PAGE.replace("+2", "+5"), "Combat")
    changed.add_page("dnd5e/combat/index.html", page, area)
    assert changed._child is not None
    changed.start_writing(tmp_path / "trois")
    assert changed.finish().records == 2


def test_a_kept_index_that_cannot_be_read_is_made_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    build_index(tmp_path / "un", cache)
    kept = kept_index(cache)
    (kept / "pagefind.js").unlink()
    summary = build_index(tmp_path / "deux", cache)
    assert (tmp_path / "deux" / "pagefind.js").is_file()
    assert summary.files == len(index_files(tmp_path / "deux"))


def test_a_cache_that_cannot_be_written_only_means_making_the_index(tmp_path: Path) -> None:
    blocked = tmp_path / "fichier"
    blocked.write_text("un fichier à la place du dossier", "utf-8")
    for name in ("un", "deux"):
        summary = build_index(tmp_path / name, blocked / "cache")
        assert (tmp_path / name / "pagefind.js").is_file()
        assert summary.records == 2


def indexed_urls(folder: Path) -> set[str]:
    """The address of every record of a Pagefind index (one fragment file each)."""
    return {
        json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))["url"]
        for path in (folder / "fragment").glob("*.pf_fragment")
    }


RULES = {
    "dnd5e/combat/index.html": ("Combat", PAGE),
    "dnd5e/repos/index.html": ("Repos", '<h1 id="repos">Repos</h1><h2 id="court">Court</h2>'),
    "dnd5e/magie/index.html": ("Magie", '<h1 id="magie">Magie</h1><h2 id="rituels">Rituels</h2>'),
}


def index_in_process(
    output: Path, cache: Path, pages: dict[str, tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> tuple[search_pagefind.IndexSummary, list[int]]:
    """`search_index.Indexer` fed `pages` (path → title, content); with the number of pages
    given when Pagefind's service was started (none: never started)."""
    starts: list[int] = []
    given = 0
    service = search_pagefind.Service

    def counted(executable: Path) -> Any:
        starts.append(given)
        return service(executable)

    monkeypatch.setattr(search_index, "Service", counted)
    indexer = search_index.Indexer(cache=cache)
    for path, (title, content) in pages.items():
        given += 1
        indexer.add_page(path, search.article(content, title), search.area_of(SYSTEMS, path))
    indexer.start_writing(output)
    return indexer.finish(), starts


def test_pagefind_is_not_even_started_for_the_pages_of_the_kept_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first, starts = index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    assert starts == [0]  # nothing kept yet: started at once, pages indexed as they come
    second, starts = index_in_process(tmp_path / "deux", cache, RULES, monkeypatch)
    assert starts == []
    assert second == first
    assert index_files(tmp_path / "deux") == index_files(tmp_path / "un")
    assert not (tmp_path / "deux" / search_kept.KEPT_PAGES_FILE).exists()  # kept for the cache only


def test_the_first_page_that_differs_starts_pagefind_with_the_pages_held_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    changed = {
        **RULES,
        "dnd5e/repos/index.html": ("Repos", RULES["dnd5e/repos/index.html"][1] + "<p>Long.</p>"),
    }
    summary, starts = index_in_process(tmp_path / "deux", cache, changed, monkeypatch)
    assert starts == [2]  # at the second page, the first one held back
    urls = indexed_urls(tmp_path / "deux")
    assert urls == indexed_urls(tmp_path / "un")
    assert {"dnd5e/combat/", "dnd5e/combat/#abri", "dnd5e/magie/#rituels"} <= urls
    assert summary.records == len(urls) == 6
    # A page more, at the end: started there, with all the others.
    more = {**changed, "dnd5e/sorts/index.html": ("Sorts", '<h1 id="sorts">Sorts</h1>')}
    summary, starts = index_in_process(tmp_path / "trois", cache, more, monkeypatch)
    assert (starts, summary.records) == ([4], 7)
    # A page fewer: started when the index is asked for.
    summary, starts = index_in_process(tmp_path / "quatre", cache, changed, monkeypatch)
    assert (starts, summary.records) == ([3], 6)
    assert indexed_urls(tmp_path / "quatre") == urls


def test_an_index_kept_by_another_version_of_the_indexer_is_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    kept = kept_index(cache)
    pages = json.loads((kept / search_kept.KEPT_PAGES_FILE).read_text("utf-8"))
    pages["made_by"] = "0" * 64  # as if this module, or Pagefind, had changed
    (kept / search_kept.KEPT_PAGES_FILE).write_text(json.dumps(pages), "utf-8")
    summary, starts = index_in_process(tmp_path / "deux", cache, RULES, monkeypatch)
    assert (starts, summary.records) == ([0], 6)


def test_the_kept_index_and_the_sites_are_the_same_files_where_links_can_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    kept = kept_index(cache)
    kept_inodes = inodes(kept)
    del kept_inodes[search_kept.KEPT_PAGES_FILE]
    assert inodes(tmp_path / "un") == kept_inodes  # kept without copying
    index_in_process(tmp_path / "deux", cache, RULES, monkeypatch)
    assert inodes(tmp_path / "deux") == kept_inodes  # given again without copying
    # A new index in the same folder is new files: the others keep theirs.
    before = index_files(tmp_path / "un")
    changed = {**RULES, "dnd5e/repos/index.html": ("Repos", "<h1 id='repos'>Repos</h1>")}
    index_in_process(tmp_path / "deux", cache, changed, monkeypatch)
    assert index_files(tmp_path / "un") == before
    assert indexed_urls(tmp_path / "deux") != indexed_urls(tmp_path / "un")


def test_where_links_cannot_be_made_the_index_is_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(source: object, target: object) -> None:
        raise OSError(18, "Invalid cross-device link")  # EXDEV: cache on another disk

    monkeypatch.setattr(search_kept.os, "link", refused)
    cache = tmp_path / "cache"
    first, _ = index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    second, starts = index_in_process(tmp_path / "deux", cache, RULES, monkeypatch)
    assert (starts, second) == ([], first)  # given again from the cache
    assert index_files(tmp_path / "deux") == index_files(tmp_path / "un")
    kept = kept_index(cache)
    assert not set(inodes(tmp_path / "deux").values()) & set(inodes(kept).values())
    # With their times, as the offline step needs.
    for name, path in files_of(tmp_path / "deux").items():
        assert path.stat().st_mtime_ns == (kept / name).stat().st_mtime_ns


def test_after_an_edit_only_the_files_that_changed_are_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    index_in_process(tmp_path / "un", cache, RULES, monkeypatch)
    before = index_files(tmp_path / "un")
    kept = kept_index(cache)
    kept_inodes = set(inodes(kept).values())
    changed = {
        **RULES,
        "dnd5e/repos/index.html": ("Repos", "<h1 id='repos'>Repos</h1><p>Une nuit.</p>"),
    }
    summary, starts = index_in_process(tmp_path / "deux", cache, changed, monkeypatch)
    assert starts == [2]
    after = index_files(tmp_path / "deux")
    after_inodes = inodes(tmp_path / "deux")
    assert summary.files == len(after)
    linked = {path for path, inode in after_inodes.items() if inode in kept_inodes}
    # Linked: the files whose bytes the kept index had, under the same name; written: the rest.
    assert linked == {path for path, data in after.items() if before.get(path) == data}
    assert len(linked) > len(after) / 2  # combat's and magie's records, among others
    new_fragments = [after[p] for p in after if p.startswith("fragment/") and p not in linked]
    assert [b"Une nuit." in gzip.decompress(data) for data in new_fragments] == [True]
    assert index_files(tmp_path / "un") == before
