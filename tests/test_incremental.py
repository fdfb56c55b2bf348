"""A save under `mkdocs serve` rebuilds what it touches (regles/serve.py): a page whose text
alone changed is rebuilt alone, a page whose sections changed with the pages that read them,
anything else is a full build; either way the site's files are those a full build of the
same sources writes, byte for byte."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort

from regles.core.incremental import changed_paths, page_face, scan_sources
from regles.core.markdown_text import segment
from regles.features.offline.precache import precache_entries
from regles.features.offline.update import refreshed_entries
from regles.serve import Rebuilder
from tests.conftest import ROOT, TEST_SITE, variant_of_test_site

# Sources and what a change of them is ------------------------------------------------------


def test_a_file_touched_is_no_change_and_an_edited_one_is(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Titre\n", "utf-8")
    before = scan_sources([tmp_path])
    os.utime(page, ns=(1, 1))  # the same bytes, another time
    (tmp_path / ".page.md.swp").write_text("tampon de l’éditeur", "utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "regles.cpython-311.pyc").write_bytes(b"\0")
    touched = scan_sources([tmp_path], before)
    assert changed_paths(before, touched) == set()
    page.write_text("# Titre\n\nUne phrase.\n", "utf-8")
    (tmp_path / "nouvelle.md").write_text("# Nouvelle\n", "utf-8")
    after = scan_sources([tmp_path], touched)
    assert changed_paths(touched, after) == {page, tmp_path / "nouvelle.md"}
    page.unlink()
    assert changed_paths(after, scan_sources([tmp_path], after)) == {page}


PAGE = """---
title: Combat
---
# Combat

## Attaque

Une phrase. Voir « Actions ».

```calculateur maitrise
```

## Attaque
"""


def face(text: str, **options: bool) -> object:
    return page_face(segment(text, front_matter=True), **options)


@pytest.mark.parametrize(
    ("edit", "same"),
    [
        (lambda t: t.replace("Une phrase.", "Une phrase changée, et\n\nun paragraphe."), True),
        (lambda t: t.replace("title: Combat", "title: Autre"), True),  # the build reads it
        (lambda t: t.replace("## Attaque\n\nUne", "## Attaques\n\nUne"), False),
        (lambda t: t.replace("# Combat", "# Combat {#combat-ancre}"), False),
        (lambda t: t.replace("Une phrase.", 'Une <span id="etat-x">X</span>.'), False),
        (lambda t: t.replace("calculateur maitrise", "calculateur autre"), False),
    ],
)
def test_what_other_pages_read_of_a_page_is_its_face(
    edit: Callable[[str], str], same: bool
) -> None:
    assert (face(edit(PAGE)) == face(PAGE)) is same


def test_the_lines_of_twin_headings_and_a_pages_scripts_count_when_asked() -> None:
    moved = PAGE.replace("Une phrase.", "Une phrase.\n\nUne autre.")
    assert face(moved) == face(PAGE)
    assert face(moved, twin_lines=True) != face(PAGE, twin_lines=True)
    scripted = PAGE.replace("Une phrase.", "Une phrase.\n\n<script>go()</script>")
    assert face(scripted) == face(PAGE)
    assert face(scripted, scripts=True) != face(PAGE, scripts=True)


def test_the_offline_list_updated_from_the_files_touched_is_the_sites(tmp_path: Path) -> None:
    # "a-b" sorts before "a/…" as text, after it as paths: the list is in paths' order.
    for name in ("a/b.html", "a-b/c.html", "b.html", "sw.js", "x.js.map"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name, "utf-8")
    later = ["a-b/"]
    entries = precache_entries(tmp_path, later=later)
    (tmp_path / "a/b.html").write_text("changée", "utf-8")
    (tmp_path / "b.html").unlink()
    (tmp_path / "a/0.html").write_text("nouvelle", "utf-8")
    touched = ["a/b.html", "b.html", "a/0.html", "sw.js"]
    assert refreshed_entries(tmp_path, entries, touched, later) == precache_entries(
        tmp_path, later=later
    )


# Saves of a served site, against full builds ------------------------------------------------

SERVE_URL = "http://127.0.0.1:8000/"
EPOCH = "1798761600"  # any fixed date: the sitemap's, the same for every build


def digests(site: Path) -> dict[str, str]:
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


class Served:
    """`mkdocs serve` without its HTTP server: its builds and the plugin's rebuilder, on a
    copy of the test site (its pages and its export) in `work`."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.docs = work / "content"
        shutil.copytree(TEST_SITE.parent / "content", self.docs)
        shutil.copy(TEST_SITE.parent / "sorts.txt", work / "sorts.txt")
        folder = TEST_SITE.parent

        def own_copies(text: str) -> str:
            text = text.replace(f"docs_dir: {folder / 'content'}", f"docs_dir: {self.docs}")
            return text.replace(f"export: {folder / 'sorts.txt'}", f"export: {work / 'sorts.txt'}")

        self.config_file = variant_of_test_site(work, own_copies)
        self.report = work / "rapport.json"
        self.builds = 0
        config = self.full_build()
        self.plugin = config.plugins["regles"]
        self.site = Path(config.site_dir)
        self.rebuild = Rebuilder(self.plugin, self.rebuild_all)

    def full_build(self) -> MkDocsConfig:
        """A full build as `mkdocs serve` makes it, into a new folder."""
        self.builds += 1
        site = self.work / f"site-{self.builds}"
        config = load_config(config_file=str(self.config_file), site_dir=str(site))
        config.plugins.on_startup(command="serve", dirty=False)
        config.site_url = SERVE_URL
        build(config, serve_url=SERVE_URL)
        return config

    def rebuild_all(self) -> None:
        """The server's own builder: a full build into the folder it serves."""
        config = load_config(config_file=str(self.config_file), site_dir=str(self.site))
        config.site_url = SERVE_URL
        build(config, serve_url=SERVE_URL)

    def edit(self, path: str, old: str, new: str) -> None:
        file = self.docs / path if path.endswith(".md") else self.work / path
        text = file.read_text(encoding="utf-8")
        assert old in text, (path, old)
        file.write_text(text.replace(old, new, 1), encoding="utf-8")

    def saved(self, did: str, pages: tuple[str, ...] = ()) -> None:
        """The server's rebuild after a save: it did `did` ("pages", "complète" or "rien"),
        for those pages."""
        self.rebuild()
        assert self.rebuild.last == did
        if pages:
            assert self.rebuild.rebuilt is not None and self.rebuild.rebuilt.pages == pages

    def assert_as_a_full_build(self) -> None:
        """The served site's files and report, once the search index and the offline copy
        are updated, are those of a full build of the same sources. That build becomes
        the one served (the plugin keeps the last one), as when the server starts again."""
        self.rebuild.settle()
        served, report = digests(self.site), self.report.read_text(encoding="utf-8")
        config = self.full_build()
        self.site = Path(config.site_dir)
        full = digests(self.site)
        differing = sorted(p for p in served.keys() | full.keys() if served.get(p) != full.get(p))
        assert differing == [], f"{len(differing)} fichiers diffèrent d’une construction complète"
        assert report == self.report.read_text(encoding="utf-8")


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    monkeypatch.chdir(ROOT)
    session = Served(tmp_path)
    yield session
    session.rebuild.settle(cancel=True)
    # MkDocs keeps one plugin object per process: the next in-process build is no serve.
    session.plugin.on_startup(command="build", dirty=False)


def test_a_call_with_no_source_changed_lets_the_search_update_finish(
    served: Served,
) -> None:
    # The server is called and no source changed: a file written in a folder it watches
    # (Python's __pycache__ of the rules package, written by another build's import), or a
    # page saved again as it was. The search index and the offline copy of the page just
    # saved still come, as a full build would write them.
    served.edit("jeu/combat.md", "\n\n", "\n\nUne phrase ajoutée au combat.\n\n")
    served.saved("pages", ("jeu/combat.md",))
    os.utime(served.docs / "jeu/combat.md")
    served.saved("rien")
    served.assert_as_a_full_build()


def test_each_save_leaves_the_files_of_a_full_build(served: Served) -> None:
    # A sentence: that page alone (and its system's print page), then the search and the
    # offline copy. The same bytes saved again: nothing.
    served.edit("jeu/combat.md", "\n\n", "\n\nUne phrase ajoutée au combat.\n\n")
    served.saved("pages", ("jeu/combat.md",))
    assert served.rebuild.rebuilt is not None
    assert served.rebuild.rebuilt.written == {"jeu/combat/index.html", "jeu/imprimer/index.html"}
    page = (served.site / "jeu/combat/index.html").read_text(encoding="utf-8")
    assert "Une phrase ajoutée au combat." in page
    os.utime(served.docs / "jeu/combat.md")
    served.saved("rien")
    # Two pages saved at once, one of them the glossary (its data file with it), after a
    # rebuild whose search and offline copy were stopped before they were done (as a save
    # does when it comes first). A page with two headings of the same title (« Actions »):
    # the lines move, nothing links to them.
    served.edit("jeu/combat.md", "ajoutée au combat", "changée au combat")
    served.saved("pages")
    served.rebuild.settle(cancel=True)
    served.edit("jeu/actions.md", "\n\n", "\n\nUne phrase ajoutée aux actions.\n\n")
    served.edit("jeu/glossaire.md", "ont le Désavantage", "ont toujours le Désavantage")
    served.saved("pages", ("jeu/actions.md", "jeu/glossaire.md"))
    served.assert_as_a_full_build()

    # An error in the page: the rebuild fails as a full build would, the page served is
    # the last one built; corrected, the page alone again. Saved back as it was built, it
    # is rebuilt all the same: the failed rebuild read it.
    served.edit("jeu/maitrise.md", "\n\n", "\n\nUn [lien](absente.md).\n\n")
    with pytest.raises(Abort):
        served.rebuild()
    assert "absente.md" not in (served.site / "jeu/maitrise/index.html").read_text("utf-8")
    served.edit("jeu/maitrise.md", "Un [lien](absente.md).", "Un lien réparé.")
    served.saved("pages", ("jeu/maitrise.md",))
    served.edit("jeu/degats-et-soins.md", "\n\n", "\n\nUn [lien](absente.md).\n\n")
    with pytest.raises(Abort):
        served.rebuild()
    served.edit("jeu/degats-et-soins.md", "\n\nUn [lien](absente.md).\n\n", "\n\n")
    served.saved("pages", ("jeu/degats-et-soins.md",))
    served.assert_as_a_full_build()

    # A section renamed: its page is rebuilt with the pages that read it, one by its title
    # (a reference « … »), one by its anchor (kept by an attribute: the link's print note
    # names the title); a glossary's entry, with the pages that mention it.
    served.edit("jeu/maitrise.md", "Un lien réparé.", "[Les jets](tests-d20.md#jets-d-attaque).")
    served.saved("pages", ("jeu/maitrise.md",))
    heading = "## Jets d’attaque\n"
    served.edit("jeu/tests-d20.md", heading, "## Jets au contact {#jets-d-attaque}\n")
    served.saved("pages", ("jeu/tests-d20.md",))
    assert served.rebuild.rebuilt is not None
    assert served.rebuild.rebuilt.others == ("jeu/combat.md", "jeu/maitrise.md")
    served.edit("jeu/glossaire.md", "## À terre\n", "## Tomber à terre\n")
    served.saved("pages", ("jeu/glossaire.md",))
    assert "jeu/combat.md" in served.rebuild.rebuilt.others  # « l’état À terre »
    served.assert_as_a_full_build()

    # A page's title is in every page's nav: a full build. So is a page added (with its line
    # in the nav) and removed, after which a sentence is a page's rebuild alone again.
    served.edit("jeu/caracteristiques.md", "# Les six caractéristiques", "# Les caractéristiques")
    served.saved("complète")
    (served.docs / "jeu/nouvelle.md").write_text("# Nouvelle page\n\nUn texte.\n", "utf-8")
    in_nav = "      - jeu/glossaire.md\n"
    served.edit("mkdocs.yml", in_nav, in_nav + "      - jeu/nouvelle.md\n")
    served.saved("complète")
    served.edit("jeu/nouvelle.md", "Un texte.", "Un texte changé.")
    served.saved("pages", ("jeu/nouvelle.md",))
    served.assert_as_a_full_build()
    (served.docs / "jeu/nouvelle.md").unlink()
    served.edit("mkdocs.yml", "      - jeu/nouvelle.md\n", "")
    served.saved("complète")

    # The export (an entry's text), then mkdocs.yml: full builds.
    served.edit("sorts.txt", "La cible devient totalement sourde.", "La cible devient sourde.")
    served.saved("complète")
    served.edit("mkdocs.yml", "site_description: Site d’essai", "site_description: Le site d’essai")
    served.saved("complète")
    served.edit("jeu/tests-d20.md", "\n\n", "\n\nUne phrase ajoutée aux tests.\n\n")
    served.saved("pages", ("jeu/tests-d20.md",))
    served.assert_as_a_full_build()
