"""A large file cut off half-way resumes where it stopped, in headless Chromium on a phone,
against a server that slows and cuts the link and answers `Range` as GitHub Pages does
(bench/server.py): the service worker keeps what had come (sw.js, `keepPart`) and asks for
the rest only; nothing of it comes twice."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_notices_browser import PHONE
from tests.test_offline import subpath_site  # noqa: F401  (fixture)
from tests.test_offline_browser import open_profile
from tests.test_offline_download_browser import Link, completed, link  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.python, pytest.mark.offline]


def test_a_large_file_cut_half_way_resumes_where_it_stopped(
    browser: Any,
    link: Link,  # noqa: F811
    tmp_path: Path,
) -> None:
    server = link.server
    path = link.largest_later()
    size = server.wire_size(path) or 0
    server.rate = size / 6  # Python's largest file alone would take six seconds
    context = open_profile(browser, tmp_path / "profil", **PHONE)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(link.url + "jeu/glossaire/")  # no calculator: Python waits for the download
        deadline = time.monotonic() + 180
        while path not in {p.split("?")[0] for p in server.requests}:
            assert time.monotonic() < deadline, "le téléchargement n’a jamais demandé ce fichier"
            time.sleep(0.05)
        # The link goes down a third of the file's size later (shared with the other files).
        server.cut_after_bytes = server.bytes_sent + size // 3
        link.wait_for_cut()
        assert path not in completed(server)
        status = page.locator(".md-footer .hors-ligne-etat__texte")
        status.filter(has_text="interrompu").wait_for(timeout=60_000)

        mark = len(server.transfers)
        server.rate = None
        server.cut = False
        context.set_offline(True)
        context.set_offline(False)  # « online »: the page asks for the rest at once
        page.locator("html[data-hors-ligne-calculateurs='pret']").wait_for(
            state="attached", timeout=120_000
        )
        again = [t for t in server.transfers[mark:] if t.path == path]
        assert [t.status for t in again] == [206], again
        assert 0 < again[0].body_bytes < size, (again[0].body_bytes, size)
    finally:
        server.rate = None
        context.close()
