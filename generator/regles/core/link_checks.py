"""Checks of the owner's links and anchors: a link to a page or an anchor that does not exist
(MkDocs names the file, not the line), the same anchor twice on a page, and the names a slip
away from a section title or an entry, offered in the messages. Pure, as checks.py."""

from __future__ import annotations

import difflib
import hashlib
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from regles.core.cache import KeptResults
from regles.core.markdown_text import HEADING, Heading, PageText
from regles.core.report import Kind, Problem, Severity
from regles.core.slugs import fold

__all__ = [
    "EXTERNAL",
    "SiteMap",
    "Suggester",
    "check_local_links",
    "check_page_ids",
    "close_match",
    "close_page",
    "edit_distance",
    "page_ids",
    "reference_typo",
    "with_suggestions",
]

# Anchors and links -----------------------------------------------------------------------

HTML_ID = re.compile(r"""<[A-Za-z][^<>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']""")
ATTR_LIST_ID = re.compile(r"\{:?\s*[^}\n]*?#([\w-]+)[^}\n]*\}")


def page_ids(page: PageText) -> list[tuple[str, int]]:
    """Every anchor a page defines, with its line: headings (as the toc extension names
    them), attribute lists, HTML ids and names, and the ids of calculator widgets."""
    found: list[tuple[str, int]] = [(h.anchor, h.line) for h in page.headings]
    spans = {(anchor, line) for anchor, _, line in page.anchor_spans}
    for directive in page.directives:
        if directive.kind == "calculateur" and directive.argument:
            argument, number = directive.argument, directive.line
            found += [(f"calc-{argument}", number), (f"calc-{argument}-titre", number)]
    for number, line in page.prose():
        if "=" not in line and "{" not in line:  # neither an HTML id nor an attribute list
            continue
        code_free = page.without_code(number, "")
        for match in HTML_ID.finditer(code_free):
            if (match.group(1), number) not in spans:
                found.append((match.group(1), number))
        if not HEADING.match(line):
            found += [(m.group(1), number) for m in ATTR_LIST_ID.finditer(code_free)]
    found += sorted(spans, key=lambda s: s[1])
    return found


def check_page_ids(page: PageText, file: str) -> list[Problem]:
    """The same id twice on a page: links to it can only reach the first one."""
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for anchor, line in sorted(page_ids(page), key=lambda item: item[1]):
        if anchor in first and first[anchor] != line:
            problems.append(
                Problem(
                    file,
                    line,
                    "error",
                    Kind.DUPLICATE_ANCHOR,
                    f"ancre « #{anchor} » déjà définie ligne {first[anchor]} : "
                    "un lien vers elle ne peut mener qu’à la première",
                    anchor,
                )
            )
        first.setdefault(anchor, line)
    return problems


@dataclass
class SiteMap:
    """Pages and files of the site, the anchors and headings of each page."""

    anchors: dict[str, set[str]] = field(default_factory=dict)
    headings: dict[str, tuple[Heading, ...]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)

    @classmethod
    def build(cls, pages: Iterable[tuple[str, PageText]], files: Iterable[str] = ()) -> SiteMap:
        """From the pages as read with their front matter (`segment(…, front_matter=True)`)."""
        site = cls(files=set(files))
        for page, text in pages:
            site.anchors[page] = {anchor for anchor, _ in page_ids(text)}
            site.headings[page] = text.headings
            site.files.add(page)
        return site


INLINE_LINK = re.compile(r"(?<!\\)(!?)\[((?:[^\[\]\n]|\[[^\]\n]*\])*)\]\(\s*<?([^)\s>]*)>?")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[([^\]\n]+)\]:\s*<?(\S+?)>?(?:\s|$)")
EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


def close_match(name: str, candidates: Iterable[str], cutoff: float = 0.8) -> str | None:
    """The candidate closest to a name (accents and case aside), if it is close enough."""
    by_fold: dict[str, str] = {}
    for candidate in candidates:
        by_fold.setdefault(fold(candidate), candidate)
    found = difflib.get_close_matches(fold(name), list(by_fold), n=1, cutoff=cutoff)
    return by_fold[found[0]] if found else None


def close_page(path: str, pages: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The page (a path in the pages' folder) whose file name is closest to `path`'s, if it
    is close enough; among pages of that name, the closest path. Whole paths would share
    their folder and « .md »: « jeu/absente.md » would find « jeu/index.md »."""

    def name(page: str) -> str:
        return posixpath.splitext(posixpath.basename(page))[0]

    by_name: dict[str, list[str]] = {}
    for page in pages:
        by_name.setdefault(fold(name(page)), []).append(page)
    found = difflib.get_close_matches(fold(name(path)), list(by_name), n=1, cutoff=cutoff)
    if not found:
        return None
    named = by_name[found[0]]
    return close_match(path, named, cutoff=0.0) or named[0]


def edit_distance(a: str, b: str, limit: int) -> int:
    """Insertions, deletions, substitutions and swaps of two neighbours from a to b; any
    number above `limit` is returned as limit + 1 (the search stops there).

    Only the cells within `limit` of the diagonal are computed: the others are at least
    their distance from it, so above the limit whatever they hold. Before that, a quick
    bound: each edit adds or takes at most two letters to the letters that only one of the
    two strings has (a swap none), so more than twice the limit of those is over it."""
    over = limit + 1
    if abs(len(a) - len(b)) > limit or len(set(a) ^ set(b)) > 2 * limit:
        return over
    width = len(b) + 1
    previous2: list[int] = []
    previous = [j if j <= limit else over for j in range(width)]
    for i, ca in enumerate(a, start=1):
        current = [over] * width
        if i <= limit:
            current[0] = i
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            cb = b[j - 1]
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = min(value, over)
        if min(current) > limit:
            return over
        previous2, previous = previous, current
    return previous[-1]


class Suggester:
    """Names a mention may have meant: the one a slip of the keyboard away (accents and
    case aside). « Tests d2O » is « Tests d20 »; « Matériel d’aventurier » is not
    « Matériel d’aventure », the name of another section (two slips)."""

    def __init__(self, names: Iterable[str], kept: KeptResults[str | None] | None = None) -> None:
        self.by_length: dict[int, dict[str, str]] = {}
        for name in names:
            folded = fold(name)
            self.by_length.setdefault(len(folded), {}).setdefault(folded, name)
        # What the last build found for a name, among the same names (core/cache.py).
        self.kept: KeptResults[str | None] = kept if kept is not None else KeptResults(None)
        listed = repr(sorted((n, sorted(d.items())) for n, d in self.by_length.items()))
        self.digest = hashlib.sha256(listed.encode()).hexdigest()

    def typo_of(self, name: str, slips: int = 1) -> str | None:
        folded = fold(name)
        return self.kept.get(
            f"{self.digest}\0{slips}\0{folded}", lambda _: self._closest(folded, slips)
        )

    def _closest(self, folded: str, slips: int) -> str | None:
        best: tuple[int, str] | None = None
        for length in range(len(folded) - slips, len(folded) + slips + 1):
            for other, candidate in self.by_length.get(length, {}).items():
                if other == folded:
                    continue
                distance = edit_distance(folded, other, slips)
                if distance <= slips and (best is None or distance < best[0]):
                    best = (distance, candidate)
        return best[1] if best else None


def _links(page: PageText) -> Iterator[tuple[int, str, str]]:
    """(line, link text, target) of the Markdown links and reference definitions of a page."""
    for number, _ in page.prose():
        code_free = page.without_code(number)
        definition = REFERENCE_DEFINITION.match(code_free)
        if definition:
            yield number, definition.group(1), definition.group(2)
            continue
        for match in INLINE_LINK.finditer(code_free):
            yield number, match.group(2), match.group(3)


def check_local_links(source: PageText, file: str, site: SiteMap) -> list[Problem]:
    """Relative links to pages, files and anchors that do not exist, with their line.

    MkDocs validates the same links once rendered but names only the file; absolute
    (`/…`) links are left to links.unlink_absent_pages.
    """
    problems: list[Problem] = []
    for number, _, target in _links(source):
        if not target or EXTERNAL.match(target) or target.startswith("/"):
            continue
        path, _, anchor = target.partition("#")
        path = unquote(path.split("?", 1)[0])

        def report(
            severity: Severity, kind: Kind, message: str, number: int = number, link: str = target
        ) -> None:
            problems.append(Problem(file, number, severity, kind, message, link))

        if not path:
            page = file
        else:
            page = posixpath.normpath(posixpath.join(posixpath.dirname(file), path))
            if page.startswith("../") or page == "..":
                report(
                    "error",
                    Kind.MISSING_LINK_TARGET,
                    f"lien vers « {target} » : hors du dossier des pages",
                )
                continue
            if not page.endswith(".md"):
                as_page = next(
                    (
                        p
                        for p in (posixpath.join(page, "index.md"), page + ".md")
                        if p in site.anchors
                    ),
                    None,
                )
                if page in site.files and as_page is None:
                    continue
                if as_page is not None:
                    written = posixpath.relpath(as_page, posixpath.dirname(file) or ".")
                    report(
                        "warning",
                        Kind.MISSING_LINK_TARGET,
                        f"lien vers « {target} » : écrivez le chemin de la page, « {written} »",
                    )
                    continue
                report(
                    "error",
                    Kind.MISSING_LINK_TARGET,
                    f"lien vers « {target} » : fichier introuvable",
                )
                continue
            if page not in site.anchors:
                guess = close_page(page, site.anchors)
                hint = f" ; vouliez-vous dire « {guess} » ?" if guess else ""
                report(
                    "error",
                    Kind.MISSING_LINK_TARGET,
                    f"lien vers « {target} » : la page « {page} » n’existe pas{hint}",
                )
                continue
        if not anchor:
            continue
        anchors = site.anchors.get(page, set())
        if anchor not in anchors and unquote(anchor) not in anchors:
            guess = close_match(anchor, anchors, cutoff=0.6)
            hint = f" ; vouliez-vous dire « #{guess} » ?" if guess else ""
            report(
                "error",
                Kind.MISSING_ANCHOR,
                f"lien vers « {target} » : la page « {page} » n’a pas d’ancre « #{anchor} »{hint}",
            )
            continue
        same = [h for h in site.headings.get(page, []) if h.anchor == anchor]
        if same:
            twins = [h for h in site.headings[page] if fold(h.text) == fold(same[0].text)]
            if len(twins) > 1:
                lines = ", ".join(str(h.line) for h in twins)
                report(
                    "warning",
                    Kind.AMBIGUOUS_LINK,
                    f"lien vers « {target} » : « {page} » a {len(twins)} titres "
                    f"« {same[0].text} » (lignes {lines}) ; ce lien mène à celui de la ligne "
                    f"{same[0].line} (les autres : "
                    + ", ".join(f"« #{h.anchor} »" for h in twins if h is not same[0])
                    + ")",
                )
    return problems


def reference_typo(titles: Suggester, name: str) -> str | None:
    """The section title an unresolved reference was probably meant to be (one slip away),
    for a name long enough to tell."""
    return titles.typo_of(name) if len(fold(name)) >= 4 else None


def with_suggestions(
    problems: Iterable[Problem], titles: Suggester, entries: Suggester
) -> list[Problem]:
    """Unresolved references one slip away from a section title become warnings naming
    the title to write; unknown entry mentions get the closest entry name (information)."""
    out: list[Problem] = []
    for p in problems:
        size = len(fold(p.subject or ""))
        if p.kind == Kind.UNRESOLVED_REFERENCE and p.subject:
            guess = reference_typo(titles, p.subject)
            if guess is not None:
                p = replace(
                    p,
                    severity="warning",
                    kind=Kind.REFERENCE_TYPO,
                    message=f"{p.message} ; vouliez-vous dire « {guess} » ?",
                )
        elif p.kind == Kind.UNRESOLVED_MENTION and p.subject and size >= 4:
            guess = entries.typo_of(p.subject, slips=2 if size >= 8 else 1)
            if guess is not None:
                p = replace(p, message=f"{p.message} ; entrée proche : « {guess} »")
        out.append(p)
    return out
