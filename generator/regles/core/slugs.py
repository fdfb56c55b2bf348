"""Heading anchors and lookup keys: ASCII, accent-free, the same on every page and in links."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["fold", "slugify", "unique_slug"]

_NON_WORD = re.compile(r"[^a-z0-9]+")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})
# Signs that read as a letter in a name ("Straße ×2"): NFKD does not decompose them.
_AS_LETTERS = str.maketrans({"×": "x"})


# Both are called for the same few thousand names again and again (every link checked, every
# heading indexed, every mention looked up): each name is folded once per build.
@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lower-case, accent-free form of a name, used to match mentions to their targets."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


@lru_cache(maxsize=1 << 16)
def slugify(value: str, separator: str = "-") -> str:
    """Anchor id of a heading or a generated page: `Dégâts et soins` → `degats-et-soins`.

    The one slug function of the site: the toc extension's slugify hook (mkdocs.yml), entry
    anchors, group and index pages."""
    return _NON_WORD.sub(separator, fold(value.translate(_AS_LETTERS))).strip(separator)


def unique_slug(slug: str, taken: set[str], *, separator: str = "_", first: int = 1) -> str:
    """`slug`, numbered if `taken` has it, and added to `taken`. By default the id
    Python-Markdown's toc gives a repeated heading: `x`, then `x_1`, `x_2`…; the generator's
    own pages number theirs `x`, `x-2`, `x-3`… (`separator="-", first=2`)."""
    candidate, n = slug, first
    while candidate in taken:
        candidate = f"{slug}{separator}{n}"
        n += 1
    taken.add(candidate)
    return candidate
