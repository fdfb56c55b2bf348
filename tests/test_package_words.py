"""The generator is every game's: nothing it ships (generator/: its code, theme, scripts,
scaffold) names this repository's own site — its example character, its name, its game
systems, its spells and their colleges. A game master of another game would read them in a
placeholder, a message or an example (« ex. : Aldric » once was, in two dialogs)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import yaml

from tests.conftest import ROOT

GENERATOR = ROOT / "generator"
# This site's example character (README.md), and the words that name its games and sources.
NAMES = ("Aldric", "Lankhmar", "Old-School Essentials", "dnd5e", "Règles de la table")


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as YAML, its `!ENV` tags read as plain values."""


_Loader.add_constructor("!ENV", lambda loader, node: None)


def this_site_s_names() -> set[str]:
    """The names this site gives: its own and its systems' (mkdocs.yml), and its spells'
    and colleges' of more than one word (a single word, « Lumière », « Vol », is any game's
    French)."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=_Loader)
    plugin = next(p["regles"] for p in config["plugins"] if isinstance(p, dict) and "regles" in p)
    names = {config["site_name"], *plugin["systems"].values(), *NAMES}
    for database in plugin["databases"]:
        export = (ROOT / database["export"]).read_text("utf-8")
        titles = re.findall(r"#{2,3} ([^#*]+?) (?:\(|\*\*)", export)
        names |= {title.strip() for title in titles if len(title.split()) > 1}
    return names


def shipped_texts() -> dict[Path, str]:
    """Every text file of generator/ (binary files, the icons, are no one's words)."""
    texts = {}
    for path in sorted(GENERATOR.rglob("*")):
        if not path.is_file() or {"__pycache__", "node_modules"} & set(path.parts):
            continue
        if any(part.endswith(".egg-info") for part in path.parts):
            continue  # what an editable install writes there: this repository's README
        try:
            texts[path] = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def test_nothing_the_generator_ships_names_this_site() -> None:
    names = this_site_s_names()
    assert {"Aldric", "D&D 5e", "Règles de la table", "Ombre & Lumière"} <= names
    assert len(names) > 100, len(names)  # its spells and colleges, read from its export
    texts = shipped_texts()
    assert GENERATOR / "regles" / "theme" / "assets" / "js" / "characters.js" in texts
    forms = {form for name in names for form in (name, html.escape(name))}
    alternatives = "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
    word = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1} : {match[0]}"
        for path, text in texts.items()
        for match in word.finditer(text)
    ]
    assert found == []
