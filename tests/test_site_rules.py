"""The test site's own rules package (tests/site/regles_essai): what the generator's tests run
and draw is the rule its pages state, checked here against brute force, so that a chart or a
chance those tests compare is a real one."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from regles.kit import CalculatorInputError
from tests.conftest import TEST_SITE, rules_of_test_site

RULES = rules_of_test_site()
PAGES = TEST_SITE.parent / "content"
MODES = {"normal": None, "avantage": max, "desavantage": min}


def test_every_calculator_is_placed_on_the_tools_page_and_a_rule_page() -> None:
    tools = (PAGES / "outils.md").read_text(encoding="utf-8")
    rules = "".join(
        page.read_text(encoding="utf-8") for page in PAGES.rglob("*.md") if page.name != "outils.md"
    )
    for entry in RULES.catalog():
        block = f"```calculateur {entry['id']}\n"
        assert block in tools, entry["id"]
        assert entry["id"] == "dice" or block in rules, entry["id"]
    for table in RULES.table_ids():
        assert f"```table {table}\n" in rules, table
    for note in RULES.notes:
        assert f"```note {note}\n" in rules, note


@pytest.mark.parametrize("mode", sorted(MODES))
def test_chance_is_the_share_of_the_rolls_that_succeed(mode: str) -> None:
    keep = MODES[mode]
    rolls = [(a,) if keep is None else (keep(a, b),) for a in range(1, 21) for b in range(1, 21)]
    for modifier, target in ((0, 11), (5, 15), (-3, 19), (2, 30), (20, 1)):
        wins = sum(kept + modifier >= target for (kept,) in rolls)
        found = RULES.run("chance", {"modifier": modifier, "target": target, "mode": mode})
        assert Fraction(found["p_success_exact"]) == Fraction(wins, len(rolls))
        assert found["p_success"] == wins / len(rolls)


def test_survival_outcomes_add_up_to_one_and_follow_the_d20() -> None:
    for successes, failures in itertools.product(range(3), repeat=2):
        found = RULES.run("survie", {"successes": successes, "failures": failures})
        outcomes = [Fraction(found[f"p_{name}_exact"]) for name in ("stable", "up", "dead")]
        assert sum(outcomes) == 1
        assert found["outcomes"]["p"] == [float(p) for p in outcomes]
    # Two failures already: a 1 or 2–9 kills at once, 20 gets up, 10–19 is one success more.
    last = RULES.run("survie", {"successes": 2, "failures": 2})
    assert Fraction(last["p_dead_exact"]) == Fraction(9, 20)
    assert Fraction(last["p_stable_exact"]) == Fraction(10, 20)


def test_the_will_gap_is_the_law_of_its_dice() -> None:
    inputs = {"powers": 1, "wielder_str": 12, "wielder_wis": 9, "wounded": "below_half"}
    found = RULES.run("volonte", inputs)
    base = 10 + 6 + 1 - 12 - 9  # the sword's defaults: INT 10, Ego 6
    gaps = [
        base + d10 + a + b
        for d10, a, b in itertools.product(range(1, 11), range(1, 5), range(1, 5))
    ]
    totals = sorted(set(gaps))
    assert found["will_gap"]["totals"] == totals
    assert found["will_gap"]["p"] == [gaps.count(t) / len(gaps) for t in totals]
    assert Fraction(found["p_control_exact"]) == Fraction(sum(g >= 1 for g in gaps), len(gaps))


def test_the_load_follows_the_texts_example() -> None:
    # « 10 dagues (intermédiaire), 6 rations (légère), 30 potions (lourde) » with 18 in
    # Strength and a medium armour: a heavy load, because of the potions.
    (items,) = [f.initial for f in RULES.calculator("charge").inputs if f.name == "items"]
    found = RULES.run("charge", {"armor": "medium", "items": [dict(r) for r in items]})
    assert [g["load_label"] for g in found["groups"]] == ["Intermédiaire", "Légère", "Lourde"]
    assert found["load_label"] == "Lourde"
    assert found["groups"][0]["limits_text"] == "9/13/17"  # the rule, not the text's 9/13/16


def test_refusals_name_their_field() -> None:
    with pytest.raises(CalculatorInputError) as refused:
        RULES.run("soins", {"hp": 30, "hp_max": 20})
    assert refused.value.field == "hp"
    with pytest.raises(CalculatorInputError) as refused:
        RULES.run("tirage", {"already_drawn": list(range(1, 21))})
    assert refused.value.field == "already_drawn"


def test_a_draw_never_gives_a_line_already_drawn_and_a_seed_gives_it_again() -> None:
    drawn = [1, 2, 3, 5, 8, 13, 20]
    for seed in range(50):
        found = RULES.run("tirage", {"already_drawn": drawn, "seed": seed})
        assert found["result"] not in drawn and found["rolls"][-1] == found["result"]
        assert all(roll in drawn for roll in found["rolls"][:-1])
        assert RULES.run("tirage", {"already_drawn": drawn, "seed": seed}) == found
