"""Épées et PMT (Lankhmar) : corruption, altérations, héroïsme, rituels et folie."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import catalog, rules, run
from calculators.lankhmar import (
    ALTERATIONS,
    HORROR_EFFECTS,
    MADNESS_EFFECTS,
    corruption_check_failure,
    corruption_state,
    heroism_points,
    madness_points_law,
    madness_thresholds,
    ritual_hours,
    roll_alteration,
    tier_malus,
)
from regles.kit import CalculatorInputError, LimitExceededError

Lines = Callable[[str], list[str]]


# --- Corruption ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tier", "malus", "wis_lost"),
    [
        (0, 0, 0, 0),
        (9, 0, 0, 0),
        (10, 1, 0, 0),
        (29, 2, 1, 0),
        (30, 3, 2, 1),
        (40, 4, 4, 2),
        (60, 6, 8, 4),
    ],
)
def test_corruption_tiers(points: int, tier: int, malus: int, wis_lost: int) -> None:
    state = corruption_state(points)
    assert (state.tier, state.int_malus, state.alterations, state.wisdom_lost) == (
        tier,
        malus,
        tier,
        wis_lost,
    )


def test_document_example_three_tiers() -> None:
    # "un PJ qui a 3 paliers de corruption a donc subi 3 altérations": implemented.
    state = corruption_state(35)
    assert state.alterations == 3
    # The example's "-1" contradicts the cumulative rule; the rule is implemented (see rules.notes).
    assert state.int_malus == 2
    assert "−1" in rules.notes["corruption_tier_malus"]


def test_tier_malus_is_cumulative() -> None:
    assert [tier_malus(t) for t in range(1, 8)] == [0, 1, 2, 4, 6, 8, 10]


def test_corruption_check_is_roll_under_int() -> None:
    # Only spells above level 1 call for the check.
    assert corruption_check_failure(13, 1, 0) == 0
    # d20 <= 13 - 2 = 11 succeeds: 9 chances in 20 of gaining a point.
    assert corruption_check_failure(13, 2, 0) == Fraction(9, 20)
    # Tier 3: malus 2 more.
    assert corruption_check_failure(13, 2, 3) == Fraction(11, 20)
    assert corruption_check_failure(3, 5, 6) == 1
    assert corruption_check_failure(25, 2, 0) == 0


def test_corruption_run() -> None:
    result = run("corruption", {"points": 42, "wis": 9, "intelligence": 15, "spell_level": 3})
    assert result["tier"] == 4
    assert result["int_malus_text"] == "−4"
    assert result["alterations"] == 4
    assert result["wis_lost"] == 2 and result["wis"] == 7
    assert result["consumed"] is False
    assert result["check_target"] == 8
    assert result["p_gain_exact"] == "3/5"
    assert result["next_tier_at"] == 50


def test_consumed_at_wis_zero() -> None:
    assert run("corruption", {"points": 40, "wis": 2})["consumed"] is True
    assert run("corruption", {"points": 40, "wis": 3})["consumed"] is False


def test_corruption_tiers_table() -> None:
    t = rules.table("corruption_tiers")
    assert len(t.rows) == 6
    assert t.rows[2] == ["3", "30–39", "−2", "3", "1"]


# --- Altérations ----------------------------------------------------------------


def test_alteration_texts_match_the_source(seed_lines: Lines) -> None:
    lines = seed_lines("001")
    start = lines.index("d20\tAltération")
    assert lines[start + 1 : start + 21] == [
        f"{i}\t{text}" for i, text in enumerate(ALTERATIONS, 1)
    ]


def test_madness_table_matches_the_source(seed_lines: Lines) -> None:
    lines = seed_lines("001")
    start = lines.index("d10\tHorreur\tFolie")
    expected = [
        f"{i}\t{h}\t{f}"
        for i, (h, f) in enumerate(zip(HORROR_EFFECTS, MADNESS_EFFECTS, strict=True), 1)
    ]
    assert lines[start + 1 : start + 11] == expected


def test_alteration_rerolls_what_was_suffered() -> None:
    suffered = list(range(1, 20))  # only 20 remains
    result, rolls = roll_alteration(random.Random(1), suffered)
    assert result == 20 and rolls[-1] == 20
    assert all(r in suffered for r in rolls[:-1])


@pytest.mark.parametrize("seed", range(20))
def test_alteration_run(seed: int) -> None:
    result = run("alteration", {"already_suffered": [1, 2, 3, 11], "seed": seed})
    assert result["result"] not in (1, 2, 3, 11)
    assert result["text"] == ALTERATIONS[int(str(result["result"])) - 1]
    assert result["p_each_exact"] == "1/16"


def test_alteration_roll_refuses_a_full_table() -> None:
    with pytest.raises(ValueError):
        roll_alteration(random.Random(0), range(1, 21))


def test_alteration_errors() -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("alteration", {"already_suffered": list(range(1, 21))})
    assert info.value.field == "already_suffered"
    with pytest.raises(CalculatorInputError) as info:
        run("alteration", {"already_suffered": [0]})
    assert info.value.field == "already_suffered[0]"
    with pytest.raises(CalculatorInputError) as info:
        run("alteration", {"already_suffered": [True]})
    assert info.value.field == "already_suffered[0]"
    with pytest.raises(LimitExceededError):
        run("alteration", {"already_suffered": [1] * 21})


# --- Héroïsme et rituels ------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "points"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (10, 5), (21, 10)]
)
def test_heroism_points(level: int, points: int) -> None:
    assert heroism_points(level) == points
    assert run("heroism_points", {"level": level})["points"] == points


def test_ritual_example_two_level_1_and_one_level_2_take_two_hours() -> None:
    assert ritual_hours([1, 1, 2]) == 2
    result = run("ritual_time", {"spell_levels": [1, 1, 2]})
    assert result["hours"] == 2 and result["text"] == "2 h" and result["minutes"] == 120


def test_ritual_half_hours() -> None:
    result = run("ritual_time", {"spell_levels": [1, 2]})
    assert result["hours"] == 1.5 and result["text"] == "1 h 30"
    assert run("ritual_time", {"spell_levels": []})["hours"] == 0
    long = run("ritual_time", {"spell_levels": [9, 9]})
    assert long["hours"] == 9 and long["fits_in_rest"] is False


def test_ritual_errors() -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("ritual_time", {"spell_levels": [1, 10]})
    assert info.value.field == "spell_levels[1]"
    with pytest.raises(CalculatorInputError) as info:
        run("ritual_time", {"spell_levels": 3})
    assert info.value.field == "spell_levels"


# --- Folie --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "gained", "wis", "crossed"),
    [(0, 3, 10, 0), (8, 2, 10, 1), (9, 12, 10, 2), (10, 5, 10, 0), (19, 1, 10, 1), (0, 30, 10, 3)],
)
def test_madness_thresholds(current: int, gained: int, wis: int, crossed: int) -> None:
    assert madness_thresholds(current, gained, wis) == crossed


def test_madness_points_law() -> None:
    assert madness_points_law("horrible") == {
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 3),
    }
    assert sorted(madness_points_law("insoutenable")) == [2, 3, 4, 5]


def test_madness_run_with_given_points() -> None:
    result = run(
        "madness",
        {
            "current_points": 9,
            "wis": 10,
            "points_gained": 12,
            "seed": 4,
            "situation": "insoutenable",
        },
    )
    assert result["total"] == 21 and result["madness_rolls_due"] == 2
    rolls = result["madness_rolls"]
    assert isinstance(rolls, list) and len(rolls) == 2
    assert all(r["text"] == MADNESS_EFFECTS[r["roll"] - 1] for r in rolls)
    assert result["next_threshold"] == 30


def test_madness_probability_of_a_folie_roll() -> None:
    result = run("madness", {"current_points": 8, "wis": 10, "seed": 1})
    assert result["p_madness_roll_exact"] == "2/3"
    result = run(
        "madness", {"current_points": 8, "wis": 10, "situation": "insoutenable", "seed": 1}
    )
    assert result["p_madness_roll_exact"] == "1/1"


@pytest.mark.parametrize("seed", range(30))
def test_madness_rolls_are_consistent(seed: int) -> None:
    result = run(
        "madness", {"situation": "insoutenable", "current_points": 7, "wis": 4, "seed": seed}
    )
    gained = result["gained"]
    assert isinstance(gained, int) and 2 <= gained <= 5
    assert result["gained_roll"] == gained - 1
    horror = result["horror_roll"]
    assert isinstance(horror, int)
    assert result["horror_text"] == HORROR_EFFECTS[horror - 1]
    assert (result["temporary_madness_roll"] is not None) == (horror == 10)


def test_madness_errors() -> None:
    for inputs, field in (
        ({"wis": 0}, "wis"),
        ({"situation": "terrible"}, "situation"),
        ({"points_gained": -1}, "points_gained"),
        ({"current_points": "3"}, "current_points"),
    ):
        with pytest.raises(CalculatorInputError) as info:
            run("madness", inputs)
        assert info.value.field == field


@pytest.mark.parametrize(
    ("situation", "current", "gained", "due", "p_exact"),
    [
        ("horrible", 9, 0, 0, "0/1"),  # 9 points, none gained: the threshold of 10 is not reached
        ("horrible", 0, 15, 1, "1/1"),  # 15 points reach 10 once
        ("horrible", 8, 2, 1, "1/1"),
        ("insoutenable", 0, 3, 0, "0/1"),  # below 1d4+1's minimum, but the points are known
        ("insoutenable", 9, 12, 2, "1/1"),
    ],
)
def test_madness_with_given_points_is_certain(
    situation: str, current: int, gained: int, due: int, p_exact: str
) -> None:
    # Once the points gained are known, a Folie roll is due or it is not: no more a chance.
    result = run(
        "madness",
        {"situation": situation, "current_points": current, "wis": 10, "points_gained": gained},
    )
    assert result["madness_rolls_due"] == due
    assert result["p_madness_roll_exact"] == p_exact
    assert result["p_madness_roll"] == (1.0 if due else 0.0)


@settings(max_examples=200, deadline=None)
@given(
    situation=st.sampled_from(["horrible", "insoutenable"]),
    current=st.integers(0, 100),
    wis=st.integers(1, 25),
    gained=st.one_of(st.none(), st.integers(0, 100)),
    seed=st.integers(0, 2**32),
)
def test_madness_probability_agrees_with_the_rolls_due(
    situation: str, current: int, wis: int, gained: int | None, seed: int
) -> None:
    inputs: dict[str, object] = {"situation": situation, "current_points": current, "wis": wis}
    inputs.update({"seed": seed} if gained is None else {"points_gained": gained})
    result = run("madness", inputs)
    p = Fraction(str(result["p_madness_roll_exact"]))
    due = result["madness_rolls_due"]
    assert isinstance(due, int)
    # A roll that was made (or given) is possible: a Folie roll due has a chance above 0,
    # none due a chance below 1; given points leave no chance at all.
    assert (p > 0) if due else (p < 1)
    if gained is not None:
        assert p == (1 if due else 0)


def test_extra_points_belong_to_the_unbearable_situation_only(seed_lines: Lines) -> None:
    # "1d3 points de folie si la situation était horrible et 1d4+1 points de folie ou plus si
    # la situation était insoutenable": the "ou plus" is the unbearable case's alone.
    text = " ".join(seed_lines("001"))
    assert (
        "1d3 points de folie si la situation était horrible et 1d4+1 points de folie ou plus "
        "si la situation était insoutenable" in text
    )
    with pytest.raises(CalculatorInputError) as info:
        run("madness", {"situation": "horrible", "extra_points": 2, "seed": 1})
    assert info.value.field == "extra_points"
    assert "insoutenable" in info.value.message
    # No extra points in a horrible situation is the rule itself: 1d3.
    assert 1 <= int(str(run("madness", {"situation": "horrible", "seed": 1})["gained"])) <= 3
    result = run("madness", {"situation": "insoutenable", "extra_points": 2, "seed": 1})
    assert 4 <= int(str(result["gained"])) <= 7
    assert sorted(madness_points_law("insoutenable", 2)) == [4, 5, 6, 7]
    with pytest.raises(ValueError):
        madness_points_law("horrible", 2)
    help_text = next(
        spec["help"]
        for spec in next(e for e in catalog() if e["id"] == "madness")["inputs"]
        if spec["name"] == "extra_points"
    )
    assert "insoutenable" in str(help_text)


@pytest.mark.parametrize(
    ("inputs", "gain_from"),
    [
        ({}, 12),  # INT 13, level 2, tier 0: d20 ≤ 11 succeeds
        ({"intelligence": 25, "spell_level": 2}, 21),  # never fails
        ({"intelligence": 3, "spell_level": 9, "points": 40}, 1),  # always fails
        ({"intelligence": 16, "spell_level": 3, "points": 25}, 13),  # tier 2: −1
    ],
)
def test_corruption_chart_is_the_d20_of_the_int_check(
    inputs: dict[str, object], gain_from: int
) -> None:
    result = run("corruption", inputs)
    assert result["check_roll"] == {"totals": list(range(1, 21)), "p": [0.05] * 20}
    assert result["gain_from"] == gain_from
    # The faces that give a point, counted one by one, are the chance the page shows.
    failing = [face for face in range(1, 21) if face > result["check_target"]]
    assert Fraction(result["p_gain_exact"]) == Fraction(len(failing), 20)
    assert failing == list(range(gain_from, 21))


def test_corruption_draws_no_chart_without_a_check() -> None:
    result = run("corruption", {"spell_level": 1})
    assert result["check_roll"] is None and result["gain_from"] is None
