"""Settings of the rules plugin (mkdocs.yml, `plugins: - regles:`)."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config

__all__ = ["ReglesConfig"]


class ReglesConfig(Config):  # type: ignore[no-untyped-call]
    enabled = c.Type(bool, default=True)

    # Settings for the spell database
    spells_export = c.Optional(c.Type(str))
    spells_section = c.Type(str, default="Magie")
    spells_folder = c.Type(str, default="magie")

    # Settings for the calculators in the browser
    pyodide_dir = c.Type(str, default="node_modules/pyodide")
    snapshot = c.Type(bool, default=True)
    cache_dir = c.Type(str, default="build/cache")

    # Settings for the build report
    report_file = c.Type(str, default="build/rapport-construction.json")
