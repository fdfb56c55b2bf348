"""The generator's page scripts and service worker pass ESLint (pinned in package.json,
configured in eslint.config.mjs, as `make lint` runs it): no name used that no module
declares or imports. Such a slip (a module split along its jobs that forgot an import)
breaks a page only when that line runs in a browser, and only the browser tests that reach
it would tell."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.conftest import ROOT

ESLINT = ROOT / "node_modules" / ".bin" / "eslint"
SCRIPTS = "generator/regles/theme"


def eslint(*arguments: str, given: str = "") -> subprocess.CompletedProcess[str]:
    """ESLint run as `make lint` runs it; `given`: the text of a file read on its input."""
    node = shutil.which("node")
    assert node is not None, "Node.js est nécessaire (il construit le site)"
    assert ESLINT.exists(), "ESLint manque dans node_modules : make deps"
    return subprocess.run(
        [node, str(ESLINT), *arguments],
        cwd=ROOT,
        input=given,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_eslint_is_the_pinned_one() -> None:
    pinned = json.loads((ROOT / "package.json").read_text("utf-8"))["devDependencies"]
    installed = json.loads((ROOT / "node_modules/eslint/package.json").read_text("utf-8"))
    assert installed["version"] == pinned["eslint"], "node_modules n’est pas à jour : make deps"


def test_the_page_scripts_name_nothing_undeclared() -> None:
    result = eslint(SCRIPTS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_name_used_and_never_declared_fails() -> None:
    """The check can fail: a module that uses a name no one declares."""
    code = 'import { el } from "./page.js";\nexport const made = () => el("p", {}, forgotten);\n'
    result = eslint("--stdin", "--stdin-filename", f"{SCRIPTS}/assets/js/essai.js", given=code)
    assert result.returncode == 1 and "'forgotten' is not defined" in result.stdout, result
