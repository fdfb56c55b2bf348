"""Expressions de dés : analyse, loi exacte, limites et jets."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CalculatorInputError, LimitExceededError, run
from calculators.dice import MAX_EXPRESSION_LENGTH, distribution, parse, roll


def law(expression: str) -> dict[int, Fraction]:
    return dict(distribution(parse(expression)).items())


def brute_force(count: int, sides: int, keep: int, highest: bool) -> dict[int, Fraction]:
    totals: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        kept = sorted(faces, reverse=highest)[:keep]
        totals[sum(kept)] += 1
    n = sides**count
    return {v: Fraction(w, n) for v, w in totals.items()}


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1d6", "1d6"),
        ("2d4", "2d4"),
        ("1d6+6", "1d6+6"),
        ("1d4+1", "1d4+1"),
        ("1d6x100", "1d6x100"),
        ("1d6×100", "1d6x100"),
        ("1D6*100", "1d6x100"),
        ("1d20", "1d20"),
        ("2d20kh1", "2d20kh1"),
        ("2d20KL1", "2d20kl1"),
        ("d100", "1d100"),
        ("d%", "1d100"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4d6dl1", "4d6kh3"),
        ("4d6dh1", "4d6kl3"),
        (" 2 d6 +  3 ", "2d6+3"),
        ("1d8+1d6-2", "1d8+1d6-2"),
        ("-1+1d4", "-1+1d4"),
        ("2d6 − 1", "2d6-1"),
        ("3", "3"),
    ],
)
def test_parse_accepts_document_notations(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


def test_distribution_2d6() -> None:
    d = law("2d6")
    assert d[7] == Fraction(6, 36)
    assert d[2] == d[12] == Fraction(1, 36)
    assert sum(d.values()) == 1


def test_multiplier_keeps_six_values() -> None:
    d = law("1d6x100")
    assert sorted(d) == [100, 200, 300, 400, 500, 600]
    assert set(d.values()) == {Fraction(1, 6)}


def test_subtraction_and_constants() -> None:
    d = law("1d4-1d4+2")
    assert min(d) == -1 and max(d) == 5
    assert d[2] == Fraction(4, 16)


def test_percentile_is_uniform() -> None:
    d = law("d%")
    assert len(d) == 100 and all(p == Fraction(1, 100) for p in d.values())


@pytest.mark.parametrize(
    ("count", "sides", "keep", "highest"),
    [(2, 20, 1, True), (2, 20, 1, False), (4, 6, 3, True), (3, 6, 2, False), (5, 4, 2, True)],
)
def test_keep_matches_brute_force(count: int, sides: int, keep: int, highest: bool) -> None:
    mode = "kh" if highest else "kl"
    assert law(f"{count}d{sides}{mode}{keep}") == brute_force(count, sides, keep, highest)


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(1, 4),
    sides=st.integers(1, 6),
    data=st.data(),
)
def test_keep_matches_brute_force_property(count: int, sides: int, data: st.DataObject) -> None:
    keep = data.draw(st.integers(1, count))
    highest = data.draw(st.booleans())
    mode = "kh" if highest else "kl"
    assert law(f"{count}d{sides}{mode}{keep}") == brute_force(count, sides, keep, highest)


TERM = st.one_of(
    st.builds(
        lambda n, s, m: f"{n}d{s}" + (f"x{m}" if m > 1 else ""),
        st.integers(1, 6),
        st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]),
        st.integers(1, 3),
    ),
    st.builds(lambda n, s: f"{n}d{s}kh1", st.integers(1, 4), st.sampled_from([4, 6, 20])),
    st.integers(0, 50).map(str),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("+-"), TERM), min_size=1, max_size=4))
def test_distribution_sums_to_exactly_one(parts: list[tuple[str, str]]) -> None:
    text = parts[0][1] + "".join(sign + term for sign, term in parts[1:])
    dist = distribution(parse(text))
    assert sum(p for _, p in dist.items()) == 1
    assert dist.min <= dist.mean() <= dist.max
    # Every roll is a possible total.
    total, _ = roll(parse(text), random.Random(0))
    assert dist.probability(total) > 0


def test_run_outputs() -> None:
    result = run("dice", {"expression": "1d20", "target": 15, "seed": 3})
    assert result["p_at_least"] == 0.3
    assert result["p_at_least_exact"] == "3/10"
    exact, floats = result["distribution_exact"], result["distribution"]
    assert isinstance(exact, dict) and isinstance(floats, dict)
    assert exact["20"] == "1/20"
    assert floats["1"] == 0.05
    roll_ = result["roll"]
    assert isinstance(roll_, dict)
    assert 1 <= roll_["total"] <= 20
    assert result["roll_total"] == roll_["total"]


def test_roll_shows_individual_dice_and_kept() -> None:
    result = run("dice", {"expression": "4d6kh3", "seed": 12})
    roll_ = result["roll"]
    assert isinstance(roll_, dict)
    (term,) = roll_["terms"]
    assert len(term["dice"]) == 4
    assert term["kept"].count(True) == 3
    kept = [d for d, k in zip(term["dice"], term["kept"], strict=True) if k]
    assert sorted(kept) == sorted(term["dice"])[1:]
    assert term["value"] == sum(kept) == roll_["total"]


def test_seed_makes_roll_reproducible() -> None:
    a = run("dice", {"expression": "10d10", "seed": 42})
    b = run("dice", {"expression": "10d10", "seed": 42})
    assert a["roll"] == b["roll"]


def test_no_target_gives_null_probability() -> None:
    result = run("dice", {"expression": "1d6"})
    assert result["p_at_least"] is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "vide"),
        ("2d", "Nombre de faces attendu à la fin"),
        ("2d6 3", "position 5"),
        ("2d6+?", "position 5"),
        ("abc", "position 1"),
        ("0d6", "au moins un dé"),
        ("1d0", "au moins une face"),
        ("2d6kh3", "position 6"),
        ("2d6+", "fin de l’expression"),
        ("1d6x", "Nombre attendu"),
    ],
)
def test_parse_errors_point_at_the_position(text: str, fragment: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        run("dice", {"expression": text})
    assert info.value.field == "expression"
    assert fragment in info.value.message
    assert not isinstance(info.value, LimitExceededError)


@pytest.mark.parametrize(
    "text",
    [
        "101d6",
        "1d1001",
        "60d6+60d6",
        "1d6x1001",
        "9999999d6",
        "1" + "0" * 90,
        "+".join(["1"] * 21),
        "1d1000+1d1000+1d1000+1d1000+1d1000+1d1000",
        "100d1000",
        "100d1000kh1",
        "90d100kh45",
    ],
)
def test_limits_are_refused_quickly(text: str) -> None:
    start = time.perf_counter()
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": text})
    assert time.perf_counter() - start < 0.5
    assert info.value.field == "expression"
    assert info.value.message


def test_too_long_expression_is_a_limit() -> None:
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": "1d6+" * 50})
    assert str(MAX_EXPRESSION_LENGTH) in info.value.message


def test_huge_string_refused_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(LimitExceededError):
        run("dice", {"expression": "9d9+" * 1_000_000})
    assert time.perf_counter() - start < 0.5


def test_largest_allowed_expressions_stay_fast() -> None:
    for text in ("100d6", "50d100", "2d1000", "20d6kh10", "1d1000+1d1000"):
        start = time.perf_counter()
        dist = distribution(parse(text))
        assert sum(p for _, p in dist.items()) == 1
        assert time.perf_counter() - start < 2
