"""Règles du SRD 5.2 : caractéristiques, maîtrise, tests d20, dégâts, soins, mort, grille."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import catalog, run
from calculators.dnd5e import (
    apply_damage,
    apply_healing,
    d20_odds,
    death_save_odds,
    grid_squares,
    kept_d20,
    modified_damage,
    parse_challenge_rating,
)
from regles.kit import CalculatorInputError

# --- Caractéristiques et maîtrise ------------------------------------------------


@pytest.mark.parametrize(
    ("score", "modifier"),
    [
        (1, -5),
        (2, -4),
        (3, -4),
        (8, -1),
        (9, -1),
        (10, 0),
        (11, 0),
        (12, 1),
        (18, 4),
        (29, 9),
        (30, 10),
    ],
)
def test_ability_modifier_table(score: int, modifier: int) -> None:
    result = run("ability_modifier", {"score": score})
    assert result["modifier"] == modifier


def test_ability_modifier_text_uses_typographic_minus() -> None:
    assert run("ability_modifier", {"score": 8})["modifier_text"] == "\u22121"
    assert run("ability_modifier", {"score": 10})["modifier_text"] == "+0"


@pytest.mark.parametrize(
    ("level", "bonus"), [(1, 2), (4, 2), (5, 3), (8, 3), (9, 4), (12, 4), (13, 5), (17, 6), (20, 6)]
)
def test_proficiency_by_level(level: int, bonus: int) -> None:
    assert run("proficiency_bonus", {"level": level})["bonus"] == bonus


@pytest.mark.parametrize(
    ("cr", "bonus"),
    [("0", 2), ("1/8", 2), ("1/4", 2), ("1/2", 2), ("4", 2), ("5", 3), ("21", 7), ("30", 9)],
)
def test_proficiency_by_challenge_rating(cr: str, bonus: int) -> None:
    result = run("proficiency_bonus", {"by": "cr", "challenge_rating": cr})
    assert result["bonus"] == bonus


@pytest.mark.parametrize(
    ("value", "expected", "bonus"),
    [
        (0.125, "1/8", 2),
        (0.25, "1/4", 2),
        (0.5, "1/2", 2),
        (0, "0", 2),
        (17, "17", 6),
        ("0,5", "1/2", 2),
        ("1 / 4", "1/4", 2),
        ("2.0", "2", 2),
    ],
)
def test_challenge_rating_accepts_numbers(value: object, expected: str, bonus: int) -> None:
    assert parse_challenge_rating(value) == expected
    result = run("proficiency_bonus", {"by": "cr", "challenge_rating": value})
    assert result["bonus"] == bonus


@pytest.mark.parametrize("value", [0.3, "1/3", 31, -1, True, "1e99999", [1], "1/0"])
def test_challenge_rating_rejects_unknown_values(value: object) -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("proficiency_bonus", {"by": "cr", "challenge_rating": value})
    assert info.value.field == "challenge_rating"


# --- Tests d20 ----------------------------------------------------------------


def test_advantage_example_18_and_3() -> None:
    # SRD: with 18 and 3, Disadvantage keeps the 3 and Advantage the 18.
    assert kept_d20([18, 3], "disadvantage") == 3
    assert kept_d20([18, 3], "advantage") == 18


def test_d20_normal() -> None:
    result = run("d20_test", {"modifier": 5, "target": 15})
    assert result["p_success_exact"] == "11/20"
    assert result["p_success"] == 0.55
    assert result["needed"] == 10


def test_d20_advantage_and_disadvantage() -> None:
    assert d20_odds(0, 11, "advantage").p_success == 1 - Fraction(1, 2) ** 2
    assert d20_odds(0, 11, "disadvantage").p_success == Fraction(1, 4)


def test_attack_natural_20_and_1() -> None:
    # Impossible target: only the natural 20 hits an attack; a check always fails.
    assert d20_odds(0, 40, attack=True).p_success == Fraction(1, 20)
    assert d20_odds(0, 40).p_success == 0
    # Trivial target: the natural 1 still misses an attack.
    assert d20_odds(30, 2, attack=True).p_success == Fraction(19, 20)
    assert d20_odds(30, 2).p_success == 1
    assert d20_odds(0, 10, "advantage", attack=True).p_critical == Fraction(39, 400)


@settings(max_examples=60, deadline=None)
@given(st.integers(-20, 30), st.integers(1, 40), st.booleans())
def test_advantage_never_hurts(modifier: int, target: int, attack: bool) -> None:
    normal = d20_odds(modifier, target, "normal", attack).p_success
    assert d20_odds(modifier, target, "disadvantage", attack).p_success <= normal
    assert normal <= d20_odds(modifier, target, "advantage", attack).p_success


# --- Dégâts ---------------------------------------------------------------------


def test_damage_order_example_28_fire_gives_22() -> None:
    assert modified_damage(28, -5, resistant=True, vulnerable=True) == 22


def test_massive_damage_example_dies() -> None:
    result = apply_damage(6, 12, 18)
    assert result.hp == 0
    assert result.dead and result.massive_damage


def test_massive_damage_just_below_maximum_survives() -> None:
    result = apply_damage(6, 12, 17)
    assert result.hp == 0 and result.unconscious and not result.dead


def test_temporary_hp_example_5_temp_7_damage() -> None:
    result = apply_damage(20, 20, 7, temp_hp=5)
    assert (result.temp_hp, result.hp, result.hp_lost) == (0, 18, 2)


def test_temporary_hp_absorb_all() -> None:
    result = run("damage", {"hp": 10, "hp_max": 10, "temp_hp": 12, "amount": 7})
    assert (result["temp_hp"], result["hp"]) == (5, 10)


def test_penalty_cannot_make_damage_negative() -> None:
    assert run("damage", {"hp": 10, "hp_max": 10, "amount": 3, "adjustment": -5})["hp"] == 10


def test_immunity() -> None:
    result = run(
        "damage", {"hp": 10, "hp_max": 10, "amount": 30, "immune": True, "vulnerable": True}
    )
    assert result["damage_taken"] == 0 and result["hp"] == 10


def test_damage_at_zero_hp_adds_failures() -> None:
    result = run("damage", {"hp": 0, "hp_max": 20, "amount": 3})
    assert result["death_save_failures"] == 1 and result["unconscious"] and not result["dead"]
    crit = run("damage", {"hp": 0, "hp_max": 20, "amount": 3, "critical": True})
    assert crit["death_save_failures"] == 2
    third = run("damage", {"hp": 0, "hp_max": 20, "amount": 3, "death_save_failures": 2})
    assert third["dead"] is True and third["death_save_failures"] == 3


def test_damage_at_zero_hp_at_least_max_kills() -> None:
    result = run("damage", {"hp": 0, "hp_max": 20, "amount": 20})
    assert result["dead"] is True


def test_damage_at_zero_absorbed_by_temp_hp_is_no_failure() -> None:
    result = run("damage", {"hp": 0, "hp_max": 20, "temp_hp": 5, "amount": 4})
    assert result["death_save_failures"] == 0 and result["temp_hp"] == 1


def test_drop_to_zero_unconscious() -> None:
    result = run("damage", {"hp": 5, "hp_max": 20, "amount": 9})
    assert result["hp"] == 0 and result["unconscious"] and not result["dead"]
    assert result["death_save_failures"] == 0


def test_monster_dies_at_zero() -> None:
    result = run("damage", {"hp": 5, "hp_max": 20, "amount": 9, "monster": True})
    assert result["dead"] is True and result["unconscious"] is False


def test_bloodied() -> None:
    assert run("damage", {"hp": 20, "hp_max": 20, "amount": 10})["bloodied"] is True
    assert run("damage", {"hp": 20, "hp_max": 20, "amount": 9})["bloodied"] is False


def test_damage_input_errors() -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("damage", {"hp": 21, "hp_max": 20})
    assert info.value.field == "hp"
    with pytest.raises(CalculatorInputError) as info:
        run("damage", {"hp": 5, "hp_max": 20, "death_save_failures": 1})
    assert info.value.field == "death_save_failures"
    with pytest.raises(CalculatorInputError) as info:
        run("damage", {"hp": 5, "hp_max": 20, "death_save_failures": 3})
    assert info.value.field == "death_save_failures"
    assert info.value.message == "La valeur doit être comprise entre 0 et 2."


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 500), st.integers(-50, 50), st.booleans())
def test_resistance_never_increases_damage(amount: int, adjustment: int, vulnerable: bool) -> None:
    with_res = modified_damage(amount, adjustment, resistant=True, vulnerable=vulnerable)
    without = modified_damage(amount, adjustment, resistant=False, vulnerable=vulnerable)
    assert 0 <= with_res <= without


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 200), st.data())
def test_damage_invariants(hp_max: int, data: st.DataObject) -> None:
    hp = data.draw(st.integers(0, hp_max))
    temp = data.draw(st.integers(0, 50))
    amount = data.draw(st.integers(0, 500))
    r = apply_damage(hp, hp_max, amount, temp_hp=temp)
    assert 0 <= r.hp <= hp and 0 <= r.temp_hp <= temp
    assert r.temp_hp_absorbed + r.hp_lost <= r.damage_taken
    assert not (r.dead and r.unconscious)


# --- Soins ---------------------------------------------------------------------


def test_healing_cap_example_14_of_20_healed_8() -> None:
    r = apply_healing(14, 20, 8)
    assert (r.hp, r.healed, r.wasted) == (20, 6, 2)


def test_healing_wakes_up() -> None:
    result = run("healing", {"hp": 0, "hp_max": 10, "amount": 1})
    assert result["regains_consciousness"] is True and result["hp"] == 1


def test_healing_errors() -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("healing", {"hp": 3, "hp_max": 2})
    assert info.value.field == "hp"
    with pytest.raises(CalculatorInputError) as info:
        run("healing", {"amount": -1})
    assert info.value.field == "amount"


# --- Jets de sauvegarde contre la mort -------------------------------------------


def test_death_saves_from_scratch_sum_to_one() -> None:
    odds = death_save_odds(0, 0)
    assert odds.p_stable + odds.p_dead + odds.p_regain_hp == 1


def test_death_saves_one_roll_left_each_way() -> None:
    odds = death_save_odds(2, 2)
    # 10–19 stabilises, 20 gives 1 HP, 1–9 is the third failure.
    assert odds.p_stable == Fraction(10, 20)
    assert odds.p_regain_hp == Fraction(1, 20)
    assert odds.p_dead == Fraction(9, 20)
    assert odds.expected_rolls == 1


def test_death_saves_two_failures_natural_one() -> None:
    # With one failure, a natural 1 (two failures) kills at once.
    odds = death_save_odds(2, 1)
    assert odds.p_dead == Fraction(1, 20) + Fraction(8, 20) * Fraction(9, 20)


def test_death_saves_run_output() -> None:
    result = run("death_saves", {"successes": 2, "failures": 2})
    assert result["p_stable_exact"] == "1/2"
    assert result["p_survive_exact"] == "11/20"


@pytest.mark.parametrize("s", [0, 1, 2])
@pytest.mark.parametrize("f", [0, 1, 2])
def test_death_saves_always_sum_to_one(s: int, f: int) -> None:
    odds = death_save_odds(s, f)
    assert odds.p_stable + odds.p_dead + odds.p_regain_hp == 1


def test_death_saves_errors() -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("death_saves", {"successes": 3})
    assert info.value.field == "successes"


# --- Grille ------------------------------------------------------------------------


def test_grid_example_9_m_is_6_squares() -> None:
    assert grid_squares(Fraction(9)).squares == 6


@pytest.mark.parametrize(
    ("speed", "difficult", "squares"),
    [
        (9, False, 6),
        (9, True, 3),
        (10, False, 6),
        (10.5, False, 7),
        (4.5, True, 1),
        (0, False, 0),
        (1.4, False, 0),
    ],
)
def test_grid_cases(speed: float, difficult: bool, squares: int) -> None:
    result = run("grid", {"speed_m": speed, "difficult_terrain": difficult})
    assert result["squares"] == squares


def test_grid_leftover() -> None:
    result = run("grid", {"speed_m": 10})
    assert result["leftover_m"] == 1.0 and result["distance_m"] == 9.0


@pytest.mark.parametrize(
    ("speed", "squares", "leftover"),
    [(4.5, 1, 1.5), (9, 3, 0.0), (10, 3, 1.0), (10.5, 3, 1.5), (1.5, 0, 1.5), (3, 1, 0.0)],
)
def test_grid_leftover_in_difficult_terrain(speed: float, squares: int, leftover: float) -> None:
    # "Toute distance parcourue sur un Terrain difficile vous coûte le double" (document 000):
    # a 1.5 m square costs 3 m of movement, and what cannot pay for one more is left over.
    result = run("grid", {"speed_m": speed, "difficult_terrain": True})
    assert result["squares"] == squares
    assert result["distance_m"] == squares * 1.5
    assert result["leftover_m"] == leftover
    assert result["leftover_text"] == f"{leftover:g}".replace(".", ",") + " m"


@settings(max_examples=200, deadline=None)
@given(halves=st.integers(0, 600), difficult=st.booleans())
def test_grid_movement_spent_plus_leftover_is_the_speed(halves: int, difficult: bool) -> None:
    speed = halves / 2  # 0 to 300 m by half metres, exact as floats
    result = run("grid", {"speed_m": speed, "difficult_terrain": difficult})
    cost = Fraction(3) if difficult else Fraction(3, 2)  # metres of movement per square
    squares = result["squares"]
    assert isinstance(squares, int)
    leftover = Fraction(str(result["leftover_m"]))
    assert squares * cost + leftover == Fraction(str(speed))
    assert 0 <= leftover < cost


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.5, "9", True, None, 301])
def test_grid_errors(bad: object) -> None:
    inputs = {"speed_m": bad}
    if bad is None:
        # null means "use the default".
        assert run("grid", inputs)["squares"] == 6
        return
    with pytest.raises(CalculatorInputError) as info:
        run("grid", inputs)
    assert info.value.field == "speed_m"


# --- Loi des issues des jets contre la mort (graphique) -------------------------------


def _death_saves_by_enumeration(successes: int, failures: int) -> dict[str, Fraction]:
    """Every sequence of five d20 faces, by class (1; 2–9; 10–19; 20: 1, 8, 10 and 1 faces in
    20), played out until its outcome: five rolls always settle it, and the faces after the
    outcome sum to 1. No recursion shared with the rules code."""
    faces = ((1, "nat1"), (8, "fail"), (10, "success"), (1, "nat20"))
    law = {"Stabilisé": Fraction(0), "Reprend 1 PV": Fraction(0), "Mort": Fraction(0)}
    for sequence in itertools.product(faces, repeat=5):
        s, f, end = successes, failures, None
        for _, face in sequence:
            if face == "nat20":
                end = "Reprend 1 PV"
            elif face == "success":
                s += 1
            else:
                f += 2 if face == "nat1" else 1
            end = end or ("Stabilisé" if s >= 3 else "Mort" if f >= 3 else None)
            if end:
                break
        assert end is not None
        weight = Fraction(1)
        for ways, _ in sequence:
            weight *= Fraction(ways, 20)
        law[end] += weight
    return law


@pytest.mark.parametrize(("successes", "failures"), [(s, f) for s in range(3) for f in range(3)])
def test_death_saves_chart_is_the_law_of_the_three_outcomes(successes: int, failures: int) -> None:
    result = run("death_saves", {"successes": successes, "failures": failures})
    chart = result["outcomes"]
    assert isinstance(chart, dict)
    assert chart["labels"] == ["Stabilisé", "Reprend 1 PV", "Mort"]
    assert chart["highlight"] == [True, True, False]  # the outcomes one survives
    law = _death_saves_by_enumeration(successes, failures)
    assert sum(law.values()) == 1
    assert chart["p"] == [float(law[k]) for k in chart["labels"]]
    assert result["p_survive"] == float(law["Stabilisé"] + law["Reprend 1 PV"])


def test_the_kind_of_roll_is_a_choice_in_words_and_reads_the_old_box() -> None:
    entry = next(e for e in catalog() if e["id"] == "d20_test")
    (kind,) = [i for i in entry["inputs"] if i["name"] == "attack"]
    assert kind["type"] == "choice"
    assert [c["label"] for c in kind["choices"]] == [
        "Test de caractéristique ou jet de sauvegarde",
        "Jet d’attaque",
    ]
    inputs = {"modifier": 0, "target": 40}
    attack = run("d20_test", {**inputs, "attack": "attack"})
    assert attack == run("d20_test", {**inputs, "attack": True})  # a link made before
    assert attack["p_success"] == 0.05  # only the natural 20 hits
    assert run("d20_test", {**inputs, "attack": False}) == run("d20_test", inputs)
    assert run("d20_test", inputs)["p_success"] == 0
