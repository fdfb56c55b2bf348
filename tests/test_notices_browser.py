"""Notices that stay out of the way, on a phone (360 × 800, touch), in headless Chromium.

- The offline download's notice is one line with a button that closes it; closed, it stays
  closed on the next pages of the tab while the footer still says where the download is.
- Its share moves while one large file arrives (the service worker counts the bytes as they
  come, instead of a fetch that answers once the whole file is there).
- A list's notice is one line, its link whole, and it does not follow the reader to the list;
  while it shows, the download's notice waits behind it.

The download runs against a server that slows the link (bench/server.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_entries_browser import INDEX, Tab, base, served, tab  # noqa: F401  (fixtures)
from tests.test_offline import subpath_site  # noqa: F401  (fixture)
from tests.test_offline_browser import open_profile
from tests.test_offline_download_browser import Link, completed, link  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 360, "height": 800}, "has_touch": True, "is_mobile": True}
CHIP = ".hors-ligne-puce"
SHARE = re.compile(r"(\d+)\s*%")


def lines_of(locator: Any) -> int:
    """How many lines the element's text takes on screen."""
    return int(
        locator.evaluate(
            """(node) => {
                const range = document.createRange();
                range.selectNodeContents(node);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            }"""
        )
    )


def chip_text(page: Any) -> str:
    return str(page.locator(f"{CHIP} [data-texte]").text_content() or "")


def test_the_download_notice_is_one_closable_line_whose_share_moves(
    browser: Any,
    link: Link,  # noqa: F811
    tmp_path: Path,
) -> None:
    server = link.server
    later = [f for f in link.files if f.get("later")]
    largest_path = link.largest_later()
    others = {link.path(f) for f in later} - {largest_path}
    # The largest file alone takes some five seconds: long enough to watch it arrive.
    server.rate = (server.wire_size(largest_path) or 0) / 5
    context = open_profile(browser, tmp_path / "profil", **PHONE)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(link.url + "jeu/glossaire/")
        chip = page.locator(f"{CHIP}:not([hidden])")
        chip.wait_for(timeout=60_000)
        assert lines_of(chip.locator("[data-texte]")) == 1, chip_text(page)
        close = chip.get_by_role("button", name="Masquer l’avis de copie hors ligne")
        assert close.is_visible()
        box = chip.bounding_box()
        assert box is not None and box["height"] <= 48, box

        # Every other later file has arrived and the notice says so (the share they make,
        # as sw.js weighs files: their size and 16 kB a request); the largest is still
        # coming: the share moves.
        deadline = time.monotonic() + 180
        while not (others <= completed(server)):
            assert time.monotonic() < deadline, "les autres fichiers ne sont jamais arrivés"
            assert largest_path not in completed(server), "le plus gros fichier est arrivé trop tôt"
            time.sleep(0.1)
        weights = {link.path(f): f["size"] + 16 * 1024 for f in later}
        without_largest = 100 * (sum(weights.values()) - weights[largest_path])
        others_share = min(99, without_largest // sum(weights.values()))
        page.wait_for_function(
            """([selector, share]) => {
                const said = /(\\d+)\\s*%/.exec(document.querySelector(selector).textContent);
                return said !== null && Number(said[1]) >= share;
            }""",
            arg=[f"{CHIP} [data-texte]", others_share],
            timeout=30_000,
        )
        before = chip_text(page)
        assert SHARE.search(before), before
        page.wait_for_function(
            "([selector, before]) => document.querySelector(selector).textContent !== before",
            arg=[f"{CHIP} [data-texte]", before],
            timeout=30_000,
        )
        assert largest_path not in completed(server), "la part n’a bougé qu’une fois le fichier là"
        server.rate = 20_000  # the download goes on, slowly, while the reader closes the notice

        # A notice about the page being read (a list's) comes first; the download's waits.
        page.evaluate(
            """() => {
                const notice = document.createElement("div");
                notice.className = "essai-avis";
                notice.dataset.page = location.pathname;
                notice.textContent = "Ajouté à la liste";
                document.querySelector(".regles-avis").append(notice);
            }"""
        )
        page.locator(CHIP).wait_for(state="hidden")
        page.evaluate("() => document.querySelector('.essai-avis').remove()")
        chip.wait_for()

        close.tap()
        page.locator(CHIP).wait_for(state="hidden")
        # Closed, it stays closed on the next page of this tab; the footer still says it.
        page.goto(link.url + "jeu/combat/")
        page.locator("html[data-hors-ligne='telechargement']").wait_for(state="attached")
        status = page.locator(".md-footer .hors-ligne-etat__texte")
        status.scroll_into_view_if_needed()
        assert "Calculateurs" in (status.text_content() or "")
        assert page.locator(f"{CHIP}:not([hidden])").count() == 0
        page.screenshot(path=str(tmp_path / "avis-ferme.png"))
    finally:
        server.rate = None
        context.close()


def test_a_lists_notice_is_one_line_and_stays_on_its_page(tab: Callable[..., Tab]) -> None:  # noqa: F811
    t = tab(360, **{k: v for k, v in PHONE.items() if k != "viewport"})
    page = t.open(INDEX)
    page.locator("#entry-table tbody tr").nth(0).locator("button.list-add").tap()
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.wait_for()
    # A list named for a character, an entry of a long name: the notice shortens the entry's
    # name (the one just tapped), never the list's nor its link.
    dialog.locator("#list-dialog-name").fill("Kessa la Grise")
    dialog.locator("button[value=ajouter]").tap()
    notice = page.locator(".list-notice")
    notice.wait_for()
    assert lines_of(notice.locator("p")) == 1, notice.inner_text()
    shown = notice.locator(".list-notice__text").evaluate(
        """(text) => {
            const node = text.firstChild, at = node.data.indexOf("Kessa la Grise");
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + "Kessa la Grise".length);
            return range.getBoundingClientRect().right <= text.getBoundingClientRect().right;
        }"""
    )
    assert shown, notice.inner_text()
    # On a phone the link says « Voir » alone, its name whole for a screen reader.
    see = notice.get_by_role("link", name="Voir le grimoire")
    assert see.inner_text() == "Voir"
    see_box, notice_box = see.bounding_box(), notice.bounding_box()
    assert see_box is not None and notice_box is not None
    assert see_box["x"] + see_box["width"] <= notice_box["x"] + notice_box["width"]
    # The reader follows it to the list: the notice stays behind.
    see.tap()
    page.wait_for_url(re.compile(r"grimoire/"))
    page.locator("#reader-lists[data-list-ready]").wait_for(state="attached")
    assert page.locator(".list-notice").count() == 0
