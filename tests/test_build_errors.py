"""Faulty sources: the build fails and lists every problem with its file and line."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, build_site

FIXTURE = ROOT / "tests" / "integration" / "erreurs"


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> str:
    result = build_site(tmp_path_factory.mktemp("erreurs"), FIXTURE / "mkdocs.yml")
    assert result.returncode != 0
    return result.stdout + result.stderr


@pytest.mark.parametrize(
    ("place", "words"),
    [
        ("index.md:3", "« ] » au lieu de « ) »"),
        ("index.md:5", "l’adresse contient une espace"),
        ("index.md:7", "calculateur inconnu « inexistant »"),
        ("index.md:10", "table inconnue « inconnue »"),
        ("autre.md:5", "un identifiant attendu après « calculateur »"),
        ("autre.md:8", "note inconnue « absente »"),
        ("autre.md:11", "jamais fermé"),
        ("liste.md:5", "sur une page sans calculateur"),
        ("liste.md:8", "rien n’est attendu après « calculateurs »"),
        ("accueil.md:5", "rien n’est attendu après « accueil », ses liens viennent de la nav"),
        ("script.md:5", "script dans la page : le site ne lance que les scripts qu’il déclare"),
        ("script.md:7", "attribut « onclick » : du code dans une balise ne tourne jamais"),
        ("script.md:9", "adresse « javascript: » : elle ne tourne jamais sur ce site"),
    ],
)
def test_each_problem_is_named_with_file_and_line(output: str, place: str, words: str) -> None:
    lines = [line for line in output.splitlines() if place in line]
    assert any(words in line for line in lines), (place, words, lines)


def test_all_problems_are_reported_together(output: str) -> None:
    assert "13 erreur(s) dans les sources" in output
    assert "Traceback" not in output
