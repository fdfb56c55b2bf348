"""One stylesheet and one script for the site's own assets, instead of one file per concern.

The stylesheets stay one file per concern (`site_overrides/assets/*.css`, as listed in
mkdocs.yml's `extra_css`); the pages link to their concatenation, named by content hash. Every
stylesheet in the head blocks the first paint: a phone on a slow network pays a round trip per
file, and Lighthouse measured the first paint of a rules page 0.5 s later with four small
stylesheets than without them.

The scripts are ES modules, one per concern, imported by one entry module (mkdocs.yml's only
`extra_javascript`, `assets/js/site.js`): esbuild bundles the graph (generator/minify.py),
and the pages link to that bundle, named by content hash (`script_bundle`). It is `defer`red,
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
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "EAGER_HINT",
    "Bundle",
    "BundleError",
    "bundle_name",
    "concatenate",
    "script_bundle",
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
