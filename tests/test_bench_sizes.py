"""`make bench`'s big games (bench/sizes.py): the same seed writes the same site, byte for byte;
the game is what the benchmark says it is (pages, entries, unique headings and names, a
reference to another page of its system on every page); and s1 builds with --strict without
a warning, its references and mentions made links. The benchmark itself never runs here."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.scale import tree_rss
from bench.sizes import SIZES, SYSTEMS, Game, make_game, write_game
from bench.sizes_text import markdown_blocks
from regles.core.slugs import fold
from tests.conftest import NODE_MODULES, build_site, npm_packages

HEADING = re.compile(r"^(#{1,6}) (.+)$", re.MULTILINE)
SEE_ALSO = re.compile(r"^Voir aussi « (.+) »\.$", re.MULTILINE)
ENTRY = re.compile(r"^### (.+) \([IVX–-]+\)$", re.MULTILINE)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def game() -> Game:
    return make_game("s1")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, game: Game) -> Iterator[Path]:
    npm_packages()
    folder = tmp_path_factory.mktemp("grand-jeu") / "s1"
    yield write_game(game, folder, NODE_MODULES)


def test_the_same_seed_writes_the_same_site_byte_for_byte(
    written: Path, game: Game, tmp_path: Path
) -> None:
    again = write_game(make_game("s1"), tmp_path / "s1", NODE_MODULES)
    first, second = files_of(written.parent), files_of(again.parent)
    assert sorted(first) == sorted(second)
    assert [k for k in first if first[k] != second[k]] == []
    # Another seed deals other pages: the sameness above is the seed's, not a constant.
    assert make_game("s1", seed=7).files != game.files


def test_the_game_has_the_sizes_pages_entries_and_unique_names(game: Game) -> None:
    assert SIZES["s1"] == 1
    assert game.markdown_pages == 54
    exports = {path: text for path, text in game.files.items() if path.startswith("bases/")}
    entries = [name for text in exports.values() for name in ENTRY.findall(text)]
    assert len(exports) == 3 and len(entries) == game.entries == 400
    assert len({fold(n) for n in entries}) == len(entries)
    pages = {p: t for p, t in game.files.items() if p.startswith("content/") and "/chapitre-" in p}
    assert len(pages) == 50
    headings = [fold(h) for text in pages.values() for _, h in HEADING.findall(text)]
    assert len(set(headings)) == len(headings)
    # Every page names a section of another page of its own system, by its title.
    for path, text in pages.items():
        system = path.split("/")[1]
        (named,) = SEE_ALSO.findall(text)
        owners = [
            p
            for p, t in pages.items()
            if p != path and (f"\n## {named}\n" in t or f"\n### {named}\n" in t)
        ]
        assert [p.split("/")[1] for p in owners] == [system], (path, named)
    assert {p.split("/")[1] for p in pages} == {folder for folder, _ in SYSTEMS}


def test_blocks_move_whole_and_without_what_needs_their_page() -> None:
    titles, blocks = markdown_blocks(
        "---\ntitle: x\n---\n# Titre\n\nUn paragraphe\nsur deux lignes.\n\n"
        '!!! note "Étapes"\n\n    1. Un.\n    2. Deux.\n\nUn [lien](autre.md).\n\n'
        "```calculateur dice\n```\n\n```text\ndu code\n```\n\n## Section\n\n"
        '- <span id="etat-a-terre">À terre</span>\n'
    )
    assert titles == ["Titre", "Section"]
    assert blocks == [
        "Un paragraphe\nsur deux lignes.",
        '!!! note "Étapes"\n\n    1. Un.\n    2. Deux.',
        "```calculateur dice\n```",
    ]


def test_s1_builds_strict_without_a_warning(written: Path, tmp_path: Path, game: Game) -> None:
    result = build_site(tmp_path / "site", written)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output and "Traceback" not in output, output
    site = tmp_path / "site"
    html = list(site.rglob("*.html"))
    assert len(html) > game.markdown_pages
    for database in game.databases:
        assert (site / "data" / "bases" / f"{database.folder}.json").is_file()
    # A page's « Voir aussi » is a link, and its entries' mentions too (a linked system).
    linked = game.databases[0].linked_from[0]
    page = next(p for p in game.pages if p.startswith(f"{linked}/chapitre-"))
    built = (site / page.removesuffix(".md") / "index.html").read_text(encoding="utf-8")
    see_also = built.split("Voir aussi", 1)[1].split("</p>", 1)[0]
    assert "<a href=" in see_also, see_also
    mentions = built.split("emploient aussi", 1)[1].split("</p>", 1)[0]
    assert mentions.count('class="entry-link"') == 2, mentions


def test_peak_memory_counts_every_process_of_the_build(tmp_path: Path) -> None:
    """A build's children (the rules package's, the search's) hold memory of their own: the
    tree's sum, not the largest process."""
    grandchild = "b = bytearray(60_000_000); print('prêt', flush=True); input()"
    child = (
        "import subprocess, sys; a = bytearray(40_000_000); "
        f"subprocess.run([sys.executable, '-c', {grandchild!r}])"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", child], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "prêt"
        assert tree_rss(process.pid) > 100_000_000
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=60)
    assert tree_rss(process.pid) == 0
