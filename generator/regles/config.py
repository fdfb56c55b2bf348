"""Settings of the rules plugin (mkdocs.yml, `plugins: - regles:`).

Everything that belongs to one site rather than to the generator is declared here by the
site's owner: its game systems (folder → name), the folders of its other pages, its rules
package and its databases (spells, prayers, a bestiary…), if it has any. Paths are resolved
by MkDocs from the folder of mkdocs.yml. Messages are the owner's to read: in French.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any, ClassVar

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, Config, ValidationError

from regles.core.slugs import slugify
from regles.core.words import DEFAULT_WORDS, GENERIC_WORDS, Words, capitalized, words_from
from regles.features.calculators.package import RulesLimits
from regles.features.databases.book import list_slug
from regles.features.offline.app import SHORT_NAME_LENGTH

__all__ = [
    "AppConfig",
    "DatabaseConfig",
    "Databases",
    "Glossaries",
    "OldPaths",
    "OptionalSpells",
    "ReglesConfig",
    "RulesLimitsConfig",
    "SearchConfig",
    "SiteFolders",
    "Synonyms",
    "SystemFolders",
    "docs_folder",
]


def docs_folder(value: object) -> str:
    """A folder of the docs, as the pages' paths name it: `regles`, `regles/variantes`."""
    folder = value.strip().strip("/") if isinstance(value, str) else ""
    normal = posixpath.normpath(folder) if folder else ""
    if not folder or normal != folder or normal == "." or folder.startswith("..") or "\\" in folder:
        raise ValidationError(
            "un dossier des pages est attendu, comme « regles » ou « regles/variantes » ; "
            f"reçu : {value!r}"
        )
    return folder


class SystemFolders(c.DictOfItems[str]):
    """`systems:` — each game system's folder in the docs, and the name readers see."""

    def __init__(self) -> None:
        super().__init__(c.Type(str), default={})

    def run_validation(self, value: object) -> dict[str, str]:
        if value is not None and not isinstance(value, dict):
            raise ValidationError(
                f"un dictionnaire « dossier: nom du système » est attendu ; reçu : {value!r}"
            )
        names = super().run_validation(value)
        systems: dict[str, str] = {}
        for folder, name in names.items():
            key = docs_folder(folder)
            if not name.strip():
                raise ValidationError(f"le système du dossier « {key} » n’a pas de nom")
            if key in systems:
                raise ValidationError(f"le dossier « {key} » est déclaré deux fois")
            systems[key] = name.strip()
        return systems


class SiteFolders(c.ListOfItems[str]):
    """`site_folders:` — folders of pages that belong to no game system (help, tools): they
    are pages of the site, as those at the top of the docs."""

    def __init__(self) -> None:
        super().__init__(c.Type(str), default=[])

    def run_validation(self, value: object) -> list[str]:
        folders = [docs_folder(folder) for folder in super().run_validation(value)]
        twice = sorted({f for f in folders if folders.count(f) > 1})
        if twice:
            raise ValidationError(f"le dossier « {twice[0]} » est déclaré deux fois")
        return folders


def page_path(value: object) -> str:
    """A page of the docs, as the pages' paths name it: `regles/glossaire.md`."""
    page = value.strip().strip("/") if isinstance(value, str) else ""
    if not page.endswith(".md"):
        raise ValidationError(
            f"une page du contenu est attendue, comme « regles/glossaire.md » ; reçu : {value!r}"
        )
    folder, _, name = page.rpartition("/")
    if folder:
        docs_folder(folder)
    if not name[: -len(".md")]:
        raise ValidationError(f"nom de page vide : {value!r}")
    return page


class Glossaries(c.DictOfItems[str]):
    """`glossaries:` — a game system's glossary page (system folder → page): that system's
    pages link the terms it defines, and the references to its title, to its entries."""

    def __init__(self) -> None:
        super().__init__(c.Type(str), default={})

    def run_validation(self, value: object) -> dict[str, str]:
        if value is not None and not isinstance(value, dict):
            raise ValidationError(
                "un dictionnaire « dossier du système: page du glossaire » est attendu ; "
                f"reçu : {value!r}"
            )
        glossaries: dict[str, str] = {}
        for folder, page in super().run_validation(value).items():
            key = docs_folder(folder)
            path = page_path(page)
            if not path.startswith(key + "/"):
                raise ValidationError(
                    f"le glossaire du système « {key} » doit être une de ses pages "
                    f"(« {key}/… .md ») ; reçu : {page!r}"
                )
            glossaries[key] = path
        return glossaries


class OldPaths(c.DictOfItems[str]):
    """`old_paths:` — root-absolute addresses of the site the text was copied from, each
    with the page of this site that holds what it pointed to (`/regles/glossaire/:
    regles/glossaire.md`): such a link leads there (and is still reported)."""

    def __init__(self) -> None:
        super().__init__(c.Type(str), default={})

    def run_validation(self, value: object) -> dict[str, str]:
        if value is not None and not isinstance(value, dict):
            raise ValidationError(
                "un dictionnaire « /ancienne/adresse/: page du contenu » est attendu ; "
                f"reçu : {value!r}"
            )
        paths: dict[str, str] = {}
        for old, page in super().run_validation(value).items():
            if not old.startswith("/") or any(c in old for c in "#? "):
                raise ValidationError(
                    "une adresse de l’ancien site commence par « / », sans « # », « ? » ni "
                    f"espace, comme « /regles/glossaire/ » ; reçu : {old!r}"
                )
            paths[old.rstrip("/") + "/" if not old.endswith(".html") else old] = page_path(page)
        return paths


class Columns(BaseConfigOption[list[tuple[str, str | None]] | None]):
    """`columns:` of a database — the fields its index shows, in their order, each by its
    name in the export (`Durée`) or with its label (`Classe: Classe de sort`). Left out, the
    index shows the fields enough of its entries fill (features/databases/columns.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.default = None

    def run_validation(self, value: object) -> list[tuple[str, str | None]] | None:
        if value is None:
            return None
        example = "comme « - Durée » ou « - Classe: Classe de sort »"
        if not isinstance(value, list):
            raise ValidationError(f"une liste de champs est attendue, {example} ; reçu : {value!r}")
        columns: list[tuple[str, str | None]] = []
        for item in value:
            if isinstance(item, str):
                name, label = item.strip(), None
            elif isinstance(item, dict) and len(item) == 1:
                ((key, text),) = item.items()
                name = key.strip() if isinstance(key, str) else ""
                label = text.strip() if isinstance(text, str) and text.strip() else ""
            else:
                name, label = "", None
            if not name or label == "":
                raise ValidationError(f"un champ est attendu, {example} ; reçu : {item!r}")
            if name in (n for n, _ in columns):
                raise ValidationError(f"le champ « {name} » est nommé deux fois")
            columns.append((name, label))
        return columns


class DatabaseConfig(Config):  # type: ignore[no-untyped-call]
    """An entry of `databases:` (or the `spells:` block of a site with one database): the
    database's export, where its pages go, and the game's words for it."""

    export = c.File(exists=False)  # read at each build; a missing file is a build error
    folder = c.Type(str)  # the folder of its pages in the site
    section = c.Type(str)  # the nav section its pages are appended to
    # The page listing every entry; by default « Tous les sorts » in the game's words.
    index_title = c.Optional(c.Type(str))
    # The system the entries belong to, as the search filters name it (default: `section`).
    system = c.Optional(c.Type(str))
    # The generated page that lists the export's fields, levels and abbreviations.
    fields_title = c.Type(str, default="Champs et abréviations")
    # The generated page of the readers' lists (`<folder>/grimoire/`, in the game's words);
    # by default « Mon grimoire » in the game's words. `grimoire_title`, its name until 0.3,
    # still reads.
    lists_title = c.Optional(c.Type(str))
    grimoire_title = c.Optional(c.Type(str))
    # The owner's definitions of the export's words (`PdV: points de vie`), shown as his.
    terms = c.DictOfItems(c.Type(str), default={})
    # The game's words for an entry, a group and a list: {one, many, gender} each
    # (core/words.py); by default `default_words`: « entrée », « groupe », « liste » (a
    # `spells:` block: « sort », « collège », « grimoire »).
    words = c.Type(dict, default={})
    # The systems (their folders, as under `systems`) whose pages may link to its entries;
    # by default none: a system's text links within itself.
    linked_from = c.ListOfItems(c.Type(str), default=[])
    # The index's columns: the export's fields by default (Columns).
    columns = Columns()
    # The fields its index filters by: by default, those of a few values and the times that
    # hold « long » (features/databases/columns.py).
    filters = c.Optional(c.ListOfItems(c.Type(str)))

    # The words of a database whose `words:` leaves some out: no game's.
    default_words: ClassVar[Words] = GENERIC_WORDS

    def game_words(self) -> Words:
        """The database's words: its `words:`, the others `default_words`."""
        return words_from(self.words, self.default_words)

    def validate(self) -> Any:
        failed, warnings = super().validate()
        if failed:
            return failed, warnings
        try:
            self.folder = docs_folder(self.folder)
        except ValidationError as error:
            failed.append(("folder", error))
        try:
            words = self.game_words()
        except ValueError as error:
            failed.append(("words", ValidationError(str(error))))
            words = self.default_words
        if self.index_title is None:
            self.index_title = capitalized(words.entry.every())
        if self.grimoire_title is not None:
            if self.lists_title is not None:
                message = "« grimoire_title » est l’ancien nom de « lists_title » : gardez-en un"
                failed.append(("grimoire_title", ValidationError(message)))
            self.lists_title, self.grimoire_title = self.grimoire_title, None
        if self.lists_title is None:
            self.lists_title = capitalized(words.list.my())
        if not slugify(self.index_title):
            message = "le titre de l’index doit contenir une lettre ou un chiffre"
            failed.append(("index_title", ValidationError(message)))
        fields_slug = slugify(self.fields_title)
        if not fields_slug or fields_slug == slugify(self.index_title):
            message = (
                "le titre de la page des champs doit contenir une lettre ou un chiffre et "
                "différer du titre de l’index"
            )
            failed.append(("fields_title", ValidationError(message)))
        lists = list_slug(words)
        if lists in (slugify(self.index_title), fields_slug):
            message = (
                f"« {lists} » est l’adresse de la page des listes des lecteurs : l’index et la "
                "page des champs doivent avoir un autre titre"
            )
            failed.append(("index_title", ValidationError(message)))
        if not self.lists_title.strip():
            message = "le titre de la page des listes des lecteurs est vide"
            failed.append(("lists_title", ValidationError(message)))
        if self.system is not None and not self.system.strip():
            failed.append(("system", ValidationError("le nom du système de la base est vide")))
        try:
            self.linked_from = [docs_folder(folder) for folder in self.linked_from]
        except ValidationError as error:
            failed.append(("linked_from", error))
        terms = self.terms.items()
        empty = sorted(term for term, text in terms if not term.strip() or not text.strip())
        if empty:
            message = f"terme sans nom ou sans définition : « {empty[0]} »"
            failed.append(("terms", ValidationError(message)))
        return failed, warnings


class SpellsConfig(DatabaseConfig):  # type: ignore[no-untyped-call]
    """The `spells:` block: a database of spells, in the spells' words unless it says others
    (« sort », « collège », « grimoire »)."""

    default_words: ClassVar[Words] = DEFAULT_WORDS


class OptionalSpells(c.SubConfig[SpellsConfig]):
    """`spells:` — one database, as the first sites declared it: read as the one entry of
    `databases:`. May be left out."""

    def __init__(self) -> None:
        super().__init__(SpellsConfig)
        self.default = None

    def run_validation(self, value: object) -> DatabaseConfig | None:  # type: ignore[override]
        return None if value is None else super().run_validation(value)


class Databases(c.ListOfItems[DatabaseConfig]):
    """`databases:` — the site's databases (spells, prayers, a bestiary…), each with its own
    export, folder and words; none by default."""

    def __init__(self) -> None:
        super().__init__(c.SubConfig(DatabaseConfig), default=[])

    def run_validation(self, value: object) -> list[DatabaseConfig]:
        if value is not None and not isinstance(value, list):
            raise ValidationError(
                "une liste de bases est attendue (« - export: … », une par base) ; "
                f"reçu : {value!r}"
            )
        return super().run_validation(value)


class Synonyms(BaseConfigOption[dict[str, list[str]]]):
    """`search: synonyms:` — the game's words a reader types for others: an abbreviation
    (`CA`) and what it stands for (`classe d'armure`, or a list of such). Each entry works
    both ways in the search box (theme/assets/js/search.js): the abbreviation is also
    searched as what it stands for, ahead of itself, and what it stands for, typed in full,
    also as the abbreviation."""

    def __init__(self) -> None:
        super().__init__()
        self.default: dict[str, list[str]] = {}

    def run_validation(self, value: object) -> dict[str, list[str]]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValidationError(
                "un dictionnaire « abréviation: ce qu’elle veut dire » est attendu ; "
                f"reçu : {value!r}"
            )
        words: dict[str, list[str]] = {}
        seen: dict[str, str] = {}
        for key, meant in value.items():
            short = key.strip() if isinstance(key, str) else ""
            if not slugify(short):
                raise ValidationError(
                    f"synonyme « {key} » : une abréviation ou un mot est attendu (une lettre "
                    "ou un chiffre au moins)"
                )
            items = meant if isinstance(meant, list) else [meant]
            longs = [item.strip() for item in items if isinstance(item, str)]
            if len(longs) != len(items) or not longs or not all(slugify(w) for w in longs):
                raise ValidationError(
                    f"synonyme « {short} » : un texte (ou une liste de textes) qui dit ce "
                    f"qu’il veut dire est attendu ; reçu : {meant!r}"
                )
            folded = slugify(short)
            if folded in seen:
                raise ValidationError(
                    f"synonyme « {short} » déclaré deux fois (aussi « {seen[folded]} »)"
                )
            if folded in (slugify(w) for w in longs):
                raise ValidationError(f"synonyme « {short} » : il se donne lui-même pour sens")
            seen[folded] = short
            words[short] = longs
        return words


class SearchConfig(Config):  # type: ignore[no-untyped-call]
    """`search:` — what the search box knows of the game's words."""

    synonyms = Synonyms()


class Positive(BaseConfigOption[float]):
    """A number greater than zero, of `unit` (« secondes »), `default` when left out."""

    def __init__(self, unit: str, default: float) -> None:
        super().__init__()
        self.unit = unit
        self.default = default

    def run_validation(self, value: object) -> float:
        if value is None:
            return float(self.default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise ValidationError(
                f"un nombre de {self.unit} plus grand que zéro est attendu, comme "
                f"« {self.default:g} » ; reçu : {value!r}"
            )
        return float(value)


class RulesLimitsConfig(Config):  # type: ignore[no-untyped-call]
    """`rules_limits:` — what the code of the rules package may take at each build: seconds
    per module imported, seconds per call (a calculator's starting values, a table), and the
    size of each result in kilobytes (1 Ko = 1000 octets). Past one, the build stops and
    says which module, which calculator and which limit (features/calculators/rules_process.py).
    The defaults are far above what a site needs, even on a slow machine."""

    import_seconds = Positive("secondes", RulesLimits.import_seconds)
    call_seconds = Positive("secondes", RulesLimits.call_seconds)
    result_kb = Positive("Ko", RulesLimits.result_bytes / 1000)


class AppConfig(Config):  # type: ignore[no-untyped-call]
    """`app:` — the installed app, as the phone shows it: its name under the icon and in
    the app switcher, the colour of its title bar, and the image its icons are made of.
    Defaults: the site's name, its first words up to 12 characters, the primary colour of
    the theme's palette, and the theme's logo (features/offline/icons.py)."""

    name = c.Optional(c.Type(str))
    short_name = c.Optional(c.Type(str))
    theme_color = c.Optional(c.Type(str))
    icon = c.Optional(c.Type(str))  # an image (PNG, JPEG, WebP, SVG), from mkdocs.yml's folder

    def validate(self) -> Any:
        failed, warnings = super().validate()
        if failed:
            return failed, warnings
        for key in ("name", "short_name"):
            value = self[key]
            if value is not None and not value.strip():
                failed.append((key, ValidationError("le nom de l’application est vide")))
        if self.short_name is not None and len(self.short_name.strip()) > SHORT_NAME_LENGTH:
            message = (
                f"le nom court de l’application tient en {SHORT_NAME_LENGTH} caractères au "
                f"plus (sous l’icône d’un téléphone) ; reçu : {self.short_name!r}"
            )
            failed.append(("short_name", ValidationError(message)))
        if self.icon is not None and not self.icon.strip():
            message = "le chemin de l’image de l’icône est vide (« content/assets/logo.png »…)"
            failed.append(("icon", ValidationError(message)))
        color = self.theme_color
        if color is not None and not re.fullmatch(r"#[0-9a-fA-F]{6}", color.strip()):
            message = f"une couleur « #rrvvbb » est attendue, comme « #795548 » ; reçu : {color!r}"
            failed.append(("theme_color", ValidationError(message)))
        return failed, warnings


class ReglesConfig(Config):  # type: ignore[no-untyped-call]
    enabled = c.Type(bool, default=True)

    # Settings for the site as an installed app
    app = c.SubConfig(AppConfig)

    # Settings for the site's content
    systems = SystemFolders()
    site_folders = SiteFolders()
    databases = Databases()
    spells = OptionalSpells()  # one database, as `databases:` with one entry
    glossaries = Glossaries()
    old_paths = OldPaths()
    # The pages allowed to run the scripts they write (paths in the docs folder): a script
    # in any other page is a build error, and the pages' security policy allows no other.
    pages_with_scripts = c.ListOfItems(c.Type(str), default=[])
    # The rules package's folder; without one, the site has the generic calculators alone.
    calculators = c.Dir(exists=False, default="calculators")
    rules_limits = c.SubConfig(RulesLimitsConfig)
    search = c.SubConfig(SearchConfig)

    # Settings for the calculators in the browser
    pyodide_dir = c.Optional(c.Dir(exists=False))  # default: node_modules' pyodide
    snapshot = c.Type(bool, default=True)

    # Settings for the build's own files. The generator's npm packages (Pyodide, Workbox,
    # esbuild) go into build/npm/, installed from its own lock (features/assets/npm.py),
    # unless `node_modules` names a folder the site fills itself.
    node_modules = c.Optional(c.Dir(exists=False))
    cache_dir = c.Dir(exists=False, default="build/cache")
    report_file = c.File(exists=False, default="build/rapport-construction.json")
    # Every address the generated pages have had (features/redirects): kept by the build,
    # committed with the site, so that a build from a clean clone knows them too.
    addresses_file = c.File(exists=False, default="adresses.json")

    def validate(self) -> Any:
        failed, warnings = super().validate()
        if failed:
            return failed, warnings
        undeclared = sorted(set(self.glossaries) - set(self.systems))
        if undeclared:
            message = (
                f"le glossaire du dossier « {undeclared[0]} » : ce dossier n’est pas déclaré "
                "sous « systems »"
            )
            failed.append(("glossaries", ValidationError(message)))
        if self.spells is not None:
            if self.databases:
                message = (
                    "« spells » et « databases » sont déclarés tous deux : mettez le bloc "
                    "« spells » dans la liste « databases »"
                )
                failed.append(("spells", ValidationError(message)))
                return failed, warnings
            self.databases = [self.spells]
        failed.extend(database_mistakes(self.databases, self.systems, self.site_folders))
        return failed, warnings


def database_mistakes(
    databases: list[DatabaseConfig], systems: dict[str, str], site_folders: list[str]
) -> list[tuple[str, ValidationError]]:
    """What the databases declare that the site cannot build: a folder that is another's,
    a system they are linked from that the site does not declare."""
    failed = []
    # A database's folder is its own: a system's pages there would be read as its entries
    # by the search, or its entries as a system's pages; and two databases in one folder,
    # or one inside another, would share their pages.
    taken = [*systems, *site_folders]
    seen: list[str] = []
    for database in databases:
        folder = database.folder
        inside = [
            f
            for f in seen
            if f == folder or f"{folder}/".startswith(f"{f}/") or f.startswith(f"{folder}/")
        ]
        if folder in taken:
            message = (
                f"le dossier de la base « {folder} » est aussi déclaré sous « systems » ou "
                "« site_folders »"
            )
            failed.append(("databases", ValidationError(message)))
        elif inside:
            message = f"deux bases dans le même dossier : « {folder} » et « {inside[0]} »"
            failed.append(("databases", ValidationError(message)))
        seen.append(folder)
        unknown = [f for f in database.linked_from if f not in systems]
        if unknown:
            message = (
                f"« linked_from » de la base « {folder} » : le dossier « {unknown[0]} » n’est "
                "pas déclaré sous « systems »"
            )
            failed.append(("databases", ValidationError(message)))
    return failed
