"""The package's map (generator/regles/README.md) stays true: every folder and module it names
exists, and it names every top-level part, every feature and every core and kit module."""

from __future__ import annotations

import re

from tests.conftest import ROOT

PACKAGE = ROOT / "generator" / "regles"
MAP = (PACKAGE / "README.md").read_text(encoding="utf-8")
NOT_PARTS = {"__init__.py", "__pycache__", "py.typed", "README.md"}


def named(name: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", MAP) is not None


def test_the_map_names_every_part_of_the_package() -> None:
    missing = [
        f"{path.relative_to(PACKAGE)}"
        for folder in (PACKAGE, PACKAGE / "core", PACKAGE / "kit")
        for path in sorted(folder.iterdir())
        if path.name not in NOT_PARTS and not named(path.name + ("/" if path.is_dir() else ""))
    ]
    missing += [
        f"features/{path.name}/"
        for path in sorted((PACKAGE / "features").iterdir())
        if path.is_dir() and path.name not in NOT_PARTS and not named(f"{path.name}/")
    ]
    assert missing == [], "absents du plan du paquet (generator/regles/README.md)"


def test_every_file_the_map_names_exists() -> None:
    files = {path.name for path in PACKAGE.rglob("*") if "__pycache__" not in path.parts}
    files |= {path.name for path in (ROOT / "tests").glob("test_*.py")}  # the map's own test
    folders = {path.name + "/" for path in (PACKAGE, *PACKAGE.rglob("*")) if path.is_dir()}
    names = set(re.findall(r"`?([\w.-]+\.(?:py|js|css|html|mjs))\b", MAP))
    names |= {f"{n}/" for n in re.findall(r"(?<![\w./])([a-z_]+)/(?=[\s`:,)])", MAP)}
    unknown = sorted(n for n in names if n not in files and n not in folders and "*" not in n)
    assert unknown == [], "nommés par le plan du paquet, absents du paquet"
