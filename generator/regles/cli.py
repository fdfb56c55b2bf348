"""The `regles` command: `regles new DIR` writes a new site, pinned to this generator.

The site holds no copy of a generator file: its mkdocs.yml names the `regles` plugin, which
brings the theme, the page scripts and the calculators' runtime. Its requirements.txt pins
the generator the command was run from, as a fresh machine can install it (provenance.py):
its released version, or its VCS URL at a tag or commit; `--pin` chooses another line.
`regles --version` says which generator runs, and where it was installed from.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path

from regles.features.offline.app import short_name_of
from regles.provenance import PinChoice, best_public_pin, read_pin, running_source

__all__ = ["TEMPLATES", "main", "new_site"]

TEMPLATES = Path(__file__).resolve().parent / "scaffold"
SUFFIX = ".tmpl"
# Files whose name a template cannot have (a dot file, a folder pip would take for data).
RENAMED = {"gitignore": ".gitignore", "github-pages.yml": ".github/workflows/pages.yml"}


class CommandError(Exception):
    """What the command cannot do, in French."""


def _title_of(folder: Path) -> str:
    """« mon-jeu » → « Mon jeu »: a site's name from its folder's."""
    words = folder.resolve().name.replace("_", " ").replace("-", " ").split()
    text = " ".join(words) or "Mon jeu"
    return text[:1].upper() + text[1:]


# The name and extras at the start of a requirements line that installs the generator.
_EXTRAS = re.compile(r"^(\s*regles\s*)(?:\[([^\]]*)\])?", re.IGNORECASE)


def with_test_extra(line: str) -> PinChoice:
    """`line`, asking for the generator's `test` extra (pytest, which the site's `make test`
    runs): a line given without it gets it, and says so."""
    found = _EXTRAS.match(line)
    extras = [e.strip() for e in (found[2] or "").split(",") if e.strip()] if found else []
    if found is None or "test" in (e.lower() for e in extras):
        return PinChoice(line)
    name = found[1].rstrip()
    rest = found[1][len(name) :] + line[found.end() :]
    return PinChoice(
        f"{name}[{','.join([*extras, 'test'])}]{rest}",
        "« [test] » ajouté après « regles » : « make test » en a besoin (pytest)",
    )


def pin_drift(line: str) -> str | None:
    """What a requirements line given to `regles new` does not pin, if anything: a local
    folder, or a repository without a tag or commit (README, « Figer le générateur »)."""
    pin = read_pin(line)
    if pin is None or not pin.url:
        return None
    if pin.url.startswith("file:"):
        return (
            "cette ligne nomme un dossier de cette machine : elle ne fige rien, et les "
            "machines de GitHub ne l’ont pas ; avant de publier, écrivez le dépôt à un tag "
            "(« regles[test] @ git+https://…@v0.3.0 »)"
        )
    if pin.vcs and not pin.revision:
        return (
            "cette ligne ne nomme ni tag ni commit du dépôt : elle suit sa branche, qui bouge "
            "sans le site ; écrivez-la à un tag (« …@v0.3.0 ») ou à un commit"
        )
    return None


def new_site(
    folder: Path, name: str | None = None, pin: str | None = None
) -> tuple[list[Path], PinChoice]:
    """Write a new site into `folder` (new, or empty), its generator pinned by `pin` (a
    requirements line) or as `best_public_pin` finds; the files written, in order, and the
    pin with what must be said of it."""
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
    source = running_source()
    if pin is None:
        choice = best_public_pin(source)
    elif read_pin(pin) is None:
        raise CommandError(f"« {pin} » n’est pas une ligne qui installe le générateur regles")
    else:
        choice = with_test_extra(pin.strip())
        drift = pin_drift(choice.line)
        if drift:
            said = " ; ".join(w for w in (choice.warning, drift) if w)
            choice = PinChoice(choice.line, said)
    values = {
        "{{site_name}}": site_name,
        "{{short_name}}": short_name_of(site_name),
        "{{requirement}}": choice.line,
        "{{generator}}": f"version {source.version}",
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
    return written, choice


class _Version(argparse.Action):
    """`--version`: the running generator and its source, on one line (argparse's own
    action wraps it)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(running_source().describe())
        parser.exit()


# argparse's own words (its usage line, its errors, its help's headings), which it takes
# through gettext as its module's `_`: in French for a game master who types `regles` without
# what it needs. Those it does not find here stay as argparse writes them.
ARGPARSE_WORDS = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "show this help message and exit": "montre cette aide",
    "%(prog)s: error: %(message)s\n": "%(prog)s : %(message)s\n",
    "the following arguments are required: %s": "il manque : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s : %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "« %(value)s » n’est pas une commande (au choix : %(choices)s)"
    ),
    "expected one argument": "une valeur est attendue",
    "ambiguous option: %(option)s could match %(matches)s": (
        "option ambiguë : %(option)s peut être %(matches)s"
    ),
}


@contextlib.contextmanager
def argparse_in_french() -> Iterator[None]:
    english = argparse._  # type: ignore[attr-defined]
    argparse._ = lambda text: ARGPARSE_WORDS.get(text, english(text))  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = english  # type: ignore[attr-defined]


def main(argv: Sequence[str] | None = None) -> int:
    with argparse_in_french():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(
        prog="regles",
        description="Générateur de sites de règles de jeu de rôle (MkDocs + Material).",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="dit quel générateur tourne et d’où il a été installé",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")
    new = commands.add_parser(
        "new",
        help="écrit un nouveau site dans DOSSIER",
        description="Écrit un nouveau site, figé sur ce générateur : pages d’exemple, "
        "paquet de règles, tests, publication sur GitHub Pages.",
    )
    new.add_argument("dossier", type=Path, metavar="DOSSIER")
    new.add_argument("--nom", help="le nom du site (par défaut, celui du dossier)")
    new.add_argument(
        "--pin",
        metavar="LIGNE",
        help="la ligne de requirements.txt qui installe le générateur, ex. "
        "«\u00a0regles[test] @ git+https://github.com/…@v0.3.0\u00a0» (par défaut, celle "
        "qui installe ce générateur-ci)",
    )
    arguments = parser.parse_args(argv)
    try:
        written, pin = new_site(arguments.dossier, arguments.nom, arguments.pin)
    except CommandError as error:
        print(f"regles new : {error}", file=sys.stderr)
        return 2
    folder = arguments.dossier
    if pin.warning:
        print(f"regles new : attention, {pin.warning}.", file=sys.stderr)
    print(f"Générateur figé dans requirements.txt : {pin.line}")
    print(f"Site écrit dans {folder} ({len(written)} fichiers). Ensuite :")
    print(f"  cd {folder}")
    print("  make serve   # le site sur http://127.0.0.1:8000/")
    print("  make test    # ses tests")
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m regles.cli`
    sys.exit(main())
