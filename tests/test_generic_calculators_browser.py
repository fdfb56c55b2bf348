"""A site without a rules package of its own still has the generic calculators: its dice
expressions roll and its ```` ```calculateur dice ```` block computes, in Chromium, by the
kit's dice roller packed alone for Pyodide (regles.kit.generic)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import (
    NODE_MODULES,
    build_site,
    requests_of,
    retype,
    roll_inline_dice,
    serve,
    wait_past_python_start,
)

pytestmark = [pytest.mark.browser, pytest.mark.python]

CONFIG = f"""site_name: Sans paquet
docs_dir: content
theme:
  name: material
  language: fr
plugins:
  - regles:
      systems:
        jeu: Un jeu
      node_modules: {NODE_MODULES}
nav:
  - Accueil: index.md
  - Un jeu:
      - jeu/regles.md
"""
PAGE = "# Règles\n\n## Dégâts\n\nUne arme inflige 1d6+1 blessures.\n\n```calculateur dice\n```\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    project = tmp_path_factory.mktemp("sans-paquet")
    (project / "content" / "jeu").mkdir(parents=True)
    (project / "content" / "index.md").write_text("# Accueil\n\nBienvenue.\n", "utf-8")
    (project / "content" / "jeu" / "regles.md").write_text(PAGE, "utf-8")
    (project / "mkdocs.yml").write_text(CONFIG, "utf-8")
    site = project / "site"
    result = build_site(site, project / "mkdocs.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    server, url = serve(site)
    yield site, url + "/"
    server.shutdown()


def test_the_generic_calculators_are_packed_alone(served: tuple[Path, str]) -> None:
    site, _ = served
    runtime = json.loads((site / "assets" / "rules-runtime.json").read_text("utf-8"))
    assert runtime["module"] == "regles.kit.generic"


def test_dice_roll_and_compute_without_a_rules_package(
    browser: Any, served: tuple[Path, str]
) -> None:
    _, url = served
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "jeu/regles/")
    assert 2 <= roll_inline_dice(page, "1d6+1") <= 7
    answer = page.evaluate("window.rules.run('dice', {expression: '2d6', target: 7})")
    assert answer["p_at_least_exact"] == "7/12"
    context.close()


def test_a_page_whose_only_calculator_is_the_dice_one_does_not_start_python(
    phone: Any, served: tuple[Path, str]
) -> None:
    # The dice calculator answers in the page (dice-calculator.js): a page with it alone
    # and the dice of its text asks nothing of Python's files, and answers what is typed.
    _, url = served
    page = phone.new_page()
    asked = requests_of(page)
    page.goto(url + "jeu/regles/")
    page.locator("form#calc-dice[data-pret]").wait_for()
    wait_past_python_start(page)  # the moment the page would have started it
    field = page.locator("#calc-dice-expression")
    retype(page, field, "3d6")
    expect(page.locator("#calc-dice output[name=mean]")).to_have_text("10,5")
    assert page.evaluate("() => window.rules.status().state") == "idle"
    assert [u for u in asked if "rules-runtime" in u or "pyodide" in u] == []
