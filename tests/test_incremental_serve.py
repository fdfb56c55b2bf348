"""`mkdocs serve --strict`, as `make serve` runs it, over HTTP: a sentence saved is served by
a page's rebuild alone, the search index and the offline copy follow; an error is shown; a
page's title renamed rebuilds the whole site."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, TEST_SITE, free_port, variant_of_test_site


class Server:
    """`mkdocs serve --strict` of a copy of the test site's pages, and what it writes."""

    def __init__(self, work: Path) -> None:
        self.docs = work / "content"
        shutil.copytree(TEST_SITE.parent / "content", self.docs)
        folder = TEST_SITE.parent / "content"
        config = variant_of_test_site(
            work, lambda text: text.replace(f"docs_dir: {folder}", f"docs_dir: {self.docs}")
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        command = [sys.executable, "-m", "mkdocs", "serve", "--strict", "-f", str(config)]
        self.process = subprocess.Popen(
            [*command, "-a", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.seen: list[str] = []
        stdout = self.process.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [self.lines.put(x) for x in stdout], daemon=True).start()

    def wait_for(self, words: str, seconds: float = 300) -> None:
        """Until the server writes `words` (in a line written after the last wait)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            self.seen.append(line)
            if words in line:
                return
        raise AssertionError(f"« {words} » jamais écrit par mkdocs serve :\n{''.join(self.seen)}")

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=60) as answer:
            return str(answer.read().decode("utf-8"))

    def served(self, path: str, holds: Callable[[str], bool], seconds: float = 300) -> str:
        """The page at `path` once it `holds`."""
        end = time.monotonic() + seconds
        while True:
            page = self.get(path)
            if holds(page):
                return page
            if time.monotonic() > end:
                raise AssertionError(f"{path} : jamais servie comme attendu\n{''.join(self.seen)}")
            time.sleep(0.05)

    def edit(self, path: str, old: str, new: str) -> None:
        file = self.docs / path
        text = file.read_text(encoding="utf-8")
        assert old in text, (path, old)
        file.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        running.wait_for("Site servi à l’adresse")
        yield running
    finally:
        running.process.terminate()
        running.process.wait(timeout=60)


def test_a_save_is_served_by_the_pages_rebuild_alone(server: Server) -> None:
    worker = server.get("sw.js")
    server.edit("jeu/combat.md", "\n\n", "\n\nUne phrase servie.\n\n")
    server.wait_for("Page reconstruite seule")
    server.served("jeu/combat/", lambda page: "Une phrase servie." in page)
    server.wait_for("Recherche et copie hors ligne à jour")
    assert server.get("sw.js") != worker  # the page's new revision, its pack

    # An error: shown, and the server holds its pages back until the sources build again
    # (MkDocs' own way); corrected, the page alone again.
    server.edit("jeu/combat.md", "Une phrase servie.", "Un [lien](absente.md).")
    server.wait_for("erreur(s) dans les sources")
    server.wait_for("Construction arrêtée : voir les messages plus haut")
    server.edit("jeu/combat.md", "Un [lien](absente.md).", "Une phrase réparée.")
    server.wait_for("Page reconstruite seule")
    server.served("jeu/combat/", lambda page: "Une phrase réparée." in page)

    # A page's title: the whole site, every page's nav with it.
    server.edit("jeu/caracteristiques.md", "# Les six caractéristiques", "# Les caractéristiques")
    server.wait_for("Reconstruction de tout le site")
    server.served("jeu/combat/", lambda page: "Les caractéristiques" in page)
