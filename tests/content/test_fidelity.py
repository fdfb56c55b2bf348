"""Every sentence of the four rule documents reaches the built site, word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.content.conftest import SOURCES

RULE_DOCUMENTS = [
    "000_78defe156a49a49a.txt",
    "001_4dac979a506e1925.txt",
    "003_13bf7cefdd14c74e.txt",
    "004_40a31845a132ee97.txt",
]
LIST_MARKER = re.compile(r"^(?:v\s+|•\s*|\d+\.\s+|-\s+)")
# The two malformed links of 000 are repaired in the content: compare their words only.
SOURCE_LINK = re.compile(r"\[([^\]]*)\]\([^)\]]*(?:[)\]]|\s\S*\))")


BLOCKS = [
    "p",
    "li",
    "td",
    "th",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "div",
    "dt",
    "dd",
    "br",
    "table",
    "blockquote",
    "pre",
    "hr",
]


def normalise(text: str) -> str:
    return " ".join(text.split())


def source_lines(name: str) -> list[str]:
    lines = []
    for raw in (SOURCES / name).read_text(encoding="utf-8").splitlines():
        line = SOURCE_LINK.sub(r"\1", raw.strip())
        line = normalise(LIST_MARKER.sub("", line))
        if line:
            lines.append(line)
    return lines


def page_text(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one("article") or soup
    # Not the documents' text: permalinks, code, forms, the marks of absent chapters, the
    # site's own notes (« (ici : plus bas) » after « le tableau à droite »).
    selector = (
        "a.headerlink, script, style, form.calculateur, .renvoi-absent, .renvoi-absent-note,"
        " span.regles-ici"
    )
    for tag in article.select(selector):
        tag.decompose()
    # Blocks and cells are separated by white space; inline markup is not.
    for tag in article.find_all(BLOCKS):
        tag.append(" ")
        tag.insert(0, " ")
    return normalise(article.get_text(""))


@pytest.fixture(scope="module")
def site_text(site_dir: Path) -> str:
    return "\n".join(page_text(p.read_text(encoding="utf-8")) for p in site_dir.rglob("*.html"))


def test_source_lines_are_read() -> None:
    # Guards the test itself: an empty reading would make the check below pass vacuously.
    assert len(source_lines(RULE_DOCUMENTS[0])) > 300


@pytest.mark.parametrize("document", RULE_DOCUMENTS)
def test_every_line_of_the_document_is_in_the_site(document: str, site_text: str) -> None:
    missing = [line for line in source_lines(document) if line not in site_text]
    assert not missing, f"{len(missing)} ligne(s) absentes du site, dont : {missing[:5]}"
