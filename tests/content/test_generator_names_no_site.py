"""The generator names nothing of the site it builds: none of the folders, system names,
spell index or page names that this site declares in mkdocs.yml and keeps in content/
appears in generator/ or regles/theme/. Whatever content/ holds, this test reads it only
to know what to look for."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

from bench.project import databases_of, load_mkdocs_yaml, plugin_options
from regles.core.slugs import slugify
from tests.conftest import ROOT

# The package's source, the generator's own tools and the description its distribution
# carries (pyproject.toml's `readme`), not what an install writes beside them.
GENERATOR = (
    ROOT / "generator" / "regles",
    ROOT / "generator" / "tools",
    ROOT / "generator" / "README.md",
)
# The generator's own pages, which a site may replace with its own.
ITS_OWN = {"index", "hors-ligne"}
BINARY = {".png", ".pyc"}


def site_words(config_file: Path) -> set[str]:
    """What a site declares of its own: system folders and names, each database's folder,
    section and index page, and the paths of the pages at the top of its docs (`outils/`,
    `outils.md`: their names alone are words of the language)."""
    config = load_mkdocs_yaml(config_file)
    options = plugin_options(config, "regles") or {}
    systems = options.get("systems") or {}
    words = set(systems) | set(systems.values())
    for database in databases_of(options):
        words |= {database["folder"], database["section"]}
        words.add(slugify(database.get("index_title", "Tous les sorts")))
    content = config_file.parent / str(config.get("docs_dir") or "docs")
    for page in content.glob("*.md"):
        if page.stem not in ITS_OWN:
            words |= {f"{page.stem}/", f"{page.stem}.md"}
    return {w for w in words if w}


def occurrences(words: Iterable[str], folders: Iterable[Path]) -> list[str]:
    """`file:line: word` for each of `words` (whole, any case) in the text files of `folders`.

    A name may stand anywhere in a path (`"/dnd5e/combat/"`, `content/magie/`); a page path
    (`outils/`) only as a path of its own, not as the end of another (`regles/outils/`)."""
    names = sorted((w for w in words if not w.endswith(("/", ".md"))), key=len, reverse=True)
    pages = sorted((w for w in words if w.endswith(("/", ".md"))), key=len, reverse=True)
    parts = []
    if names:
        parts.append(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    if pages:
        parts.append(r"(?<![\w/-])(?:" + "|".join(map(re.escape, pages)) + r")(?![\w-])")
    pattern = re.compile("|".join(parts), re.IGNORECASE)
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else [folder]:
            if not path.is_file() or path.suffix in BINARY:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, start=1):
                found += [f"{path}:{number}: {m.group(0)}" for m in pattern.finditer(line)]
    return found


def test_the_generator_names_none_of_this_sites_content() -> None:
    words = site_words(ROOT / "mkdocs.yml")
    assert occurrences(words, GENERATOR) == []


def test_the_distribution_describes_the_generator_alone() -> None:
    # pip shows the `readme` of pyproject.toml as the installed generator's description: it is
    # one of the files read above, not this repository's README (this site's too).
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert ROOT / project["readme"] in GENERATOR


def test_the_search_finds_what_a_site_declares(tmp_path: Path) -> None:
    other = tmp_path / "autre"
    (other / "content").mkdir(parents=True)
    (other / "mkdocs.yml").write_text(
        "site_name: Brumes\ndocs_dir: content\nplugins:\n  - regles:\n      systems:\n"
        "        brumes: Chroniques des Brumes\n",
        "utf-8",
    )
    words = site_words(other / "mkdocs.yml")
    scanned = tmp_path / "code"
    scanned.mkdir()
    assert words == {"brumes", "Chroniques des Brumes"}
    text = 'AREAS = {"Brumes/": "x"}\nOK = "brumeuse"\nURL = "/site/brumes/combat/"\n'
    (scanned / "area.py").write_text(text, "utf-8")
    assert occurrences(words, [scanned]) == [
        f"{scanned / 'area.py'}:1: Brumes",
        f"{scanned / 'area.py'}:3: brumes",
    ]
    # A page at the top of the docs, by its path.
    assert occurrences({"outils/", "outils.md"}, [scanned]) == []
    (tmp_path / "page.js").write_text('go("outils/"); // les outils, a/outils/\n', "utf-8")
    assert occurrences({"outils/", "outils.md"}, [tmp_path]) == [
        f"{tmp_path / 'page.js'}:1: outils/"
    ]
