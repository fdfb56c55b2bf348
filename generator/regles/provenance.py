"""Where the running generator comes from, what a site pins, and whether the two agree.

A site's `requirements.txt` pins the generator (`regles new` writes the line); its Makefile
installs it; its build (the plugin) compares the pin with the running generator and stops
when they differ, so that an upgrade happens or says why not. The running generator is
known from its installed distribution (`importlib.metadata`) and the PEP 610 record pip
leaves beside it, `direct_url.json`: a version from an index, a VCS URL at a commit, a
folder (editable or not) or an archive. No MkDocs import: the `regles` command uses it too.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import regles
from regles import __version__

__all__ = [
    "DISTRIBUTION",
    "Pin",
    "Source",
    "best_public_pin",
    "check_pin",
    "exact_pin",
    "pin_mismatch",
    "read_pin",
    "running_source",
]

DISTRIBUTION = "regles"
PIN_NAME = f"{DISTRIBUTION}[test]"  # with what a site's own tests run


@dataclass(frozen=True)
class Source:
    """The running generator: its version and where pip installed it from."""

    version: str
    kind: str  # "index", "vcs", "folder", "archive", or "unknown" (not installed by pip)
    url: str = ""  # without its "git+" prefix: as `direct_url.json` writes it
    vcs: str = ""  # "git"…
    commit: str = ""  # the commit pip checked out
    requested: str = ""  # the revision the pin named (a tag, a branch, a commit)
    editable: bool = False

    def describe(self) -> str:
        """« regles 0.3.0, depuis git+https://…@v0.3.0 (commit 1a2b3c4d5e) », in French."""
        head = f"{DISTRIBUTION} {self.version}"
        if self.kind == "index":
            return f"{head}, depuis un index de paquets (PyPI)"
        if self.kind == "vcs":
            at = f"@{self.requested}" if self.requested else ""
            commit = f" (commit {self.commit[:10]})" if self.commit else ""
            return f"{head}, depuis {self.vcs}+{self.url}{at}{commit}"
        if self.kind == "folder":
            how = "modifiable, installé avec -e" if self.editable else "copié à l’installation"
            return f"{head}, depuis le dossier {_folder(self.url)} ({how})"
        if self.kind == "archive":
            return f"{head}, depuis l’archive {self.url}"
        return f"{head}, depuis {Path(regles.__file__).resolve().parent} (pas installé par pip)"


@dataclass(frozen=True)
class Pin:
    """The generator's line in a site's requirements.txt: a version or a URL."""

    line: str  # as written, for messages
    number: int  # its line number
    version: str = ""  # `regles==0.3.0`
    url: str = ""  # `regles @ <url>`, without a VCS prefix or revision
    vcs: str = ""
    revision: str = ""  # after the last "@" of a VCS URL


def _folder(url: str) -> str:
    return unquote(urlsplit(url).path) if url.startswith("file:") else url


def source_of(distribution: importlib.metadata.Distribution | None) -> Source:
    """What `distribution` says of where it came from (`direct_url.json`, PEP 610)."""
    if distribution is None:
        return Source(__version__, "unknown")
    version = distribution.version
    text = distribution.read_text("direct_url.json")
    if not text:
        return Source(version, "index")
    try:
        data = json.loads(text)
    except ValueError:
        return Source(version, "unknown")
    url = str(data.get("url", ""))
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict):
        return Source(
            version,
            "vcs",
            url,
            str(vcs.get("vcs", "git")),
            str(vcs.get("commit_id") or ""),
            str(vcs.get("requested_revision") or ""),
        )
    folder = data.get("dir_info")
    if isinstance(folder, dict):
        return Source(version, "folder", url, editable=bool(folder.get("editable")))
    return Source(version, "archive", url)


def _installed() -> importlib.metadata.Distribution | None:
    try:
        return importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def _runs(distribution: importlib.metadata.Distribution, source: Source) -> bool:
    """Whether the code running is that distribution's (and not a folder put first on the
    path, PYTHONPATH, beside an installed one)."""
    running = Path(regles.__file__).resolve()
    if source.kind == "folder" and source.editable:
        return Path(_folder(source.url)).resolve() in running.parents
    installed = Path(str(distribution.locate_file("regles/__init__.py"))).resolve()
    return installed == running


def running_source() -> Source:
    """The running generator: its distribution's source, or "unknown" when the code that
    runs is not the installed distribution's."""
    distribution = _installed()
    source = source_of(distribution)
    if distribution is not None and not _runs(distribution, source):
        return Source(__version__, "unknown")
    if source.editable:  # its code, not its metadata, says the version once it changed
        return dataclasses.replace(source, version=__version__)
    return source


# `regles`, its extras, then `==version` or `@ url`; comments and markers after.
_PIN = re.compile(
    r"^\s*regles\s*(?:\[[^\]]*\])?\s*(?:==\s*(?P<version>[^\s;#]+)|@\s*(?P<url>[^\s;#]+))",
    re.IGNORECASE,
)
_NAMED = re.compile(r"^\s*regles\s*(?:\[[^\]]*\])?\s*(?:[=<>!~@;#]|$)", re.IGNORECASE)


def read_pin(text: str) -> Pin | None:
    """The generator's pin in a requirements file's text, if it names the generator; a line
    that names it without pinning it (`regles`, `regles>=0.2`) gives a Pin of neither
    version nor URL."""
    for number, line in enumerate(text.splitlines(), 1):
        if not _NAMED.match(line):
            continue
        written = line.split(" #", 1)[0].strip()
        found = _PIN.match(line)
        if found is None:
            return Pin(written, number)
        if found["version"]:
            return Pin(written, number, version=found["version"])
        url = found["url"]
        vcs = ""
        if "+" in url.split("://", 1)[0]:
            vcs, url = url.split("+", 1)
        revision = ""
        if vcs:
            scheme, rest = url.split("://", 1) if "://" in url else ("", url)
            path = rest.split("#", 1)[0]
            if "@" in path.rsplit("/", 1)[-1]:
                path, revision = path.rsplit("@", 1)
            url = f"{scheme}://{path}" if scheme else path
        return Pin(written, number, url=url.split("#", 1)[0], vcs=vcs, revision=revision)
    return None


def _same_url(a: str, b: str) -> bool:
    def normal(url: str) -> str:
        if url.startswith("file:"):
            return str(Path(_folder(url)).resolve())
        return url.removesuffix("/").removesuffix(".git").lower()

    return normal(a) == normal(b)


def pin_mismatch(pin: Pin, source: Source) -> str | None:
    """Why the running generator is not the one pinned, in French; None when it is. A
    running generator of unknown source matches no pin."""
    if not (pin.version or pin.url):
        return (
            f"la ligne « {pin.line} » ne fige pas le générateur : écrivez une version "
            f"(« {PIN_NAME}==0.3.0 ») ou une adresse à un tag ou un commit "
            f"(« {PIN_NAME} @ git+https://…@v0.3.0 »)"
        )
    if source.kind == "unknown":
        return "le générateur qui tourne n’a pas été installé par pip"
    if pin.version:
        if source.kind != "index":
            return "le générateur installé ne vient pas d’un index de paquets"
        if source.version != pin.version:
            return f"la version installée est {source.version}, la version figée {pin.version}"
        return None
    if not _same_url(pin.url, source.url):
        return "le générateur installé vient d’une autre adresse"
    if pin.vcs:
        if source.kind != "vcs":
            return "le générateur installé ne vient pas d’un dépôt"
        if pin.revision and not (
            pin.revision == source.requested
            or (len(pin.revision) >= 7 and source.commit.startswith(pin.revision))
        ):
            return f"le générateur installé est à « {source.requested or source.commit[:10]} »"
        if not pin.revision and source.requested:
            return f"le générateur installé est à « {source.requested} »"
    return None


def exact_pin(source: Source) -> str | None:
    """The requirements line that names the running generator as it was installed, on this
    machine (a folder's `file:` URL included); None when pip did not install it."""
    if source.kind == "index":
        return f"{PIN_NAME}=={source.version}"
    if source.kind == "vcs":
        return f"{PIN_NAME} @ {source.vcs}+{source.url}@{source.commit or source.requested}"
    if source.kind in ("folder", "archive"):
        return f"{PIN_NAME} @ {source.url}"
    return None


def _git(folder: Path, *arguments: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *arguments],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _public(remote: str) -> str:
    """A remote as pip can clone it on GitHub's runners (https), or "" for a local one."""
    ssh = re.match(r"^(?:ssh://)?git@([^:/]+)[:/](.+)$", remote)
    if ssh:
        return f"https://{ssh[1]}/{ssh[2]}"
    return remote if remote.startswith("https://") else ""


@dataclass(frozen=True)
class PinChoice:
    """The line `regles new` writes, and what it must say of it (None: nothing)."""

    line: str
    warning: str | None = None


def best_public_pin(source: Source) -> PinChoice:
    """The requirements line that installs this very generator on a fresh machine (GitHub's
    runners): its released version, or its VCS URL at the commit pip checked out. From a
    folder: the folder's public git remote at its release tag, or its commit; failing that,
    the version number, with a warning."""
    exact = exact_pin(source)
    if source.kind == "index" or source.kind == "archive":
        return PinChoice(str(exact))
    if source.kind == "vcs":
        line = str(exact)
        if source.requested and source.commit and not source.commit.startswith(source.requested):
            said = (
                f"le générateur vient de {source.vcs}+{source.url}@{source.requested}, qui peut "
                f"bouger : requirements.txt le fige au commit {source.commit[:10]}"
            )
            if not source.requested.startswith("v"):
                return PinChoice(line, said)
            line = f"{PIN_NAME} @ {source.vcs}+{source.url}@{source.requested}"
        return PinChoice(line)
    fallback = f"{PIN_NAME}=={source.version}"
    where = (
        Path(_folder(source.url))
        if source.kind == "folder"
        else Path(regles.__file__).resolve().parents[2]
    )
    remote = _public(_git(where, "remote", "get-url", "origin"))
    commit = _git(where, "rev-parse", "HEAD")
    tag = f"v{source.version}"
    if remote and commit:
        tagged = _git(where, "rev-parse", f"{tag}^{{commit}}") == commit
        at = tag if tagged else commit
        changed = bool(_git(where, "status", "--porcelain", "--untracked-files=no"))
        line = f"{PIN_NAME} @ git+{remote}@{at}"
        said = f"le générateur vient du dossier {where} : requirements.txt fige {remote} à {at}"
        if changed:
            said += " (le dossier a des modifications non enregistrées, que ce site n’aura pas)"
        return PinChoice(line, said + " ; voir « Figer le générateur » dans le README")
    return PinChoice(
        fallback,
        f"le générateur vient de {where}, sans dépôt public connu : requirements.txt fige la "
        f"version {source.version}, qu’un index de paquets doit publier ; sinon, écrivez "
        f"l’adresse de son dépôt (« {PIN_NAME} @ git+https://…@{tag} ») avec "
        "`regles new --pin` (voir « Figer le générateur » dans le README)",
    )


REQUIREMENTS = "requirements.txt"


def check_pin(project: Path, source: Source | None = None) -> str | None:
    """Why the generator running is not the one the site's requirements.txt (beside its
    mkdocs.yml) pins, in French; None when it is, or when the site pins none (no file, or
    no line for the generator: this repository, the tests' sites)."""
    path = project / REQUIREMENTS
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    pin = read_pin(text)
    if pin is None:
        return None
    source = source or running_source()
    why = pin_mismatch(pin, source)
    if why is None:
        return None
    return (
        f"{REQUIREMENTS}:{pin.number} fige « {pin.line} », mais ce site est construit par "
        f"{source.describe()} : {why}. `make site`, `make serve` et `make test` installent "
        f"ce que {REQUIREMENTS} fige ; sans le Makefile : "
        f"`pip install --force-reinstall --no-deps -r {REQUIREMENTS}`"
    )
