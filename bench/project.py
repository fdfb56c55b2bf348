"""The projects the benchmark builds: ours as `make site` builds it, copies of it with another
spell export, and the stock Material baseline made from the same Markdown.

Every copy lives in a temporary folder: the work tree is never touched, except that the
`make site`-equivalent build writes `build/rapport-construction.json` as `make site` does.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from regles.features.assets import npm

__all__ = [
    "ROOT",
    "BenchError",
    "BuildSample",
    "EntrySource",
    "databases_of",
    "free_port",
    "load_mkdocs_yaml",
    "mirror_project",
    "stock_project",
    "timed_build",
    "with_entries_export",
]

ROOT = Path(__file__).resolve().parent.parent
MKDOCS_ENV = {"NO_MKDOCS_2_WARNING": "1"}


def build_environment(**extra: str) -> dict[str, str]:
    """The environment a timed build runs in: this one, with Python's bytecode caches
    written and read, as they are for whoever installs the packages (pip compiles them): a
    shell that sets PYTHONDONTWRITEBYTECODE would have every build compile every module
    of the generator again, and not Material's, which pip compiled."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **MKDOCS_ENV, **extra}


# What a mirror of the project does not link back to: its own copies, and what is not source.
NOT_MIRRORED = {".git", ".venv", "site", "build", "mkdocs.yml", "bench"}
# The first database's export (`export:`, or `- export:` as the first item of `databases:`).
_ENTRIES_EXPORT = re.compile(r"(?m)^(?P<indent>[ \t]+(?:- )?)export:[^\n]*\n")


class BenchError(RuntimeError):
    """A benchmark that cannot run at all (a build that fails, a missing file)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# mkdocs.yml --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PythonName:
    """A `!!python/name:` value of mkdocs.yml, kept as its dotted name."""

    name: str


class _MkdocsLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML has no types here
    pass


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode):
        names = loader.construct_sequence(node)
        for name in names[:-1]:
            if name in os.environ:
                return os.environ[name]
        return names[-1] if names else None
    return os.environ.get(str(loader.construct_scalar(node)))


def _python_name(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> PythonName:
    return PythonName(suffix)


_MkdocsLoader.add_constructor("!ENV", _env)
_MkdocsLoader.add_multi_constructor("tag:yaml.org,2002:python/name:", _python_name)


def load_mkdocs_yaml(path: Path) -> dict[str, Any]:
    """mkdocs.yml as data: `!ENV` resolved, `!!python/name:` kept as `PythonName`."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_MkdocsLoader)
    if not isinstance(data, dict):
        raise BenchError(f"{path} : configuration illisible")
    return data


def plugin_options(config: dict[str, Any], name: str) -> dict[str, Any] | None:
    for entry in config.get("plugins") or []:
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            return dict(entry[name] or {})
    return None


def databases_of(options: dict[str, Any]) -> list[dict[str, Any]]:
    """The databases the `regles` plugin's options declare (`databases:`, or the one block
    `spells:` of the first sites), in their order."""
    listed = options.get("databases") or ([options["spells"]] if options.get("spells") else [])
    return [dict(d) for d in listed if isinstance(d, dict)]


def with_entries_export(config_text: str, export: Path) -> str:
    """mkdocs.yml's text with the `regles` plugin reading another export."""
    match = _ENTRIES_EXPORT.search(config_text)
    if match is None:
        raise BenchError("mkdocs.yml : option « spells.export » du greffon regles introuvable")
    line = f"{match['indent']}export: {export}\n"
    return config_text[: match.start()] + line + config_text[match.end() :]


# Copies of the project ---------------------------------------------------------------------


def mirror_project(destination: Path, configs: dict[str, str]) -> dict[str, Path]:
    """A copy of the project in `destination`: the Markdown folder copied (so that editing a
    page there disturbs no one), everything else linked back to the work tree, the snapshot
    cache shared (`build/cache`, so the copy builds warm). `configs` maps file names to
    mkdocs.yml texts; returns their paths."""
    docs = str(load_mkdocs_yaml(ROOT / "mkdocs.yml").get("docs_dir") or "docs")
    destination.mkdir(parents=True, exist_ok=True)
    for entry in ROOT.iterdir():
        if entry.name in NOT_MIRRORED or entry.name == docs:
            continue
        (destination / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / docs, destination / docs)
    cache = ROOT / "build" / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    (destination / "build").mkdir()
    (destination / "build" / "cache").symlink_to(cache)
    # The generator's npm packages, installed once for the work tree (features/assets/npm.py).
    npm.installed(ROOT / "build" / "npm")
    (destination / "build" / "npm").symlink_to(ROOT / "build" / "npm")
    paths = {}
    for name, text in configs.items():
        paths[name] = destination / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


@dataclass(frozen=True)
class EntrySource:
    """The spell export named in mkdocs.yml, parsed."""

    path: Path
    text: str
    entries: int
    section: str
    folder: str
    index_title: str = "Tous les sorts"


def entry_source() -> EntrySource:
    from regles.features.databases.export import parse_export
    from regles.features.databases.model import read_export

    config = load_mkdocs_yaml(ROOT / "mkdocs.yml")
    options = plugin_options(config, "regles") or {}
    entries = next(iter(databases_of(options)), None)
    if entries is None or not entries.get("export"):
        raise BenchError("mkdocs.yml : pas de base (databases: - export: …) dans le greffon regles")
    path = ROOT / str(entries["export"])
    text = read_export(path)
    return EntrySource(
        path,
        text,
        len(parse_export(text, source=path.name).entries),
        str(entries["section"]),
        str(entries["folder"]),
        str(entries.get("index_title", "Tous les sorts")),
    )


def count_entries(text: str) -> int:
    from regles.features.databases.export import parse_export

    return len(parse_export(text).entries)


def _plain_extensions(extensions: list[Any]) -> list[Any]:
    """Our Markdown extensions without what comes from our code (the toc's slugify)."""
    plain: list[Any] = []
    for entry in extensions:
        if isinstance(entry, dict):
            name, options = next(iter(entry.items()))
            kept = {k: v for k, v in (options or {}).items() if not isinstance(v, PythonName)}
            plain.append({name: kept} if kept else name)
        else:
            plain.append(entry)
    return plain


def stock_project(destination: Path, site_url: str) -> Path:
    """The baseline: the same Markdown pages built by stock Material for MkDocs.

    No `regles` plugin, no custom_dir, no extra CSS or JavaScript, Material's own `search`
    plugin. The spell pages, which our plugin writes at build time, are written once here as
    the same Markdown (untimed), so that both sites have the same pages. Material is told
    `font: false`, as we are: its default Google Fonts cannot load on this machine anyway.
    """
    from regles.features.assets.theme import MARKDOWN_EXTENSIONS
    from regles.features.databases.book import Book, DatabaseSettings
    from regles.features.databases.export import parse_export
    from regles.features.databases.pages import ENTRY_TABLE_MARK, render_entry_table

    config = load_mkdocs_yaml(ROOT / "mkdocs.yml")
    docs_name = str(config.get("docs_dir") or "docs")
    docs = destination / "docs"
    shutil.copytree(ROOT / docs_name, docs)
    source = entry_source()
    settings = DatabaseSettings(
        source.path, source.path.name, source.folder, source.section, source.index_title
    )
    result = parse_export(source.text, source=source.path.name)
    book = Book(settings, result)
    for uri, text in book.pages():
        page = docs / uri
        page.parent.mkdir(parents=True, exist_ok=True)
        # The stock site converts the table itself: the mark is for our plugin only.
        page.write_text(
            text.replace(ENTRY_TABLE_MARK, render_entry_table(result)),
            encoding="utf-8",
        )
    nav = copy.deepcopy(config.get("nav") or [])
    book.extend_nav(nav)
    theme = config.get("theme") or {}
    stock: dict[str, Any] = {
        "site_name": config.get("site_name"),
        "site_description": config.get("site_description"),
        "site_url": site_url,
        "copyright": config.get("copyright"),
        "docs_dir": str(docs),
        "use_directory_urls": config.get("use_directory_urls", True),
        # The export is read by our plugin, never published; not a page of the stock site.
        "exclude_docs": "/" + source.path.relative_to(ROOT / docs_name).as_posix(),
        "not_in_nav": config.get("not_in_nav"),
        "theme": {"name": "material", "language": theme.get("language", "fr"), "font": False},
        "plugins": ["search"],
        # Ours, with those our plugin adds (the spell pages are written with them).
        "markdown_extensions": _plain_extensions(
            [*(config.get("markdown_extensions") or []), *MARKDOWN_EXTENSIONS]
        ),
        "nav": nav,
    }
    path = destination / "mkdocs.yml"
    path.write_text(
        yaml.safe_dump({k: v for k, v in stock.items() if v is not None}, allow_unicode=True),
        encoding="utf-8",
    )
    return path


# Timed builds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildSample:
    wall: float  # seconds, as the user waits
    cpu: float  # seconds of CPU of mkdocs and its children (less sensitive to a busy machine)


def timed_build(
    config: Path, destination: Path, *, strict: bool, site_url: str | None = None
) -> BuildSample:
    """`mkdocs build` into a fresh `destination`, timed (wall and CPU)."""
    shutil.rmtree(destination, ignore_errors=True)
    log = destination.with_name(destination.name + ".log")
    env = build_environment(**({"SITE_URL": site_url} if site_url else {}))
    command = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--strict" if strict else "--no-strict",
        "-f",
        str(config),
        "-d",
        str(destination),
    ]
    with log.open("wb") as output:
        started = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=config.parent, env=env, stdout=output, stderr=output
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise BenchError(f"mkdocs build a échoué ({config}) :\n{tail}")
    return BuildSample(wall, usage.ru_utime + usage.ru_stime)
