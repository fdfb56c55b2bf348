"""Cross-links: « Section » references, table and condition names, "voir X", italic entry mentions.

Everything here works on pages as `markdown_text.segment` reads them and on source paths
(relative to the docs folder); links are written as relative `.md` links so that MkDocs
itself validates them and their anchors.

Each game system is read on its own (targets.py's `TargetIndex.scope_of`: a system's folder,
or a database's): a mention in one system's text resolves to that system's sections and
entries, or to the site's own pages, never to another system's homonym (one game's « Lumière »
is not another's, nor a database's). Such a mention stays text and the report notes it. A
page outside any system (home, tools) may link anywhere.

A reference to a chapter the site does not hold (« Équipement », « voir Épées », a link to
the site the text was copied from) keeps the owner's words and gets a mark, « absent du
site », a button whose popover (one per page, `ABSENT_NOTE`) says why there is no link: it
opens on a tap, a click or the keyboard, and screen readers read the reason as the mark's
description. Neither the mark nor the note is indexed for search (`search.SKIPPED_CLASSES`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from regles.core.markdown_text import HEADING, PROTECTED, PageText, sub_outside_protected
from regles.core.report import Kind, Problem
from regles.core.slugs import fold
from regles.features.glossary.glossary import LINK_CLASS, Entry, Glossary
from regles.features.links.targets import Target, TargetIndex, href, names_itself

__all__ = [
    "ABSENT_MARK",
    "ABSENT_NOTE",
    "ABSENT_NOTE_ID",
    "check_link_syntax",
    "link_references",
    "unlink_absent_pages",
]

# Malformed Markdown links, each with the message that explains it.
MALFORMED_LINKS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\[[^\]\n]+\]\([^)\s\]]*\](?!\()"),
        "lien mal formé : l’adresse se termine par « ] » au lieu de « ) »",
    ),
    (
        re.compile(r"\[[^\]\n]+\]\([^)\s\"']+ [^)\"'\n]+\)"),
        "lien mal formé : l’adresse contient une espace (écrire %20 ou un tiret)",
    ),
    (
        re.compile(r"\[[^\]\n]+\]\([^)\n]*$"),
        "lien mal formé : la parenthèse de l’adresse n’est jamais fermée",
    ),
]
ABSOLUTE_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\((/[^)\s]*)\)")
GUILLEMETS = re.compile(r"«\s*([^«»]{1,80}?)\s*»")
# Titles are capitalised (« Glossaire de règles »); quoted words are not (« sujet »).
TITLE_START = re.compile(r"^[A-ZÀ-Ý]")
# A capitalised quotation is a reference when the words before it announce one
# ("cf. « X »", "la section « X »", "dans « X »"), not a label ("Choisissez « Ajouter »").
REFERENCE_CUE = re.compile(
    r"(?:\bcf\.|\bvoir|reportez-vous à|consultez|\bdans(?: l[ea]s?)?|\bsections?|"
    r"\bchap[iî]tres?|\btables?|\btableau|\bde|\bà|\bet)\s*$",
    re.IGNORECASE,
)
VOIR = re.compile(
    r"\b([Vv]oir)\s+([A-ZÀ-Ý][^\s,.;:()«»\[\]]*(?:\s+[^\s,.;:()«»\[\]]+)*?)"
    r"(?=\s+pour\b|\s*[,.;:)]|\s*$)"
)
CONDITION_SPAN = re.compile(r'(<span\s+id="etat-[\w-]+"\s*>)([^<]+)(</span>)')
ITALIC = re.compile(r"(?<![\w*_\\])(?:_([^_]+?)_|\*([^*]+?)\*)(?![\w*_])")
MAX_MENTION_WORDS = 6
# A mention that a paragraph's line opens and the next one closes (« Tests de⏎compétence »,
# _Goule⏎des catacombes_): the two lines are read as one. The next line continues the
# paragraph when it starts no block of its own (a list item, a quote, a table row…).
_OPEN_ITALIC = re.compile(r"(?<![\w*_\\])[_*](?=[^\s_*])[^_*]*$")
_CLOSING_ITALIC = re.compile(r"[^\s_*][_*](?![\w*_])")
_BLOCK_START = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|>|!!!|\?\?\?|:\s|<|$)")
MAX_JOINED_LINES = 3
NO_SECTION = "aucune section ni page de ce nom dans le site"
NO_MENTION = "aucune entrée de base ni section de ce nom"

# The mark after a reference to a chapter absent from the site, and its one note per page.
ABSENT_NOTE_ID = "renvoi-absent-note"
ABSENT_EXPLANATION = (
    "Section absente de ce site\u00a0: le texte y renvoie, mais le site ne la contient pas."
)
ABSENT_MARK = (
    f'<button type="button" class="renvoi-absent" popovertarget="{ABSENT_NOTE_ID}" '
    f'aria-describedby="{ABSENT_NOTE_ID}">absent du site</button>'
)
ABSENT_NOTE = (
    f'<span class="renvoi-absent-note" id="{ABSENT_NOTE_ID}" popover>'
    f'<span class="renvoi-absent-texte">{ABSENT_EXPLANATION}</span> '
    f'<button type="button" class="md-button renvoi-absent-fermer" '
    f'popovertarget="{ABSENT_NOTE_ID}" popovertargetaction="hide">Fermer</button></span>'
)


class _AbsentMarks:
    """The marks of one page: the first carries the page's one note (its popover), unless
    the page has it already (an earlier pass marked it)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.noted = any(f'id="{ABSENT_NOTE_ID}"' in line for line in lines)

    def mark(self, text: str) -> str:
        """The reference's words and their mark; the last word (with a closing « » ») and
        the mark kept on one line: a button is a break opportunity on either side."""
        head, tail = _last_words(text)
        mark = ABSENT_MARK
        if not self.noted:
            self.noted = True
            mark += ABSENT_NOTE
        return f'{head}<span class="renvoi-absent-fin">{tail}{mark}</span>'


def _last_words(text: str) -> tuple[str, str]:
    """`text` cut before its last word, or before its last two when the last is « » »."""
    words = text.rsplit(" ", 2 if text.endswith(" »") else 1)
    if len(words) == 1:
        return "", text
    cut = len(text) - len(" ".join(words[1:]))
    return text[:cut], text[cut:]


def check_link_syntax(page: PageText, file: str) -> list[Problem]:
    """Errors for links that Markdown would render as broken text."""
    problems: list[Problem] = []
    for number, line in page.prose():
        # One error per line: the first pattern that matches explains the fault best.
        for pattern, message in MALFORMED_LINKS:
            match = pattern.search(line)
            if match:
                problems.append(
                    Problem(file, number, "error", Kind.MALFORMED_LINK, message, match.group(0))
                )
                break
    return problems


def glossary_link(words: str, file: str, entry: Entry) -> str:
    """A Markdown link to a glossary entry, with the class its preview opens over."""
    return f"[{words}]({href(file, entry.page, entry.anchor)}){{ .{LINK_CLASS} }}"


def unlink_absent_pages(
    page: PageText, file: str, index: TargetIndex | None = None
) -> tuple[PageText, list[Problem]]:
    """Root-absolute links point into the site the text was copied from, not into this one:
    keep their words as plain text, marked absent from the site, and report them, unless
    the site names the page of this one that holds what the address pointed to
    (`index.old_paths`): then the link leads there, and is reported all the same, for the
    owner to fix the source."""
    problems: list[Problem] = []
    lines = list(page.lines)
    marks = _AbsentMarks(lines)
    for number, line in page.prose():
        if "](/" not in line:
            continue

        def unlink(match: re.Match[str], number: int = number) -> str:
            found = index.old_address(match.group(2), match.group(1)) if index else None
            if found is not None:
                target, anchor, entry = found
                place = f"{target}#{anchor}" if anchor else target
                problems.append(
                    Problem(
                        file,
                        number,
                        "info",
                        Kind.OLD_SITE_LINK,
                        f"lien vers {match.group(2)} : adresse du site d’origine, menée à "
                        f"{place} (à corriger dans la source)",
                        match.group(1),
                    )
                )
                if entry is not None:
                    return glossary_link(match.group(1), file, entry)
                return f"[{match.group(1)}]({href(file, target, anchor)})"
            problems.append(
                Problem(
                    file,
                    number,
                    "info",
                    Kind.ABSENT_PAGE,
                    f"lien vers {match.group(2)} : cette page n’est pas dans le site, "
                    "le texte reste sans lien, marqué « absent du site »",
                    match.group(1),
                )
            )
            return marks.mark(match.group(1))

        lines[number - 1] = ABSOLUTE_LINK.sub(unlink, line)
    return (page.with_lines(lines) if problems else page), problems


def glossary_references(line: str, file: str, glossary: Glossary) -> str:
    """A line of one of the glossary's system's pages, its references to the glossary's
    title led to the entry of the term named just before (« l’action Se cacher (cf.
    « Glossaire ») »), and the names of its list of conditions (`<span id="etat-…">`) to
    their entries. A reference after no term is left to the guillemets' pass (the page)."""
    if "etat-" in line:

        def condition(match: re.Match[str]) -> str:
            entry = glossary.entry(match.group(2))
            if entry is None:
                return match.group(0)
            return match.group(1) + glossary_link(match.group(2), file, entry) + match.group(3)

        line = CONDITION_SPAN.sub(condition, line)
    if "«" not in line or not glossary.title:
        return line
    protected = [m.span() for m in PROTECTED.finditer(line)]
    out: list[str] = []
    last = 0
    for match in GUILLEMETS.finditer(line):
        start, end = match.span()
        if fold(match.group(1)) != fold(glossary.title):
            continue
        if any(a < end and start < b for a, b in protected):
            continue
        entry = glossary.entry_before(line[:start])
        if entry is None:
            continue
        out += [line[last:start], f"« {glossary_link(match.group(1), file, entry)} »"]
        last = end
    return "".join(out) + line[last:] if out else line


def _said(written: str) -> str:
    """A mention's words as the site names things: those of a mention that runs over two
    lines of its paragraph joined by one space, as Markdown shows them."""
    return " ".join(written.split())


def _runs_on(line: str, following: str) -> bool:
    """Whether a mention opened in `line` closes in `following`, the next line of its
    paragraph (a heading, a table row or the start of a block is no continuation)."""
    if HEADING.match(following) or _BLOCK_START.match(following) or "|" in line + following:
        return False
    if line.count("«") > line.count("»") and "»" in following:
        return True
    return bool(_OPEN_ITALIC.search(line)) and bool(_CLOSING_ITALIC.search(following))


def link_references(
    page: PageText,
    file: str,
    index: TargetIndex,
    group: str | None = None,
    typo: Callable[[str], str | None] | None = None,
) -> tuple[PageText, list[Problem]]:
    """Turn the mentions of one page into links; report those that resolve to nothing. A
    reference to a chapter absent from the site is marked as such, unless `typo` (a name →
    the title it was probably meant to be) finds it a slip: the report's warning says so."""
    problems: list[Problem] = []
    lines = list(page.lines)
    tables = index.table_titles()
    conditions = index.condition_names()
    glossary = index.glossary_for(file)
    marks = _AbsentMarks(lines)

    def mentions(line: str, number: int) -> str:
        """`line` (one line, or lines of a paragraph joined by line breaks) with its
        mentions linked; `number` its first line."""

        def unresolved(kind: Kind, name: str, what: str, reason: str, number: int = number) -> None:
            """Report `what` (the mention as written) that resolves to nothing here: for
            `reason`, or because its only homonyms are another system's."""
            places = index.elsewhere(name, file)
            if places:
                kind = Kind.OTHER_SYSTEM_MENTION
                reason = (
                    f"seul{'s' if len(places) > 1 else ''} {', '.join(places)} "
                    f"{'portent' if len(places) > 1 else 'porte'} ce nom, dans un autre "
                    "système ; le texte reste sans lien"
                )
            problems.append(Problem(file, number, "info", kind, f"{what} : {reason}", name))

        def absent(text: str, name: str) -> str:
            """The reference's words, marked when they name a chapter absent from the site."""
            if typo is not None and typo(name) is not None:
                return text
            return marks.mark(text)

        def ambiguous(name: str, target: Target, number: int = number) -> None:
            rivals = index.rivals(name, file)
            if len(rivals) < 2:
                return
            places = ", ".join(f"{t.page}#{t.anchor}" if t.anchor else t.page for t in rivals)
            chosen = f"{target.page}#{target.anchor}" if target.anchor else target.page
            problems.append(
                Problem(
                    file,
                    number,
                    "warning",
                    Kind.AMBIGUOUS_REFERENCE,
                    f"« {name} » : {len(rivals)} sections de ce nom ({places}) ; "
                    f"le renvoi mène à {chosen}",
                    name,
                )
            )

        def guillemets(match: re.Match[str]) -> str:
            written, name = match.group(1), _said(match.group(1))
            target = index.section(name, file)
            entry = glossary.entry(name) if glossary is not None and target is None else None
            if entry is not None:
                return f"« {glossary_link(written, file, entry)} »"
            if target is None:
                before = match.string[max(0, match.start() - 30) : match.start()]
                if TITLE_START.match(name) and REFERENCE_CUE.search(before):
                    unresolved(Kind.UNRESOLVED_REFERENCE, name, f"« {name} »", NO_SECTION)
                    return absent(match.group(0), name)
                return match.group(0)
            if names_itself(file, target):
                return match.group(0)
            ambiguous(name, target)
            return f"« [{written}]({href(file, target.page, target.anchor)}) »"

        def table(match: re.Match[str]) -> str:
            target = index.section(match.group(2), file)
            if target is None:  # the pattern lists every title: this one is another system's
                name = match.group(2)
                unresolved(Kind.OTHER_SYSTEM_MENTION, name, f"table « {name} »", NO_SECTION)
                return match.group(0)
            if names_itself(file, target):
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def condition(match: re.Match[str]) -> str:
            entry = glossary.entry(match.group(2)) if glossary is not None else None
            if entry is not None:
                return f"{match.group(1)}{glossary_link(match.group(2), file, entry)}"
            target = index.conditions[fold(match.group(2))]
            if not index.reaches(file, target.page):
                name = match.group(2)
                unresolved(Kind.OTHER_SYSTEM_MENTION, name, f"état « {name} »", NO_SECTION)
                return match.group(0)
            link = href(file, target.page, target.anchor)
            return f"{match.group(1)}[{match.group(2)}]({link})"

        def voir(match: re.Match[str]) -> str:
            name = match.group(2)
            target = index.section(name, file)
            if target is None:
                unresolved(Kind.UNRESOLVED_REFERENCE, name, f"« voir {name} »", NO_SECTION)
                return absent(match.group(0), name)
            if names_itself(file, target):
                return match.group(0)
            ambiguous(name, target)
            return f"{match.group(1)} [{name}]({href(file, target.page, target.anchor)})"

        def italic(match: re.Match[str]) -> str:
            written = match.group(1) or match.group(2)
            name = _said(written)
            if len(name.split()) > MAX_MENTION_WORDS or any(c in name for c in ".:;!?"):
                return match.group(0)  # emphasis in a sentence, not a mention
            entry = glossary.entry(name) if glossary is not None else None
            if entry is not None:
                return glossary_link(f"_{written}_", file, entry)
            found = index.entry(name, group, file)
            if not found:
                target = index.section(name, file)
                if target is not None and names_itself(file, target):
                    return match.group(0)
                if target is not None:
                    return f"[_{written}_]({href(file, target.page, target.anchor)})"
                unresolved(Kind.UNRESOLVED_MENTION, name, f"_{name}_", NO_MENTION)
                return match.group(0)
            if len(found) == 1:
                only = found[0]
                return f"[_{written}_]({href(file, only.page, only.anchor)}){{ .entry-link }}"
            # Same name in several groups and none is this page's: offer each one.
            choices = ", ".join(f"[{s.group}]({href(file, s.page, s.anchor)})" for s in found)
            return f'_{written}_ <small class="homonymes">({choices})</small>'

        # Each pass only on lines holding the words its pattern cannot match without.
        new = line
        if glossary is not None:
            new = glossary_references(new, file, glossary)
        if "«" in new:
            new = sub_outside_protected(GUILLEMETS, guillemets, new)
        if tables is not None and "table" in new:
            new = sub_outside_protected(tables, table, new)
        if conditions is not None and "tat" in new:  # état, états
            new = sub_outside_protected(conditions, condition, new)
        if "oir" in new:  # voir, Voir
            new = sub_outside_protected(VOIR, voir, new)
        if "_" in new or "*" in new:
            new = sub_outside_protected(ITALIC, italic, new)
        return new

    prose = [(number, line) for number, line in page.prose()]
    joined = 0  # lines already read with the one before them
    for i, (number, line) in enumerate(prose):
        if joined:
            joined -= 1
            continue
        if HEADING.match(line) or not line.strip():
            continue
        unit = [line]
        while (
            len(unit) < MAX_JOINED_LINES
            and i + len(unit) < len(prose)
            and prose[i + len(unit)][0] == number + len(unit)
            and _runs_on(unit[-1], prose[i + len(unit)][1])
        ):
            unit.append(prose[i + len(unit)][1])
        reported, noted = len(problems), marks.noted
        new = mentions("\n".join(unit), number).split("\n")
        if len(new) != len(unit):  # a link that took away a line break: each line on its own
            del problems[reported:]
            marks.noted = noted
            new = [mentions(one, number + k) for k, one in enumerate(unit)]
        lines[number - 1 : number - 1 + len(unit)] = new
        joined = len(unit) - 1
    return page.with_lines(lines), problems
