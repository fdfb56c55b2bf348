"""The tools the repository builds and measures with are current: setuptools past its known
vulnerabilities (pinned, and as the floor of the package's build). The workflows' actions:
tests/test_scaffold.py."""

from __future__ import annotations

import re
import tomllib

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
