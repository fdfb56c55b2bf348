"""What a rebuild of a served site must redo: which of its sources changed, by content, and
whether what the other pages read of a changed page stayed as it was (no MkDocs import).

`mkdocs serve` rebuilds on any event under the folders it watches. A page whose text changed
while its face (`page_face`: its headings and anchors, the calculators it places, its
scripts when the site declares them) stayed the same changes no other page: the links, the
nav, the references and the calculators' homes are made of faces. Such a save rebuilds that
page alone (regles/serve.py); any other change, a full build.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from regles.core.directives import directive_arguments
from regles.core.link_checks import page_ids
from regles.core.markdown_text import PageText
from regles.core.slugs import fold
from regles.features.assets.csp import inline_scripts

__all__ = ["Change", "Face", "Stamp", "changed_paths", "face_change", "page_face", "scan_sources"]


@dataclass(frozen=True)
class Stamp:
    """A source file as a build read it: its size and time (to skip hashing it again when
    they are the same) and the hash of its bytes (what tells a change)."""

    size: int
    mtime_ns: int
    digest: str


# Never sources: what editors, version control and Python write beside them (a swap file
# saved while the owner types must not rebuild the site).
IGNORED_FOLDERS = frozenset({"__pycache__", ".git", "node_modules"})


def _ignored(name: str) -> bool:
    return name.startswith((".", "#", "~")) or name.endswith(("~", ".pyc", ".swp", ".tmp"))


def _files(root: Path) -> Iterable[Path]:
    if root.is_file():
        yield root
        return
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in IGNORED_FOLDERS and not _ignored(f))
        for name in sorted(names):
            if not _ignored(name):
                yield Path(folder, name)


def _digest(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def scan_sources(
    roots: Iterable[Path], known: Mapping[Path, Stamp] | None = None
) -> dict[Path, Stamp]:
    """Every file under `roots` (folders or files) with its stamp; a file whose size and time
    are those `known` gives keeps its hash, any other is read. A file that vanishes while it
    is read is left out, as if it had gone before."""
    known = known or {}
    stamps: dict[Path, Stamp] = {}
    for root in sorted({Path(os.path.abspath(r)) for r in roots}):
        for path in _files(root):
            try:
                stat = path.stat()
                old = known.get(path)
                if old is not None and (old.size, old.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
                    stamps[path] = old
                else:
                    stamps[path] = Stamp(stat.st_size, stat.st_mtime_ns, _digest(path))
            except OSError:
                continue
    return stamps


def changed_paths(before: Mapping[Path, Stamp], after: Mapping[Path, Stamp]) -> set[Path]:
    """The files added, removed or whose bytes differ (a file only touched is the same)."""
    return {
        path
        for path in before.keys() | after.keys()
        if (old := before.get(path)) is None
        or (new := after.get(path)) is None
        or old.digest != new.digest
    }


class Face(NamedTuple):
    """What the other pages and the site's files read of a page (`page_face`)."""

    headings: tuple[tuple[int, str, str, int], ...]  # level, text, anchor, line (`page_face`)
    anchors: tuple[str, ...]
    conditions: tuple[tuple[str, str], ...]  # `<span id="etat-…">` anchors and their names
    calculators: tuple[str, ...]
    scripts: tuple[str, ...]

    @property
    def page(self) -> tuple[object, ...]:
        """What every page reads of it: its title (the nav), its calculators and scripts."""
        titles = tuple(h for h in self.headings if h[0] == 1)
        return titles, self.calculators, self.scripts


# How a page's face changed: not at all; only its sections (headings below its title, its
# anchors, its conditions): the pages that link to them change; or the page as every page
# knows it (`Face.page`).
Change = Literal["", "sections", "page"]


def page_face(page: PageText, scripts: bool = False, twin_lines: bool = False) -> Face:
    """What the other pages and the site's files read of a page, as read once every page is
    (core/build.py `index_pages`): its headings (the site map, link targets, references,
    the print annotations, a glossary's entries), every anchor it defines (the links'
    checks), the `<span id>` conditions, the calculators it places (their homes, the « Voir
    la règle » links) and, for a page whose scripts run (`scripts`), its inline scripts
    (every page's security policy). With `twin_lines`, the lines of its headings that have
    a twin (the same title on the page): a link to one of them is reported with the lines
    of both (checks.py, `Kind.AMBIGUOUS_LINK`)."""
    headings = page.headings
    counts: dict[str, int] = {}
    for heading in headings:
        counts[fold(heading.text)] = counts.get(fold(heading.text), 0) + 1
    return Face(
        tuple(
            (h.level, h.text, h.anchor, h.line if twin_lines and counts[fold(h.text)] > 1 else 0)
            for h in headings
        ),
        tuple(sorted({anchor for anchor, _ in page_ids(page)})),
        tuple((anchor, name) for anchor, name, _ in page.anchor_spans),
        tuple(directive_arguments(page, "calculateur")),
        tuple(inline_scripts(page.text)) if scripts else (),
    )


def face_change(before: Face, after: Face) -> Change:
    """How a page's face changed (see `Change`)."""
    if before == after:
        return ""
    return "sections" if before.page == after.page else "page"
