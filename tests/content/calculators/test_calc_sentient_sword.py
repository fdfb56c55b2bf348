"""Épées intelligentes (OSE) : tables fidèles au document, génération et contrôle."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from calculators import rules, run
from calculators.sentient_sword import (
    ALIGNMENTS,
    alignment_for_roll,
    control_probability,
    generate_sword,
    languages_for_roll,
    languages_text,
    sword_will,
    touch_damage,
    wielder_will,
)
from regles.kit import CalculatorInputError

Lines = Callable[[str], list[str]]


class Scripted(random.Random):
    """A Random whose randint returns scripted values, to test rare results."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b
        return value


@pytest.mark.parametrize("table_id", ["sword_communication", "sword_powers"])
def test_sword_tables_reproduce_the_source_lines(table_id: str, seed_lines: Lines) -> None:
    lines = seed_lines("003")
    t = rules.table(table_id)
    header = "\t".join(t.headers)
    assert t.caption in lines
    start = lines.index(header)
    assert lines.index(t.caption) < start
    rendered = ["\t".join(row) for row in t.rows]
    assert lines[start + 1 : start + 1 + len(rendered)] == rendered


def test_languages_and_alignment_rows_match_the_source(seed_lines: Lines) -> None:
    lines = seed_lines("003")
    for low, high, extra in ((1, 50, 1), (51, 70, 2), (71, 85, 3), (86, 95, 4), (95, 99, 5)):
        assert f"{low:02d}–{high:02d}\t{languages_text(extra)}" in lines
    for low, high, name in ((1, 13, "Loyal"), (14, 18, "Neutre"), (19, 20, "Chaotique")):
        assert f"{low:02d}–{high:02d}\t{name}" in lines
        assert ALIGNMENTS[alignment_for_roll(low)] == name


def test_languages_table_overlap_95_gives_plus_4() -> None:
    assert languages_for_roll(1) == 1
    assert languages_for_roll(50) == 1
    assert languages_for_roll(51) == 2
    assert languages_for_roll(85) == 3
    assert languages_for_roll(86) == 4
    assert languages_for_roll(95) == 4
    assert languages_for_roll(96) == 5
    assert languages_for_roll(99) == 5
    assert languages_for_roll(100) is None
    assert "95" in rules.notes["sword_languages_overlap"]


def test_alignment_rows() -> None:
    assert [alignment_for_roll(r) for r in (1, 13, 14, 18, 19, 20)] == [
        "lawful",
        "lawful",
        "neutral",
        "neutral",
        "chaotic",
        "chaotic",
    ]


def test_double_zero_rolls_twice_and_adds() -> None:
    # d6 = 4 (INT 10, speech), d100 = 00 then 30 (+1) and 90 (+4), d20 = 15, d12 = 7.
    sword = generate_sword(Scripted([4, 100, 30, 90, 15, 7]))
    assert sword.intelligence == 10 and sword.communication == "Discours"
    assert sword.language_rolls == (100, 30, 90)
    assert sword.languages_extra == 5
    assert sword.alignment == "neutral" and sword.ego == 7


def test_double_zero_can_chain() -> None:
    sword = generate_sword(Scripted([6, 100, 100, 10, 60, 99, 1, 12]))
    assert sword.languages_extra == 1 + 2 + 5
    assert sword.reading


def test_empathic_sword_has_no_language_roll() -> None:
    sword = generate_sword(Scripted([1, 20, 3]))
    assert sword.intelligence == 7 and sword.communication == "Empathie"
    assert sword.languages_extra is None and sword.language_rolls == ()
    assert sword.alignment == "chaotic"
    assert (sword.sensory_powers, sword.extraordinary_powers) == (1, 0)


def test_special_purpose_sword() -> None:
    result = run("sentient_sword", {"special_purpose": True, "seed": 5})
    assert result["intelligence"] == 12 and result["ego"] == 12
    assert result["powers"] == "3 pouvoirs sensoriels + 1 extraordinaire"
    assert result["reading_text"] == "Oui" and result["communication"] == "Discours"
    assert result["int_roll"] is None and result["ego_roll"] is None
    assert result["willpower_base"] == 25


@pytest.mark.parametrize("seed", range(40))
def test_generated_swords_are_consistent(seed: int) -> None:
    result = run("sentient_sword", {"seed": seed})
    intelligence = result["intelligence"]
    assert isinstance(intelligence, int) and 7 <= intelligence <= 12
    assert result["int_roll"] == intelligence - 6
    ego = result["ego"]
    assert isinstance(ego, int) and 1 <= ego <= 12
    assert (result["languages"] is None) == (intelligence < 10)
    assert run("sentient_sword", {"seed": seed}) == result


def brute_force_control(
    sword_base: int, differ: bool, wielder_base: int, wounded_dice: int
) -> Fraction:
    wins = total = 0
    sword_faces = range(1, 11) if differ else [0]
    for d10 in sword_faces:
        for hurt in itertools.product(range(1, 5), repeat=wounded_dice):
            total += 1
            wins += sword_base + d10 > wielder_base - sum(hurt)
    return Fraction(wins, total)


@pytest.mark.parametrize("differ", [False, True])
@pytest.mark.parametrize(("wounded", "dice"), [("healthy", 0), ("wounded", 1), ("below_half", 2)])
@pytest.mark.parametrize(("intelligence", "ego", "extra"), [(7, 1, 0), (10, 6, 0), (12, 12, 1)])
def test_control_probability_matches_enumeration(
    differ: bool, wounded: str, dice: int, intelligence: int, ego: int, extra: int
) -> None:
    result = run(
        "sword_control",
        {
            "sword_int": intelligence,
            "ego": ego,
            "extraordinary_powers": extra,
            "alignments_differ": differ,
            "wielder_str": 12,
            "wielder_wis": 11,
            "wounded": wounded,
        },
    )
    expected = brute_force_control(intelligence + ego + extra, differ, 23, dice)
    assert result["p_control_exact"] == f"{expected.numerator}/{expected.denominator}"


def test_control_is_strictly_higher() -> None:
    # Equal Willpower: the sword does not take control.
    p = control_probability(sword_will(10, 10, 0, False), wielder_will(10, 10, "healthy"))
    assert p == 0


def test_touch_damage_by_alignment() -> None:
    assert touch_damage("lawful", "neutral") == "1d6"
    assert touch_damage("lawful", "chaotic") == "2d6"
    assert touch_damage("neutral", "lawful") == "1d6"
    assert touch_damage("neutral", "chaotic") == "1d6"
    assert touch_damage("chaotic", "neutral") == "1d6"
    assert touch_damage("chaotic", "lawful") == "2d6"
    for a in ALIGNMENTS:
        assert touch_damage(a, a) is None


def test_alignments_given_decide_whether_they_differ() -> None:
    result = run(
        "sword_control",
        {"sword_alignment": "lawful", "character_alignment": "chaotic", "alignments_differ": False},
    )
    assert result["alignments_differ"] is True and result["touch_damage"] == "2d6"
    same = run("sword_control", {"sword_alignment": "neutral", "character_alignment": "neutral"})
    assert same["alignments_differ"] is False and same["touch_damage"] is None


def test_sword_errors() -> None:
    cases: list[tuple[str, dict[str, object], str]] = [
        ("sentient_sword", {"special_purpose": 1}, "special_purpose"),
        ("sentient_sword", {"seed": -1}, "seed"),
        ("sentient_sword", {"seed": 1.5}, "seed"),
        ("sword_control", {"sword_int": 13}, "sword_int"),
        ("sword_control", {"ego": 0}, "ego"),
        ("sword_control", {"wounded": "dead"}, "wounded"),
        ("sword_control", {"sword_alignment": "good"}, "sword_alignment"),
    ]
    for name, inputs, field in cases:
        with pytest.raises(CalculatorInputError) as info:
            run(name, inputs)
        assert info.value.field == field


@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"alignments_differ": True, "wounded": "below_half", "wielder_str": 12, "wielder_wis": 9},
        {
            "sword_int": 12,
            "ego": 12,
            "extraordinary_powers": 1,
            "alignments_differ": True,
            "wielder_str": 16,
            "wielder_wis": 9,
            "wounded": "wounded",
        },
    ],
)
def test_sword_control_chart_is_the_law_of_the_willpower_gap(inputs: dict[str, object]) -> None:
    """Every face of every die, counted: the gap sword − wielder and its chance."""
    result = run("sword_control", inputs)
    merged = {
        "sword_int": 10,
        "ego": 6,
        "extraordinary_powers": 0,
        "alignments_differ": False,
        "wielder_str": 10,
        "wielder_wis": 10,
        "wounded": "healthy",
        **inputs,
    }
    sword_dice = [range(1, 11)] if merged["alignments_differ"] else []
    wielder_dice = [range(1, 5)] * {"healthy": 0, "wounded": 1, "below_half": 2}[
        str(merged["wounded"])
    ]
    counts: dict[int, int] = {}
    faces = list(itertools.product(*sword_dice, *wielder_dice))
    for roll in faces:
        sword = int(str(merged["sword_int"])) + int(str(merged["ego"]))
        sword += int(str(merged["extraordinary_powers"])) + sum(roll[: len(sword_dice)])
        wielder = int(str(merged["wielder_str"])) + int(str(merged["wielder_wis"]))
        wielder -= sum(roll[len(sword_dice) :])
        counts[sword - wielder] = counts.get(sword - wielder, 0) + 1
    chart = result["will_gap"]
    assert chart == {
        "totals": sorted(counts),
        "p": [float(Fraction(counts[g], len(faces))) for g in sorted(counts)],
    }
    assert result["control_gap"] == 1
    won = sum(n for g, n in counts.items() if g >= 1)
    assert Fraction(result["p_control_exact"]) == Fraction(won, len(faces))
