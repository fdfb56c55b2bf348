"""The `regles` command: `regles new DIR` writes a new site, pinned to this generator.

The site holds no copy of a generator file: its mkdocs.yml names the `regles` plugin, which
brings the theme, the page scripts and the calculators' runtime. Its requirements.txt pins
the generator the command was run from: its version, or, when it was installed from a
folder or a git URL, that source as pip recorded it (PEP 610, `direct_url.json`).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from regles import __version__
from regles.features.offline.app import short_name_of

__all__ = ["TEMPLATES", "main", "new_site", "requirement"]

DISTRIBUTION = "regles"
TEMPLATES = Path(__file__).resolve().parent / "scaffold"
SUFFIX = ".tmpl"
# Files whose name a template cannot have (a dot file, a folder pip would take for data).
RENAMED = {"gitignore": ".gitignore", "github-pages.yml": ".github/workflows/pages.yml"}


class CommandError(Exception):
    """What the command cannot do, in French."""


def requirement(distribution: importlib.metadata.Distribution | None) -> str:
    """The requirements.txt line that installs this very generator, with its tests' extra."""
    name = f"{DISTRIBUTION}[test]"
    if distribution is None:
        return f"{name}=={__version__}"
    direct = distribution.read_text("direct_url.json")
    if direct:
        data = json.loads(direct)
        url = str(data.get("url", ""))
        vcs = data.get("vcs_info")
        if isinstance(vcs, dict):
            commit = vcs.get("commit_id") or vcs.get("requested_revision")
            return f"{name} @ {vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
        if url:
            return f"{name} @ {url}"
    return f"{name}=={distribution.version}"


def _installed() -> importlib.metadata.Distribution | None:
    try:
        return importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def _title_of(folder: Path) -> str:
    """« mon-jeu » → « Mon jeu »: a site's name from its folder's."""
    words = folder.resolve().name.replace("_", " ").replace("-", " ").split()
    text = " ".join(words) or "Mon jeu"
    return text[:1].upper() + text[1:]


def new_site(folder: Path, name: str | None = None, pin: str | None = None) -> list[Path]:
    """Write a new site into `folder` (new, or empty); the files written, in order."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise CommandError(f"« {folder} » existe et n’est pas un dossier vide : rien n’est écrit")
    site_name = (name or _title_of(folder)).strip()
    if (
        not site_name
        or any(c in '"\\' for c in site_name)
        or any(unicodedata.category(c).startswith("C") for c in site_name)
    ):
        raise CommandError(
            f"nom de site invalide : {site_name!r} (ni guillemet droit, ni barre oblique "
            "inverse, ni caractère de contrôle)"
        )
    installed = _installed()
    values = {
        "{{site_name}}": site_name,
        "{{short_name}}": short_name_of(site_name),
        "{{requirement}}": pin or requirement(installed),
        "{{generator}}": f"version {installed.version if installed else __version__}",
    }
    written = []
    for template in sorted(TEMPLATES.rglob("*" + SUFFIX)):
        relative = template.relative_to(TEMPLATES).as_posix().removesuffix(SUFFIX)
        target = folder / RENAMED.get(relative, relative)
        text = template.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="regles",
        description="Générateur de sites de règles de jeu de rôle (MkDocs + Material).",
    )
    parser.add_argument("--version", action="version", version=f"regles {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser(
        "new",
        help="écrit un nouveau site dans DOSSIER",
        description="Écrit un nouveau site, figé sur ce générateur : pages d’exemple, "
        "paquet de règles, tests, publication sur GitHub Pages.",
    )
    new.add_argument("dossier", type=Path, metavar="DOSSIER")
    new.add_argument("--nom", help="le nom du site (par défaut, celui du dossier)")
    arguments = parser.parse_args(argv)
    try:
        written = new_site(arguments.dossier, arguments.nom)
    except CommandError as error:
        print(f"regles new : {error}", file=sys.stderr)
        return 2
    folder = arguments.dossier
    print(f"Site écrit dans {folder} ({len(written)} fichiers). Ensuite :")
    print(f"  cd {folder}")
    print("  make serve   # le site sur http://127.0.0.1:8000/")
    print("  make test    # ses tests")
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m regles.cli`
    sys.exit(main())
