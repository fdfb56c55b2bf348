"""Content-Security-Policy for the built pages: 'self' only, plus the hashes of inline scripts."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["add_policy", "inline_script_hashes", "policy"]

# Executable inline scripts only: JSON data blocks (Material's __config) are not run.
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>(.*?)</script>",
    re.DOTALL,
)
HEAD_START = re.compile(r"<head[^>]*>\s*(?:<meta charset=[^>]*>)?", re.IGNORECASE)
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*')


def inline_script_hashes(html: str) -> set[str]:
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(html)
    }


def policy(hashes: Iterable[str]) -> str:
    """As strict as Material and Pyodide allow: no other origin, no eval, no inline code
    but Material's own small scripts, named by hash; WebAssembly may compile."""
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


def add_policy(site: Path) -> int:
    """Give every page of the built site the same policy, which allows the inline scripts
    of all pages: instant navigation runs a new page's scripts under the first page's policy.
    Returns the number of pages changed."""
    pages = sorted(site.rglob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    hashes: set[str] = set()
    for text in texts.values():
        hashes |= inline_script_hashes(text)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(hashes)}">'
    for page, text in texts.items():
        text = POLICY_META.sub("", text)
        new, count = HEAD_START.subn(lambda m: m.group(0) + "\n    " + meta, text, count=1)
        if count:
            page.write_text(new, encoding="utf-8")
    return len(pages)
