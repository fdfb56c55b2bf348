"""The generator's npm packages: Pyodide and Workbox, which a site serves itself, and the
esbuild that bundles its scripts.

Their versions are the generator's, locked in `regles/npm/package-lock.json`, never the
site's: a site holds no copy of them, and an upgrade of the generator brings its own. The
first build of a site (and the first after an upgrade) installs them with `npm ci` into the
site's `build/npm/` (the `node_modules` option of the plugin names another folder, which
the site then fills itself). Nothing is ever fetched from a CDN: the reader's browser gets
these files from the site.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

__all__ = ["LOCK", "OLDEST_NODE", "NpmError", "installed", "node_advice"]

log = logging.getLogger("mkdocs.plugins.regles.npm")

# The generator's package.json and its lock, shipped with the package.
SOURCE = Path(__file__).resolve().parents[2] / "npm"
LOCK = SOURCE / "package-lock.json"
MODULES = "node_modules"
# The oldest Node.js the README asks for (22 and 24 are its long-term versions; Node 20 left
# support on 30 April 2026). An older one still installs and builds: it is said, not refused.
OLDEST_NODE = 22


class NpmError(Exception):
    """The npm packages cannot be installed; the message says why, in French."""


@contextlib.contextmanager
def _exclusive(folder: Path) -> Iterator[None]:
    """One installation at a time in `folder`, across processes (two builds at once)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".installation.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _is_current(folder: Path) -> bool:
    """Whether `folder` holds the packages of this generator's lock, fully installed."""
    stamp = folder / "package-lock.json"
    return (
        (folder / MODULES / ".package-lock.json").is_file()
        and stamp.is_file()
        and stamp.read_bytes() == LOCK.read_bytes()
    )


def _node_version() -> str:
    """What `node --version` writes (« v22.12.0 »), or "" without a Node that answers: its
    version is advice, never a reason to stop."""
    node = shutil.which("node")
    if node is None:
        return ""
    try:
        result = subprocess.run(
            [node, "--version"], capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip()


def node_advice(version: str) -> str | None:
    """What to say of a Node.js older than the README asks for (`version` as `node
    --version` writes it), None for a recent one or one it cannot read."""
    major = version.removeprefix("v").split(".", 1)[0]
    if not major.isdigit() or int(major) >= OLDEST_NODE:
        return None
    return (
        f"Node.js {version} : plus ancien que ce que demande le README (Node.js "
        f"{OLDEST_NODE} ou plus récent, avec npm) ; la construction se fait, mais une "
        "version sans mises à jour de sécurité peut cesser de marcher avec une prochaine "
        "version du générateur"
    )


def installed(folder: Path) -> Path:
    """The `node_modules` of `folder` (a site's `build/npm/`), installed from the generator's
    lock by `npm ci` unless it already holds that lock's packages."""
    if _is_current(folder):
        return folder / MODULES
    with _exclusive(folder):
        if _is_current(folder):  # installed by another build meanwhile
            return folder / MODULES
        npm = shutil.which("npm")
        if npm is None:
            raise NpmError(
                "npm est introuvable : Node.js (≥ 22) et npm sont nécessaires pour installer "
                "Pyodide, Workbox et esbuild, que le site sert lui-même"
            )
        log.info(
            "Installation des fichiers du navigateur (Pyodide, Workbox, esbuild) dans %s "
            "par npm ci : une fois par version du générateur",
            folder,
        )
        advice = node_advice(_node_version())
        if advice:
            log.info(advice)
        work = folder / f".installation-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(SOURCE / name, work / name)
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            raise NpmError(f"npm ci a échoué dans {folder} :\n{result.stderr.strip()[-2000:]}")
        shutil.rmtree(folder / MODULES, ignore_errors=True)
        (work / MODULES).replace(folder / MODULES)
        # The lock last: a build stopped before this line installs again.
        for name in ("package.json", "package-lock.json"):
            (work / name).replace(folder / name)
        shutil.rmtree(work, ignore_errors=True)
    return folder / MODULES
