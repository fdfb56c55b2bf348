"""mkdocs.yml read again as YAML text, for what MkDocs' own loading hides: a key given twice
in one mapping (YAML keeps the last value and drops the first without a word), and the line
a setting is written on.

The text is composed into YAML nodes, never constructed into values: MkDocs' tags (`!ENV`,
`!relative`), Material's (`!!python/name:…`) and any other plugin's need no constructor to
be read here, and nothing in the file is run."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import yaml

from regles.core.report import Kind, Problem

__all__ = ["duplicate_keys", "inherited_files", "setting_line"]

MERGE_TAG = "tag:yaml.org,2002:merge"  # `<<: *defaults`: a merge, not a key
INHERIT = "INHERIT"  # MkDocs' key: the settings this file adds to (a parent file)


# libyaml's reader when PyYAML has it (its wheels do): the same nodes and marks, faster.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.lru_cache(maxsize=8)  # a build reads the file for each check: composed once
def _composed(text: str) -> yaml.Node | None:
    """The file's YAML nodes (never changed by their readers); None when it is not YAML that
    MkDocs could have read (MkDocs says why itself)."""
    try:
        return yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return None


def _mappings(root: yaml.Node) -> Iterator[tuple[yaml.MappingNode, tuple[str, ...]]]:
    """Every mapping of the document, in its order, with the keys that lead to it (an item
    of a list has its list's path: `plugins › regles`, not an index)."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        current, where = stack.pop()
        if id(current) in seen:  # an alias names a node already walked
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            yield current, where
            for key, value in reversed(current.value):
                name = key.value if isinstance(key, yaml.ScalarNode) else "…"
                stack.append((value, (*where, str(name))))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((item, where) for item in reversed(current.value))


def duplicate_keys(text: str, name: str) -> list[Problem]:
    """Each key given twice in one mapping of the file `name` (as the report names it): an
    error at the line of the second, which is the one YAML keeps."""
    root = _composed(text)
    if root is None:
        return []
    problems = []
    for mapping, path in _mappings(root):
        first: dict[tuple[str, str], int] = {}
        for key, _ in mapping.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag == MERGE_TAG:
                continue
            line = key.start_mark.line + 1
            seen = first.setdefault((key.tag, key.value), line)
            if seen == line:
                continue
            where = f"sous « {' › '.join(path)} »" if path else "au premier niveau"
            problems.append(
                Problem(
                    name,
                    line,
                    "error",
                    Kind.DUPLICATE_KEY,
                    f"clé « {key.value} » donnée deux fois {where} (lignes {seen} et {line}) : "
                    "YAML ne garde que la dernière, et tout ce que donnait la première est "
                    "perdu sans un mot ; réunissez-les en une seule",
                    key.value,
                )
            )
    return problems


def inherited_files(text: str, folder: Path) -> list[tuple[Path, str]]:
    """The files whose settings this one adds to (MkDocs' `INHERIT:`), nearest first, each
    once, with their text; a file that cannot be read ends the chain (MkDocs says why)."""
    files: list[tuple[Path, str]] = []
    while True:
        root = _composed(text)
        if not isinstance(root, yaml.MappingNode):
            return files
        parent = next(
            (
                value.value
                for key, value in root.value
                if isinstance(key, yaml.ScalarNode)
                and key.value == INHERIT
                and isinstance(value, yaml.ScalarNode)
            ),
            None,
        )
        if not parent:
            return files
        path = (folder / parent).resolve()
        if any(path == known for known, _ in files):
            return files
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return files
        files.append((path, text))
        folder = path.parent


def setting_line(text: str, key: str, wanted: Callable[[str], bool]) -> int | None:
    """The line of the first `key:` of the file whose value is `wanted` (`export:` of one
    database), at any level; None when it has none."""
    root = _composed(text)
    if root is None:
        return None
    for mapping, _ in _mappings(root):
        for name, given in mapping.value:
            if (
                isinstance(name, yaml.ScalarNode)
                and isinstance(given, yaml.ScalarNode)
                and name.value == key
                and wanted(str(given.value))
            ):
                return int(name.start_mark.line) + 1
    return None
