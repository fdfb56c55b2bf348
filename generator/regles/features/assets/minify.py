"""The site's own scripts and stylesheets without their comments and spaces, by esbuild.

The sources (`theme/assets/`) stay commented for the people who maintain them; the
pages get them minified, as Material ships its own bundle. On the script bundle that is
99 KB → 46 KB (29 KB → 17 KB gzipped), on the stylesheet 28 KB → 21 KB: the first view of
every page, on a phone's connection.

esbuild is pinned in package.json. A stylesheet goes through its `transform` mode, one file at
a time (`minify`). The scripts are ES modules: esbuild bundles the entry module and the graph
of its imports into one immediately-invoked function (`bundle_modules`), each module once,
in the order of the imports; what the modules share stays in that function's scope.

esbuild runs only when a source changed: each result is kept in the build cache under the
hash of its sources, the esbuild version and the options, so a warm build does not start it
at all. A bundle's sources are the files esbuild read for it the last time (its metafile):
a change to the graph is a change to one of them, so it is seen.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regles.core.cache import keep_text

__all__ = [
    "SCRIPT_OPTIONS",
    "MinifyError",
    "ModuleBundle",
    "bundle_modules",
    "esbuild_version",
    "minify",
]

LOADERS = {".js": "js", ".mjs": "js", ".css": "css"}
OPTIONS = ("--minify", "--charset=utf8", "--legal-comments=none", "--log-level=error")


# esbuild's build options for the page script (its JavaScript API's names): one classic
# script, to be deferred, that declares no global.
SCRIPT_OPTIONS: dict[str, Any] = {
    "bundle": True,
    "format": "iife",
    "minify": True,
    "charset": "utf8",
    "legalComments": "none",
    # Modules are strict code; the function esbuild makes of them is not, unless told.
    "banner": {"js": '"use strict";'},
}
BUNDLER = Path(__file__).with_name("bundle_modules.mjs")


class MinifyError(Exception):
    """esbuild is missing, or refused a file (its message names the line)."""


def _executable(node_modules: Path) -> Path:
    return node_modules / ".bin" / "esbuild"


def esbuild_version(node_modules: Path) -> str:
    package = node_modules / "esbuild" / "package.json"
    try:
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError) as error:
        raise MinifyError(
            f"esbuild introuvable ({package}) : lancez « npm ci » ({type(error).__name__})"
        ) from None


def _run(
    command: list[str], stdin: str, program: str, name: str
) -> subprocess.CompletedProcess[str]:
    """`command` run with `stdin`, its output as text; a program that does not start or
    does not finish in a minute is a MinifyError naming it and the file."""
    try:
        return subprocess.run(
            command,
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            timeout=60,
        )
    except OSError as error:
        raise MinifyError(f"{program} ne démarre pas ({error.strerror or error})") from None
    except subprocess.TimeoutExpired:
        raise MinifyError(f"esbuild n’a pas fini {name} en 60 s") from None


def minify(text: str, name: str, node_modules: Path, cache: Path | None = None) -> str:
    """`text`, the content of the asset `name` (its suffix chooses JS or CSS), minified."""
    suffix = Path(name).suffix
    loader = LOADERS.get(suffix)
    if loader is None:
        raise MinifyError(
            f"{name} : type de fichier non pris en charge ({suffix or 'sans suffixe'})"
        )
    version = esbuild_version(node_modules)
    key = hashlib.sha256("\0".join([version, loader, *OPTIONS, text]).encode("utf-8"))
    cached = cache / f"minifie-{key.hexdigest()[:20]}{suffix}" if cache is not None else None
    if cached is not None and cached.is_file():
        with contextlib.suppress(OSError, UnicodeDecodeError):  # unreadable: minified again
            return cached.read_text(encoding="utf-8")
    command = [str(_executable(node_modules)), f"--loader={loader}", f"--sourcefile={name}"]
    result = _run([*command, *OPTIONS], text, "esbuild", name)
    if result.returncode != 0:
        raise MinifyError(result.stderr.strip() or f"esbuild a échoué sur {name}")
    if cached is not None:
        keep_text(cached, result.stdout)
    return result.stdout


@dataclass(frozen=True)
class ModuleBundle:
    code: str
    # Every file of the import graph, relative to the working folder, "/"-separated.
    inputs: tuple[str, ...]


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def _sources_key(version: str, entry: str, folder: Path, inputs: tuple[str, ...]) -> str | None:
    """The cache key of a bundle of `inputs`, from their current content; None if one of
    them cannot be read (it is gone: the graph changed)."""
    digests = []
    for name in sorted(inputs):
        try:
            digests.append(name + "\0" + hashlib.sha256((folder / name).read_bytes()).hexdigest())
        except OSError:
            return None
    options = json.dumps(SCRIPT_OPTIONS, sort_keys=True)
    return _digest(version, options, entry, *digests)


def _cached_bundle(
    cache: Path, graph: Path, version: str, entry: str, folder: Path
) -> ModuleBundle | None:
    try:
        inputs = tuple(str(name) for name in json.loads(graph.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    key = _sources_key(version, entry, folder, inputs)
    if key is None:
        return None
    try:
        return ModuleBundle((cache / f"paquet-{key}.js").read_text(encoding="utf-8"), inputs)
    except (OSError, UnicodeDecodeError):
        return None


def _refusal(errors: list[dict[str, Any]]) -> str:
    """esbuild's errors, each with its file and line, in French around esbuild's words."""
    lines = []
    for error in errors:
        text = str(error.get("text") or "erreur sans message")
        if error.get("file"):
            lines.append(
                f"{error['file']}, ligne {error['line']}, colonne {error['column']} : {text}"
            )
        else:
            lines.append(text)
    return "esbuild refuse les scripts :\n" + "\n".join(f"  {line}" for line in lines)


def bundle_modules(
    entry: Path, folder: Path, node_modules: Path, cache: Path | None = None
) -> ModuleBundle:
    """The module `entry` and every module it imports, bundled into one minified script.

    `folder` is the working folder: the files are named from it (in the bundle's inputs and
    in esbuild's errors), the cache keeps their names relative to it."""
    version = esbuild_version(node_modules)
    entry_name = Path(os.path.relpath(entry, folder)).as_posix()
    graph = cache / f"paquet-{_digest(version, entry_name)}.json" if cache is not None else None
    if cache is not None and graph is not None:  # one goes with the other (for mypy)
        kept = _cached_bundle(cache, graph, version, entry_name, folder)
        if kept is not None:
            return kept
    node = shutil.which("node")
    if node is None:
        raise MinifyError("Node.js introuvable : il assemble les scripts avec esbuild")
    request = {"entry": entry_name, "workingDir": str(folder), "options": SCRIPT_OPTIONS}
    command = [node, str(BUNDLER), str(node_modules / "esbuild")]
    result = _run(command, json.dumps(request), "Node.js", entry_name)
    try:
        answer = json.loads(result.stdout)
    except ValueError:
        answer = None
    if result.returncode != 0 or not isinstance(answer, dict):
        raise MinifyError(result.stderr.strip() or f"esbuild a échoué sur {entry_name}")
    if "errors" in answer:
        raise MinifyError(_refusal(answer["errors"]))
    bundle = ModuleBundle(str(answer["code"]), tuple(str(name) for name in answer["inputs"]))
    if cache is not None and graph is not None:
        key = _sources_key(version, entry_name, folder, bundle.inputs)
        if key is not None:
            keep_text(cache / f"paquet-{key}.js", bundle.code)
            keep_text(graph, json.dumps(list(bundle.inputs)))
    return bundle
