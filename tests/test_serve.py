"""`mkdocs serve` rebuilds on edits of the theme overrides, the generator and the rules code,
not only of the pages; `make serve` restarts it when their Python code changes."""

from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from mkdocs.config import load_config

from tests.conftest import ROOT, TEST_SITE, free_port, variant_of_test_site

WATCHED = ("site_overrides", "generator", "calculators")


def test_both_sites_watch_the_theme_the_generator_and_the_rules_code() -> None:
    for config_file in (ROOT / "mkdocs.yml", TEST_SITE):
        config = load_config(str(config_file))
        watched = {Path(folder).resolve() for folder in config.watch}
        assert {ROOT / name for name in WATCHED} <= watched, config_file


def test_make_serve_restarts_on_python_edits_of_the_generator_and_the_rules_code() -> None:
    recipe = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    command = " ".join(recipe.replace("\\\n", " ").split())
    command = command[command.find("watchmedo") :]
    assert "watchmedo auto-restart" in command, recipe
    for option in ("--directory generator", "--directory calculators", "--patterns '**/*.py'"):
        assert option in command, command
    assert "-- .venv/bin/mkdocs serve" in command, command


def test_an_edit_of_the_theme_is_served_without_a_restart(tmp_path: Path) -> None:
    # A stylesheet, then a script module: both reach the pages served.
    theme = tmp_path / "site_overrides"
    shutil.copytree(ROOT / "site_overrides", theme)
    config = variant_of_test_site(
        tmp_path, lambda text: text.replace(f"{ROOT}/site_overrides", str(theme))
    )
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-f", str(config), "-a", f"127.0.0.1:{port}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": f"http://127.0.0.1:{port}/"},
    )
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()

    def wait_for(words: str, seconds: float = 300) -> None:
        end = time.monotonic() + seconds
        seen = []
        while time.monotonic() < end:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            seen.append(line)
            if words in line:
                return
        raise AssertionError(f"« {words} » jamais écrit par mkdocs serve :\n{''.join(seen)}")

    try:
        wait_for("Serving on")
        rule = ".essai-de-serve{color:red}"
        stylesheet = theme / "assets" / "regles.css"
        stylesheet.write_text(stylesheet.read_text(encoding="utf-8") + rule + "\n", "utf-8")
        wait_for("Detected file changes")
        wait_for("Documentation built")
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/jeu/combat/").read().decode()
        bundle = re.search(r"assets/site\.\w+\.css", page)
        assert bundle is not None, "feuille de style du site absente de la page"
        css = urllib.request.urlopen(f"http://127.0.0.1:{port}/{bundle.group(0)}").read()
        assert rule.encode() in css

        # A module the entry imports (the bundle's cache knows it from esbuild's last run).
        module = theme / "assets" / "js" / "page.js"
        marker = 'document.documentElement.dataset.essai = "essai-de-serve-js";\n'
        module.write_text(module.read_text(encoding="utf-8") + marker, "utf-8")
        wait_for("Detected file changes")
        wait_for("Documentation built")
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/jeu/combat/").read().decode()
        script = re.search(r"assets/js/site\.\w+\.js", page)
        assert script is not None, "script du site absent de la page"
        js = urllib.request.urlopen(f"http://127.0.0.1:{port}/{script.group(0)}").read()
        assert b"essai-de-serve-js" in js
    finally:
        process.terminate()
        process.wait(timeout=30)
