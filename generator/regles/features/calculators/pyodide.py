"""Browser runtime of the calculators: Pyodide files, the packed package, the start snapshot."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from regles.core.cache import keep_text, link_or_copy
from regles.features.calculators.package import LoadedRules

__all__ = [
    "PACKAGE_FOLDER",
    "PYODIDE_FILES",
    "PYODIDE_FOLDER",
    "RuntimeAssets",
    "pack_package",
    "write_runtime",
]

# What a stdlib-only program needs from the npm package; nothing else is shipped.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Where the site serves them (the offline copy downloads both after the text).
PYODIDE_FOLDER = "assets/pyodide/"
PACKAGE_FOLDER = "assets/calculators/"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed, so that the same sources give the same bytes
SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.mjs")
SNAPSHOT_SECONDS = 300  # Pyodide's start and the package's import, on a slow machine

log = logging.getLogger("mkdocs.plugins.regles.pyodide")


@dataclass(frozen=True)
class RuntimeAssets:
    """Paths relative to the site root, as written in `assets/rules-runtime.json`."""

    pyodide: str
    package: str
    snapshot: str | None
    version: str
    module: str  # the rules package's name, as the browser imports it

    def to_json(self) -> str:
        return json.dumps(
            {
                "pyodide": self.pyodide,
                "package": self.package,
                "module": self.module,
                "snapshot": self.snapshot,
                "version": self.version,
            },
            indent=1,
        )


# The kit that rules packages are written with, packed beside them: `regles/__init__.py`
# (standard library only) and `regles/kit/`, nothing else of the generator.
REGLES = Path(__file__).resolve().parents[2]
KIT_FILES = ("__init__.py", "kit")


def _python_files(source: Path, under: str) -> list[tuple[str, Path]]:
    """(name in the zip, file) of the Python files of `source`, a file or a folder."""
    if source.is_file():
        return [(under, source)]
    return [(f"{under}/{p.relative_to(source).as_posix()}", p) for p in source.rglob("*.py")]


def pack_package(source: Path | None) -> bytes:
    """A zip of the rules package's Python files (none for a site without one) and of the
    kit's, byte-identical for identical sources."""
    from io import BytesIO

    files = [f for name in KIT_FILES for f in _python_files(REGLES / name, f"regles/{name}")]
    if source is not None:
        files += _python_files(source, source.name)
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()[:12]


DIGESTS_CACHE = "pyodide-empreintes.json"  # in the build cache: {path: [size, time, digest]}


def _file_digest(path: Path, cache: Path) -> str:
    """`_digest` of a file of Pyodide's package (its 9.6 MB of WebAssembly), kept in the
    build cache while its size and modification time stay the same."""
    stat = path.stat()
    known = [stat.st_size, stat.st_mtime_ns]
    entry = cache / DIGESTS_CACHE
    try:
        kept = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    if not isinstance(kept, dict):
        kept = {}
    old = kept.get(str(path))
    if isinstance(old, list) and old[:2] == known and len(old) == 3:
        return str(old[2])
    digest = _digest(path.read_bytes())
    kept[str(path)] = [*known, digest]
    keep_text(entry, json.dumps(kept))
    return digest


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _snapshot(
    pyodide_dir: Path, package: Path, module: str, cache: Path, key: str, scratch: Path
) -> Path | None:
    """The gzipped snapshot for this Pyodide build and package, made once and cached.

    The cache only saves time (the snapshot takes seconds to make): in a cache folder that
    cannot be written, it is made in `scratch`, at every build."""
    name = f"snapshot-{key}.bin.gz"
    if (cache / name).is_file():
        return cache / name
    node = shutil.which("node")
    if node is None:
        return None
    folder = cache
    if not _writable(cache):
        log.info(
            "Cache %s impossible à écrire : instantané Pyodide refait à chaque construction", cache
        )
        folder = scratch
    made, partial = folder / name, folder / (name + ".part")
    try:
        result = subprocess.run(
            [node, str(SNAPSHOT_SCRIPT), str(pyodide_dir), str(package), module, str(partial)],
            capture_output=True,
            text=True,
            check=False,
            timeout=SNAPSHOT_SECONDS,
        )
    except subprocess.TimeoutExpired:
        # Pyodide imports the rules package there too: its code may loop in the browser only.
        raise RuntimeError(
            f"instantané Pyodide impossible : l’import du paquet « {module} » dans Pyodide "
            f"n’a pas fini en {SNAPSHOT_SECONDS} s"
        ) from None
    if result.returncode != 0:
        raise RuntimeError(f"instantané Pyodide impossible : {result.stderr.strip()[-2000:]}")
    partial.replace(made)
    return made


def write_runtime(
    site: Path, pyodide_dir: Path, rules: LoadedRules, cache: Path, snapshot: bool = True
) -> RuntimeAssets:
    """Copy Pyodide under a versioned path, pack the package, add the snapshot; every name
    carries a version or content hash so that caches never mix two builds."""
    version = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))["version"]
    runtime_dir = f"{PYODIDE_FOLDER}{version}"
    target = site / runtime_dir
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        # Linked (or copied with its modification time), so that the offline step knows it
        # unchanged: its hashes are kept from one build to the next (precache_entries).
        link_or_copy(str(pyodide_dir / name), str(target / name))

    packed = pack_package(rules.folder)
    package_key = _digest(packed)
    package_path = f"{PACKAGE_FOLDER}{rules.module}-{package_key}.zip"
    (site / package_path).parent.mkdir(parents=True, exist_ok=True)
    (site / package_path).write_bytes(packed)

    snapshot_path: str | None = None
    if snapshot:
        wasm = _file_digest(pyodide_dir / "pyodide.asm.wasm", cache)
        key = _digest(version.encode(), wasm.encode(), package_key.encode())
        with tempfile.TemporaryDirectory() as scratch:
            made = _snapshot(
                pyodide_dir, site / package_path, rules.module, cache, key, Path(scratch)
            )
            if made is not None:
                snapshot_path = f"{runtime_dir}/snapshot-{key}.bin.gz"
                link_or_copy(str(made), str(site / snapshot_path))  # as the files above

    assets = RuntimeAssets(f"{runtime_dir}/", package_path, snapshot_path, version, rules.module)
    (site / "assets" / "rules-runtime.json").write_text(assets.to_json(), encoding="utf-8")
    return assets
