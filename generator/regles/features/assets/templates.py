"""The site's templates compiled once, not at every build.

MkDocs gives each build a new Jinja environment, which compiles Material's templates and ours
(38 of them) from their source again: about 0.3 s of CPU time at every `make site` and at
every reload of `mkdocs serve`, the same for every page the owner edits. Jinja can keep the
compiled code in a folder (its bytecode cache); each entry is checked against the template's
source, so a changed template is compiled again, and against the Python version.

The cache only saves time: a folder that cannot be written, or a damaged entry, means
compiling the template again, never a failed build.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

__all__ = ["TemplateCache"]


class TemplateCache(FileSystemBytecodeCache):
    """Jinja's file bytecode cache, best effort, in `folder` (created when first written)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder), "gabarit-%s.cache")
        self.folder = folder

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged entry: unpickling its header can raise almost anything
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
