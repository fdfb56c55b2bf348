"""The « vouliez-vous dire » suggestions: the bounded edit distance and the names it finds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from regles.core.link_checks import Suggester, close_page, edit_distance


def full_distance(a: str, b: str) -> int:
    """Optimal string alignment distance, the whole table computed (the reference)."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        table[i][0] = i
    for j in range(len(b) + 1):
        table[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


WORDS = st.text(alphabet="abcdé ’", max_size=9)


@given(WORDS, WORDS, st.integers(min_value=0, max_value=3))
def test_the_bounded_distance_is_the_full_one_up_to_its_limit(a: str, b: str, limit: int) -> None:
    assert edit_distance(a, b, limit) == min(full_distance(a, b), limit + 1)


def test_slips_of_the_keyboard() -> None:
    assert edit_distance("tests d2o", "tests d20", 1) == 1  # substitution
    assert edit_distance("ab", "ba", 1) == 1  # two neighbours swapped
    assert edit_distance("abri", "abris", 1) == 1  # insertion
    assert edit_distance("materiel d’aventurier", "materiel d’aventure", 1) == 2  # over


def test_a_suggestion_is_one_slip_away_accents_and_case_aside() -> None:
    titles = Suggester(["Tests d20", "Matériel d’aventure", "Abri"])
    assert titles.typo_of("Tests d2O") == "Tests d20"
    assert titles.typo_of("tests D20") is None  # the same name, not a slip
    assert titles.typo_of("Matériel d’aventurier") is None  # two slips
    assert titles.typo_of("Matériel d’aventurier", slips=2) == "Matériel d’aventure"


def test_a_missing_page_is_matched_by_its_file_name_not_its_folder() -> None:
    # Every page shares its folder and « .md »: whole paths made « jeu/absente.md » look like
    # « jeu/index.md » (a suggestion an adopting game master found useless).
    pages = ["jeu/index.md", "jeu/combat.md", "brumes/index.md", "jeu/glossaire.md"]
    assert close_page("jeu/absente.md", pages) is None
    assert close_page("jeu/folie.md", pages) is None
    assert close_page("jeu/combta.md", pages) == "jeu/combat.md"  # a slip in the name
    assert close_page("jue/combat.md", pages) == "jeu/combat.md"  # in the folder
    assert close_page("brumes/indx.md", pages) == "brumes/index.md"  # of that name, its folder
