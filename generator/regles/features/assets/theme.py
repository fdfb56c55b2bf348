"""The generator's theme: Material's templates overridden, the page scripts and styles, the
icons and the service worker's template (`regles/theme/`). The plugin adds it to every site
by itself: a site's mkdocs.yml names none of it, and may add its own overrides
(`theme.custom_dir`), stylesheets and scripts, which come after the generator's."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

__all__ = [
    "ENTRY_SCRIPT",
    "FAVICON",
    "MARKDOWN_EXTENSIONS",
    "STYLESHEETS",
    "THEME_DIR",
    "TOC_SETTINGS",
]

THEME_DIR = Path(__file__).resolve().parents[2] / "theme"
# One file per concern, in this order; the pages get their minified concatenation
# (features/assets/bundle.py).
STYLESHEETS = (
    "assets/regles.css",
    "assets/dice.css",
    "assets/tables.css",
    "assets/pages.css",
    "assets/entries.css",
    "assets/entry-table.css",
    "assets/hors-ligne.css",
    "assets/recherche.css",
    "assets/lists.css",
    "assets/impression.css",
)
# The entry module of the page scripts: its imports, one module per concern, are bundled
# with it. Each module sets itself up again on Material's document$ (instant navigation).
ENTRY_SCRIPT = "assets/js/site.js"
FAVICON = "assets/icons/favicon.png"
# What the generated pages are written with: attributes on headings (an entry's anchor),
# Markdown inside HTML blocks (the quick links, the calculators' rule links), admonitions
# (the reading notes).
MARKDOWN_EXTENSIONS = ("attr_list", "md_in_html", "admonition")
# Headings' anchors as every link of the generator writes them (core/slugs.py), with a
# permalink named in French unless the site names its own.
TOC_SETTINGS = MappingProxyType({"permalink": "¶", "permalink_title": "Lien vers cette section"})
