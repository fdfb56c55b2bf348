"""The tools the repository builds and measures with are current: setuptools past its known
vulnerabilities (pinned, and as the floor of the package's build), Node.js ≥ 22 for CI and
the bench (.ci/node, Lighthouse 13). The workflows' actions: tests/test_scaffold.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

from bench import lighthouse
from regles.features.assets.npm import OLDEST_NODE, node_advice
from tests.conftest import ROOT

# The first setuptools without a known vulnerability: 83.0.0 fixes CVE-2026-59890
# (GHSA-h35f-9h28-mq5c), after CVE-2026-24049 and CVE-2026-23949 (80.10.2), CVE-2025-47273
# (78.1.1) and CVE-2024-6345 (70.0.0).
SAFE_SETUPTOOLS = (83, 0, 0)


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_setuptools_is_pinned_and_built_with_past_its_known_vulnerabilities() -> None:
    pins = dict(
        line.split("==")
        for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines()
        if "==" in line
    )
    assert version(pins["setuptools"]) >= (84, 2, 1)
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["build-system"]
    (setuptools,) = (r for r in requires["requires"] if r.startswith("setuptools"))
    floor = re.fullmatch(r"setuptools>=([\d.]+)", setuptools)
    assert floor is not None and version(floor[1]) >= SAFE_SETUPTOOLS, setuptools


def test_ci_and_the_bench_need_node_22() -> None:
    script = (ROOT / ".ci" / "node").read_text("utf-8")
    minimum = re.search(r"^MINIMUM=(\d+)$", script, re.MULTILINE)
    pinned = re.search(r"^PINNED=(\d+)\.\d+\.\d+ ", script, re.MULTILINE)
    assert minimum and int(minimum[1]) >= 22 and pinned and int(pinned[1]) >= 22
    run = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "bash .ci/node" in run and 'export PATH="$PWD/build/node/bin:$PATH"' in run
    assert run.index("bash .ci/node") < run.index("make test")
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "export PATH := $(CURDIR)/build/node/bin:$(PATH)" in makefile
    bench = json.loads((ROOT / "bench" / "package.json").read_text("utf-8"))
    assert version(bench["dependencies"]["lighthouse"])[0] >= 13
    assert bench["engines"]["node"] == ">=22.19" and lighthouse.MIN_NODE >= (22, 19)
    locked = json.loads((ROOT / "bench" / "package-lock.json").read_text("utf-8"))
    assert locked["packages"]["node_modules/lighthouse"]["version"] == lighthouse.VERSION


FAKE_NODE = """#!/usr/bin/env bash
# A Node.js of version {version}, as .ci/node asks it.
case "$1" in
  --version) echo "v{version}" ;;
  -e) printf '%s' "{version}" | cut -d. -f1 | tr -d '\\n' ;;
esac
"""
# An npm that "installs" `node@X` as the registry's package would: node_modules/node/bin/node.
FAKE_NPM = """#!/usr/bin/env bash
echo "$*" >> "{log}"
while [ $# -gt 0 ]; do
  case "$1" in --prefix) prefix=$2; shift ;; node@*) wanted=${{1#node@}} ;; esac
  shift
done
mkdir -p "$prefix/node_modules/node/bin"
sed "s/{{version}}/$wanted/g" "{template}" > "$prefix/node_modules/node/bin/node"
chmod +x "$prefix/node_modules/node/bin/node"
"""


def fake(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    (folder / name).chmod(0o755)


# What .ci/node and the fakes run, alone on PATH with them: no real Node nor npm.
TOOLS = ("bash", "cat", "chmod", "cut", "dirname", "env", "grep", "ln", "mkdir", "paste", "rm",
         "sed", "tr")  # fmt: skip


def ci_node(project: Path, machine: Path) -> subprocess.CompletedProcess[str]:
    tools = project.parent / "outils"
    if not tools.is_dir():
        tools.mkdir()
        for name in TOOLS:
            found = shutil.which(name)
            assert found is not None, name
            (tools / name).symlink_to(found)
    path = f"{project / 'build/node/bin'}:{machine}:{tools}"
    return subprocess.run(
        ["bash", str(project / ".ci" / "node")],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": path},
        timeout=60,
        check=False,
    )


def test_ci_node_installs_its_node_only_where_the_machine_s_is_too_old(tmp_path: Path) -> None:
    project, old, recent = tmp_path / "clone", tmp_path / "node20", tmp_path / "node22"
    shutil.copytree(ROOT / ".ci", project / ".ci")
    pinned = re.search(r"^PINNED=([\d.]+) ", (ROOT / ".ci/node").read_text("utf-8"), re.M)
    assert pinned is not None
    log, template = tmp_path / "npm.log", tmp_path / "node.tmpl"
    template.write_text(FAKE_NODE, "utf-8")
    fake(old, "node", FAKE_NODE.format(version="20.19.0"))
    fake(old, "npm", FAKE_NPM.format(log=log, template=template))
    # A machine with Node 20: the pinned Node from the registry, first on PATH.
    first = ci_node(project, old)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"v{pinned[1]}"
    assert "trop ancien" in first.stderr and "registre npm" in first.stderr
    assert f"node@{pinned[1]}" in log.read_text("utf-8")
    node = project / "build/node/bin/node"
    assert subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip() == (
        f"v{pinned[1]}"
    )
    # Once only.
    again = ci_node(project, old)
    assert again.returncode == 0 and again.stdout.strip() == f"v{pinned[1]}", again.stderr
    assert len(log.read_text("utf-8").splitlines()) == 1
    # A machine with Node 22: its own, and nothing of ours in front of it.
    fake(recent, "node", FAKE_NODE.format(version="22.19.0"))
    fake(recent, "npm", FAKE_NPM.format(log=log, template=template))
    own = ci_node(project, recent)
    assert own.returncode == 0 and own.stdout.strip() == "v22.19.0", own.stderr
    assert not node.exists()
    # No Node recent enough and no npm: said, in French.
    bare = tmp_path / "rien"
    fake(bare, "node", FAKE_NODE.format(version="18.20.0"))
    failed = ci_node(project, bare)
    assert failed.returncode == 1 and "npm pour l’installer" in failed.stderr


def test_an_older_node_is_said_when_the_browser_files_are_installed() -> None:
    # A site made by `regles new` has no .ci/node: its build says that the machine's Node
    # is older than its README asks, and goes on.
    advice = node_advice("v20.19.0")
    assert advice is not None and "Node.js v20.19.0" in advice and f"{OLDEST_NODE}" in advice
    assert node_advice("v22.0.0") is None
    assert node_advice("v24.21.0") is None
    assert node_advice("") is None  # no Node: npm's own absence is said elsewhere
