"""Settings of the rules plugin (mkdocs.yml, `plugins: - regles:`).

Everything that belongs to one site rather than to the generator is declared here by the
site's owner: its game systems (folder → name) and, if it has one, its spell database.
Paths are resolved by MkDocs from the folder of mkdocs.yml.
"""

from __future__ import annotations

import posixpath
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config, ValidationError

__all__ = ["OptionalSpells", "ReglesConfig", "SpellsConfig", "SystemFolders", "docs_folder"]


def docs_folder(value: object) -> str:
    """A folder of the docs, as the pages' paths name it: `regles`, `regles/variantes`."""
    if not isinstance(value, str):
        raise ValidationError(f"Expected a folder of the docs but received: {value!r}")
    folder = value.strip().strip("/")
    normal = posixpath.normpath(folder) if folder else ""
    if not folder or normal != folder or folder.startswith("..") or "\\" in folder:
        raise ValidationError(
            f"Expected a folder of the docs, such as 'regles' or 'regles/variantes', "
            f"but received: {value!r}"
        )
    return folder


class SystemFolders(c.DictOfItems[str]):
    """`systems:` — each game system's folder in the docs, and the name readers see."""

    def __init__(self) -> None:
        super().__init__(c.Type(str), default={})

    def run_validation(self, value: object) -> dict[str, str]:
        names = super().run_validation(value)
        systems: dict[str, str] = {}
        for folder, name in names.items():
            if not name.strip():
                raise ValidationError(f"Expected a name for the system '{folder}' but received: ''")
            systems[docs_folder(folder)] = name.strip()
        return systems


class SpellsConfig(Config):  # type: ignore[no-untyped-call]
    """`spells:` — the spell database's export, and where its pages go."""

    export = c.File(exists=False)  # read at each build; a missing file is a build error
    folder = c.Type(str)  # the folder of its pages in the site
    section = c.Type(str)  # the nav section its pages are appended to
    index_title = c.Type(str, default="Tous les sorts")  # the page listing every spell

    def validate(self) -> Any:
        failed, warnings = super().validate()
        if not failed and self.folder is not None:
            try:
                self.folder = docs_folder(self.folder)
            except ValidationError as error:
                failed.append(("folder", error))
        return failed, warnings


class OptionalSpells(c.SubConfig[SpellsConfig]):
    """`spells:` may be left out: the site then has no spell pages."""

    def __init__(self) -> None:
        super().__init__(SpellsConfig)
        self.default = None

    def run_validation(self, value: object) -> SpellsConfig | None:  # type: ignore[override]
        return None if value is None else super().run_validation(value)


class ReglesConfig(Config):  # type: ignore[no-untyped-call]
    enabled = c.Type(bool, default=True)

    # Settings for the site's content
    systems = SystemFolders()
    spells = OptionalSpells()
    calculators = c.Type(str, default="calculators")  # the rules package (a module name)

    # Settings for the calculators in the browser
    pyodide_dir = c.Dir(exists=False, default="node_modules/pyodide")
    snapshot = c.Type(bool, default=True)

    # Settings for the build's own files
    node_modules = c.Dir(exists=False, default="node_modules")  # esbuild, Workbox
    cache_dir = c.Dir(exists=False, default="build/cache")
    report_file = c.File(exists=False, default="build/rapport-construction.json")
