"""The generator as a product: the installable package (its files, its name, its command) and
`regles new`, which writes a site pinned to it that holds no copy of a generator file. The
site it writes is built, with another game dropped in, by tests/test_another_game.py."""

from __future__ import annotations

import argparse
import hashlib
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
import yaml

from regles import __version__
from regles.cli import CommandError, main, new_site
from tests.conftest import ROOT, package_source, wheel_of

GENERATOR = ROOT / "generator" / "regles"
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"  # this repository's own


def generator_digests() -> set[str]:
    return {
        hashlib.sha256(path.read_bytes()).hexdigest()
        for path in GENERATOR.rglob("*")
        if path.is_file() and "scaffold" not in path.parts
    }


def test_a_new_site_holds_its_own_settings_and_no_copy_of_the_generator(tmp_path: Path) -> None:
    site = tmp_path / "les-terres"
    written, _ = new_site(site, pin="regles[test]==9.9.9")
    names = sorted(path.relative_to(site).as_posix() for path in written)
    assert names == [
        ".github/workflows/pages.yml",
        ".gitignore",
        "Makefile",
        "README.md",
        "adresses.json",
        "calculators/__init__.py",
        "calculators/reussite.py",
        "content/index.md",
        "content/jeu/glossaire.md",
        "content/jeu/index.md",
        "mkdocs.yml",
        "pytest.ini",
        "requirements.txt",
        "tests/test_regles.py",
    ]
    ours = generator_digests()
    for path in written:
        assert hashlib.sha256(path.read_bytes()).hexdigest() not in ours, path
        assert "{{" not in path.read_text("utf-8").replace("${{", ""), path
    config = (site / "mkdocs.yml").read_text("utf-8")
    for wiring in ("custom_dir", "extra_css", "extra_javascript", "slugify", "site_overrides"):
        assert wiring not in config, wiring
    settings = yaml.safe_load(config.replace("!ENV", ""))
    assert settings["site_name"] == "Les terres"  # the folder's name
    assert "regles[test]==9.9.9" in (site / "requirements.txt").read_text("utf-8")
    readme = (site / "README.md").read_text("utf-8")
    assert "make serve" in readme and "make test" in readme and "make site" in readme
    workflow = (site / ".github" / "workflows" / "pages.yml").read_text("utf-8")
    assert 'node-version: "24"' in workflow and "actions/configure-pages@v6" in workflow
    steps = workflow.split("\njobs:", 1)[1]
    order = [steps.index(step) for step in ("run: make test", "run: make site", "deploy-pages")]
    assert order == sorted(order)


# English words a French sentence does not hold: in a comment, they say it is not French.
ENGLISH = ("the", "and", "of", "its", "is", "to", "with", "when", "which", "from")


def test_a_new_site_speaks_to_its_owner_in_french(tmp_path: Path) -> None:
    # The comments and docstrings of the files the game master reads and changes.
    site = tmp_path / "les-terres"
    written, _ = new_site(site, pin="regles[test]==9.9.9")
    said: list[tuple[str, str]] = []
    for path in written:
        text = path.read_text("utf-8")
        said += [(path.name, line.strip()) for line in text.splitlines() if "# " in line]
        if path.suffix == ".py":
            said += [(path.name, d) for d in text.split('"""')[1::2]]
    assert len(said) > 20
    for name, words in said:
        comment = words.split("# ", 1)[-1]
        english = [w for w in comment.lower().replace(",", " ").split() if w in ENGLISH]
        assert not english, (name, words)


def test_every_job_of_the_pages_workflows_has_a_time_limit(tmp_path: Path) -> None:
    # A job that hangs (a calculator that never ends) fails in minutes, not after hours:
    # in the workflow `regles new` writes, and in this repository's own.
    new_site(tmp_path / "site", pin="regles[test]")
    for workflow in (tmp_path / "site" / ".github" / "workflows" / "pages.yml", WORKFLOW):
        jobs = yaml.safe_load(workflow.read_text("utf-8"))["jobs"]
        assert set(jobs) == {"test", "build", "deploy"}, workflow
        for name, job in jobs.items():
            minutes = job.get("timeout-minutes")
            assert isinstance(minutes, int) and 0 < minutes <= 60, (workflow, name, minutes)


# The major version of each action the Pages workflows use: the current one (a version
# behind runs on an older runtime and gets no fixes).
CURRENT_ACTIONS = {
    "actions/cache": "v6",
    "actions/checkout": "v7",
    "actions/configure-pages": "v6",
    "actions/deploy-pages": "v5",
    "actions/setup-node": "v7",
    "actions/setup-python": "v7",
    "actions/upload-pages-artifact": "v5",
}


def test_the_pages_workflows_use_the_current_actions_and_node(tmp_path: Path) -> None:
    # In the workflow `regles new` writes, and in this repository's own.
    new_site(tmp_path / "site", pin="regles[test]")
    for workflow in (tmp_path / "site" / ".github" / "workflows" / "pages.yml", WORKFLOW):
        jobs = yaml.safe_load(workflow.read_text("utf-8"))["jobs"]
        steps = [step for job in jobs.values() for step in job["steps"] if "uses" in step]
        used = {step["uses"].split("@")[0]: step["uses"].split("@")[1] for step in steps}
        assert used == {name: CURRENT_ACTIONS[name] for name in used}, workflow
        assert "actions/cache" in used, workflow
        nodes = [step["with"]["node-version"] for step in steps if "setup-node" in step["uses"]]
        assert nodes and all(int(node) >= 22 for node in nodes), (workflow, nodes)


def test_a_new_site_takes_the_name_it_is_given_as_yaml_reads_it(tmp_path: Path) -> None:
    new_site(tmp_path / "site", "Donjons : l’aube", pin="regles[test]")
    config = (tmp_path / "site" / "mkdocs.yml").read_text("utf-8")
    settings = yaml.safe_load(config.replace("!ENV", ""))
    assert settings["site_name"] == "Donjons : l’aube"
    assert settings["plugins"][0]["regles"]["systems"] == {"jeu": "Donjons : l’aube"}
    assert settings["plugins"][0]["regles"]["app"]["short_name"] == "Donjons :"


def test_regles_new_refuses_a_folder_in_use_and_a_name_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    used = tmp_path / "pris"
    used.mkdir()
    (used / "notes.md").write_text("à moi", "utf-8")
    assert main(["new", str(used)]) == 2
    assert "n’est pas un dossier vide : rien n’est écrit" in capsys.readouterr().err
    assert sorted(p.name for p in used.iterdir()) == ["notes.md"]
    with pytest.raises(CommandError, match="nom de site invalide"):
        new_site(tmp_path / "neuf", 'Le "jeu"')
    assert not (tmp_path / "neuf").exists()


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ([], "regles : il manque : COMMANDE"),
        (["nouveau", "x"], "regles : COMMANDE : « nouveau » n’est pas une commande"),
        (["new"], "regles new : il manque : DOSSIER"),
        (["new", "x", "--pin"], "regles new : --pin : une valeur est attendue"),
        (["new", "x", "--zz"], "regles : arguments inconnus : --zz"),
    ],
)
def test_the_command_says_in_french_what_it_lacks(
    arguments: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("utilisation : regles") and said in error, error
    english = ("usage:", "error:", "required", "expected", "invalid choice", "unrecognized")
    assert not [word for word in english if word in error], error
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined] # put back


def test_the_commands_help_is_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    shown = capsys.readouterr().out
    assert "montre cette aide" in shown and "arguments:" in shown
    assert "show this help" not in shown and "positional" not in shown


def test_the_command_writes_a_site_and_says_what_to_do_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", str(tmp_path / "brumes"), "--nom", "Brumes"]) == 0
    said = capsys.readouterr().out
    assert "make serve" in said and "make test" in said
    assert (tmp_path / "brumes" / "mkdocs.yml").is_file()


def test_a_pin_given_without_the_test_tools_gets_them_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without « [test] », the site's `make test` found no pytest (« No module named pytest »).
    line = "regles @ file:///srv/regles"
    assert main(["new", str(tmp_path / "lyon"), "--pin", line]) == 0
    requirements = (tmp_path / "lyon" / "requirements.txt").read_text("utf-8")
    assert requirements.splitlines()[-1] == "regles[test] @ file:///srv/regles"
    said = capsys.readouterr()
    assert "« [test] » ajouté après « regles »" in said.err
    # A folder of this machine pins nothing, and GitHub's machines do not have it.
    assert "nomme un dossier de cette machine : elle ne fige rien" in said.err
    assert "Générateur figé dans requirements.txt : regles[test] @ file:///srv/regles" in said.out
    # Given with it (or with others beside it), the line is written as it is.
    for n, (given, written) in enumerate(
        (
            ("regles[test] == 0.3.0", "regles[test] == 0.3.0"),
            ("regles[extra]==0.3.0", "regles[extra,test]==0.3.0"),
        )
    ):
        _, choice = new_site(tmp_path / f"site-{n}", pin=given)
        pinned = (tmp_path / f"site-{n}" / "requirements.txt").read_text("utf-8")
        assert pinned.splitlines()[-1] == written
        assert choice.warning is None or "ne fige rien" not in choice.warning
    # A repository without a tag or a commit follows its branch.
    _, choice = new_site(tmp_path / "branche", pin="regles[test] @ git+https://x.org/r.git")
    assert choice.warning is not None and "ne nomme ni tag ni commit" in choice.warning


def test_the_package_installs_as_regles_with_its_files_and_nothing_of_this_site(
    tmp_path: Path,
) -> None:
    # A wheel of a copy of what the package is made of (setuptools writes into the folder it
    # builds: build/lib, *.egg-info), as `pip install <clone>` makes it.
    wheel = wheel_of(package_source(tmp_path / "source"), tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"regles", f"regles-{__version__}.dist-info"}, tops
    for needed in (
        "regles/plugin.py",
        "regles/kit/discovery.py",
        "regles/kit/dice.py",
        "regles/theme/main.html",
        "regles/theme/sw.js",
        "regles/theme/assets/js/site.js",
        "regles/theme/assets/regles.css",
        "regles/theme/assets/icons/icone-512.png",
        "regles/npm/package.json",
        "regles/npm/package-lock.json",
        "regles/features/calculators/snapshot.mjs",
        "regles/features/assets/bundle_modules.mjs",
        "regles/scaffold/mkdocs.yml.tmpl",
        "regles/scaffold/calculators/reussite.py.tmpl",
        "regles/py.typed",
    ):
        assert needed in names, needed
    assert not any(name.endswith("render_icons.py") for name in names)
    info = zipfile.ZipFile(wheel)
    entry_points = info.read(f"regles-{__version__}.dist-info/entry_points.txt").decode()
    assert "regles = regles.cli:main" in entry_points
    assert "regles = regles.plugin:ReglesPlugin" in entry_points
    metadata = Parser().parsestr(info.read(f"regles-{__version__}.dist-info/METADATA").decode())
    assert metadata["Name"] == "regles" and metadata["Version"] == __version__


def test_the_packages_pins_are_those_the_repository_tests_with() -> None:
    # A site installs the generator with its exact dependencies: the versions this
    # repository's requirements.txt locks, and so tests.
    def normal(name: str) -> str:
        return name.lower().replace("_", "-")

    locked = {}
    for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            locked[normal(name)] = version.strip()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    pins = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    for pin in pins:
        name, version = pin.split("==")
        assert locked.get(normal(name)) == version, pin
