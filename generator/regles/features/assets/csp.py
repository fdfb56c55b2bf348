"""Content-Security-Policy for the built pages: 'self' only, plus the hashes of the inline
scripts the site is made of, each computed from its source (a template of the theme, the
generator's own markup, a page the site names), never from what the built pages contain.

A page then runs no script that a source did not write: a name from an export that slipped
markup into a page, or a script pasted into a page without the site declaring it, does not
run, and the build says where it is (`ScriptPolicy.unknown`)."""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

__all__ = [
    "ScriptPolicy",
    "inline_scripts",
    "policy",
    "script_hash",
    "template_scripts",
]

# A script element written in the page (no src), as the HTML parser reads it: its body ends
# at the first "</script".
INLINE_SCRIPT = re.compile(
    r"<script\b(?![^>]*\bsrc\s*=)([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE
)
# Data blocks (Material's __config) are not run.
DATA_TYPE = re.compile(r"""\btype\s*=\s*["']?application/(?:ld\+)?json""", re.IGNORECASE)
# A template's script that Jinja fills in differs from page to page: no hash of its source.
JINJA = re.compile(r"\{[{%#]")
HEAD_START = re.compile(r"<head[^>]*>\s*(?:<meta charset=[^>]*>)?", re.IGNORECASE)
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*')


def inline_scripts(html: str) -> Iterator[str]:
    """The bodies of the scripts that `html` writes inline and a browser would run."""
    for match in INLINE_SCRIPT.finditer(html):
        if not DATA_TYPE.search(match.group(1)):
            yield match.group(2)


# The folder of Material's icon sets (thousands of SVG files, no template), not walked.
_ICON_SETS = ".icons"


def _html_templates(folder: Path) -> Iterator[tuple[str, Path]]:
    """The HTML templates of one theme folder: (name as Jinja knows it, path)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = [name for name in dirs if name != _ICON_SETS]
        at = Path(root)
        for name in files:
            if name.endswith(".html"):
                yield (at / name).relative_to(folder).as_posix(), at / name


def template_scripts(theme_dirs: Sequence[Path]) -> set[str]:
    """The inline scripts of the theme's templates, as Jinja writes them: the templates that
    are used (the first folder that has a name wins, as Jinja's loader looks), and of those
    the scripts with no Jinja inside, which every page gets as written."""
    used: dict[str, Path] = {}
    for folder in theme_dirs:
        for name, template in _html_templates(folder):
            used.setdefault(name, template)
    return {
        body
        for template in used.values()
        for body in inline_scripts(template.read_text(encoding="utf-8", errors="replace"))
        if not JINJA.search(body)
    }


@functools.lru_cache(maxsize=1024)  # the same dozen scripts on every page
def script_hash(body: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"


def policy(hashes: Iterable[str]) -> str:
    """As strict as Material and Pyodide allow: no other origin, no eval, no inline code but
    the scripts named by hash; WebAssembly may compile."""
    scripts = " ".join(["'self'", "'wasm-unsafe-eval'", *sorted(hashes)])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            # Material and the widgets set style attributes; styles cannot run code.
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "worker-src 'self'",
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ]
    )


class ScriptPolicy:
    """The one policy of every page of a site, made from the scripts its sources write:
    instant navigation runs a new page's scripts under the first page's policy."""

    def __init__(self, scripts: Iterable[str]) -> None:
        self.hashes = frozenset(script_hash(body) for body in scripts)
        self.meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(self.hashes)}">'

    def unknown(self, html: str) -> list[str]:
        """The inline scripts of `html` that no source wrote."""
        return [body for body in inline_scripts(html) if script_hash(body) not in self.hashes]

    def add(self, html: str) -> str:
        """`html` with the policy first in its head (a policy given later would not cover
        what comes before it)."""
        html = POLICY_META.sub("", html)
        return HEAD_START.sub(lambda m: m.group(0) + "\n    " + self.meta, html, count=1)
