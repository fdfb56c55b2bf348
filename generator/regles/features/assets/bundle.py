"""One stylesheet and one script for the site's own assets, instead of one file per concern.

The stylesheets stay one file per concern (the theme's `STYLESHEETS`, then the site's own
`extra_css`); the pages link to their concatenation, named by content hash. Every stylesheet
in the head blocks the first paint: a phone on a slow network pays a round trip per file, and
Lighthouse measured the first paint of a rules page 0.5 s later with four small stylesheets
than without them.

The scripts are ES modules, one per concern, imported by one entry module (the theme's
`assets/js/site.js`, then the site's own `extra_javascript`): esbuild bundles the graph
(features/assets/minify.py), and the pages link to that bundle, named by content hash
(`script_bundle`). It is `defer`red,
so it runs once the page is parsed, after Material's bundle (deferred before it) has defined
`document$`.

Both scripts that run at every load, ours and Material's, open with V8's explicit compile
hint (`EAGER_HINT`): Chromium (136 and later) then compiles all their functions while the
file downloads, on a background thread, instead of each one on the main thread at its first
call, in the page's longest tasks (the evaluation of Material's bundle and its
DOMContentLoaded handler): Lighthouse's total blocking time of rules and tools pages fell
with it (the figures are in the commit that added it). Other browsers read a comment.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from regles.features.assets.minify import bundle_modules, minify

__all__ = [
    "EAGER_HINT",
    "Bundle",
    "BundleError",
    "ScriptEntry",
    "bundle_name",
    "concatenate",
    "page_script",
    "script_bundle",
    "style_bundle",
    "with_eager_hint",
]

# First line of a script all of whose functions run at load (see above). V8 reads it only there.
EAGER_HINT = "//# allFunctionsCalledOnLoad\n"


class BundleError(Exception):
    """A listed asset is missing or unreadable."""


@dataclass(frozen=True)
class Bundle:
    path: str  # site-relative, with the content hash: "assets/regles.3f2a9c1b.css"
    content: str
    sources: tuple[str, ...]


def bundle_name(folder: str, stem: str, suffix: str, content: str) -> str:
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:10]
    return posixpath.join(folder, f"{stem}.{digest}{suffix}")


def concatenate(
    sources: Sequence[str], texts: Mapping[str, str | None], folder: str, stem: str, suffix: str
) -> Bundle:
    """The sources (stylesheets) in their order, each under a comment naming it; a missing
    one is an error."""
    missing = [s for s in sources if texts.get(s) is None]
    if missing:
        raise BundleError("fichier(s) introuvable(s) : " + ", ".join(missing))
    parts = [f"/* {source} */\n{(texts[source] or '').strip()}\n" for source in sources]
    content = "\n".join(parts)
    return Bundle(bundle_name(folder, stem, suffix, content), content, tuple(sources))


def script_bundle(code: str, sources: Sequence[str], folder: str, stem: str) -> Bundle:
    """The page script esbuild bundled from `sources` (its import graph), opened by
    EAGER_HINT, named by content hash."""
    content, _ = with_eager_hint(code, None)
    return Bundle(bundle_name(folder, stem, ".js", content), content, tuple(sources))


def with_eager_hint(script: str, source_map: str | None) -> tuple[str, str | None]:
    """`script` opened by EAGER_HINT (unchanged if it already is), and its source map (JSON
    text) shifted by the line added, so that it still points at the right sources."""
    if script.startswith(EAGER_HINT):
        return script, source_map
    if source_map is not None:
        data = json.loads(source_map)
        data["mappings"] = ";" + data["mappings"]  # one generated line with nothing mapped
        source_map = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return EAGER_HINT + script, source_map


def style_bundle(
    sources: Sequence[str],
    texts: Mapping[str, str | None],
    node_modules: Path,
    cache: Path | None,
) -> Bundle:
    """The stylesheets `sources` (their texts, None for one not found), each minified, in
    their order: the pages' one stylesheet, `assets/site.<hash>.css`."""
    minified = {
        source: minify(text, source, node_modules, cache) if text is not None else None
        for source, text in texts.items()
    }
    return concatenate(sources, minified, "assets", "site", ".css")


@dataclass(frozen=True)
class ScriptEntry:
    """An entry module of the pages' script: its file, and the folder its modules are named
    from (the theme's for the generator's, the site's for its own)."""

    path: Path
    folder: Path


def page_script(
    entries: Sequence[ScriptEntry], node_modules: Path, cache: Path | None, prelude: str = ""
) -> tuple[Bundle, set[Path]]:
    """The pages' one script, `assets/js/site.<hash>.js`: `prelude` (the site's build data,
    set before any module runs), then each entry and the graph of its imports bundled by
    esbuild, in the entries' order; and every file of those graphs, which the site then does
    not serve on their own."""
    codes: list[str] = [prelude] if prelude else []
    inputs: list[str] = []
    graph: set[Path] = set()
    for entry in entries:
        modules = bundle_modules(entry.path, entry.folder, node_modules, cache)
        codes.append(modules.code)
        inputs += [name for name in modules.inputs if name not in inputs]
        graph |= {Path(os.path.normpath(entry.folder / name)) for name in modules.inputs}
    # Each entry is its own function (esbuild's IIFE): ";" keeps them apart.
    return script_bundle("\n;\n".join(codes), inputs, "assets/js", "site"), graph
