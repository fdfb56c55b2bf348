"""A big game for the benchmark: a site as `regles new` writes it, at a size, filled from a seed.

A game master who adopts the generator for a full game (a French SRD sits between s3 and s10)
has hundreds of pages in several systems, databases of thousands of entries and calculators
on some pages. `make_game(size)` makes one from this repository's French text: the rules
pages of `content/` cut into blocks (paragraphs, lists, tables, notes, calculator blocks) and
the lines of `tests/content/sources/` that the pages do not already carry, shuffled and dealt
into pages whose headings are all different (a heading used again gets a Roman numeral); the
spells of the export dealt into three databases (spells, prayers, a bestiary) in the
documented format, every entry's name unique. Each page refers to another of its system by
its title (« Titre », a link), and the systems a database is linked from name some of its
entries in italics. The same seed gives the same files, byte for byte.

| size | Markdown pages | database entries |
| --- | --- | --- |
| s1 | 54 | 400 |
| s3 | 154 | 1 200 |
| s10 | 504 | 4 000 |
| s30 | 1 504 | 12 000 |

`write_game` writes the site: `regles new`'s files, then the game's pages, its rules package
(the scaffold's example and this repository's `calculators/` modules), its exports and its
mkdocs.yml, edited as a game master edits the scaffold's.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.sizes_text import ROOT, Pool, default_pool
from regles.cli import new_site
from regles.core.slugs import fold, slugify
from regles.core.words import Noun
from tests.conftest import generator_pin

__all__ = [
    "SEED",
    "SIZES",
    "Database",
    "Game",
    "make_game",
    "size_factor",
    "write_game",
]

SEED = 41
SIZES = {"s1": 1, "s3": 3, "s10": 10, "s30": 30}
SITE_NAME = "Grand jeu"
# The scaffold's system (its home page and glossary stay as `regles new` wrote them), then
# four more: folder → the name readers see.
SYSTEMS = (
    ("jeu", SITE_NAME),
    ("brumes", "Les Brumes"),
    ("citadelle", "La Citadelle"),
    ("mers", "Les Mers du Sud"),
    ("maison", "Règles maison"),
)
PAGES_PER_SYSTEM = 10  # generated pages of each system, per unit of size
# Each block of the text is used this many times per unit of size: some 5 KB of Markdown a
# page, as this site's rules pages (2 to 20 KB).
PASSES = 2
CHAPTER_PAGES = 10  # pages per nav chapter of a system
ENTRIES = 400  # database entries per unit of size
GROUP_ENTRIES = 20  # entries per group (a college, a cult, a habitat)
MENTIONS = 2  # entries named in italics on each page of a system a database is linked from
CALCULATORS = ROOT / "calculators"  # this repository's rules modules, which the pages place
EXPORT_DATE = "_Généré le 01/01/2027 à 10:00_"
# The sentence added to each page of a system that names another page's section.
SEE_ALSO = "Voir aussi « {title} »."
SEE_ENTRIES = "Les joueurs y emploient aussi {names}."
# This site's page of every calculator, with the scaffold's example added.
TOOLS_ADDED = "\n\n## Chances de réussite\n\n```calculateur reussite\n```\n"


@dataclass(frozen=True)
class Database:
    """One database of the game, as its `databases:` item declares it."""

    folder: str
    section: str
    index_title: str
    lists_title: str
    entry: Noun
    group: Noun
    listing: Noun  # what a reader keeps: a grimoire, a book of prayers
    share: int  # its part of the entries, in tenths
    linked_from: tuple[str, ...]

    @property
    def export(self) -> str:
        """The export's path in the project (outside the pages' folder)."""
        return f"bases/{self.folder}.txt"


DATABASES = (
    Database(
        "magie",
        "Magie",
        "Tous les sorts",
        "Mon grimoire",
        Noun("sort", "sorts", "m"),
        Noun("collège", "collèges", "m"),
        Noun("grimoire", "grimoires", "m"),
        5,
        ("citadelle",),
    ),
    Database(
        "prieres",
        "Prières",
        "Toutes les prières",
        "Mon livre de prières",
        Noun("prière", "prières", "f"),
        Noun("culte", "cultes", "m"),
        Noun("livre de prières", "livres de prières", "m"),
        3,
        ("brumes",),
    ),
    Database(
        "bestiaire",
        "Bestiaire",
        "Tous les monstres",
        "Mon carnet de chasse",
        Noun("monstre", "monstres", "m"),
        Noun("habitat", "habitats", "m"),
        Noun("carnet de chasse", "carnets de chasse", "m"),
        2,
        ("jeu", "mers"),
    ),
)


def size_factor(size: str) -> int:
    """`s10` → 10; any `s<n>` is a size, the four of `SIZES` are the benchmark's."""
    match = re.fullmatch(r"s([1-9]\d*)", size.strip())
    if match is None:
        raise ValueError(f"taille inconnue : « {size} » (s1, s3, s10, s30…)")
    return int(match.group(1))


# The game ------------------------------------------------------------------------------


@dataclass
class Page:
    uri: str
    title: str
    system: str
    chapter: int
    sections: list[tuple[int, str, list[str]]] = field(default_factory=list)  # level, title
    intro: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        parts = [f"# {self.title}", *self.intro]
        for level, title, blocks in self.sections:
            parts += [f"{'#' * level} {title}", *blocks]
        return "\n\n".join(parts) + "\n"


@dataclass
class Game:
    """A generated game: its files (path in the project → text: pages, exports, the tools
    page), its nav, and what the benchmark needs to know of it."""

    size: str
    seed: int
    files: dict[str, str]
    pages: list[str]  # Markdown pages in the docs, the scaffold's and the tools page included
    entries: int
    databases: tuple[Database, ...]
    nav: list[object]
    edited_page: str  # the page `mkdocs serve` is timed on
    queries: list[tuple[str, str]]  # search: (query, expected page from the root, or "")

    @property
    def markdown_pages(self) -> int:
        return len(self.pages)


ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
         (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


def roman(n: int) -> str:
    out = []
    for value, letters in ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


class _Names:
    """Unique names from a pool that repeats: the second « Initiative » is « Initiative
    II » (or, with `numbered`, « Initiative 2 »), and so on, folded forms never twice."""

    def __init__(self, reserved: Iterable[str] = (), *, numbered: bool = False) -> None:
        self.taken = {fold(name) for name in reserved}
        self.uses: dict[str, int] = {}
        self.numbered = numbered

    def __call__(self, base: str) -> str:
        key = fold(base)
        n = self.uses.get(key, 0)
        while True:
            n += 1
            suffix = "" if n == 1 else f" {n if self.numbered else roman(n)}"
            name = base + suffix
            if fold(name) not in self.taken:
                self.uses[key] = n
                self.taken.add(fold(name))
                return name


def _dealt(items: Sequence[str], count: int, rng: random.Random) -> list[str]:
    """`count` items: the pool shuffled, again and again."""
    out: list[str] = []
    while len(out) < count:
        batch = list(items)
        rng.shuffle(batch)
        out += batch
    return out[:count]


def _chunks(items: list[str], count: int) -> list[list[str]]:
    """`items` in `count` consecutive runs of (nearly) equal length, none twice in a run."""
    runs = [items[i * len(items) // count : (i + 1) * len(items) // count] for i in range(count)]
    return [list(dict.fromkeys(run)) for run in runs]


def _yaml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _nav_yaml(nav: list[object], indent: int = 2) -> str:
    lines: list[str] = []
    pad = " " * indent
    for item in nav:
        if isinstance(item, str):
            lines.append(f"{pad}- {item}")
            continue
        assert isinstance(item, dict)
        ((title, value),) = item.items()
        if isinstance(value, str):
            lines.append(f"{pad}- {_yaml(title)}: {value}")
        elif not value:
            lines.append(f"{pad}- {_yaml(title)}: []")
        else:
            lines.append(f"{pad}- {_yaml(title)}:")
            lines.append(_nav_yaml(list(value), indent + 4))
    return "\n".join(lines)


def _pages(pool: Pool, factor: int, rng: random.Random) -> list[Page]:
    """The generated rules pages of every system, with their text and headings."""
    count = PAGES_PER_SYSTEM * factor * len(SYSTEMS)
    blocks = _chunks(_dealt(pool.blocks, len(pool.blocks) * factor * PASSES, rng), count)
    titles = _Names(["Glossaire", "Atout", "Handicap", "Règles de base", "Tests", "Outils"])
    bases = _dealt(pool.titles, len(pool.titles) * factor * 6, rng)
    next_base = iter(bases)
    pages: list[Page] = []
    uris: set[str] = set()
    for number, page_blocks in enumerate(blocks):
        system = SYSTEMS[number % len(SYSTEMS)][0]
        index = number // len(SYSTEMS)  # the page's rank in its system
        chapter = index // CHAPTER_PAGES + 1
        title = titles(next(next_base))
        slug = slugify(title) or "page"
        folder = f"{system}/chapitre-{chapter:02d}"
        # Two titles may give one address (« Abri » and « Abri ? »): number the second.
        uri, n = f"{folder}/{slug}.md", 1
        while uri in uris:
            n += 1
            uri = f"{folder}/{slug}-{n}.md"
        uris.add(uri)
        page = Page(uri, title, system, chapter, intro=page_blocks[:1])
        rest = page_blocks[1:]
        level = 2
        while rest:
            take = rng.randint(1, 3)
            # A section of a section now and then, as rules chapters have.
            level = 3 if level == 2 and rng.random() < 0.3 and page.sections else 2
            page.sections.append((level, titles(next(next_base)), rest[:take]))
            rest = rest[take:]
        pages.append(page)
    return pages


def _entries(
    pool: Pool, factor: int, rng: random.Random, reserved: Iterable[str]
) -> tuple[dict[str, str], dict[str, list[tuple[str, str]]]]:
    """Each database's export, and its entries (name, group) in order."""
    total = ENTRIES * factor
    by_name = {e.name: e for e in pool.entries}
    names = _dealt([e.name for e in pool.entries], total, rng)
    unique = _Names(reserved, numbered=True)
    groups = _dealt([f"{n}\n{d}" for n, d in pool.groups], total, rng)
    exports: dict[str, str] = {}
    listed: dict[str, list[tuple[str, str]]] = {}
    start = 0
    for database in DATABASES:
        count = total * database.share // 10
        mine = names[start : start + count]
        start += count
        group_names = _Names([database.index_title, database.lists_title])
        marker = f"**Description {database.group.of()} :**"
        parts = [f"# {database.section} du {SITE_NAME}", EXPORT_DATE, "---"]
        listed[database.folder] = []
        for g in range(0, len(mine), GROUP_ENTRIES):
            name, description = groups[g // GROUP_ENTRIES].split("\n", 1)
            group = group_names(name)
            parts += [f"## {group}", f"{marker} {description}"]
            for base in mine[g : g + GROUP_ENTRIES]:
                entry = by_name[base]
                entry_name = unique(base)
                listed[database.folder].append((entry_name, group))
                parts.append(f"### {entry_name} ({entry.levels})")
                if entry.body:
                    parts.append(entry.body)
        parts += ["---", "Fin du fichier"]
        exports[database.export] = "\n\n".join(parts) + "\n"
    return exports, listed


def _config_edits(node_modules: Path | None) -> list[tuple[str, str]]:
    """What the game master changes in the scaffold's mkdocs.yml: systems, databases, nav
    (and, for the benchmark, the generator's npm packages, installed once)."""
    systems = "".join(f"        {folder}: {_yaml(name)}\n" for folder, name in SYSTEMS)
    databases = ["      databases:\n"]
    for d in DATABASES:
        databases.append(
            f"        - export: {d.export}\n"
            f"          folder: {d.folder}\n"
            f"          section: {_yaml(d.section)}\n"
            f"          index_title: {_yaml(d.index_title)}\n"
            f"          lists_title: {_yaml(d.lists_title)}\n"
            f"          linked_from: [{', '.join(d.linked_from)}]\n"
            "          words:\n"
            + "".join(
                f"            {role}: {{one: {_yaml(noun.one)}, many: {_yaml(noun.many)}, "
                f"gender: {noun.gender}}}\n"
                for role, noun in (("entry", d.entry), ("group", d.group), ("list", d.listing))
            )
        )
    plugin = "      calculators: calculators\n"
    if node_modules is not None:
        plugin += f"      node_modules: {node_modules}\n"
    return [
        (f"      systems:\n        jeu: {_yaml(SITE_NAME)}\n", "      systems:\n" + systems),
        ("      calculators: calculators\n", plugin + "".join(databases)),
    ]


def make_game(size: str, seed: int = SEED, pool: Pool | None = None) -> Game:
    """The game at `size` (`s1`, `s3`, `s10`, `s30`…), from `seed`: the files it adds to
    what `regles new` writes, and its nav (`write_game` puts them in place)."""
    factor = size_factor(size)
    pool = pool or default_pool()
    rng = random.Random(f"{seed}-{factor}")
    pages = _pages(pool, factor, rng)
    reserved = [p.title for p in pages] + [t for p in pages for _, t, _ in p.sections]
    exports, listed = _entries(pool, factor, rng, reserved)
    by_system: dict[str, list[Page]] = {}
    for page in pages:
        by_system.setdefault(page.system, []).append(page)
    # Each page names a section of another page of its system, and the systems a database
    # is linked from name two of its entries.
    for system, mine in by_system.items():
        linked = [
            name for d in DATABASES if system in d.linked_from for name, _ in listed[d.folder]
        ]
        for number, page in enumerate(mine):
            other = mine[(number + 1 + rng.randrange(max(1, len(mine) - 1))) % len(mine)]
            named = other.sections[0][1] if other.sections and other is not page else None
            if named is not None:
                page.intro.append(SEE_ALSO.format(title=named))
            if linked:
                chosen = rng.sample(linked, min(MENTIONS, len(linked)))
                page.intro.append(SEE_ENTRIES.format(names=" et ".join(f"_{n}_" for n in chosen)))
    files: dict[str, str] = {f"content/{p.uri}": p.markdown() for p in pages}
    files.update(exports)
    files["content/outils.md"] = pool.tools_page.rstrip("\n") + TOOLS_ADDED
    nav: list[object] = [{"Accueil": "index.md"}]
    for folder, name in SYSTEMS:
        section: list[object] = []
        if folder == "jeu":
            section += ["jeu/index.md", "jeu/glossaire.md"]
        chapters: dict[int, list[object]] = {}
        for page in by_system[folder]:
            chapters.setdefault(page.chapter, []).append(page.uri)
        section += [{f"Chapitre {n}": uris} for n, uris in chapters.items()]
        nav.append({name: section})
    nav += [{d.section: []} for d in DATABASES]
    nav.append({"Outils": "outils.md"})
    first = by_system[SYSTEMS[1][0]]
    edited = first[len(first) // 2].uri
    queries = _queries(pages, listed, rng)
    doc_pages = ["index.md", "jeu/index.md", "jeu/glossaire.md", "outils.md"]
    doc_pages += [p.uri for p in pages]
    return Game(size, seed, files, doc_pages, ENTRIES * factor, DATABASES, nav, edited, queries)


COMMON_QUERIES = ("à terre", "points de vie", "initiative", "dégâts")


def _queries(
    pages: list[Page], listed: dict[str, list[tuple[str, str]]], rng: random.Random
) -> list[tuple[str, str]]:
    """What the search is timed on: words found everywhere, section titles (their page
    expected among the first results) and entry names (their group's page)."""
    queries = [(q, "") for q in COMMON_QUERIES]
    for page in rng.sample(pages, 4):
        title = page.sections[0][1] if page.sections else page.title
        queries.append((title, page.uri.removesuffix(".md") + "/"))
    for database in DATABASES[:2]:
        name, group = rng.choice(listed[database.folder])
        queries.append((name, f"{database.folder}/{slugify(group)}/"))
    return queries


def write_game(game: Game, folder: Path, node_modules: Path | None = None) -> Path:
    """The game's site in `folder` (new, or empty): `regles new`, then its pages, exports,
    rules modules and settings. Returns its mkdocs.yml. `node_modules`: the generator's npm
    packages, shared (else the first build installs them in the site's build/npm)."""
    new_site(folder, SITE_NAME, pin=generator_pin())
    for path, text in sorted(game.files.items()):
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    for module in sorted(CALCULATORS.glob("*.py")):
        if module.name != "__init__.py":
            shutil.copyfile(module, folder / "calculators" / module.name)
    config = folder / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    for old, new in _config_edits(node_modules):
        if old not in text:
            raise ValueError(f"mkdocs.yml de regles new : « {old.strip()} » introuvable")
        text = text.replace(old, new, 1)
    text = text[: text.index("\nnav:\n") + 1] + "nav:\n" + _nav_yaml(game.nav) + "\n"
    config.write_text(text, encoding="utf-8")
    return config
