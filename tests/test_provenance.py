"""The generator a site pins is the one that builds it (regles/provenance.py): the pin read
from requirements.txt, the running generator's source as pip recorded it, the two compared;
the pin `regles new` writes; and, end to end, a site made by `regles new` whose pin moves
between two builds of the generator at the same version number: `make site` installs the
new one, and a build by another one stops with a French message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from regles import __version__
from regles.cli import main, new_site
from regles.provenance import (
    Pin,
    Source,
    best_public_pin,
    check_pin,
    exact_pin,
    pin_mismatch,
    read_pin,
    source_of,
)
from tests.conftest import NODE_MODULES, package_source, wheel_of

GIT_URL = "https://github.com/table/regles.git"


class FakeDistribution:
    """What `source_of` reads of an installed distribution."""

    def __init__(self, direct_url: dict[str, Any] | None, version: str = "1.2.3") -> None:
        self.direct_url = direct_url
        self.version = version

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return json.dumps(self.direct_url) if self.direct_url is not None else None


def source(direct_url: dict[str, Any] | None, version: str = "1.2.3") -> Source:
    return source_of(FakeDistribution(direct_url, version))  # type: ignore[arg-type]


def git(commit: str, requested: str | None = None) -> Source:
    info = {"vcs": "git", "commit_id": commit}
    if requested is not None:
        info["requested_revision"] = requested
    return source({"url": GIT_URL, "vcs_info": info})


COMMIT = "0a0b83a5f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("regles[test]==0.3.0\n", Pin("regles[test]==0.3.0", 1, version="0.3.0")),
        (
            "# le générateur\nRegles [test] == 0.3.0  # figé\n",
            Pin("Regles [test] == 0.3.0", 2, version="0.3.0"),
        ),
        (
            f"regles[test] @ git+{GIT_URL}@v0.3.0\n",
            Pin(
                f"regles[test] @ git+{GIT_URL}@v0.3.0", 1, url=GIT_URL, vcs="git", revision="v0.3.0"
            ),
        ),
        (
            f"regles @ git+{GIT_URL}@{COMMIT}#egg=regles",
            Pin(
                f"regles @ git+{GIT_URL}@{COMMIT}#egg=regles",
                1,
                url=GIT_URL,
                vcs="git",
                revision=COMMIT,
            ),
        ),
        (
            "regles[test] @ file:///home/mj/regles",
            Pin("regles[test] @ file:///home/mj/regles", 1, url="file:///home/mj/regles"),
        ),
        ("regles[test]\n", Pin("regles[test]", 1)),
        ("regles>=0.2\n", Pin("regles>=0.2", 1)),
        ("regles-outils==1.0\nmkdocs==1.6.1\n", None),
        ("", None),
    ],
    ids=[
        "version",
        "espaces",
        "tag",
        "commit",
        "dossier",
        "sans-version",
        "plage",
        "autre",
        "vide",
    ],
)
def test_the_pin_is_read_from_the_requirements(text: str, expected: Pin | None) -> None:
    assert read_pin(text) == expected


def test_the_source_is_what_pip_recorded() -> None:
    assert source(None) == Source("1.2.3", "index")
    assert git(COMMIT, "main") == Source("1.2.3", "vcs", GIT_URL, "git", COMMIT, "main")
    folder = source({"url": "file:///home/mj/regles", "dir_info": {"editable": True}})
    assert (folder.kind, folder.editable) == ("folder", True)
    assert source({"url": "https://x.org/r.tar.gz", "archive_info": {}}).kind == "archive"
    assert "dossier /home/mj/regles (modifiable" in folder.describe()
    assert git(COMMIT, "v1.2.3").describe() == (
        f"regles 1.2.3, depuis git+{GIT_URL}@v1.2.3 (commit {COMMIT[:10]})"
    )


@pytest.mark.parametrize(
    ("line", "running", "why"),
    [
        ("regles[test]==1.2.3", source(None), None),
        (
            "regles[test]==1.2.4",
            source(None),
            "la version installée est 1.2.3, la version figée 1.2.4",
        ),
        ("regles[test]==1.2.3", git(COMMIT, "v1.2.3"), "ne vient pas d’un index"),
        (f"regles[test] @ git+{GIT_URL}@v1.2.3", git(COMMIT, "v1.2.3"), None),
        (f"regles[test] @ git+{GIT_URL.removesuffix('.git')}@{COMMIT[:8]}", git(COMMIT), None),
        (f"regles[test] @ git+{GIT_URL}@v1.2.4", git(COMMIT, "v1.2.3"), "est à « v1.2.3 »"),
        (f"regles[test] @ git+{GIT_URL}@1111111", git(COMMIT), f"est à « {COMMIT[:10]} »"),
        (f"regles[test] @ git+{GIT_URL}", git(COMMIT, "main"), "est à « main »"),
        (
            "regles[test] @ git+https://github.com/autre/regles@v1.2.3",
            git(COMMIT, "v1.2.3"),
            "autre adresse",
        ),
        (
            "regles[test] @ file:///home/mj/regles/",
            source({"url": "file:///home/mj/regles", "dir_info": {}}),
            None,
        ),
        (
            "regles[test] @ file:///home/mj/b/regles-1.2.3-py3-none-any.whl",
            source({"url": "file:///home/mj/a/regles-1.2.3-py3-none-any.whl", "archive_info": {}}),
            "autre adresse",
        ),
        ("regles[test]", source(None), "ne fige pas le générateur"),
        ("regles[test]==1.2.3", Source("1.2.3", "unknown"), "pas été installé par pip"),
    ],
)
def test_the_running_generator_is_compared_with_the_pin(
    line: str, running: Source, why: str | None
) -> None:
    pin = read_pin(line)
    assert pin is not None
    found = pin_mismatch(pin, running)
    if why is None:
        assert found is None
    else:
        assert found is not None and why in found, found


def test_a_site_without_a_pin_of_the_generator_is_not_checked(tmp_path: Path) -> None:
    assert check_pin(tmp_path) is None  # no requirements.txt: this repository, the fixtures
    (tmp_path / "requirements.txt").write_text("mkdocs==1.6.1\n", encoding="utf-8")
    assert check_pin(tmp_path) is None
    (tmp_path / "requirements.txt").write_text("\nregles[test]==9.9.9\n", encoding="utf-8")
    said = check_pin(tmp_path, source(None))
    assert said is not None
    assert said.startswith("requirements.txt:2 fige « regles[test]==9.9.9 », mais ce site")
    assert "regles 1.2.3, depuis un index de paquets" in said
    assert "pip install --force-reinstall --no-deps -r requirements.txt" in said


def test_regles_new_pins_what_a_fresh_machine_can_install() -> None:
    assert best_public_pin(source(None)).line == "regles[test]==1.2.3"
    tagged = best_public_pin(git(COMMIT, "v1.2.3"))
    assert tagged.line == f"regles[test] @ git+{GIT_URL}@v1.2.3" and tagged.warning is None
    # A branch moves: the commit pip checked out, and the game master is told.
    branch = best_public_pin(git(COMMIT, "main"))
    assert branch.line == f"regles[test] @ git+{GIT_URL}@{COMMIT}"
    assert branch.warning is not None and "qui peut bouger" in branch.warning
    assert best_public_pin(git(COMMIT)).warning is None


def commit_all(folder: Path) -> None:
    run = {"cwd": folder, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **run)  # type: ignore[call-overload]
    subprocess.run(["git", "add", "."], **run)  # type: ignore[call-overload]
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "un"],
        **run,  # type: ignore[call-overload]
    )


def test_from_a_folder_regles_new_pins_its_public_remote_or_says_it_has_none(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "regles"
    folder.mkdir()
    (folder / "f.txt").write_text("un", encoding="utf-8")
    local = Source("1.2.3", "folder", folder.as_uri(), editable=True)
    alone = best_public_pin(local)
    assert alone.line == "regles[test]==1.2.3"
    assert alone.warning is not None and "sans dépôt public connu" in alone.warning
    commit_all(folder)
    git_in = ["git", "-C", str(folder)]
    subprocess.run(
        [*git_in, "remote", "add", "origin", "git@github.com:table/regles.git"], check=True
    )
    head = subprocess.run([*git_in, "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    at_commit = best_public_pin(local)
    assert (
        at_commit.line == f"regles[test] @ git+https://github.com/table/regles.git@{head.strip()}"
    )
    assert at_commit.warning is not None and "README" in at_commit.warning
    subprocess.run([*git_in, "tag", "v1.2.3"], check=True)
    assert (
        best_public_pin(local).line
        == "regles[test] @ git+https://github.com/table/regles.git@v1.2.3"
    )


def test_the_command_says_which_generator_runs_and_what_it_pinned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    said = capsys.readouterr().out
    assert said.startswith(f"regles {__version__}, depuis ") and "\n" not in said.strip()
    assert main(["new", str(tmp_path / "site"), "--pin", "regles[test]==9.9.9"]) == 0
    assert "Générateur figé dans requirements.txt : regles[test]==9.9.9" in capsys.readouterr().out
    assert "regles[test]==9.9.9\n" in (tmp_path / "site" / "requirements.txt").read_text("utf-8")
    assert main(["new", str(tmp_path / "autre"), "--pin", "mkdocs==1.6.1"]) == 2
    assert "n’est pas une ligne qui installe le générateur" in capsys.readouterr().err


def test_python_m_regles_is_the_command() -> None:
    said = subprocess.run(
        [sys.executable, "-m", "regles", "--version"], capture_output=True, text=True, check=True
    )
    assert said.stdout.startswith(f"regles {__version__}, depuis ")


# End to end -----------------------------------------------------------------------------


def shared_dependencies(into: Path) -> Path:
    """The packages the generator needs, as installed for these tests, without the generator
    itself: a site's virtual environment reads them through a .pth file, so that its `make
    site` installs only the generator (PyPI is not asked for them again)."""
    into.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name
        if name.startswith(("regles", "__editable__", "_virtualenv")) or name.endswith(".pth"):
            continue
        (into / name).symlink_to(entry)
    return into


# The target of a site's Makefile that installs what requirements.txt pins, on which `make
# site`, `make serve` and `make test` depend (its stamp in the environment).
INSTALL = ".venv/.installed"


def make(site: Path, target: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    return subprocess.run(
        ["make", target],
        cwd=site,
        capture_output=True,
        text=True,
        timeout=600,
        env={**env, "NO_MKDOCS_2_WARNING": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )


def running_build(site: Path) -> str:
    """Which of the two builds of the generator the site's environment runs."""
    done = subprocess.run(
        [str(site / ".venv/bin/python"), "-c", "import regles; print(regles.BUILD)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def pin_to(site: Path, wheel: Path) -> None:
    path = site / "requirements.txt"
    lines = path.read_text("utf-8").splitlines()
    lines[-1] = f"regles[test] @ {wheel.as_uri()}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_make_site_installs_the_pinned_generator_even_at_the_same_version(tmp_path: Path) -> None:
    # Two builds of the generator at the same version number, told apart by a marker.
    tree = package_source(tmp_path / "source")
    init = tree / "generator" / "regles" / "__init__.py"
    original = init.read_text(encoding="utf-8")
    wheels = {}
    for build in ("A", "B", "C"):
        text = original + f'BUILD = "{build}"\n'
        if build == "C":  # the next release: another version number
            text = text.replace(f'__version__ = "{__version__}"', '__version__ = "99.0.0"')
        init.write_text(text, encoding="utf-8")
        shutil.rmtree(tree / "build", ignore_errors=True)
        wheels[build] = wheel_of(tree, tmp_path / build)
    assert wheels["A"].name == wheels["B"].name  # the same version
    assert wheels["C"].name == "regles-99.0.0-py3-none-any.whl"

    site = tmp_path / "site"
    new_site(site, "Essai", pin=f"regles[test] @ {wheels['A'].as_uri()}")
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace(
        "      calculators: calculators\n", f"      node_modules: {NODE_MODULES}\n", 1
    )
    config.write_text(text, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "venv", str(site / ".venv")], check=True)
    purelib = subprocess.run(
        [
            str(site / ".venv/bin/python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = shared_dependencies(tmp_path / "deps")
    Path(purelib, "dependances-partagees.pth").write_text(f"{deps}\n", encoding="utf-8")
    # Their commands are not in the environment: MkDocs' own, as pip would write it.
    mkdocs = site / ".venv" / "bin" / "mkdocs"
    python = site / ".venv" / "bin" / "python"
    mkdocs.write_text(f"#!{python}\nfrom mkdocs.__main__ import cli\ncli()\n", encoding="utf-8")
    mkdocs.chmod(0o755)

    first = make(site, "site")
    assert first.returncode == 0, first.stdout + first.stderr
    assert running_build(site) == "A"

    # The pin moves to the other build, same version: what `make site` does first (its
    # install, the environment's stamp) installs it. The site itself is built once, above:
    # each other build of the generator would build it cold (its Python snapshot is the kit's).
    pin_to(site, wheels["B"])
    second = make(site, INSTALL)
    assert second.returncode == 0, second.stdout + second.stderr
    assert running_build(site) == "B"

    # Then to the next release, another version number.
    pin_to(site, wheels["C"])
    third = make(site, INSTALL)
    assert third.returncode == 0, third.stdout + third.stderr
    assert running_build(site) == "C"
    pin_to(site, wheels["B"])
    assert make(site, INSTALL).returncode == 0 and running_build(site) == "B"

    # Another generator put back behind the Makefile's back: the build stops and says why.
    subprocess.run(
        [
            str(site / ".venv/bin/python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--force-reinstall",
            "--no-deps",
            str(wheels["A"]),
        ],
        check=True,
        capture_output=True,
    )
    stopped = make(site, "site")
    said = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0
    line = len((site / "requirements.txt").read_text("utf-8").splitlines())  # the pin, last
    pinned = f"requirements.txt:{line} fige « regles[test] @ {wheels['B'].as_uri()} »"
    assert pinned in said, said
    assert f"depuis l’archive {wheels['A'].as_uri()}" in said, said
    assert "Traceback" not in said
    assert (
        exact_pin(Source("1", "archive", wheels["A"].as_uri()))
        == f"regles[test] @ {wheels['A'].as_uri()}"
    )
