"""What an entry export is made of, read from the export alone: its fields, the labels its
descriptions open with, its levels and its abbreviations, and the page that lists them.

Pure code over a parsed export (`features/databases/export.py`). Nothing here knows a game: every
name, count and definition comes from the export, or from the owner's `spells: terms:` in
mkdocs.yml, shown as the owner's. A word neither defines is listed as « non défini par
l’export », never explained.

What is found, and how
----------------------
- Fields: every ``- **Clé :**`` key, with the number of entries that carry it and its values
  (all of them when they are few, else the most frequent).
- Labels: an italic word followed by a colon in a description (``_Coût_ : 80``).
- Levels: the notation of the level groups (``(II)``, ``(I-IV)``), the levels found, and the
  phrase « niveau de <mot> » when the export's text uses one far more than any other.
- Abbreviations, by three rules, each a word of the export's texts (group descriptions,
  field values, descriptions):
  1. a word of letters (optionally joined by hyphens, optionally after ``Δ``) with two
     capitals or more, at most ``ACRONYM_LETTERS`` letters, that is no roman numeral nor
     range of them: ``PdM``, ``MR``, ``ΔMR``, ``P-Ex-sRD``;
  2. a capitalised word of at most ``ATTRIBUTE_LETTERS`` letters that, in some field value,
     is joined by a sign to a number or to another such word (``Vol-3``, ``Vol+Magerie``),
     and the capitalised one-word values of that same field (``San``);
  3. a capitalised word of at most ``SHORT_LETTERS`` letters, never written in lowercase
     in the export nor part of an entry's or group's name, used at least twice inside a
     sentence (not after « . », « ! », « ? »,
     « : », a bullet or an opening mark): ``Dex``, ``Int``.
  Each is counted as a whole word in those texts, with the entries that use it.
- A definition from the export: « points de vie (PdV) », the initials of the words
  before the parenthesis being the abbreviation's letters, or « PdV (points de vie) »,
  or « Dex (dextérité) », a single word the abbreviation begins.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from regles.core.markdown_text import markdown_text
from regles.core.slugs import slugify, unique_slug
from regles.core.words import DEFAULT_WORDS, Words, capitalized
from regles.features.databases.model import Entry, Group, ParseResult, int_to_roman, roman_to_int

__all__ = [
    "ExportTerms",
    "Term",
    "export_summary",
    "group_intro",
    "level_label",
    "read_terms",
    "render_fields_page",
]

ACRONYM_LETTERS = 6
ATTRIBUTE_LETTERS = 8
SHORT_LETTERS = 4
FEW_VALUES = 12  # a field with at most this many distinct values lists them all
FREQUENT_VALUES = 8  # else: the most frequent ones
EXAMPLES = 3  # entries named for each word
UNDEFINED = "non défini par l’export"

# A word: letters, optionally joined by hyphens, optionally after « Δ » (a difference).
_WORD_RE = re.compile(
    r"(?<![^\W_])(?<![^\W\d_]-)(?<!Δ)Δ?[^\W\d_]+(?:-[^\W\d_]+)*(?![^\W_])(?!-[^\W\d_])"
)
_LABEL_RE = re.compile(r"(?<![^\W_])_(?P<label>[^_\n:]{1,40}?)_[ \t\xa0\u202f]?:")
_SIGNED_RE = re.compile(
    r"(?<![^\W_])(?P<word>[^\W\d_]+)[ \xa0]?[-+−][ \xa0]?(?P<other>\d+|[^\W\d_]+)(?![^\W_])"
)
_LEVEL_PHRASE_RE = re.compile(r"(?<![^\W_])[Nn]iveaux? de (?P<word>[^\W\d_]+)")
_SENTENCE_STOPS = ".!?:•*«(["
_SPACES = " \t\n\xa0\u202f"


@dataclass
class Term:
    """A word of the export: a field, a label, an abbreviation."""

    name: str
    occurrences: int = 0
    entries: list[Entry] = field(default_factory=list)
    values: Counter[str] = field(default_factory=Counter)  # a field's values
    definition: str | None = None  # as the export writes it
    defined_in: Entry | None = None  # the entry whose text defines it
    configured: str | None = None  # the owner's definition (mkdocs.yml)
    anchor: str = ""


@dataclass
class ExportTerms:
    """Everything the fields page lists."""

    result: ParseResult
    fields: list[Term]
    labels: list[Term]
    abbreviations: list[Term]
    levels: Counter[int]  # entries that can be cast at each level
    single_level: int  # entries of one level
    level_phrase: tuple[str, int] | None  # « niveau de puissance », and how often
    unused_terms: list[str]  # configured, found nowhere in the export

    @property
    def all_terms(self) -> list[Term]:
        return [*self.fields, *self.labels, *self.abbreviations]


def _is_roman(word: str) -> bool:
    return all(roman_to_int(part) is not None for part in word.split("-"))


def _letters(word: str) -> str:
    return "".join(c for c in word if c.isalpha() and c != "Δ")


def _is_acronym(word: str) -> bool:
    letters = _letters(word)
    capitals = sum(1 for c in word if c.isupper())
    return 2 <= len(letters) <= ACRONYM_LETTERS and capitals >= 2 and not _is_roman(word)


def _is_capitalised(word: str, most: int) -> bool:
    return 2 <= len(word) <= most and word.isalpha() and word[0].isupper() and word[1:].islower()


def _texts(result: ParseResult) -> list[tuple[Entry | None, str]]:
    """The export's texts, each with its entry (None: a group's description): its fields'
    names too, where an abbreviation may be all the reader meets of it (« Perte de SAN »)."""
    found: list[tuple[Entry | None, str]] = [
        (None, c.description) for c in result.groups if c.description
    ]
    for s in result.entries:
        found += [(s, text) for field in s.fields.items() for text in field]
        if s.description:
            found.append((s, s.description))
    return found


def _attribute_words(result: ParseResult, names: set[str]) -> set[str]:
    """Rule 2: capitalised words joined by a sign in a field's values, and that field's
    capitalised one-word values."""
    found: set[str] = set()
    by_key: dict[str, list[str]] = {}
    for s in result.entries:
        for key, value in s.fields.items():
            by_key.setdefault(key, []).append(value)
    for values in by_key.values():
        signed = set()
        for value in values:
            for m in _SIGNED_RE.finditer(value):
                for word in (m.group("word"), m.group("other")):
                    if _is_capitalised(word, ATTRIBUTE_LETTERS):
                        signed.add(word)
        if not signed:
            continue
        found |= signed
        found |= {v for v in values if _is_capitalised(v, ATTRIBUTE_LETTERS) and v not in names}
    return found


def _short_words(texts: Sequence[tuple[Entry | None, str]], names: set[str]) -> set[str]:
    """Rule 3: short capitalised words never in lowercase, twice or more inside a sentence."""
    lowercase: set[str] = set()
    inside: Counter[str] = Counter()
    for _, text in texts:
        for m in _WORD_RE.finditer(text):
            word = m.group()
            if word[0].islower():
                lowercase.add(word.casefold())
                continue
            if not _is_capitalised(word, SHORT_LETTERS) or word in names:
                continue
            # The last character before the word, spaces aside: inside a sentence?
            at = m.start() - 1
            while at >= 0 and text[at] in _SPACES:
                at -= 1
            if at >= 0 and text[at] not in _SENTENCE_STOPS and text[at] != "_":
                inside[word] += 1
    return {w for w, n in inside.items() if n >= 2 and w.casefold() not in lowercase}


def _count(term: Term, words: Sequence[tuple[Entry | None, Counter[str]]]) -> None:
    """The term's occurrences as a whole word (`_WORD_RE`'s), and the entries they are in."""
    for entry, counted in words:
        n = counted.get(term.name, 0)
        term.occurrences += n
        if n and entry is not None and entry not in term.entries:
            term.entries.append(entry)


def _initials_match(abbreviation: str, words: Sequence[str]) -> bool:
    letters = _letters(abbreviation).casefold()
    initials = "".join(w[0] for w in words if w).casefold()
    return len(words) == len(letters) and initials == letters


def _find_definition(term: Term, texts: Sequence[tuple[Entry | None, str]]) -> None:
    """« mots (ABR) », « ABR (mots) », « Abr (mot) »: a definition the export writes.

    The term's own spelling is looked for first (a plain search), and the words around it
    read only where it stands: a pattern tried at every position of every description took
    a second of each build."""
    name = term.name
    count = len(_letters(name))
    words_before = re.compile(rf"(?P<words>(?:[^\W\d_]+[ ’']){{{count}}})\Z")
    for entry, text in texts:
        for at in _positions(text, f"({name})"):
            found = _words_before(words_before, text, at, count)
            if found is not None:
                words = re.split(r"[ ’']", found.strip(" ’'"))
                if _initials_match(name, words):
                    term.definition, term.defined_in = found.strip(), entry
                    return
        for at in _positions(text, f"{name} ("):
            if at and (text[at - 1].isalnum()):
                continue  # inside a longer word
            inside = _INSIDE_PARENTHESES.match(text, at + len(name) + 2)
            if inside is None:
                continue
            inner = inside.group("words").strip()
            words = re.split(r"[ ’']+", inner)
            single = len(words) == 1 and inner.casefold().startswith(name.casefold())
            if _initials_match(name, words) or (single and len(inner) > len(name)):
                term.definition, term.defined_in = inner, entry
                return


# What « ABR ( » is followed by when it is defined: 2 to 60 characters, then « ) ».
_INSIDE_PARENTHESES = re.compile(r"(?P<words>[^()\n]{2,60})\)")
# Letters a word may hold: words longer than that before a definition are not looked at.
_LONGEST_WORD = 80


def _positions(text: str, needle: str) -> Iterator[int]:
    """Where `needle` stands in `text`, left to right."""
    at = text.find(needle)
    while at != -1:
        yield at
        at = text.find(needle, at + 1)


def _words_before(pattern: re.Pattern[str], text: str, at: int, count: int) -> str | None:
    """The `count` words (each followed by a space or an apostrophe) that end right at `at`;
    None if there are not that many."""
    start = max(0, at - _LONGEST_WORD * count)
    found = pattern.search(text, start, at)
    if found is not None and found.start() == start and start > 0 and text[start - 1].isalpha():
        found = pattern.search(text, 0, at)  # a word cut by the window: read it whole
    return found.group("words") if found is not None else None


def _anchors(terms: Iterable[Term], prefix: str, taken: set[str]) -> None:
    for term in terms:
        base = f"{prefix}-{slugify(term.name) or 'terme'}"
        term.anchor = unique_slug(base, taken, separator="-", first=2)


def read_terms(result: ParseResult, configured: Mapping[str, str]) -> ExportTerms:
    """The fields, labels, levels and abbreviations of an export, with their definitions."""
    texts = _texts(result)
    names = {w for s in result.entries for w in _WORD_RE.findall(s.name)}
    names |= {w for c in result.groups for w in _WORD_RE.findall(c.name)}

    fields: dict[str, Term] = {}
    for s in result.entries:
        for key, value in s.fields.items():
            term = fields.setdefault(key, Term(key))
            term.occurrences += 1
            term.entries.append(s)
            term.values[value] += 1

    labels: dict[str, Term] = {}
    for s in result.entries:
        for m in _LABEL_RE.finditer(s.description):
            term = labels.setdefault(m.group("label").strip(), Term(m.group("label").strip()))
            term.occurrences += 1
            if s not in term.entries:
                term.entries.append(s)

    # Each text's words, counted once: a term's occurrences are those of the word.
    counted = [(entry, Counter(_WORD_RE.findall(text))) for entry, text in texts]
    every_word = {word for _, words_of_text in counted for word in words_of_text}
    words = {word for word in every_word if _is_acronym(word)}
    words |= _attribute_words(result, names)
    words |= _short_words(texts, names)
    words -= set(fields) | set(labels)
    abbreviations = [Term(w) for w in sorted(words, key=lambda w: (w.casefold(), w))]
    for term in abbreviations:
        _count(term, counted)
        _find_definition(term, texts)
    abbreviations = [t for t in abbreviations if t.occurrences]
    abbreviations.sort(key=lambda t: (-t.occurrences, t.name.casefold(), t.name))

    field_terms = sorted(fields.values(), key=lambda t: (-t.occurrences, t.name))
    label_terms = sorted(labels.values(), key=lambda t: (-t.occurrences, t.name))
    taken: set[str] = set()
    _anchors(field_terms, "champ", taken)
    _anchors(label_terms, "mention", taken)
    _anchors(abbreviations, "abreviation", taken)
    every = {t.name: t for t in [*field_terms, *label_terms, *abbreviations]}
    for name, text in configured.items():
        if name in every:
            every[name].configured = text.strip()

    levels: Counter[int] = Counter()
    for s in result.entries:
        if s.level_min is not None and s.level_max is not None:
            for level in range(s.level_min, s.level_max + 1):
                levels[level] += 1
    return ExportTerms(
        result=result,
        fields=field_terms,
        labels=label_terms,
        abbreviations=abbreviations,
        levels=levels,
        single_level=sum(
            1 for s in result.entries if s.level_min is not None and s.level_min == s.level_max
        ),
        level_phrase=_level_phrase(texts),
        unused_terms=sorted(set(configured) - set(every)),
    )


def _level_phrase(texts: Sequence[tuple[Entry | None, str]]) -> tuple[str, int] | None:
    """« niveau de <mot> », when the export uses one phrase for its levels: five times or
    more, and more than half of all its « niveau de … »."""
    phrases: Counter[str] = Counter()
    for _, text in texts:
        phrases.update(m.group("word").casefold() for m in _LEVEL_PHRASE_RE.finditer(text))
    if not phrases:
        return None
    word, n = phrases.most_common(1)[0]
    if n < 5 or n * 2 <= sum(phrases.values()):
        return None
    return f"niveau de {word}", n


def level_label(terms: ExportTerms | None) -> str:
    """The name of the entries' levels for the filters: the export's own phrase, if any."""
    if terms is None or terms.level_phrase is None:
        return "Niveaux"
    return "Niveaux" + terms.level_phrase[0].removeprefix("niveau")


# --------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _title(result: ParseResult) -> str:
    return f"**{markdown_text(result.title)}**" if result.title else "sans titre"


def _date(result: ParseResult) -> str:
    if result.generated:
        return f"généré le {markdown_text(result.generated)}"
    return "date de génération absente de l’export"


def export_summary(result: ParseResult, words: Words = DEFAULT_WORDS) -> str:
    """« Export Grimoire, généré le 01/02/2027 à 08:00 : 3 collèges, 40 sorts », as Markdown,
    in the game's words."""
    groups = _plural(len(result.groups), words.group.one, words.group.many)
    entries = _plural(len(result.entries), words.entry.one, words.entry.many)
    return f"Export {_title(result)}, {_date(result)} : {groups}, {entries}"


def group_intro(
    result: ParseResult,
    group: Group,
    links: Sequence[tuple[str, str]],
    words: Words = DEFAULT_WORDS,
) -> str:
    """The line under a group's title, in the game's words: its export, its size, the
    entries' other pages (title, file name in the same folder)."""
    n = len(group.entries)
    pages = " ; ".join(f"[{markdown_text(title)}]({page})" for title, page in links)
    line = (
        f"{capitalized(words.group.one)} de l’export {_title(result)} ({_date(result)}) : "
        f"{n} {words.entry.word(n)} sur {len(result.entries)}."
    )
    return f"{line} Voir aussi : {pages}." if pages else line


def _entry_link(entry: Entry, group_slugs: Mapping[str, str]) -> str:
    return f"[{markdown_text(entry.name)}]({group_slugs[entry.group]}.md#{entry.slug})"


def _examples(term: Term, group_slugs: Mapping[str, str]) -> str:
    entries = term.entries[:EXAMPLES]
    twice = {s.name for s in entries if sum(o.name == s.name for o in entries) > 1}
    shown = ", ".join(
        _entry_link(s, group_slugs) + (f" ({markdown_text(s.group)})" if s.name in twice else "")
        for s in entries
    )
    rest = len(term.entries) - len(entries)
    return f"{shown} et {_plural(rest, 'autre', 'autres')}" if rest else shown


def _definition(term: Term, group_slugs: Mapping[str, str]) -> list[str]:
    lines = []
    if term.definition is not None:
        where = f" ({_entry_link(term.defined_in, group_slugs)})" if term.defined_in else ""
        definition = markdown_text(term.definition)
        lines.append(f"Définition écrite dans l’export{where} : « {definition} ».")
    if term.configured is not None:
        lines.append(
            f"Définition donnée par le site (sa configuration, pas l’export) : "
            f"« {markdown_text(term.configured)} »."
        )
    if not lines:
        lines.append(f'Définition : <span class="non-defini">{UNDEFINED}</span>.')
    return lines


_DIGITS = re.compile(r"(\d+)")


def _natural(text: str) -> tuple[str | int, ...]:
    """A sort key that reads the numbers of `text` as numbers: « 5 » before « 14 »."""
    return tuple(
        int(part) if i % 2 else part.casefold() for i, part in enumerate(_DIGITS.split(text))
    )


def _values(term: Term) -> str:
    def shown(values: Iterable[tuple[str, int]]) -> str:
        return " ; ".join(f"{markdown_text(v)} ({n})" for v, n in values)

    ordered = sorted(term.values.items(), key=lambda item: (-item[1], _natural(item[0]), item[0]))
    if len(ordered) <= FEW_VALUES:
        return f"Valeurs : {shown(ordered)}."
    return (
        f"{len(ordered)} valeurs différentes ; les plus fréquentes : "
        f"{shown(ordered[:FREQUENT_VALUES])}."
    )


def render_fields_page(
    terms: ExportTerms,
    title: str,
    index_title: str,
    index_page: str,
    words: Words = DEFAULT_WORDS,
) -> str:
    """Markdown of the fields page, in the groups' folder (`index_page`: the entry index's
    file name there), in the game's words."""
    result = terms.result
    slugs = {c.name: c.slug for c in result.groups}
    total = len(result.entries)
    entry, group = words.entry, words.group

    def entries(n: int) -> str:
        return _plural(n, entry.one, entry.many)

    # Of an export without levels, nothing is said of them.
    notation = ", la notation des niveaux" if terms.levels else ""
    after = "le nom et les niveaux" if terms.levels else "le nom"
    out = [f"# {markdown_text(title)}", ""]
    out += [f"{export_summary(result, words)}.", "{ .export-entete }", ""]
    out += [
        "*Page faite par le générateur du site à partir de l’export seul (texte ajouté) : "
        f"chaque champ{notation} et chaque abréviation que l’export emploie, "
        "avec leur nombre. Une définition n’y figure que si l’export l’écrit lui-même, ou si "
        "la configuration du site la donne (c’est alors dit) ; sinon, le mot est marqué "
        f"« {UNDEFINED} ». La liste de {entry.every()} : "
        f"[{markdown_text(index_title)}]({index_page}).*",
        "",
    ]

    out += [f"## Champs {entry.of(2)} {{ #champs }}", ""]
    out += [
        f"Écrits après {after} d’{entry.a()}, sous la forme « Champ : valeur ». "
        f"{capitalized(entry.a())} peut n’en avoir aucun : {entries(total)} en tout.",
        "",
    ]
    for term in terms.fields:
        out += [f"### {markdown_text(term.name)} {{ #{term.anchor} }}", ""]
        out += [
            f"{entries(len(term.entries))} sur {total}. {_values(term)}",
            "",
        ]
        out += [*_definition(term, slugs), ""]
    if not terms.fields:
        out += [f"{capitalized(entry.count(0))} de l’export n’a de champ.", ""]

    if terms.labels:
        out += ["## Mentions dans les descriptions { #mentions }", ""]
        out += [
            f"Mots en italique suivis de deux-points dans la description d’{entry.a()}.",
            "",
        ]
        for term in terms.labels:
            out += [f"### {markdown_text(term.name)} {{ #{term.anchor} }}", ""]
            out += [
                f"{_plural(term.occurrences, 'fois', 'fois')}, "
                f"dans {entries(len(term.entries))} : "
                f"{_examples(term, slugs)}.",
                "",
            ]
            out += [*_definition(term, slugs), ""]

    # An export without levels (a game that gives its entries none) has no such section.
    if terms.levels:
        out += ["## Niveaux { #niveaux }", ""]
        levels = terms.levels
        low, high = min(terms.levels), max(terms.levels)
        ranges = total - terms.single_level
        out += [
            f"Après le nom de chaque {entry.one}, entre parenthèses, en chiffres romains : "
            "un niveau, comme « (II) », ou une plage de niveaux, comme « (I-IV) ». "
            f"Niveaux présents : {int_to_roman(low)} à {int_to_roman(high)} ; "
            f"{entries(terms.single_level)} d’un seul niveau, "
            f"{entries(ranges)} sur une plage.",
            "",
        ]
        out += [f"| Niveau | {capitalized(entry.many)} qui le comprennent |", "| --- | --- |"]
        out += [f"| {int_to_roman(n)} | {terms.levels[n]} |" for n in sorted(levels)]
        out.append("")
        if terms.level_phrase is not None:
            phrase, n = terms.level_phrase
            out += [
                f"Les descriptions parlent de « {phrase} » ({_plural(n, 'fois', 'fois')}) ; "
                "le tableau et ses filtres reprennent ce nom.",
                "",
            ]
        out += [f'Sens des niveaux : <span class="non-defini">{UNDEFINED}</span>.', ""]

    out += ["## Abréviations et termes { #abreviations }", ""]
    if terms.abbreviations:
        undefined = [t for t in terms.abbreviations if t.definition is None and not t.configured]
        out += [
            "Sigles et mots abrégés relevés dans les textes de l’export (descriptions des "
            f"{group.many}, valeurs des champs, descriptions {entry.of(2)}), du plus au moins "
            "employé. "
            f"{len(terms.abbreviations)} relevés, dont {len(undefined)} "
            "sans définition dans l’export.",
            "",
        ]
    else:
        out += ["Aucune abréviation relevée dans l’export.", ""]
    for term in terms.abbreviations:
        out += [f"### {markdown_text(term.name)} {{ #{term.anchor} }}", ""]
        out += [
            f"{_plural(term.occurrences, 'occurrence', 'occurrences')} "
            f"dans {entries(len(term.entries))}"
            + (f" : {_examples(term, slugs)}." if term.entries else "."),
            "",
        ]
        out += [*_definition(term, slugs), ""]
    return "\n".join(out)
