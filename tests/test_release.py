"""A release of the generator: its version has its CHANGELOG section, and the repository
builds, on a tag, an sdist and a wheel that hold the same package (.github/workflows/
release.yml)."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import yaml

from regles import __version__
from tests.conftest import ROOT, package_source

RELEASE = ROOT / ".github" / "workflows" / "release.yml"
BUILD = (sys.executable, "-c")  # setuptools' own backend, as `python -m build` calls it


def backend(source: Path, hook: str, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [*BUILD, f"from setuptools import build_meta as b; print(b.{hook}({str(into)!r}))"],
        cwd=source,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return into / done.stdout.strip().splitlines()[-1]


def test_the_sdist_builds_the_wheel_the_repository_builds(tmp_path: Path) -> None:
    source = package_source(tmp_path / "source")
    sdist = backend(source, "build_sdist", tmp_path / "dist")
    assert sdist.name == f"regles-{__version__}.tar.gz"
    wheel = backend(source, "build_wheel", tmp_path / "wheel")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    again = backend(unpacked, "build_wheel", tmp_path / "again")

    def files(path: Path) -> set[str]:
        return {n for n in zipfile.ZipFile(path).namelist() if ".dist-info/" not in n}

    assert files(again) == files(wheel)
    assert "regles/theme/main.html" in files(again) and "regles/scaffold/Makefile.tmpl" in files(
        again
    )


def test_a_tag_builds_the_release_and_must_be_the_version() -> None:
    workflow = yaml.safe_load(RELEASE.read_text("utf-8"))
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads `on` as true
    jobs = workflow["jobs"]
    assert all(job.get("timeout-minutes") for job in jobs.values())
    steps = jobs["build"]["steps"]
    check = next(s["run"] for s in steps if s.get("name") == "The tag is the package's version")
    command = re.search(r'python -c "(.+)"\)', check)
    assert command is not None
    found = subprocess.run(
        [sys.executable, "-c", command[1].replace('\\"', '"')],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip() == __version__
    assert any("python -m build" in s.get("run", "") for s in steps)


def test_the_changelog_has_the_versions_section_for_readers_game_masters_and_sites() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    sections = re.split(r"^## ", text, flags=re.MULTILINE)
    (current,) = [s for s in sections if s.startswith(f"{__version__} — ")]
    for heading in (
        "### Pour les lecteurs",
        "### Pour les meneurs de jeu",
        "### À changer dans un site",
    ):
        assert heading in current, heading
