"""`mkdocs serve` rebuilds on edits of the theme overrides, the generator and the rules code,
not only of the pages; `make serve` restarts it when their Python code changes."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from mkdocs.config import load_config

from tests.conftest import NODE_MODULES, ROOT, free_port, variant_of_test_site


def test_a_site_watches_its_rules_package_and_its_own_theme(tmp_path: Path) -> None:
    # The plugin adds them to `watch`: the site's mkdocs.yml names none of it.
    overrides = tmp_path / "surcharges"
    overrides.mkdir()
    config_file = variant_of_test_site(
        tmp_path,
        lambda text: text.replace(
            "  name: material\n", f"  name: material\n  custom_dir: {overrides}\n"
        ),
    )
    config = load_config(str(config_file))
    config = config.plugins.on_config(config)
    watched = {Path(folder).resolve() for folder in config.watch}
    rules = Path(config.plugins["regles"].config.calculators).resolve()
    assert {rules, overrides.resolve()} <= watched, watched


def test_make_serve_restarts_on_python_edits_of_the_generator() -> None:
    # The generator's own code is loaded once: its developers' `make serve` restarts; its
    # theme is rebuilt without a restart. A site's rules package is read anew at each build.
    recipe = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    command = " ".join(recipe.replace("\\\n", " ").split())
    command = command[command.find("watchmedo") :]
    assert "watchmedo auto-restart" in command, recipe
    for option in ("--directory generator", "--patterns '**/*.py'"):
        assert option in command, command
    assert "-- .venv/bin/mkdocs serve" in command, command
    assert "--watch generator/regles/theme" in command, command


RULES_INIT = "from regles.kit import discover\nrules = discover(__name__)\n"
CALCULATOR = """from regles.kit import Calculator, Output

CALCULATORS = (
    Calculator("servi", "Calculateur servi", {description!r}, (), (Output("x", "X"),),
               lambda values: {{"x": 1}}),
)
"""


def test_an_edit_of_the_sites_theme_and_rules_is_served_without_a_restart(tmp_path: Path) -> None:
    # A stylesheet and a script of the site's own overrides, then its rules package: each
    # edit reaches the pages served.
    theme = tmp_path / "surcharges"
    (theme / "assets" / "js").mkdir(parents=True)
    stylesheet = theme / "assets" / "table.css"
    stylesheet.write_text(".table{color:blue}\n", "utf-8")
    module = theme / "assets" / "js" / "table.js"
    module.write_text('document.documentElement.dataset.table = "1";\n', "utf-8")
    rules = tmp_path / "regles_servies"
    rules.mkdir()
    (rules / "__init__.py").write_text(RULES_INIT, "utf-8")
    (rules / "servi.py").write_text(CALCULATOR.format(description="Avant."), "utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text(
        "# Accueil\n\nUn calculateur.\n\n```calculateur servi\n```\n", "utf-8"
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: Site servi\ndocs_dir: content\n"
        "theme:\n  name: material\n  language: fr\n  custom_dir: surcharges\n"
        "extra_css:\n  - assets/table.css\n"
        "extra_javascript:\n  - assets/js/table.js\n"
        "plugins:\n  - regles:\n"
        f"      calculators: regles_servies\n      node_modules: {NODE_MODULES}\n"
        "      snapshot: false\n",
        "utf-8",
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

    # Each rebuild ends on « Pages ouvertes rechargées » (MkDocs' « Reloading browsers », in
    # French: regles/mkdocs_words.py): mkdocs drops a log message identical to an earlier one,
    # so « Site construit en 0,39 s » may not be written twice.
    try:
        wait_for("Site servi à l’adresse")
        rule = ".essai-de-serve{color:red}"
        stylesheet.write_text(stylesheet.read_text(encoding="utf-8") + rule + "\n", "utf-8")
        wait_for("Fichiers changés")
        wait_for("Pages ouvertes rechargées")
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        bundle = re.search(r"assets/site\.\w+\.css", page)
        assert bundle is not None, "feuille de style du site absente de la page"
        css = urllib.request.urlopen(f"http://127.0.0.1:{port}/{bundle.group(0)}").read()
        assert rule.encode() in css

        # A script module of the site (the bundle's cache knows it from esbuild's last run).
        marker = 'document.documentElement.dataset.essai = "essai-de-serve-js";\n'
        module.write_text(module.read_text(encoding="utf-8") + marker, "utf-8")
        wait_for("Fichiers changés")
        wait_for("Pages ouvertes rechargées")
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        script = re.search(r"assets/js/site\.\w+\.js", page)
        assert script is not None, "script du site absent de la page"
        js = urllib.request.urlopen(f"http://127.0.0.1:{port}/{script.group(0)}").read()
        assert b"essai-de-serve-js" in js

        # The rules package: its new description is in the page that places the calculator.
        (rules / "servi.py").write_text(CALCULATOR.format(description="Après l’édition."), "utf-8")
        wait_for("Fichiers changés")
        wait_for("Pages ouvertes rechargées")
        catalog = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        assert "Après l’édition." in catalog
    finally:
        process.terminate()
        process.wait(timeout=30)
