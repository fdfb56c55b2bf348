"""The site's own scripts and stylesheets without their comments and spaces, by esbuild.

The sources (`site_overrides/assets/`) stay commented for the people who maintain them; the
pages get them minified, as Material ships its own bundle. On the script bundle that is
99 KB → 46 KB (29 KB → 17 KB gzipped), on the stylesheet 28 KB → 21 KB: the first view of
every page, on a phone's connection.

esbuild is pinned in package.json. It runs on one file at a time (its `transform` mode: no
bundling, top-level names kept, so the global `window.rules` and friends are untouched), and
only when a file changed: each result is kept in the build cache under the hash of the
source, the esbuild version and the options, so a warm build does not start it at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
from pathlib import Path

from generator.build_cache import keep_text

__all__ = ["MinifyError", "esbuild_version", "minify"]

LOADERS = {".js": "js", ".mjs": "js", ".css": "css"}
OPTIONS = ("--minify", "--charset=utf8", "--legal-comments=none", "--log-level=error")


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
    try:
        result = subprocess.run(
            [
                str(_executable(node_modules)),
                f"--loader={loader}",
                f"--sourcefile={name}",
                *OPTIONS,
            ],
            input=text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            timeout=60,
        )
    except OSError as error:
        raise MinifyError(f"esbuild ne démarre pas ({error.strerror or error})") from None
    except subprocess.TimeoutExpired:
        raise MinifyError(f"esbuild n’a pas fini {name} en 60 s") from None
    if result.returncode != 0:
        raise MinifyError(result.stderr.strip() or f"esbuild a échoué sur {name}")
    if cached is not None:
        keep_text(cached, result.stdout)
    return result.stdout
