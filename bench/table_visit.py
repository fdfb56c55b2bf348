"""A player's first visit at the table, as issue #42 asks it to be told: a page with a
calculator and an inline die, over a 1.5 Mbit/s link, the calculator used during the download,
the link cut as soon as the text is stored. Prints when the text is stored, how long after the
cut a die takes to roll, when everything is stored, and the bytes on the wire against the
service worker's list (no file sent twice).

    .venv/bin/python -m bench.table_visit [site folder] [page] [calculator id] [field id]

The site folder (`site/` by default, as `make site` builds it) is served under its own name as
a sub-path, as GitHub Pages serves a project. The defaults are this site's d20 calculator.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from bench.browser import chromium
from bench.offline import LOOK_TIMEOUT_MS, MBIT, POLL, site_files
from bench.server import CountingServer

RATE = 1.5 * MBIT
LIMIT = 900.0  # seconds: a visit that takes longer is told as such
ANSWER_WAIT = 60.0  # seconds the calculator has to answer once everything is stored
DEFAULTS = ("site", "dnd5e/tests-d20/", "calc-d20_test", "calc-d20_test-modifier")


def root_mark(page: Page, name: str) -> str | None:
    """An attribute offline.js sets on the page root (`data-hors-ligne…`), None while the page
    is between two documents."""
    try:
        return page.locator("html").get_attribute(name, timeout=LOOK_TIMEOUT_MS)
    except PlaywrightError:
        return None


def wait_mark(page: Page, name: str, started: float) -> float | None:
    """Seconds since `started` until the page root's `name` says « pret », None past LIMIT."""
    while time.monotonic() - started < LIMIT:
        if root_mark(page, name) == "pret":
            return time.monotonic() - started
        time.sleep(POLL)
    return None


def octets(count: int) -> str:
    return f"{count:,}".replace(",", "\u202f")


def seconds(value: float | None) -> str:
    return f"{value:.1f} s" if value is not None else f"pas après {LIMIT:.0f} s"


def main(argv: list[str]) -> int:
    folder, path, calculator, field = [*argv, *DEFAULTS[len(argv) :]][:4]
    site = Path(folder).resolve()
    server = CountingServer(site.parent).start()
    files = site_files(site, server)
    url = f"{server.url}{site.name}/{path}"
    try:
        with (
            chromium(Path(tempfile.mkdtemp(prefix="visite-"))) as chrome,
            chrome.profile(service_workers="allow") as context,
        ):
            page = context.pages[0] if context.pages else context.new_page()
            page.set_viewport_size({"width": 360, "height": 800})
            mark, sent = server.mark(), server.bytes_sent
            server.rate = RATE
            started = time.monotonic()
            page.goto(url, wait_until="commit")
            # The calculator used during the download, typed into as a reader does.
            box = page.locator(f"#{field}")
            box.scroll_into_view_if_needed(timeout=60_000)
            used = time.monotonic() - started
            box.click()
            box.press("Control+a")
            box.type("5")
            text = wait_mark(page, "data-hors-ligne-texte", started)
            at_text = server.bytes_sent - sent
            print(
                f"Calculateur utilisé à {used:.1f} s ; texte stocké à {seconds(text)} "
                f"({octets(at_text)} octets reçus)"
            )
            server.cut = True
            die = page.locator("button.de[data-de]").first
            die.scroll_into_view_if_needed()
            tapped = time.monotonic()
            die.click()
            page.locator(".de-pop .de-jet-courant").first.wait_for(timeout=30_000)
            title = page.locator(".de-pop .de-jet-titre").inner_text()
            print(
                f"Lien coupé : le dé roule {time.monotonic() - tapped:.2f} s après le "
                f"toucher ({title})"
            )
            page.keyboard.press("Escape")
            server.cut = False
            everything = wait_mark(page, "data-hors-ligne", started)
            server.wait_quiet(1.0, 10.0)
            output = page.locator(f"form#{calculator} output").first
            waited = time.monotonic()
            answer = output.inner_text()
            while not any(c.isdigit() for c in answer) and time.monotonic() - waited < ANSWER_WAIT:
                time.sleep(POLL)
                answer = output.inner_text()
            answer_after = time.monotonic() - waited
            if not any(c.isdigit() for c in answer):  # no answer: what the form says
                said = page.locator(f"form#{calculator}").inner_text()
                answer += " / " + " ".join(said.split())
            transfers = server.since(mark)
            twice = Counter(t.path for t in transfers if t.status == 200)
            repeated = sorted(p for p, n in twice.items() if n > 1)
            wire = server.bytes_sent - sent
            print(
                f"Lien rétabli : tout stocké à {seconds(everything)} ; le calculateur "
                f"répond « {answer.strip()[:400]} » {answer_after:.1f} s plus tard"
            )
            print(
                f"Octets reçus : {octets(wire)} ; liste du service worker : "
                f"{octets(files.all_bytes)} (texte {octets(files.text_bytes)}) ; "
                f"{len(transfers)} réponses ; envoyés deux fois : "
                f"{', '.join(repeated) or 'aucun'}"
            )
    finally:
        server.rate = None
        server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
