"""This site's search: the words players type at the table (search_queries.py) find the
section they mean among the first three results, in Chromium, as the header box ranks them.
The box itself is tested on the generator's test site (tests/test_search_browser.py)."""

from __future__ import annotations

import gzip
import json
import statistics
from pathlib import Path

import pytest

from tests.content.search_queries import FIRST, NOT_IN_TOP_THREE, QUERIES
from tests.test_search_browser import Tab, matches, relative, root, run_queries, tab

__all__ = ["root", "tab"]  # fixtures, for this module's tests

SIGNATURE = b"pagefind_dcd"


def test_every_expected_query_target_is_in_the_index(site_dir: Path) -> None:
    urls = set()
    for path in (site_dir / "pagefind" / "fragment").glob("*.pf_fragment"):
        data = gzip.decompress(path.read_bytes())
        urls.add(json.loads(data[len(SIGNATURE) :])["url"])
    pages = {u.partition("#")[0] for u in urls}
    for query, expected in QUERIES:
        assert expected in (urls if "#" in expected else pages), (query, expected)


@pytest.mark.browser
def test_every_query_has_its_page_in_the_top_three(tab: Tab) -> None:
    page = tab.open("licences/")
    found = run_queries(page, [q for q, _ in QUERIES])
    failures = []
    for (query, expected), outcome in zip(QUERIES, found, strict=True):
        urls = [relative(r["url"], tab.root) for r in outcome["results"]]
        if not any(matches(u, expected) for u in urls[:3]):
            failures.append(f"{query!r} → {expected} ; obtenu : {urls[:3]}")
        assert all(r["title"] for r in outcome["results"]), query
    assert not failures, "\n".join(failures)


@pytest.mark.browser
def test_rule_terms_come_first_and_spells_do_not_crowd_them_out(tab: Tab) -> None:
    page = tab.open("licences/")
    firsts = run_queries(page, [q for q, _ in FIRST])
    crowded = run_queries(page, [q for q, _ in NOT_IN_TOP_THREE])
    failures = []
    for (query, expected), outcome in zip(FIRST, firsts, strict=True):
        urls = [relative(r["url"], tab.root) for r in outcome["results"]]
        if not urls or not matches(urls[0], expected):
            failures.append(f"{query!r} : {expected} en premier ; obtenu : {urls[:3]}")
    for (query, unwanted), outcome in zip(NOT_IN_TOP_THREE, crowded, strict=True):
        urls = [relative(r["url"], tab.root) for r in outcome["results"]]
        if any(matches(u, unwanted) for u in urls[:3]):
            failures.append(f"{query!r} : {unwanted} parmi les trois premiers : {urls[:3]}")
    assert not failures, "\n".join(failures)


@pytest.mark.browser
def test_warm_query_time_is_measured(tab: Tab, capsys: pytest.CaptureFixture[str]) -> None:
    page = tab.open("dnd5e/")
    queries = [q for q, _ in QUERIES]
    cold = run_queries(page, queries[:1])[0]["ms"]
    run_queries(page, queries)  # loads every index chunk and fragment these queries need
    warm = sorted(r["ms"] for r in run_queries(page, queries))
    typed = run_queries(page, ["b", "bo", "bou", "boul", "boule", "boule d", "boule de f"])
    with capsys.disabled():
        print(
            f"\nrecherche : première requête (index froid) {cold:.0f} ms ; "
            f"{len(warm)} requêtes à chaud : médiane {statistics.median(warm):.1f} ms, "
            f"90 % ≤ {warm[int(len(warm) * 0.9)]:.1f} ms, max {warm[-1]:.1f} ms ; "
            f"frappe « boule de f » lettre à lettre : "
            + ", ".join(f"{r['ms']:.0f}" for r in typed)
            + " ms"
        )
