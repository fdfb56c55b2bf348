"""A way back for moved addresses, on strings and small objects (features/redirects): the
page at an old address, what the site's addresses file keeps and what moved, and the
feature on a site of a few pages (the file started from the default words, kept up to
date, its damage named). The built site and Chromium: tests/test_moved_addresses.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from regles.core.report import Kind
from regles.core.site import Settings, SiteContext
from regles.core.stages import HtmlJob
from regles.features.assets.csp import ScriptPolicy
from regles.features.redirects.addresses import (
    REDIRECT_SCRIPT,
    AddressesError,
    addresses_text,
    moves,
    read_addresses,
    redirect_page,
    remembered,
    url_of,
)
from regles.features.redirects.feature import RedirectsFeature
from tests.conftest import SITE_APP


def soup_of(page: str) -> BeautifulSoup:
    return BeautifulSoup(page, "html.parser")


@pytest.mark.parametrize(
    ("old", "new", "href"),
    [
        ("bestiaire/grimoire/", "bestiaire/carnet-de-chasse/", "../carnet-de-chasse/"),
        ("foi/culte-de-l-aube/", "prieres/culte-de-l-aube/", "../../prieres/culte-de-l-aube/"),
        ("foi/grimoire.html", "foi/carnet.html", "carnet.html"),  # use_directory_urls: false
    ],
)
def test_the_page_at_an_old_address_leads_relatively_to_the_new_one(
    old: str, new: str, href: str
) -> None:
    page = soup_of(redirect_page(old, new, "Mon carnet <de> chasse"))
    assert page.html["lang"] == "fr"
    assert page.select_one("link[rel=canonical]")["href"] == href  # what the script follows
    assert [s.string for s in page.select("script")] == [REDIRECT_SCRIPT]
    # Without JavaScript: a refresh to the same address, and a link the reader can follow.
    refresh = page.select_one("noscript meta[http-equiv=refresh]")
    assert refresh["content"] == f"0; url={href}"
    link = page.select_one("body a")
    assert (link["href"], link.get_text()) == (href, "Mon carnet <de> chasse")
    assert page.title.get_text() == "Mon carnet <de> chasse"  # text, escaped as such
    assert "<de>" not in redirect_page(old, new, "Mon carnet <de> chasse")


def test_the_redirect_script_keeps_the_query_and_the_fragment() -> None:
    # The script on its own, in Node, as a browser runs it: the canonical link's address,
    # made absolute by the browser, with what the reader's address carried after it.
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js introuvable")
    harness = (
        "let went = null;"
        "globalThis.document = {querySelector: () =>"
        " ({href: 'https://x.github.io/jeu/bestiaire/carnet-de-chasse/'})};"
        "globalThis.location = {search: '?nom=Chasse%20du%20soir&sorts=2a,3b', hash: '#liste',"
        " replace: (url) => { went = url; }};"
        f"{REDIRECT_SCRIPT};"
        "console.log(went);"
    )
    went = subprocess.run(
        [node, "-e", harness], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert went == (
        "https://x.github.io/jeu/bestiaire/carnet-de-chasse/"
        "?nom=Chasse%20du%20soir&sorts=2a,3b#liste"
    )


def test_the_pages_policy_allows_the_redirect_script_by_its_hash() -> None:
    policy = ScriptPolicy({REDIRECT_SCRIPT})
    page = redirect_page("a/b/", "a/c/", "C")
    assert policy.unknown(page) == []
    assert policy.unknown(page.replace("location.replace", "location.assign")) != []


def test_each_key_keeps_every_address_it_had_and_the_old_ones_lead_to_the_current() -> None:
    recorded = {
        "base b.txt : listes": ["bestiaire/grimoire/", "bestiaire/carnet/"],
        "base b.txt : index": ["bestiaire/tous-les-sorts/"],
        "base gone.txt : index": ["vieux/index-des-sorts/"],  # a database since removed
    }
    current = {
        "base b.txt : listes": "bestiaire/carnet-de-chasse/",
        "base b.txt : index": "bestiaire/tous-les-sorts/",
        "base b.txt : groupe « Marais »": "bestiaire/marais/",
    }
    addresses = remembered(recorded, current)
    assert addresses == {
        "base b.txt : groupe « Marais »": ["bestiaire/marais/"],
        "base b.txt : index": ["bestiaire/tous-les-sorts/"],
        "base b.txt : listes": [
            "bestiaire/grimoire/",
            "bestiaire/carnet/",
            "bestiaire/carnet-de-chasse/",
        ],
        "base gone.txt : index": ["vieux/index-des-sorts/"],  # kept: it may come back
    }
    assert remembered(addresses, current) == addresses  # nothing new: nothing to write
    # Both old addresses lead straight to the current one; one another page holds now stays
    # that page's.
    redirects, held = moves(addresses, current, lambda url: url == "bestiaire/carnet/")
    assert redirects == {"bestiaire/grimoire/": "bestiaire/carnet-de-chasse/"}
    assert held == {"bestiaire/carnet/": "base b.txt : listes"}


def test_the_file_reads_back_what_it_wrote_and_says_where_it_is_damaged() -> None:
    addresses = {"impression : Jeu": ["jeu/imprimer/"], "base b.txt : index": ["b/tous/"]}
    text = addresses_text(addresses)
    assert read_addresses(text) == addresses
    assert text == addresses_text(dict(reversed(addresses.items())))  # the same text
    assert json.loads(text)["à savoir"].startswith("Tenu à jour par chaque construction")
    # A merge conflict left in it: its line.
    lines = text.splitlines()
    conflict = "\n".join([*lines[:3], "<<<<<<< HEAD", *lines[3:]])
    with pytest.raises(AddressesError, match="conflit de fusion") as raised:
        read_addresses(conflict)
    assert raised.value.line == 4
    # An address no page of the site could have: never written above the site.
    for bad in ("../../etc/", "/bestiaire/grimoire/", "b/?nom=x", "", 3):
        damaged = json.dumps({"pages": {"base b.txt : index": [bad]}})
        with pytest.raises(AddressesError, match="une liste d’adresses du site est attendue"):
            read_addresses(damaged)
    with pytest.raises(AddressesError, match="« pages » attendu"):
        read_addresses("[]")


def test_addresses_are_those_mkdocs_gives() -> None:
    assert url_of("bestiaire/grimoire.md", True) == "bestiaire/grimoire/"
    assert url_of("bestiaire/grimoire.md", False) == "bestiaire/grimoire.html"


# A site of a few pages, as the build knows it once every page has its address.
LISTS = "base bestiaire.txt : listes"
INDEX = "base bestiaire.txt : index"
PAGES = {"bestiaire/carnet-de-chasse.md": LISTS, "bestiaire/tous-les-monstres.md": INDEX}
DEFAULTS = {LISTS: "bestiaire/grimoire.md", INDEX: "bestiaire/tous-les-sorts.md"}


def small_site(project: Path) -> tuple[SiteContext, RedirectsFeature]:
    site = SiteContext(Settings(project, "mkdocs.yml", SITE_APP), None)  # type: ignore[arg-type]
    site.page_keys = dict(PAGES)
    site.page_urls = {uri: uri.removesuffix(".md") + "/" for uri in [*PAGES, "index.md"]}
    site.page_urls["index.md"] = ""
    site.files = [*PAGES, "index.md"]
    feature = RedirectsFeature(site, lambda: DEFAULTS, lambda document, uri: document)
    # Its HTML pass notes each keyed page's title, as a reader reads it.
    job = HtmlJob("bestiaire/carnet-de-chasse.md", "", "Mon carnet de chasse")
    assert feature.note_title("<p></p>", job) == "<p></p>"
    return site, feature


def test_a_site_without_the_file_starts_one_from_the_default_words(tmp_path: Path) -> None:
    site, feature = small_site(tmp_path)
    built = tmp_path / "site"
    feature.plan(built)
    feature.write(built)
    page = soup_of((built / "bestiaire" / "grimoire" / "index.html").read_text("utf-8"))
    assert page.select_one("link[rel=canonical]")["href"] == "../carnet-de-chasse/"
    assert page.title.get_text() == "Mon carnet de chasse"
    assert (built / "bestiaire" / "tous-les-sorts" / "index.html").is_file()
    kept = read_addresses((tmp_path / "adresses.json").read_text("utf-8"))
    assert kept == {
        INDEX: ["bestiaire/tous-les-sorts/", "bestiaire/tous-les-monstres/"],
        LISTS: ["bestiaire/grimoire/", "bestiaire/carnet-de-chasse/"],
    }
    notes = [p for p in site.report.problems if p.kind is Kind.MOVED_ADDRESS]
    assert [(p.file, p.severity, p.subject) for p in notes] == [
        ("adresses.json", "info", "bestiaire/grimoire/"),
        ("adresses.json", "info", "bestiaire/tous-les-sorts/"),
    ]
    assert notes[0].message == (
        "« bestiaire/grimoire/ » mène à « bestiaire/carnet-de-chasse/ » (« Mon carnet de chasse »)"
    )
    # The next build: the same addresses, the file is left as it is.
    before = (tmp_path / "adresses.json").stat().st_mtime_ns
    site, feature = small_site(tmp_path)
    feature.plan(built)
    feature.write(tmp_path / "site-2")
    assert (tmp_path / "adresses.json").stat().st_mtime_ns == before
    assert (tmp_path / "site-2" / "bestiaire" / "grimoire" / "index.html").is_file()


def test_a_damaged_file_stops_the_build_and_is_not_replaced(tmp_path: Path) -> None:
    damaged = '{\n  "pages": {\n<<<<<<< HEAD\n  }\n}\n'
    (tmp_path / "adresses.json").write_text(damaged, encoding="utf-8")
    site, feature = small_site(tmp_path)
    feature.plan(tmp_path / "site")
    (problem,) = site.report.of("error")
    assert (problem.file, problem.line, problem.kind) == ("adresses.json", 3, Kind.ADDRESSES_FILE)
    assert "conflit de fusion" in problem.message and "supprimez-le" in problem.message
    feature.write(tmp_path / "site")
    assert (tmp_path / "adresses.json").read_text("utf-8") == damaged
