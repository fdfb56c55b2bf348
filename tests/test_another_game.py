"""Another table's site from the same generator, unchanged: three pages of another game, one
calculator of its own rules package, no spell database, its own system
(tests/integration/autre-jeu/). It builds with --strict and, in Chromium under a project
sub-path, its search, its calculator and its offline copy work."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, build_site
from tests.test_offline import SiteServer
from tests.test_offline_browser import READY, first_visit

SITE = ROOT / "tests" / "integration" / "autre-jeu"
SUBPATH = "brumes-site"
SYSTEM = "Chroniques des Brumes"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """The other site built for, and served at, http://127.0.0.1:<port>/brumes-site/; with
    the build's output."""
    www = tmp_path_factory.mktemp("autre-jeu")
    server = SiteServer(www)
    url = f"{server.origin}/{SUBPATH}/"
    result = build_site(www / SUBPATH, SITE / "mkdocs.yml", site_url=url)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")
    yield www / SUBPATH, url, result.stdout + result.stderr
    server.close()


def test_it_builds_strict_without_a_warning_nor_spell_pages(
    served: tuple[Path, str, str],
) -> None:
    site, _, output = served
    assert "WARNING" not in output and "Traceback" not in output, output
    assert not (site / "data" / "spells.json").exists()
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    assert pages == [
        "brumes/combat/index.html",
        "brumes/imprimer/index.html",  # the generator's print page of the system
        "brumes/regles/index.html",
        "hors-ligne/index.html",  # the generator's own offline page
        "index.html",
    ]
    fallback = (site / "hors-ligne" / "index.html").read_text(encoding="utf-8")
    assert "sorts" not in fallback.split("<article", 1)[1].split("</article>", 1)[0]


def test_its_pages_are_searched_under_their_own_system(served: tuple[Path, str, str]) -> None:
    site, _, _ = served
    filters = {}
    for path in (site / "pagefind" / "fragment").glob("*.pf_fragment"):
        record = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
        filters[record["url"]] = record["filters"]
    assert filters["brumes/combat/#blessures"]["systeme"] == [SYSTEM]
    assert filters["brumes/regles/"]["systeme"] == [SYSTEM]


@pytest.mark.browser
def test_search_calculator_and_offline_work(
    browser: Any, served: tuple[Path, str, str], tmp_path: Path
) -> None:
    _, url, _ = served
    context, page, _ = first_visit(browser, tmp_path / "profil", url + "brumes/regles/")
    try:
        found = page.evaluate("window.rules.search('blessures')")
        assert found and found[0]["url"] == url + "brumes/combat/#blessures", found

        # Its own rules package, run by Pyodide: 2d6 + 2 ≥ 8 in 26 cases of 36.
        form = page.locator("form[data-calculateur='test_brumes']")
        form.scroll_into_view_if_needed()
        form.locator("input[name='trait']").fill("2")
        chance = form.locator("output[name='p_reussite']")
        chance.filter(has_text="(13/18)").wait_for(timeout=60_000)
        assert chance.inner_text().startswith("72,2")

        context.set_offline(True)
        page.goto(url + "brumes/combat/")
        assert page.locator("article h1").inner_text().startswith("Combat")
        page.locator(READY).wait_for(state="attached")  # « Disponible hors ligne »
    finally:
        context.close()
        shutil.rmtree(tmp_path / "profil", ignore_errors=True)
