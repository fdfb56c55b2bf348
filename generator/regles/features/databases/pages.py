"""A database's read export turned into what the site shows: each entry's short id, the
records of its data file, the pages of its groups, its index and its table, the readers'
lists' page."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from regles.core.markdown_text import markdown_text
from regles.core.words import DEFAULT_WORDS, Words, capitalized
from regles.features.databases.columns import Column, choice_values, index_columns, number_order
from regles.features.databases.descriptions import collapse
from regles.features.databases.model import Entry, Group, ParseResult, int_to_roman
from regles.features.databases.ordering import distance_order, duration_order, is_long

__all__ = [
    "ENTRY_HEADING",
    "ENTRY_TABLE_MARK",
    "IndexLabels",
    "entry_ids",
    "entry_records",
    "markdown_for_page",
    "mention_linker",
    "render_entry_index",
    "render_entry_table",
    "render_group_page",
    "render_lists_page",
]

# --------------------------------------------------------------------------
# Records and rendering
# --------------------------------------------------------------------------


# Short ids of the entries (`entry_ids`): at least this many base-36 digits.
ENTRY_ID_LENGTH = 4
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36_digest(key: str) -> str:
    """SHA-256 of ``key`` written in base 36 (50 digits, the most significant first)."""
    number = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest(), "big")
    digits = []
    for _ in range(50):
        number, digit = divmod(number, 36)
        digits.append(_BASE36[digit])
    return "".join(reversed(digits))


def entry_ids(result: ParseResult) -> dict[tuple[str, str], str]:
    """The short id of each entry, by (group slug, entry slug): the ids that lists
    and their share links (`?sorts=<id>,<id>`) hold.

    Rule: the key « <college slug>/<spell slug> » (unique: an entry's slug is unique in its
    group, and a name that recurs across groups has one key per group) is hashed with
    SHA-256 and written in base 36 (0-9, a-z); the id is the shortest start of that digest,
    of at least ``ENTRY_ID_LENGTH`` digits, that no other entry of the export starts with.
    The same export gives the same ids at every build, in any order; an id only depends on
    its own key, unless another entry's digest shares its first digits (with 4 digits, 1.7
    million values, about one export of 400 entries in twenty has one such pair: both are
    lengthened by one digit, or more while they still agree).
    """
    digests = {
        (group.slug, s.slug): _base36_digest(f"{group.slug}/{s.slug}")
        for group in result.groups
        for s in group.entries
    }
    ids: dict[tuple[str, str], str] = {}
    pending = dict(digests)  # the entries whose start is still shared, at `length` digits
    length = ENTRY_ID_LENGTH
    while pending:
        # Counted over every digest: a start must be no other entry's, settled or not.
        starts = Counter(d[:length] for d in digests.values())
        for key, digest in list(pending.items()):
            if starts[digest[:length]] == 1:
                ids[key] = digest[:length]
                del pending[key]
        length += 1
    return ids


def entry_records(
    result: ParseResult, folder: str, columns: Sequence[Column] | None = None
) -> list[dict[str, object]]:
    """JSON-ready records for a database's data file (``data/bases/<folder>.json``);
    descriptions are Markdown, HTML unescaped; ``id``: the entry's short id (`entry_ids`);
    ``tri``: the order of each of the index's `columns` that sorts by its value."""
    ids = entry_ids(result)
    columns = result_columns(result) if columns is None else columns
    records: list[dict[str, object]] = []
    for group in result.groups:
        for s in group.entries:
            orders, choices, long = entry_filters(columns, s.fields)
            records.append(
                {
                    "id": ids[(group.slug, s.slug)],
                    "name": s.name,
                    "group": s.group,
                    "group_slug": group.slug,
                    "level_min": s.level_min,
                    "level_max": s.level_max,
                    "fields": dict(s.fields),
                    "description": s.description,
                    "url": f"{folder}/{group.slug}/#{s.slug}",
                    "slug": s.slug,
                    # What the lists sort and filter by, as the index's rows.
                    "tri": orders,
                    "choix": choices,
                    "long": long,
                }
            )
    return records


def _name_key(name: str) -> str:
    return collapse(name).replace("'", "’").casefold()


def mention_linker(result: ParseResult, group: Group) -> Callable[[str], str | None]:
    """Resolver for ``_Nom_`` mentions on ``group``'s page: an entry of the same group
    first (``#slug``), else of the first group that has it (``../<collège>/#slug``)."""
    targets: dict[str, str] = {}
    for s in group.entries:
        targets.setdefault(_name_key(s.name), f"#{s.slug}")
    for c in result.groups:
        for s in c.entries:
            targets.setdefault(_name_key(s.name), f"../{c.slug}/#{s.slug}")

    def link(name: str) -> str | None:
        return targets.get(_name_key(name))

    return link


_ENTITY_LINE_START_RE = re.compile(r"(?m)^(- )?([:~?])")
_MENTION_RE = re.compile(r"(?<![\w\\])_(?P<inner>[^_\n]+?)_(?!\w)")


def markdown_for_page(markdown: str, link: Callable[[str], str | None] | None = None) -> str:
    """Neutralise raw HTML in description Markdown and optionally link ``_Nom_`` mentions."""
    escaped = html.escape(markdown, quote=False)
    # ":" (definition list), "~~~" (fence) and "???" (details) have no backslash escape.
    escaped = _ENTITY_LINE_START_RE.sub(
        lambda m: f"{m.group(1) or ''}&#{ord(m.group(2))};", escaped
    )
    if link is None:
        return escaped

    def mention(m: re.Match[str]) -> str:
        inner = m.group("inner")
        target = link(html.unescape(re.sub(r"\\(.)", r"\1", inner)))
        if target is None:
            return m.group()
        return f"[_{inner}_]({target})"

    return _MENTION_RE.sub(mention, escaped)


def _levels(entry: Entry) -> tuple[str, str] | None:
    """An entry's levels as its badge shows them (« II–IV ») and says them, if it has any."""
    if entry.level_min is None or entry.level_max is None:
        return None
    low, high = int_to_roman(entry.level_min), int_to_roman(entry.level_max)
    if low == high:
        return low, f"Niveau {low}"
    return f"{low}–{high}", f"Niveaux {low} à {high}"


def _entry_heading(entry: Entry) -> str:
    """An entry's heading in its group's page, which ENTRY_HEADING reads back."""
    return f"## {markdown_text(entry.name)} {{ #{entry.slug} .entry }}"


# An entry's heading in its group's page, as `_entry_heading` writes it: its slug.
ENTRY_HEADING = re.compile(r"^## .*\{ #(\S+) \.entry \}$")


def render_group_page(
    group: Group, link: Callable[[str], str | None] | None = None, *, intro: str = ""
) -> str:
    """Markdown page of one group; ``link`` resolves ``_Nom_`` mentions (``mention_linker``);
    ``intro``, Markdown, says which export the group is of."""
    e = html.escape
    out = [f"# {markdown_text(group.name)}\n"]
    if intro:
        out.append(f"{intro}\n{{ .export-entete }}\n")
    if group.description:
        out.append(markdown_for_page(group.description, link) + "\n")
    for s in group.entries:
        levels = _levels(s)
        out.append(_entry_heading(s) + "\n")
        # The line under the name holds the lists' « + » (list-adding.js), levels or not.
        badge = (
            f'<span class="niveau" title="{e(levels[1])}">{e(levels[0])}</span>' if levels else ""
        )
        out.append(f'<p class="niveaux">{badge}</p>\n')
        if s.fields:
            rows = "\n".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in s.fields.items())
            out.append(f'<dl class="champs">\n{rows}\n</dl>\n')
        if s.description:
            out.append(markdown_for_page(s.description, link) + "\n")
    return "\n".join(out)


def result_columns(result: ParseResult) -> tuple[Column, ...]:
    """The index's columns an export gives by default (columns.py)."""
    return index_columns([dict(s.fields) for s in result.entries])


def column_order(column: Column, value: str) -> float:
    """The order of a column's value, for a column that sorts by its value."""
    orders = {"temps": duration_order, "distance": distance_order, "nombre": number_order}
    return orders[column.sort](value)


def entry_filters(
    columns: Sequence[Column], fields: Mapping[str, str]
) -> tuple[dict[str, float], dict[str, list[str]], bool]:
    """What the lists sort and filter an entry by (columns.py, ordering.py), the same in the
    index's rows and the data file's records: the order of its value in each column that
    sorts by value, the values it counts for in each choice filter, and whether it counts
    for the « long seulement » box (its column of times that has the box holds « long »)."""
    orders = {c.key: column_order(c, fields.get(c.field, "")) for c in columns if c.sort}
    choices = {
        c.key: choice_values(c, fields.get(c.field, "")) for c in columns if c.filter == "choix"
    }
    long = any(c.filter == "long" and is_long(fields.get(c.field, "")) for c in columns)
    return orders, choices, long


def column_keys(columns: Sequence[Column], levels: bool = True) -> tuple[str, ...]:
    """Every column of the index in its order, as the headers' `data-colonne` and the
    address's `tri` name them (the lists' page's `data-colonnes`); « niveaux » unless the
    export gives none."""
    return ("nom", "groupe", *(["niveaux"] if levels else []), *(c.key for c in columns))


@dataclass(frozen=True)
class IndexLabels:
    """What the index's columns and filters are called, in the game's words (`words`): the
    export's field names, unless `names` gives the site's own (« Classe de sort » rather
    than « Classe », which would read as a character's class). `levels` is None for an
    export without levels: the index has no column of them."""

    levels: str | None = "Niveaux"
    words: Words = DEFAULT_WORDS
    names: Mapping[str, str] = field(default_factory=dict)  # field → its label

    @property
    def group(self) -> str:
        return capitalized(self.words.group.one)

    def field(self, name: str) -> str:
        return self.names.get(name, name)

    def add_to_list(self, name: str) -> str:
        """The label of the « + » that adds an entry to one of the reader's lists."""
        return f"Ajouter « {name} » à {self.words.list.a()}"

    def data_attributes(self, columns: Sequence[Column]) -> list[str]:
        """The columns' labels as `data-libelle-*` attributes, and the filters the page's
        script makes (`data-filtres`, JSON: each choice filter's key, label and the choice of
        the entries without a value; the « long » box's field), for the index's table and
        the lists' page alike."""
        names = ({"niveaux": self.levels} if self.levels else {}) | {"groupe": self.group}
        names |= {c.key: self.field(c.field) for c in columns}
        attributes = [f'data-libelle-{k}="{html.escape(v)}"' for k, v in names.items()]
        filters = [
            {"cle": c.key, "libelle": self.field(c.field), "sans": f"(sans {c.field.lower()})"}
            for c in columns
            if c.filter == "choix"
        ]
        longs = [{"cle": c.key, "champ": c.field} for c in columns if c.filter == "long"]
        said = {"choix": filters, "long": longs[0] if longs else None}
        text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
        return [*attributes, f'data-filtres="{html.escape(text)}"']


# Where the index's Markdown leaves its table out (`render_entry_index(table_mark=True)`).
ENTRY_TABLE_MARK = "<!-- regles: entry-table -->"


def render_entry_index(
    result: ParseResult,
    title: str,
    *,
    table_mark: bool = False,
    fields_page: tuple[str, str] | None = None,
    labels: IndexLabels | None = None,
    columns: Sequence[Column] | None = None,
) -> str:
    """Markdown page of the entry index, in the groups' folder: one filterable HTML table.

    With ``table_mark``, the table is left out for ``ENTRY_TABLE_MARK``, which the build
    replaces by ``render_entry_table`` once the Markdown is converted
    (``book.Book.with_table``): the table is HTML already, and Python-Markdown
    would read its hundreds of rows through its HTML parser. Under the title, a line says
    which export the entries are of: its title, date and size, and links to ``fields_page``
    (its title and file name in the same folder), which explains its fields.
    """
    lines = [f"# {markdown_text(title)}", ""]
    title_text = f"**{markdown_text(result.title)}**" if result.title else "Export sans titre"
    date = (
        f"Export généré le {markdown_text(result.generated)}."
        if result.generated
        else "Date de génération absente de l’export."
    )
    groups, entries = len(result.groups), len(result.entries)
    words = (labels or IndexLabels()).words
    summary = (
        f"{title_text} — {date} {groups} {words.group.word(groups)}, "
        f"{entries} {words.entry.word(entries)}."
    )
    if fields_page is not None:
        summary += (
            f" Ses champs{', ses niveaux' if result.has_levels else ''} et ses abréviations, "
            "relevés un à un : "
            f"[{markdown_text(fields_page[0])}]({fields_page[1]})."
        )
    lines += [summary, "{ .export-entete }", ""]
    table = ENTRY_TABLE_MARK if table_mark else render_entry_table(result, labels, columns)
    lines.append(table)
    return "\n".join(lines) + "\n"


def render_entry_table(
    result: ParseResult,
    labels: IndexLabels | None = None,
    columns: Sequence[Column] | None = None,
) -> str:
    """The HTML table of the entry index: one row per entry, its `columns`' values (by
    default the export's, columns.py) as data; the filters' labels (``labels``) as the
    table's data, for the page's script."""
    e = html.escape
    labels = labels or IndexLabels()
    columns = result_columns(result) if columns is None else columns
    label_attrs = " ".join(labels.data_attributes(columns))
    lines = [f'<table id="entry-table" {label_attrs}>']
    levels = [labels.levels] if labels.levels else []
    headings = ("Nom", labels.group, *levels, *(labels.field(c.field) for c in columns))
    # Each column says its name in the filters, its sort's (the script reads them there).
    header = "".join(
        f'<th data-colonne="{key}">{e(h)}</th>'
        for key, h in zip(column_keys(columns, bool(levels)), headings, strict=True)
    )
    lines.append(f"<thead><tr>{header}</tr></thead>")
    lines.append("<tbody>")
    for group in result.groups:
        for s in group.entries:
            values = {c.key: s.fields.get(c.field, "") for c in columns}
            orders, choices, long = entry_filters(columns, s.fields)
            shown = _levels(s) if levels else None
            attrs = {
                "data-group": group.slug,
                **({"data-min": str(s.level_min), "data-max": str(s.level_max)} if shown else {}),
                **{f"data-{key}": value for key, value in values.items()},
                # What the choice filters read, « | » between two values.
                **{f"data-choix-{key}": "|".join(found) for key, found in choices.items()},
                # « long », the export's word for a ritual's casting time; else "0".
                "data-long": "1" if long else "0",
                # The order of the columns that sort by their values.
                **{f"data-tri-{key}": _number(order) for key, order in orders.items()},
            }
            cells = [
                # The lists' « + » (lists.js; hidden without JavaScript): written here,
                # not at load, which would lay out every row again.
                f'<td><a href="../{group.slug}/#{s.slug}">{e(s.name)}</a>'
                f'<button type="button" class="list-add" '
                f'aria-label="{e(labels.add_to_list(s.name))}"></button></td>',
                f'<td><a href="../{group.slug}/">{e(group.name)}</a></td>',
                *(
                    [
                        f'<td data-min="{s.level_min}" data-max="{s.level_max}" '
                        f'title="{e(shown[1])}">{e(shown[0])}</td>'
                    ]
                    if shown
                    else []
                ),
                # The label shows before the value in the phone's cards (entry-table.css), which
                # leave out empty cells.
                *(
                    f'<td data-label="{e(labels.field(c.field))}">{e(values[c.key])}</td>'
                    if values[c.key]
                    else "<td></td>"
                    for c in columns
                ),
            ]
            attr_text = " ".join(f'{k}="{e(v)}"' for k, v in attrs.items())
            lines.append(f"<tr {attr_text}>{''.join(cells)}</tr>")
    lines.append("</tbody>")
    lines.append("</table>")
    return "\n".join(lines)


def _number(value: float) -> str:
    """A number as a data attribute writes it: « 60 », « 5400.5 »."""
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


def render_lists_page(
    title: str,
    index: tuple[str, str],
    labels: IndexLabels | None = None,
    columns: Sequence[Column] = (),
) -> str:
    """Markdown page of the lists, in the groups' folder: an empty container that the
    page's script (lists.js) fills from the reader's browser. It carries what the script
    cannot know: the filters' labels (as the index's table does), the export's keys of the
    index's columns (`data-champ-classe="Classe"`: the script reads a record's fields with
    them), and the index's link (its title and file name in the same folder)."""
    e = html.escape
    labels = labels or IndexLabels()
    attrs = labels.data_attributes(columns)
    attrs += [f'data-champ-{c.key}="{e(c.field)}"' for c in columns]
    attrs.append(f'data-colonnes="{" ".join(column_keys(columns, bool(labels.levels)))}"')
    attrs.append(f'data-index="../{e(index[1].removesuffix(".md"))}/"')
    entry, group, lists = labels.words.entry, labels.words.group, labels.words.list
    lines = [
        f"# {markdown_text(title)}",
        "",
        f"{capitalized(lists.a())} rassemble des {entry.many}, "
        f"{lists.agreed('un')} par personnage : ajoutez-en depuis "
        f"la page [{markdown_text(index[0])}]({index[1]}) (bouton « + » de chaque ligne), "
        f"une page {group.kind(1)} ou l’aperçu d’{entry.a()}. "
        f"Vos {lists.many} sont {lists.agreed('gardé', 2)} dans ce navigateur, même hors "
        "connexion ; un lien ou un fichier les emmène ailleurs.",
        "{ .list-intro }",
        "",
        f'<div id="reader-lists" class="reader-lists" {" ".join(attrs)}>',
        f'<p class="list-waiting">Cette page a besoin de JavaScript : vos {lists.many} '
        f"sont {lists.agreed('lu', 2)} dans la mémoire de votre navigateur.</p>",
        "</div>",
    ]
    return "\n".join(lines) + "\n"
