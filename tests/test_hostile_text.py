"""Text from a hostile hand stays text: a site whose export and settings carry markup meant to
run or to add elements (tests/integration/malveillant/, each piece marked `data-x="<where>"`)
builds strict, shows that markup as text on every page and in every script's output, and
its pages' security policy allows only the scripts its sources write.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

import pytest

from regles.features.assets.csp import inline_scripts, script_hash
from regles.features.calculators.forms import FOLD_SCRIPT
from regles.features.redirects.addresses import REDIRECT_SCRIPT
from tests.conftest import ROOT, build_site, serve, shown_preview

FIXTURE = ROOT / "tests" / "integration" / "malveillant"
THEME = ROOT / "generator" / "regles" / "theme"
DECLARED_PAGE = "jeu/script-declare/"
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


class Marks(HTMLParser):
    """The elements of a document that came from the hostile text (`data-x`), and the
    event attributes of any element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "data-x":
                self.found.append(f"<{tag} data-x={value}>")
            elif name.startswith("on"):
                self.found.append(f"<{tag} {name}>")


def marks(document: str) -> list[str]:
    parser = Marks()
    parser.feed(document)
    return parser.found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    destination = tmp_path_factory.mktemp("malveillant")
    result = build_site(destination, FIXTURE / "mkdocs.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    return destination


def pages(site: Path) -> dict[str, str]:
    return {
        page.relative_to(site).as_posix(): page.read_text(encoding="utf-8")
        for page in sorted(site.rglob("*.html"))
    }


def test_no_markup_of_the_export_or_settings_reaches_a_page(site: Path) -> None:
    documents = pages(site)
    assert len(documents) > 10
    found = {path: marks(text) for path, text in documents.items()}
    assert {path: elements for path, elements in found.items() if elements} == {}
    for path, text in documents.items():
        bodies = list(inline_scripts(text))
        assert not [body for body in bodies if "__x" in body], path


def test_the_hostile_text_is_shown_as_written(site: Path) -> None:
    """Not dropped nor mangled: a reader sees the group's, the entry's and the settings'
    words, markup included, as the export and mkdocs.yml write them."""
    data = json.loads((site / "data" / "bases" / "magie.json").read_text(encoding="utf-8"))
    names = {entry["name"] for entry in data}
    assert 'Boule <i data-x="entry">x</i> <script>window.__x="entry"</script>' in names
    groups = {entry["group"] for entry in data}
    group = 'Feu <i data-x="group">x</i> <script>window.__x="group"</script>'
    assert group in groups
    home = (site / "index.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", home, re.DOTALL)
    assert title is not None
    site_name = 'Jeu <i data-x="site-name">x</i> </title><script>window.__x="site-name"</script>'
    assert html.unescape(title.group(1)).strip() == site_name
    index = next(p for p in site.glob("magie/tout-*/index.html"))
    text = html.unescape(re.sub(r"<[^>]+>", "", index.read_text(encoding="utf-8")))
    assert 'Tout <i data-x="index-title">x</i>' in text
    assert 'Magie <i data-x="section">x</i>' in text
    assert '2 sorts "anciens"' in text


def template_sources() -> set[str]:
    """Every inline script written in a template the site's theme is made of: the
    generator's and Material's (`template_scripts` takes those the site uses of them)."""
    import material

    folders = [THEME, Path(material.__file__).parent / "templates"]
    return {
        body
        for folder in folders
        for template in folder.rglob("*.html")
        for body in inline_scripts(template.read_text(encoding="utf-8"))
    }


def test_the_policy_allows_only_scripts_the_sources_write(site: Path) -> None:
    declared = (FIXTURE / "content" / "jeu" / "script-declare.md").read_text(encoding="utf-8")
    sources = template_sources() | set(inline_scripts(FOLD_SCRIPT)) | set(inline_scripts(declared))
    sources.add(REDIRECT_SCRIPT)  # the generator's page at an old address (features/redirects)
    known = {script_hash(body) for body in sources}
    policies = set()
    for path, text in pages(site).items():
        found = POLICY.search(text)
        assert found is not None, path
        assert text.index(found.group(0)) < text.index("<title>"), path  # first in the head
        policies.add(found.group(1))
    assert len(policies) == 1  # instant navigation keeps the first page's policy
    (policy,) = policies
    hashes = set(re.findall(r"'sha256-[^']+'", policy))
    assert hashes and hashes <= known
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    hostile = 'window.__x="group"'
    assert script_hash(hostile) not in hashes


@pytest.fixture(scope="module")
def site_url(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    www = tmp_path_factory.mktemp("www-malveillant")
    (www / "jeu-hostile").symlink_to(site, target_is_directory=True)
    server, origin = serve(www)
    yield f"{origin}/jeu-hostile/"
    server.shutdown()


WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(e.violatedDirective + " " + (e.sample || e.blockedURI)));
"""
INJECTED = "() => document.querySelectorAll('[data-x]').length"


@pytest.mark.browser
def test_nothing_hostile_runs_and_the_declared_script_does(
    browser: Any, site: Path, site_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True)
    context.add_init_script(WATCH)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    paths = [p.parent.relative_to(site).as_posix() + "/" for p in sorted(site.rglob("index.html"))]
    for path in ["" if p == "./" else p for p in paths]:
        page.goto(site_url + path)
        page.wait_for_load_state("load")
        state = page.evaluate(f"() => [window.__x, window.__violations, ({INJECTED})()]")
        assert state == [None, [], 0], path
        if path == DECLARED_PAGE:
            assert page.evaluate("window.__declared") == "oui"
    assert dialogs == []
    assert errors == []
    context.close()


@pytest.mark.browser
def test_the_scripts_show_hostile_names_as_text(browser: Any, site: Path, site_url: str) -> None:
    """The search's results, an entry's preview and a shared list write the export's names
    with text nodes."""
    data = json.loads((site / "data" / "bases" / "magie.json").read_text(encoding="utf-8"))
    entry = next(e for e in data if 'data-x="entry"' in e["name"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(site_url)
    page.wait_for_function("() => window.rules && typeof window.rules.search === 'function'")
    page.keyboard.press("/")
    page.keyboard.type("boule", delay=20)
    titles = page.locator("[data-recherche-liste] h1")
    titles.first.wait_for()
    assert entry["name"] in titles.all_text_contents()
    page.keyboard.press("Escape")
    # The entry's bubble, over its link in the index.
    index = next(p for p in site.glob("magie/tout-*/index.html")).parent.relative_to(site)
    page.goto(f"{site_url}{index.as_posix()}/")
    link = page.locator(f"a[href$='#{entry['url'].split('#')[1]}']").first
    link.hover()
    assert entry["name"] in shown_preview(page.locator("#entry-preview"))
    # A list shared by link, read from the data file.
    lists = page.locator("meta[name='regles-listes']").get_attribute("content")
    assert lists is not None
    ids = ",".join(e["id"] for e in data)
    page.goto(f"{urljoin(page.url, lists)}?nom={quote('<i data-x=list>x</i>')}&sorts={ids}")
    cards = page.locator(".list-entry__name")
    cards.first.wait_for()
    # Its name, then its levels' badge.
    assert any(name.startswith(entry["name"] + " ") for name in cards.all_text_contents())
    page.get_by_text("<i data-x=list>x</i>").first.wait_for()
    assert page.evaluate(f"() => [window.__x, window.__violations, ({INJECTED})()]") == [
        None,
        [],
        0,
    ]
    context.close()


# What would let a page script turn text into markup or code.
MARKUP_SINKS = re.compile(
    r"\.(?:inner|outer)HTML\b|insertAdjacentHTML|document\.write|createContextualFragment"
    r"|\bsrcdoc\b|DOMParser|\beval\(|new Function\("
)


def test_the_page_scripts_write_text_nodes_only() -> None:
    """Every page script builds what it shows with elements and text nodes (page.js `el`):
    a name from a data file or a link is never parsed as HTML."""
    scripts = [*(THEME / "assets" / "js").glob("*.js"), *(THEME / "assets" / "js").glob("*.mjs")]
    assert scripts
    found = {
        script.name: MARKUP_SINKS.findall(script.read_text(encoding="utf-8")) for script in scripts
    }
    assert {name: sinks for name, sinks in found.items() if sinks} == {}
