"""An external link checker over the served site: 0 broken internal links, 0 missing anchors;
and pages that parse as written, in Python's HTML parser and in Chromium's.

LinkChecker (pinned in requirements.txt) runs from the project's venv with
tests/linkcheckerrc: internal links only, each page's anchors checked by the plugin in
tests/linkchecker/plugins/ (why not LinkChecker's own AnchorCheck: see that plugin and the
rc file). A small site with known faults shows that the check finds them, and finds the
same missing anchors as AnchorCheck.
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import ROOT, serve

LINKCHECKER = Path(sys.executable).parent / "linkchecker"
RC = ROOT / "tests" / "linkcheckerrc"
INFO = "AncresInternes, ancres vérifiées : "


def linkcheck(
    *urls: str, rc: Path = RC, options: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """The venv's LinkChecker on start URLs (it follows their links), CSV output."""
    return subprocess.run(
        [str(LINKCHECKER), "-f", str(rc), "--output=csv", *options, *urls],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        # LinkChecker loads its plugins from $XDG_DATA_HOME/linkchecker/plugins/ only.
        env={**os.environ, "XDG_DATA_HOME": str(ROOT / "tests")},
    )


# The built site -------------------------------------------------------------------------


def start_urls(site: Path, url: str) -> list[str]:
    """Every page of the site: those no link leads to (404.html…) are checked too."""
    urls = []
    for page in html_pages(site):
        relative = page.relative_to(site).as_posix()
        urls.append(url + relative.removesuffix("index.html"))
    return urls


class FragmentLinks(HTMLParser):
    """Links with a #fragment of one page, as (resolved target, fragment)."""

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value and "#" in value:
                target, fragment = urllib.parse.urldefrag(urllib.parse.urljoin(self.url, value))
                if fragment:
                    self.links.append((target, fragment))

    handle_startendtag = handle_starttag


def internal_anchor_links(site: Path, url: str) -> int:
    """Links of the site's pages with a fragment into one of its HTML pages, counted in the
    files themselves: what the anchor plugin must have checked, one by one."""
    count = 0
    for page, page_url in zip(html_pages(site), start_urls(site, url), strict=True):
        parser = FragmentLinks(page_url)
        parser.feed(page.read_text(encoding="utf-8"))
        for target, _ in parser.links:
            if not target.startswith(url):
                continue
            path = site / target.removeprefix(url)
            if (path / "index.html").is_file() or (path.suffix == ".html" and path.is_file()):
                count += 1
    return count


@pytest.mark.site
def test_no_broken_internal_link_or_anchor(site_dir: Path, site_url: str) -> None:
    start = time.monotonic()
    result = linkcheck(*start_urls(site_dir, site_url), options=["--verbose"])
    elapsed = time.monotonic() - start
    rows = csv_rows(result.stdout)
    problems = [r for r in rows if r["valid"] != "True" or r["warningstring"]]
    assert not problems, "\n".join(
        f"{r['url']} : {r['result']} {r['warningstring']}" for r in problems
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    # Every page was parsed, and every link with an anchor into the site was checked (rows
    # repeat for each link to a URL: count each page once).
    per_page = {
        r["url"]: int(m.group(1))
        for r in rows
        for m in re.finditer(re.escape(INFO) + r"(\d+)", r["infostring"])
    }
    assert set(per_page) >= set(start_urls(site_dir, site_url))
    checked = sum(per_page.values())
    assert checked == internal_anchor_links(site_dir, site_url)
    print(f"linkchecker : {len(rows)} URL, {checked} ancres, {elapsed:.1f} s")


# A small site with known faults ----------------------------------------------------------

FAULTY_SITE = {
    "index.html": """<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Accueil</title></head><body>
<p><a href="regles/">page</a> <a href="regles/#attaque">ancre</a></p>
<p><a href="regles/#absente">ancre absente d’une autre page</a></p>
<p><a href="#ici">ancre de la page</a> <span id="ici">ici</span></p>
<p><a href="#nulle-part">ancre absente de la page</a></p>
<p><a href="regles/#d%C3%A9g%C3%A2ts">ancre encodée</a> <a href="regles/#nom">a name</a></p>
<p><a href="manquante/">page absente</a></p>
</body></html>
""",
    "regles/index.html": """<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Règles</title></head><body>
<h2 id="attaque">Attaque</h2><h2 id="dégâts">Dégâts</h2><a name="nom"></a>
<p><a href="../#ici">retour</a> <a href="../#disparue">ancre absente, page parente</a></p>
</body></html>
""",
}
MISSING_ANCHORS = {"/regles/#absente", "/#nulle-part", "/#disparue"}


@pytest.fixture(scope="module")
def faulty_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("liens-casses")
    for name, text in FAULTY_SITE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    server, url = serve(root)
    yield url + "/"
    server.shutdown()


def csv_rows(output: str) -> list[dict[str, str]]:
    # LinkChecker's comment lines start with "# "; a row may start with "#anchor;".
    lines = [line for line in output.splitlines() if not line.startswith("# ")]
    return list(csv.DictReader(io.StringIO("\n".join(lines)), delimiter=";"))


def missing_anchors_ours(rows: list[dict[str, str]], base: str) -> set[str]:
    found = set()
    for row in rows:
        for match in re.finditer(r"Anchor `([^']*)' not found in (\S+) ", row["warningstring"]):
            found.add(match.group(2).removeprefix(base.rstrip("/")) + "#" + match.group(1))
    return found


def missing_anchors_anchorcheck(rows: list[dict[str, str]], base: str) -> set[str]:
    return {
        row["url"].removeprefix(base.rstrip("/"))
        for row in rows
        if "url-anchor-not-found" in row["warningstring"] or "Anchor `" in row["warningstring"]
    }


def test_the_check_finds_missing_pages_and_anchors(faulty_site: str) -> None:
    result = linkcheck(faulty_site)
    output = result.stdout
    assert result.returncode == 1, output + result.stderr
    rows = csv_rows(output)
    assert missing_anchors_ours(rows, faulty_site) == MISSING_ANCHORS, output
    broken = {row["url"] for row in rows if row["valid"] == "False"}
    assert broken == {faulty_site + "manquante/"}, output
    # The warning names the page and line of the link, not only its target.
    parent = next(r for r in rows if "`nulle-part'" in r["warningstring"])
    assert parent["url"] == faulty_site
    assert "(link at line 6," in parent["warningstring"]


def test_the_plugin_finds_what_anchorcheck_finds(faulty_site: str, tmp_path: Path) -> None:
    # LinkChecker's own AnchorCheck on the same small site: the same missing anchors.
    rc = RC.read_text(encoding="utf-8").replace("[AncresInternes]", "[AnchorCheck]")
    (tmp_path / "linkcheckerrc").write_text(rc, encoding="utf-8")
    theirs = linkcheck(faulty_site, rc=tmp_path / "linkcheckerrc")
    ours = linkcheck(faulty_site)
    assert missing_anchors_anchorcheck(csv_rows(theirs.stdout), faulty_site) == (
        missing_anchors_ours(csv_rows(ours.stdout), faulty_site)
    ), theirs.stdout + ours.stdout


# HTML that parses as written ---------------------------------------------------------------

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)
OPTIONAL_END = frozenset(
    {"p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot"}
    | {"colgroup", "caption", "rb", "rt", "rp", "html", "head", "body"}
)
# A start tag of these closes an open <p>: a later </p> would then be a stray one.
CLOSES_P = frozenset(
    {"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl"}
    | {"fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5"}
    | {"h6", "header", "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "section"}
    | {"table", "ul"}
)
# An open element of the first kind is closed by a new one of the same group, within scope.
SIBLINGS = [
    ({"li"}, {"ul", "ol", "menu"}),
    ({"dt", "dd"}, {"dl"}),
    ({"option"}, {"select", "datalist", "optgroup"}),
    ({"tr"}, {"table", "thead", "tbody", "tfoot"}),
    ({"td", "th"}, {"tr", "table"}),
]


class StrictParser(HTMLParser):
    """Python's HTML tokenizer plus the tree rules whose breach makes a browser rebuild the
    page differently from its text: unclosed or misnested elements, stray end tags,
    self-closed HTML elements, duplicate ids. Optional end tags (p, li, td…) are allowed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, int]] = []
        self.errors: list[str] = []
        self.ids: dict[str, int] = {}
        self.elements = 0
        self.foreign = 0  # inside <svg> or <math>, where <x/> is allowed

    def error_at(self, message: str) -> None:
        self.errors.append(f"ligne {self.getpos()[0]} : {message}")

    def record(self, attrs: list[tuple[str, str | None]]) -> None:
        self.elements += 1
        for name, value in attrs:
            if name == "id" and value is not None:
                if value in self.ids:
                    self.error_at(f"id « {value} » en double (déjà ligne {self.ids[value]})")
                self.ids.setdefault(value, self.getpos()[0])

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.record(attrs)
        if not self.foreign and tag in VOID:
            return
        if not self.foreign:
            if tag in CLOSES_P and any(t == "p" for t, _ in self.stack):
                self.close_until("p", f"<{tag}>")
            for group, scope in SIBLINGS:
                if tag in group:
                    for i in range(len(self.stack) - 1, -1, -1):
                        if self.stack[i][0] in scope:
                            break
                        if self.stack[i][0] in group:
                            del self.stack[i:]
                            break
        if tag in ("svg", "math"):
            self.foreign += 1
        self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.foreign or tag in VOID:
            self.record(attrs)
            return
        self.error_at(f"<{tag}/> : un élément HTML ne se ferme pas lui-même")
        self.handle_starttag(tag, attrs)

    def close_until(self, tag: str, by: str) -> None:
        while self.stack:
            top, line = self.stack.pop()
            if top in ("svg", "math"):
                self.foreign -= 1
            if top == tag:
                return
            if top not in OPTIONAL_END:
                self.error_at(f"<{top}> (ligne {line}) pas fermée avant {by}")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID and not self.foreign:
            self.error_at(f"</{tag}> : élément vide")
        elif not any(t == tag for t, _ in self.stack):
            self.error_at(f"</{tag}> sans balise ouvrante")
        else:
            self.close_until(tag, f"</{tag}>")

    def close(self) -> None:
        super().close()
        for tag, line in self.stack:
            if tag not in OPTIONAL_END:
                self.errors.append(f"<{tag}> (ligne {line}) jamais fermée")


def parse_strictly(text: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(text)
    parser.close()
    return parser


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_the_strict_parser_sees_what_breaks_a_page() -> None:
    broken = parse_strictly(
        "<p>a<div>b</div></p><b><i>c</b></i><section><div></section>"
        '<span id="x"></span><em id="x"></em><div/>'
    )
    assert any("</p> sans balise ouvrante" in e for e in broken.errors)
    assert any("<i> (ligne 1) pas fermée avant </b>" in e for e in broken.errors)
    assert any("<div> (ligne 1) pas fermée avant </section>" in e for e in broken.errors)
    assert any("id « x » en double" in e for e in broken.errors)
    assert any("<div/>" in e for e in broken.errors)
    fine = parse_strictly(
        "<ul><li>a<li>b</ul><table><tr><td>1<td>2<tr><td>3</table><p>x<p>y"
        '<svg><path d="M0"/></svg><dl><dt>a<dd>b</dl>'
    )
    assert fine.errors == []


@pytest.mark.site
def test_every_page_parses_as_written(site_dir: Path) -> None:
    errors = [
        f"{page.relative_to(site_dir)} {error}"
        for page in html_pages(site_dir)
        for error in parse_strictly(page.read_text(encoding="utf-8")).errors
    ]
    assert not errors, "\n".join(errors)


# Every element of the text, and those of <template> contents (a separate fragment).
COUNT_ELEMENTS = """(html) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const count = (root) => [...root.querySelectorAll("*")].reduce(
        (n, el) => n + (el.tagName === "TEMPLATE" ? count(el.content) : 0),
        root.querySelectorAll("*").length);
    return count(doc);
}"""


@pytest.mark.browser
def test_chromium_adds_elements_to_a_page_it_repairs(browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        for text in (
            "<!doctype html><html><head></head><body><p>a<div>b</div></p></body></html>",
            "<!doctype html><html><head></head><body><b><i>c</b>d</i></body></html>",
            "<!doctype html><html><head></head><body><table><tr><td>1</table></body></html>",
        ):
            assert page.evaluate(COUNT_ELEMENTS, text) > parse_strictly(text).elements, text
        fine = "<!doctype html><html><head></head><body><template><p>x</template></body></html>"
        assert page.evaluate(COUNT_ELEMENTS, fine) == parse_strictly(fine).elements
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.site
def test_chromium_builds_the_tree_the_text_describes(site_dir: Path, browser: object) -> None:
    # Chromium's parser repairs broken HTML by adding elements (an empty <p> for a stray
    # </p>, a <tbody>, clones of misnested formatting tags…): as many elements in its tree
    # as start tags in the text means it had nothing to repair.
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        mismatches = []
        for path in html_pages(site_dir):
            text = path.read_text(encoding="utf-8")
            expected = parse_strictly(text).elements
            actual = page.evaluate(COUNT_ELEMENTS, text)
            if actual != expected:
                mismatches.append(f"{path.relative_to(site_dir)} : {expected} → {actual}")
    finally:
        page.close()
    assert not mismatches, "\n".join(mismatches)
