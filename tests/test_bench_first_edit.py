"""`make bench`'s first-edit figure, in Chromium on the test site: the instrument itself
(a reader's edit of the dice calculator, timed until its headline reads the rules' answer),
never the times, which `make bench` reports and no test asserts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import browser as web
from bench.project import BenchError, free_port
from bench.server import CountingServer
from regles.features.calculators.formatting import format_value
from tests.conftest import rules_of_test_site

pytestmark = [pytest.mark.browser, pytest.mark.python]


def edit(expression: str, expected: str | None = None) -> web.Edit:
    shown = format_value("mean", rules_of_test_site().run("dice", {"expression": expression}))
    return web.Edit("dice", "expression", expression, "mean", expected or shown)


def test_first_edits_are_timed_until_the_headline_reads_the_answer(
    browser: Any, site_dir: Path, tmp_path: Path
) -> None:
    server = CountingServer(site_dir, free_port()).start()
    # The tests' Chromium (one Playwright per process), as bench.browser.chromium starts it.
    chrome = web.Chrome(browser, str(web.chromium_path()), tmp_path)
    try:
        edits = [edit(f"{dice}d6") for dice in (3, 4, 5, 6, 7)]
        result = web.first_edit(chrome, server, "outils/", edits)
        samples = (result.cold, result.warm, result.service_worker, result.ready)
        assert [len(s) for s in samples] == [1, 1, 1, 2]
        assert all(ms > 0 for s in samples for ms in s)
        # An edit whose headline never reads what is expected is an error, not a time.
        page = chrome.browser.new_page()
        page.goto(server.url + "outils/", wait_until="load")
        with pytest.raises(BenchError, match="au lieu de « 99 »"):
            web.measure_edit(page, edit("8d6", "99"), timeout_ms=3000)
        page.close()
    finally:
        server.close()
