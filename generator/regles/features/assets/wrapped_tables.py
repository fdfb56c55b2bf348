"""Content tables written inside Material's scrolling container at build time.

Material wraps every `table:not([class])` of a page's content in
`div.md-typeset__scrollwrap > div.md-typeset__table` at load, in its DOMContentLoaded handler:
each table is taken out of the page and put back, so the browser styles and lays it out
again, in the page's longest task: a few hundred elements for a rules page with two tables,
thousands for an entry index of a few hundred rows.

Here each content table without a class is written inside that container, with the class
`TABLE_CLASS`: Material's script then leaves it alone. Material styles tables by the same
`table:not([class])` selector, so tables.css repeats those rules for `TABLE_CLASS`
(tests/test_wrapped_tables_browser.py compares the computed styles of both).
"""

from __future__ import annotations

import re

__all__ = ["TABLE_CLASS", "wrap_tables"]

TABLE_CLASS = "regles-table"

# A table without a class attribute, up to its end; tables are not nested in the content
# (one that holds another is left to Material).
_TABLE = re.compile(
    r"<table(?![^>]*\sclass=)(?P<attributes>(?:\s[^>]*)?)>(?P<body>.*?)</table>", re.S
)


def _wrap(match: re.Match[str]) -> str:
    body = match.group("body")
    if "<table" in body:
        return match.group(0)
    return (
        '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
        f'<table class="{TABLE_CLASS}"{match.group("attributes")}>{body}</table></div></div>'
    )


def wrap_tables(html: str) -> str:
    """The page content's tables without a class, in Material's scrolling container."""
    return _TABLE.sub(_wrap, html)
