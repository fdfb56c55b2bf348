"""Configuration mistakes that MkDocs would let through in silence are errors of the report,
with the file and line: a key given twice in mkdocs.yml (YAML keeps the last), an export
lying among the pages that no database declares (it would be published as it is), and a
database whose export has nothing in it. On strings and small builds, without MkDocs."""

from __future__ import annotations

from pathlib import Path

from regles.core.config_file import duplicate_keys, inherited_files, setting_line
from regles.core.report import Kind
from regles.core.stages import SiteFile
from regles.features.databases.book import DatabaseSettings
from tests.conftest import new_build

# The game master's mistake: a second `databases:` under the plugin, which drops the first.
TWICE = """\
site_name: Brumes
site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]
docs_dir: !relative $config_dir/content
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
defaults: &defaults
  folder: x
plugins:
  - search
  - regles:
      databases:
        - export: bestiaire.txt
          <<: *defaults
          section: Bestiaire
        - export: prieres.txt
          folder: prieres
          section: Prières
      app:
        short_name: Brumes
      databases:
        - export: rituels.txt
          folder: rituels
          section: Rituels
nav:
  - index.md
"""


def test_a_key_given_twice_is_an_error_at_the_line_yaml_keeps() -> None:
    (problem,) = duplicate_keys(TWICE, "mkdocs.yml")
    assert (problem.file, problem.line, problem.severity) == ("mkdocs.yml", 21, "error")
    assert problem.kind is Kind.DUPLICATE_KEY
    assert problem.message.startswith(
        "clé « databases » donnée deux fois sous « plugins › regles » (lignes 12 et 21) : "
        "YAML ne garde que la dernière"
    )


def test_twice_at_the_top_and_in_a_nested_table_but_not_in_two_items_of_a_list() -> None:
    text = "nav: []\ntheme:\n  name: material\n  name: readthedocs\nnav:\n  - a.md\n"
    found = [(p.line, p.subject) for p in duplicate_keys(text, "mkdocs.yml")]
    assert sorted(found) == [(4, "name"), (5, "nav")]
    messages = {p.subject: p.message for p in duplicate_keys(text, "mkdocs.yml")}
    assert "sous « theme »" in messages["name"] and "au premier niveau" in messages["nav"]
    # Each database is its own table: the same keys in two of them are no mistake, nor
    # MkDocs' and Material's tags, an anchor and a merge.
    assert duplicate_keys(TWICE.split("      app:")[0], "mkdocs.yml") == []
    # Text that is not YAML: MkDocs says why itself.
    assert duplicate_keys("nav: [\n", "mkdocs.yml") == []


def test_a_parent_file_is_read_again_too(tmp_path: Path) -> None:
    (tmp_path / "base.yml").write_text("theme:\n  name: a\n  name: b\n", encoding="utf-8")
    child = "INHERIT: base.yml\nsite_name: x\n"
    ((parent, text),) = inherited_files(child, tmp_path)
    assert parent == (tmp_path / "base.yml").resolve()
    assert [(p.file, p.line) for p in duplicate_keys(text, "base.yml")] == [("base.yml", 3)]
    # Through the build, as the plugin gives it the text of mkdocs.yml.
    build = new_build(tmp_path)
    build.index_pages([], [], None, child)
    assert [(p.file, p.line, p.kind) for p in build.report.of("error")] == [
        ("base.yml", 3, Kind.DUPLICATE_KEY)
    ]


def test_a_setting_s_line() -> None:
    assert setting_line(TWICE, "export", lambda value: value == "prieres.txt") == 16
    assert setting_line(TWICE, "export", lambda value: value == "absent.txt") is None


EXPORT_END = "\n---\n\nFin du fichier\n"


def test_an_export_among_the_pages_that_no_database_declares_is_an_error(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "content"
    (docs / "bestiaire").mkdir(parents=True)
    (docs / "bestiaire" / "export.txt").write_text("# Bestiaire\n" + EXPORT_END, "utf-8")
    (docs / "magie.txt").write_text("# Magie\n" + EXPORT_END, "utf-8")
    (docs / "notes.txt").write_text("Des notes, publiées telles quelles.\n", "utf-8")
    magic = DatabaseSettings(docs / "magie.txt", "content/magie.txt", "magie", "Magie", "Tous")
    build = new_build(tmp_path, databases=[magic])
    files = {
        path: SiteFile(path, docs / path, (docs / path).read_text)
        for path in ("bestiaire/export.txt", "magie.txt", "notes.txt")
    }
    changes = build.databases.leave_out_exports(files)
    assert "magie.txt" in changes.removed  # the declared export: read, never published
    (problem,) = build.report.of("error")
    assert (problem.file, problem.kind) == ("bestiaire/export.txt", Kind.RAW_EXPORT)
    assert problem.message.startswith(
        "ce fichier finit comme l’export d’une base (« --- Fin du fichier ») mais aucune base "
        "ne le déclare : il serait publié tel quel dans le site"
    )
    # A site without any database says it too: its databases were all dropped.
    build = new_build(tmp_path)
    build.databases.leave_out_exports(files)
    assert sorted(p.file for p in build.report.of("error")) == [
        "bestiaire/export.txt",
        "magie.txt",
    ]


def test_a_database_whose_export_has_nothing_is_a_warning_at_its_line(tmp_path: Path) -> None:
    export = tmp_path / "vide.txt"
    export.write_text("# Bestiaire _Généré le 01/01/2027 à 10:00_\n" + EXPORT_END, "utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nplugins:\n  - regles:\n      databases:\n        - export: vide.txt\n"
        "          folder: bestiaire\n          section: Bestiaire\n",
        encoding="utf-8",
    )
    settings = DatabaseSettings(export, "vide.txt", "bestiaire", "Bestiaire", "Tous")
    build = new_build(tmp_path, databases=[settings])
    (problem,) = [p for p in build.report.problems if p.kind is Kind.EMPTY_DATABASE]
    assert (problem.file, problem.line, problem.severity) == ("mkdocs.yml", 5, "warning")
    assert problem.message == (
        "la base « bestiaire » n’a aucun collège ni aucun sort : son export « vide.txt » n’a "
        "aucun titre « ## … » ; ses pages seraient vides (est-ce le bon fichier ?)"
    )
