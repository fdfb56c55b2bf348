"""A game system's glossary: the page whose sections define its terms, one heading each.

A site names the glossary of a system in mkdocs.yml (`glossaries: {folder: page}`). Its
page title is what the text refers to (« Glossaire de règles »), and each of its headings
below the title is an entry: its words are the term, its anchor the one the toc gives it.
`features/links/references.py` links that system's mentions of a term to its entry; the built page's
sections become `data/glossary.json` (plain text), read by the preview over those links.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from regles.core.markdown_text import Heading
from regles.core.slugs import fold, slugify

__all__ = ["DATA_FILE", "LINK_CLASS", "Entry", "Glossary", "glossary_records"]

DATA_FILE = "data/glossary.json"
# The class of a link to an entry: the preview opens over it (theme/assets/js).
LINK_CLASS = "lien-glossaire"
# Words that may stand before a term without being part of it: "l’état Aveuglé",
# "l’action Se cacher", "de saut".
_ELISION = re.compile(r"^(?:[ldLD][’'])")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)(?:\{[^}\n]*\})?")
_TAG = re.compile(r"<[^>]+>")
_CELL_END = re.compile(r"</t[dh]>")
_LAST_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]*)\)(?:\{[^}\n]*\})?$")
_CLAUSE_END = re.compile(r"[.,;:!?»«()]")
# What stands between a term and the reference to the glossary: "(cf. ", "voir ", "de ".
_TRAILING = re.compile(
    r"(?:[\s(]|\bcf\.|\bvoir\b|\bdans\b|\b(?:de|du|des|à|au|aux|la|le|les)\b)*$",
    re.IGNORECASE,
)
MAX_PREVIEW_CHARS = 700


@dataclass(frozen=True)
class Entry:
    """One term of a glossary and the place that defines it."""

    page: str
    anchor: str
    term: str


@dataclass
class Glossary:
    """The entries of one system's glossary page, by the folded form of their term."""

    system: str
    page: str
    title: str
    entries: dict[str, Entry] = field(default_factory=dict)
    by_anchor: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def from_headings(cls, system: str, page: str, headings: Iterable[Heading]) -> Glossary:
        title = ""
        glossary = cls(system, page, title)
        for heading in headings:
            if heading.level == 1:
                glossary.title = glossary.title or heading.text
                continue
            entry = Entry(page, heading.anchor, heading.text)
            glossary.entries.setdefault(fold(heading.text), entry)
            glossary.by_anchor[heading.anchor] = entry
        return glossary

    @property
    def longest(self) -> int:
        """The number of words of the longest term."""
        return max((len(key.split()) for key in self.entries), default=0)

    def entry(self, name: str) -> Entry | None:
        """The entry whose term is `name` (case, accents and apostrophes aside)."""
        return self.entries.get(fold(name))

    def entry_of_fragment(self, fragment: str) -> Entry | None:
        """The entry a link's `#fragment` names: its anchor, or a term written as the
        fragment (`#Repos long`, `#repos-long`)."""
        return self.by_anchor.get(fragment) or self.by_anchor.get(slugify(fragment))

    def entry_before(self, text: str) -> Entry | None:
        """The entry named by the words that end `text`, in its last clause: the term a
        reference points to, as in « l’action Se cacher (cf. « Glossaire ») »; the longest
        term first ("Repos long" rather than "long")."""
        text = _TRAILING.sub("", text)
        last = _LAST_LINK.search(text)
        if last is not None:  # a link to an entry: « Repos [long](glossaire.md#repos-long) »
            path, _, fragment = last.group(1).partition("#")
            entry = self.by_anchor.get(fragment)
            if entry is not None and path.endswith(self.page.rpartition("/")[2]):
                return entry
        text = _TAG.sub(" ", _LINK.sub(lambda m: m.group(1), text))
        ends = [m.end() for m in _CLAUSE_END.finditer(text)]
        words = text[ends[-1] if ends else 0 :].split()
        for size in range(min(self.longest, len(words)), 0, -1):
            candidate = words[-size:]
            candidate[0] = _ELISION.sub("", candidate[0])
            found = self.entry(" ".join(candidate).strip(",’'"))
            if found is not None:
                # The last of a list (« d’escalade, de nage et de saut (cf. « … ») »): the
                # reference is to them all, hence to the page, not to the last one.
                before = words[: len(words) - size]
                if before and before[-1] in ("de", "d’", "d'"):
                    before = before[:-1]  # « … et de saut »
                if before and (before[-1] in ("et", "ou") or before[-1].endswith(",")):
                    return None
                return found
        return None


def glossary_records(sections: Iterable[tuple[str, str, str]]) -> list[dict[str, object]]:
    """The records of `data/glossary.json` for one built glossary page: one per entry, from
    its (URL inside the site, term, body HTML as the search reader cuts it), its definition
    as paragraphs of plain text, never HTML."""
    records: list[dict[str, object]] = []
    for url, term, body in sections:
        paragraphs = []
        for block in re.split(r"</(?:p|li|dd|tr|h\d|blockquote|div)>|<br>", body):
            # A table row reads as its cells, one after the other: « TP · Force × 3,75 kg ».
            cells = _CELL_END.sub(" · ", block)
            text = " ".join(html.unescape(_TAG.sub("", cells)).split()).strip(" ·")
            if text:
                paragraphs.append(text)
        records.append(
            {
                "url": url,
                "term": term,
                "paragraphs": _shortened(paragraphs),
            }
        )
    return records


def _shortened(paragraphs: list[str]) -> list[str]:
    """The paragraphs up to `MAX_PREVIEW_CHARS` characters in all, the last one cut at a word
    and marked « … »."""
    kept: list[str] = []
    room = MAX_PREVIEW_CHARS
    for paragraph in paragraphs:
        if len(paragraph) <= room:
            kept.append(paragraph)
            room -= len(paragraph)
            continue
        cut = paragraph[:room].rsplit(" ", 1)[0].rstrip(" ,;:.–-")
        if cut:
            kept.append(cut + "…")
        elif kept:
            kept[-1] = kept[-1].rstrip(".") + "…"
        break
    return kept
