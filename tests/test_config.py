"""The `regles` plugin's settings (mkdocs.yml), checked without a build: what a site declares
of its own, and what a mistake in it gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from regles.core.build import BuildError, Settings, SiteBuild
from regles.core.report import Kind
from regles.core.slugs import slugify
from regles.core.systems import Database, Systems
from regles.features.databases.book import DatabaseSettings
from regles.plugin import ReglesPlugin
from tests.conftest import SITE_APP


def load(options: dict[str, object], folder: Path) -> tuple[ReglesPlugin, list[str], list[str]]:
    plugin = ReglesPlugin()
    errors, warnings = plugin.load_config(options, str(folder / "mkdocs.yml"))
    return plugin, [f"{k}: {e}" for k, e in errors], [f"{k}: {w}" for k, w in warnings]


def test_a_site_without_systems_nor_entries_is_valid(tmp_path: Path) -> None:
    plugin, errors, warnings = load({}, tmp_path)
    assert (errors, warnings) == ([], [])
    assert plugin.config.systems == {} and plugin.config.spells is None
    # Paths are resolved by MkDocs from the folder of mkdocs.yml.
    assert plugin.config.cache_dir == str(tmp_path / "build" / "cache")
    assert plugin.config.report_file == str(tmp_path / "build" / "rapport-construction.json")
    # The generator's npm packages go into build/npm/ unless the site names its own folder.
    assert plugin.config.node_modules is None and plugin.config.pyodide_dir is None
    assert plugin.config.calculators == str(tmp_path / "calculators")
    assert plugin.config.app.name is None and plugin.config.app.theme_color is None


def test_the_lists_title_reads_under_its_name_until_0_3(tmp_path: Path) -> None:
    # 0.3 named it `grimoire_title`: a site that still does builds the same page.
    options = {
        "spells": {"export": "e", "folder": "s", "section": "S", "grimoire_title": "Mes livres"}
    }
    plugin, errors, warnings = load(options, tmp_path)
    assert (errors, warnings) == ([], [])
    assert plugin.config.spells is not None and plugin.config.spells.lists_title == "Mes livres"


def test_systems_and_entries_are_read_as_declared(tmp_path: Path) -> None:
    options = {
        "systems": {"jeu/": "Jeu d’essai", "jeu/variantes": "Variantes"},
        "spells": {"export": "sorts.txt", "folder": "/sorts/", "section": "Sorts"},
    }
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    assert plugin.config.systems == {"jeu": "Jeu d’essai", "jeu/variantes": "Variantes"}
    entries = plugin.config.spells
    assert entries is not None
    assert (entries.export, entries.folder, entries.section) == (
        str(tmp_path / "sorts.txt"),
        "sorts",
        "Sorts",
    )
    assert (entries.index_title, entries.lists_title) == ("Tous les sorts", "Mon grimoire")
    assert plugin.config.search.synonyms == {}
    # The spells' system in the search filters is their section's name unless given.
    assert (entries.system, entries.fields_title, entries.terms) == (
        None,
        "Champs et abréviations",
        {},
    )


def test_databases_are_read_in_order_and_entries_is_one_of_them(tmp_path: Path) -> None:
    prayers = {"entry": {"one": "prière", "many": "prières", "gender": "f"}}
    options = {
        "systems": {"jeu": "Jeu"},
        "databases": [
            {"export": "sorts.txt", "folder": "sorts", "section": "Magie"},
            {
                "export": "foi.txt",
                "folder": "foi/",
                "section": "Foi",
                "words": prayers,
                "columns": [{"Portée": "Portée de la prière"}, "Durée"],
                "filters": ["Portée"],
            },
        ],
    }
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    found = [(d.folder, d.section, d.index_title) for d in plugin.config.databases]
    # A database that says no words has no game's: « entrée », « groupe », « liste ».
    assert found == [("sorts", "Magie", "Toutes les entrées"), ("foi", "Foi", "Toutes les prières")]
    assert [d.lists_title for d in plugin.config.databases] == ["Ma liste", "Ma liste"]
    # The index's columns: the export's unless named, each with its label if given.
    columns = [d.columns for d in plugin.config.databases]
    assert columns == [None, [("Portée", "Portée de la prière"), ("Durée", None)]]
    assert [d.filters for d in plugin.config.databases] == [None, ["Portée"]]
    # The block of the first sites, `spells:`, is the one entry of `databases:`.
    old = {"spells": {"export": "sorts.txt", "folder": "sorts", "section": "Magie"}}
    plugin, errors, _ = load(old, tmp_path)
    assert errors == [] and [d.folder for d in plugin.config.databases] == ["sorts"]
    # …in the words of spells unless it says others, as before.
    assert (plugin.config.databases[0].index_title, plugin.config.databases[0].lists_title) == (
        "Tous les sorts",
        "Mon grimoire",
    )


def test_a_databases_page_titles_default_to_its_own_words(tmp_path: Path) -> None:
    words = {
        "entry": {"one": "prière", "many": "prières", "gender": "f"},
        "list": {"one": "liste", "many": "listes", "gender": "f"},
    }
    options = {"spells": {"export": "e.txt", "folder": "foi", "section": "Foi", "words": words}}
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    entries = plugin.config.spells
    assert (entries.index_title, entries.lists_title) == ("Toutes les prières", "Ma liste")


def test_synonyms_are_read_as_lists_of_what_they_stand_for(tmp_path: Path) -> None:
    options = {
        "search": {"synonyms": {" CA ": "classe d’armure", "PV": ["points de vie", " pts de vie"]}}
    }
    plugin, errors, _ = load(options, tmp_path)
    assert errors == []
    assert plugin.config.search.synonyms == {
        "CA": ["classe d’armure"],
        "PV": ["points de vie", "pts de vie"],
    }


def test_the_entries_system_and_terms_are_read_as_declared(tmp_path: Path) -> None:
    entries: dict[str, object] = {"export": "e.txt", "folder": "sorts", "section": "Sorts d’ici"}
    entries |= {"system": "Mon système", "terms": {"PdM": "points de magie"}}
    plugin, errors, _ = load({"spells": entries}, tmp_path)
    assert errors == [] and plugin.config.spells is not None
    assert plugin.config.spells.system == "Mon système"
    assert plugin.config.spells.terms == {"PdM": "points de magie"}
    export = tmp_path / "e.txt"
    named = DatabaseSettings(export, "e.txt", "sorts", "Sorts d’ici", "Tous", system="Mon système")
    assert named.system_name == "Mon système"
    assert DatabaseSettings(export, "e.txt", "sorts", "Sorts d’ici", "Tous").system_name == (
        "Sorts d’ici"
    )


def test_the_systems_the_entries_are_linked_from_are_read_as_folders(tmp_path: Path) -> None:
    entries = {"export": "e.txt", "folder": "sorts", "section": "S", "linked_from": ["jeu/"]}
    plugin, errors, _ = load({"systems": {"jeu": "Jeu"}, "spells": entries}, tmp_path)
    assert errors == [] and plugin.config.spells is not None
    assert plugin.config.spells.linked_from == ["jeu"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"systems": {"../ailleurs": "X"}}, "un dossier des pages est attendu"),
        ({"systems": {".": "X"}}, "un dossier des pages est attendu"),
        ({"systems": {"jeu": " "}}, "le système du dossier « jeu » n’a pas de nom"),
        ({"systems": {"jeu": "A", "jeu/": "B"}}, "le dossier « jeu » est déclaré deux fois"),
        ({"systems": ["jeu"]}, "un dictionnaire « dossier: nom du système » est attendu"),
        ({"site_folders": ["aide", "aide/"]}, "le dossier « aide » est déclaré deux fois"),
        ({"spells": {"export": "sorts.txt", "section": "Sorts"}}, "folder"),
        ({"spells": {"export": "sorts.txt", "folder": "..", "section": "S"}}, "folder"),
        ({"spells": {"folder": "sorts", "section": "Sorts"}}, "export"),
        (
            {"spells": {"export": "e.txt", "folder": "sorts", "section": "S", "index_title": "!"}},
            "le titre de l’index doit contenir une lettre ou un chiffre",
        ),
        (
            {
                "spells": {
                    "export": "e",
                    "folder": "s",
                    "section": "S",
                    "fields_title": "Tous les sorts",
                }
            },
            "différer du titre de l’index",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "system": " "}},
            "le nom du système de la base est vide",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "lists_title": " "}},
            "le titre de la page des listes des lecteurs est vide",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "grimoire_title": " "}},
            "le titre de la page des listes des lecteurs est vide",
        ),
        (
            {
                "spells": {
                    "export": "e",
                    "folder": "s",
                    "section": "S",
                    "lists_title": "Listes",
                    "grimoire_title": "Grimoires",
                }
            },
            "« grimoire_title » est l’ancien nom de « lists_title » : gardez-en un",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "index_title": "Grimoire"}},
            "« grimoire » est l’adresse de la page des listes des lecteurs",
        ),
        (
            {
                "spells": {
                    "export": "e",
                    "folder": "s",
                    "section": "S",
                    "index_title": "Livre de prières",
                    "words": {"list": {"one": "livre de prières", "many": "livres", "gender": "m"}},
                }
            },
            "« livre-de-prieres » est l’adresse de la page des listes des lecteurs",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "terms": {"PdM": " "}}},
            "terme sans nom ou sans définition : « PdM »",
        ),
        (
            {
                "systems": {"sorts": "S"},
                "spells": {"export": "e", "folder": "sorts", "section": "S"},
            },
            "le dossier de la base « sorts » est aussi déclaré sous « systems »",
        ),
        (
            {
                "spells": {
                    "export": "e",
                    "folder": "s",
                    "section": "S",
                    "words": {"entry": {"one": "prière", "many": "prières", "gender": "x"}},
                }
            },
            "« words.entry » : genre « x »",
        ),
        (
            {
                "spells": {
                    "export": "e",
                    "folder": "s",
                    "section": "S",
                    "words": {"group": {"one": "culte", "many": '<img src=x onerror="1">'}},
                }
            },
            '« words.group » : « <img src=x onerror="1"> » contient < >',
        ),
        (
            {
                "systems": {"jeu": "Jeu"},
                "spells": {"export": "e", "folder": "s", "section": "S", "linked_from": ["regles"]},
            },
            "« linked_from » de la base « s » : le dossier « regles » n’est pas déclaré",
        ),
        (
            {
                "spells": {"export": "e", "folder": "s", "section": "S"},
                "databases": [{"export": "f", "folder": "t", "section": "T"}],
            },
            "« spells » et « databases » sont déclarés tous deux",
        ),
        (
            {
                "databases": [
                    {"export": "e", "folder": "foi", "section": "S"},
                    {"export": "f", "folder": "foi/sorts", "section": "T"},
                ]
            },
            "deux bases dans le même dossier : « foi/sorts » et « foi »",
        ),
        ({"databases": {"export": "e"}}, "une liste de bases est attendue"),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "columns": "Durée"}},
            "une liste de champs est attendue",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "columns": [{"A": " "}]}},
            "un champ est attendu",
        ),
        (
            {"spells": {"export": "e", "folder": "s", "section": "S", "columns": ["A", "A"]}},
            "le champ « A » est nommé deux fois",
        ),
        ({"databases": [{"folder": "s", "section": "S"}]}, "export"),
        ({"search": {"synonyms": ["CA"]}}, "un dictionnaire « abréviation: ce qu’elle veut"),
        ({"search": {"synonyms": {"CA": ""}}}, "synonyme « CA » : un texte"),
        ({"search": {"synonyms": {"CA": [1]}}}, "synonyme « CA » : un texte"),
        ({"search": {"synonyms": {"?": "x"}}}, "synonyme « ? » : une abréviation"),
        ({"search": {"synonyms": {"CA": "x", "ca": "y"}}}, "synonyme « ca » déclaré deux fois"),
        ({"search": {"synonyms": {"CA": "ca"}}}, "synonyme « CA » : il se donne lui-même"),
    ],
)
def test_a_mistake_in_the_settings_names_its_option(
    tmp_path: Path, options: dict[str, object], words: str
) -> None:
    _, errors, _ = load(options, tmp_path)
    assert len(errors) == 1 and words in errors[0], errors


def test_a_page_outside_every_system_is_named() -> None:
    systems = Systems(
        {"jeu": "Jeu", "jeu/variantes": "Variantes"}, (Database("sorts"),), site_folders=("aide",)
    )
    pages = ["index.md", "jeu/combat.md", "jeu/variantes/a.md", "sorts/feu.md", "autre/page.md"]
    pages += ["aide/debuter.md", "aide/outils/des.md"]  # pages of the site, in no system
    problems = systems.check(pages)
    assert [(p.file, p.kind, p.severity, p.subject) for p in problems] == [
        ("autre/page.md", Kind.PAGE_OUTSIDE_SYSTEMS, "warning", "autre")
    ]
    assert "« autre » n’est pas déclaré sous « systems »" in problems[0].message
    assert systems.name_of("jeu/variantes/a.md") == "Variantes"  # the deepest folder
    assert systems.name_of("jeu/combat.md") == "Jeu" and systems.name_of("index.md") is None


def test_a_database_names_the_systems_whose_pages_link_to_it() -> None:
    """What the search reads (`rules.servedBy`) to rank a linked database's entries with the
    reader's game and to name the games they serve: by the names readers see."""
    systems = Systems(
        {"cdf": "Chroniques des Fjords", "vieux": "Ancienne édition"},
        (
            Database("bestiaire", system="Bestiaire", linked_from=("cdf", "vieux")),
            Database("relais", system="Relais"),  # linked from none
        ),
    )
    assert systems.served_by() == {"Bestiaire": ["Chroniques des Fjords", "Ancienne édition"]}


def test_one_slug_for_headings_entries_and_pages() -> None:
    # Signs NFKD keeps as they are read as letters; apostrophes separate words.
    assert slugify("Straße ×2") == "strasse-x2"
    assert slugify("Anihiler l’air") == "anihiler-l-air"
    assert slugify("Élémentaire - Air") == "elementaire-air"
    assert slugify("Nœud magique") == "noeud-magique"


def test_a_rules_package_that_cannot_serve_stops_the_build_naming_the_option(
    tmp_path: Path,
) -> None:
    # A folder that is no package.
    folder = tmp_path / "regles_sans_init"
    folder.mkdir()
    settings = Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=folder)
    with pytest.raises(BuildError, match=r"n’a pas de __init__\.py \(option calculators"):
        SiteBuild(settings)
    # A package that does not gather its rules with the kit.
    partial = tmp_path / "regles_sans_rules"
    partial.mkdir()
    (partial / "__init__.py").write_text("def catalog():\n    return []\n", "utf-8")
    settings = Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=partial)
    with pytest.raises(BuildError, match=r"rules = discover\(__name__\)"):
        SiteBuild(settings)
    # Two modules that claim the same calculator.
    twice = tmp_path / "regles_en_double"
    twice.mkdir()
    (twice / "__init__.py").write_text(
        "from regles.kit import discover\nrules = discover(__name__)\n", "utf-8"
    )
    for name in ("a", "b"):
        (twice / f"{name}.py").write_text("from regles.kit.dice import CALCULATORS\n", "utf-8")
    settings = Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=twice)
    with pytest.raises(BuildError, match="calculateur « dice » défini deux fois"):
        SiteBuild(settings)


def test_a_site_without_a_rules_package_has_the_generic_calculators(tmp_path: Path) -> None:
    build = SiteBuild(Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=tmp_path / "absent"))
    assert build.rules.folder is None and build.rules.module == "regles.kit.generic"
    assert [entry["id"] for entry in build.rules.rules.catalog()] == ["dice"]


def test_the_rules_package_is_read_anew_at_each_build(tmp_path: Path) -> None:
    # `mkdocs serve` rebuilds with the same process: an edited calculator must show.
    package = tmp_path / "regles_vivantes"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from regles.kit import discover\nrules = discover(__name__)\n", "utf-8"
    )
    module = package / "titre.py"
    calculator = (
        "from regles.kit import Calculator, Output\n"
        "CALCULATORS = (Calculator('titre', {title!r}, 'd', (), (Output('x', 'X'),),"
        " lambda values: {{'x': 1}}),)\n"
    )
    module.write_text(calculator.format(title="Avant"), "utf-8")
    settings = Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=package)

    def titles() -> dict[object, object]:  # as a new build reads them
        return {c["id"]: c["title"] for c in SiteBuild(settings).rules.rules.catalog()}

    assert titles()["titre"] == "Avant"
    module.write_text(calculator.format(title="Après"), "utf-8")
    assert titles()["titre"] == "Après"


def test_pages_mkdocs_can_read_keep_their_file_for_mkdocs_and_other_plugins(
    tmp_path: Path,
) -> None:
    from mkdocs.structure.files import File

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.md").write_bytes(b"# Page\r\n\r\nTexte.\r\n")
    (docs / "latin.md").write_bytes("# Page\n\nd\xe9g\xe2ts\n".encode("cp1252"))
    build = SiteBuild(
        Settings(tmp_path, "mkdocs.yml", SITE_APP, calculators=tmp_path / "sans-paquet")
    )
    plugin = ReglesPlugin()
    ok, latin = (
        File(name, str(docs), str(tmp_path / "site"), True) for name in ("ok.md", "latin.md")
    )
    for file in (ok, latin):
        plugin._check_file(file, build)
    # MkDocs reads it (line ends made "\n"); its path stays, for `--dirty` and other plugins.
    assert ok.abs_src_path == str(docs / "ok.md") and ok.content_string == "# Page\n\nTexte.\n"
    # Not UTF-8: built from the text read with « � », and reported.
    assert latin.content_string == "# Page\n\nd\ufffdg\ufffdts\n"
    assert [p.kind for p in build.report.problems] == [Kind.ENCODING]
