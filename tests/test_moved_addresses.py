"""Nothing moved without a way back, in a site that `regles new` wrote and a game master
changed (tests/integration/adresses/): its bestiary first built with the default words, its
prayers in `foi/`, as its addresses file remembers them (adresses.json); then the bestiary
given the game's words (« monstre », « repaire », « carnet de chasse ») and the prayers
moved to `prieres/`. Its bestiary's export is the one an export tool writes, whatever the
site's words: « **Description du collège :** ».

One strict build, for and under a project sub-path: each old address is a page that leads
to the new one (relative, allowed by the pages' security policy, in the offline copy), and
the file now also holds the new addresses. In Chromium: a shared list link opened at its
old address lands on the list page at its new address, with its list."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from regles.features.redirects.addresses import REDIRECT_SCRIPT, read_addresses
from tests.conftest import ROOT
from tests.test_another_game import adopt, built_and_served
from tests.test_offline import sw_data

FIXTURE = ROOT / "tests" / "integration" / "adresses"
PRAYERS = ROOT / "tests" / "integration" / "prieres" / "prieres.txt"
SUBPATH = "brumes-adresses"
# What the game master's mkdocs.yml says now: the bestiary in the game's words, the prayers
# in a new folder (they were in `foi/`).
DATABASES = """      databases:
        - export: prieres.txt
          folder: prieres
          section: Prières
          words:
            entry: {one: prière, many: prières, gender: f}
            group: {one: culte, many: cultes, gender: m}
            list: {one: livre de prières, many: livres de prières, gender: m}
        - export: bestiaire.txt
          folder: bestiaire
          section: Bestiaire
          words:
            entry: {one: monstre, many: monstres, gender: m}
            group: {one: repaire, many: repaires, gender: m}
            list: {one: carnet de chasse, many: carnets de chasse, gender: m}
"""
MOVED = {
    "bestiaire/grimoire/": "bestiaire/carnet-de-chasse/",
    "bestiaire/tous-les-sorts/": "bestiaire/tous-les-monstres/",
    "foi/toutes-les-prieres/": "prieres/toutes-les-prieres/",
    "foi/livre-de-prieres/": "prieres/livre-de-prieres/",
    "foi/champs-et-abreviations/": "prieres/champs-et-abreviations/",
    "foi/culte-de-l-aube/": "prieres/culte-de-l-aube/",
    "foi/culte-du-crepuscule/": "prieres/culte-du-crepuscule/",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str, Path]]:
    """The changed site, built strict for and served at …/brumes-adresses/: its folder, its
    address, the build's output and the site's own folder (where adresses.json is)."""
    folder = tmp_path_factory.mktemp("adresses") / "brumes"
    config = adopt(folder)
    shutil.copy(PRAYERS, folder / "prieres.txt")
    for name in ("bestiaire.txt", "adresses.json"):
        shutil.copy(FIXTURE / name, folder / name)
    text = config.read_text(encoding="utf-8")
    text = text.replace("      app:\n", DATABASES + "      app:\n", 1)
    config.write_text(text + "  - Prières: []\n  - Bestiaire: []\n", encoding="utf-8")
    for built in built_and_served(config, tmp_path_factory.mktemp("www"), SUBPATH):
        yield (*built, folder)


def policy_of(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    meta = soup.select_one('meta[http-equiv="Content-Security-Policy"]')
    assert meta is not None
    return str(meta["content"])


def test_every_old_address_leads_to_the_new_one_and_the_file_keeps_both(
    served: tuple[Path, str, str, Path],
) -> None:
    site, url, output, folder = served
    assert "WARNING" not in output and "Traceback" not in output, output
    # The tool's export, in the default words, read in the game's: nothing lost.
    assert "2 repaires, 5 monstres publiés, aucun monstre écarté pour erreur" in output
    home_policy = policy_of((site / "index.html").read_text("utf-8"))
    for old, new in MOVED.items():
        page = (site / old / "index.html").read_text("utf-8")
        soup = BeautifulSoup(page, "html.parser")
        href = soup.select_one("link[rel=canonical]")["href"]
        assert not href.startswith(("/", "http")), href  # relative: under any sub-path
        assert urljoin(url + old, href) == url + new, (old, href)
        assert (site / new / "index.html").is_file(), new
        assert [s.string for s in soup.select("script")] == [REDIRECT_SCRIPT]
        # The same policy as every page, which allows its script.
        assert policy_of(page) == home_policy
    assert "sha256-" in home_policy
    # The old addresses are in the offline copy: a shared link works without network.
    listed = {unquote(f["url"]) for f in sw_data(site)["files"]}
    assert {old + "index.html" for old in MOVED} <= listed
    # Only the pages that moved: the others, and what never moved, have no such page.
    redirects = {
        p.parent.relative_to(site).as_posix() + "/"
        for p in site.rglob("index.html")
        if REDIRECT_SCRIPT in p.read_text("utf-8")
    }
    assert redirects == set(MOVED)
    # The build noted each of them, and remembered the new addresses for the next one.
    assert "adresse-deplacee : 7 (1 fichier)" in output
    kept = read_addresses((folder / "adresses.json").read_text("utf-8"))
    assert kept["base bestiaire.txt : listes"] == [
        "bestiaire/grimoire/",
        "bestiaire/carnet-de-chasse/",
    ]
    assert kept["base prieres.txt : groupe « Culte de l’Aube »"] == [
        "foi/culte-de-l-aube/",
        "prieres/culte-de-l-aube/",
    ]
    assert kept["impression : Les Brumes"] == ["brumes/imprimer/"]


@pytest.mark.browser
def test_a_shared_list_link_at_its_old_address_opens_the_list_at_the_new_one(
    served: tuple[Path, str, str, Path], browser: Any
) -> None:
    site, url, _, _ = served
    monsters = json.loads((site / "data" / "bases" / "bestiaire.json").read_text("utf-8"))
    chosen = [monsters[3], monsters[0]]
    ids = ",".join(m["id"] for m in chosen)
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    # Every address the page has had: Material's navigation.tracking may rewrite the
    # fragment once the page is there.
    went: list[str] = []

    def navigated(frame: Any) -> None:
        if frame == page.main_frame:
            went.append(frame.url)

    page.on("framenavigated", navigated)
    try:
        # As a player shared it before the words changed, under the project's sub-path.
        query = f"?nom=Chasse%20du%20soir&sorts={ids}"
        page.goto(f"{url}bestiaire/grimoire/{query}#liste")
        page.wait_for_url(re.compile(re.escape(f"{url}bestiaire/carnet-de-chasse/?")))
        assert f"{url}bestiaire/carnet-de-chasse/{query}#liste" in went, went
        page.locator("#reader-lists[data-list-ready]").wait_for(state="attached")
        names = page.locator("#reader-lists .list-entry:not([hidden]) .list-entry__name a")
        expect(names).to_have_text([m["name"] for m in chosen])
        expect(page.get_by_role("button", name="Garder ce carnet de chasse")).to_be_visible()
        # A group's page, moved with its folder: the entry's anchor comes along.
        prayers = json.loads((site / "data" / "bases" / "prieres.json").read_text("utf-8"))
        dawn = next(r["url"] for r in prayers if r["url"].startswith("prieres/culte-de-l-aube/#"))
        anchor = dawn.split("#", 1)[1]
        page.goto(f"{url}foi/culte-de-l-aube/#{anchor}")
        page.wait_for_url(re.compile(re.escape(f"{url}prieres/culte-de-l-aube/")))
        assert f"{url}{dawn}" in went, went
        expect(page.locator(f"[id='{anchor}']")).to_be_attached()
    finally:
        context.close()
