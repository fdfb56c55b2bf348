"""The kit's dice (regles.kit.dice), the generic calculator every site has: parsing, exact
law, limits and rolls, through `regles.kit.generic.rules` as a site without rules of its own
runs them."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from regles.kit import CalculatorInputError, LimitExceededError
from regles.kit.dice import (
    MAX_EXPRESSION_LENGTH,
    MAX_TERMS,
    check_cost,
    distribution,
    parse,
    roll,
)
from regles.kit.generic import rules

run, run_json = rules.run, rules.run_json


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
    try:
        dist = distribution(parse(text))
    except LimitExceededError:
        assume(False)  # more than 2,000 totals (4 × 6d100x3): refused, rightly
    assert sum(p for _, p in dist.items()) == 1
    assert dist.min <= dist.mean() <= dist.max
    # Every roll is a possible total.
    total, _ = roll(parse(text), random.Random(0))
    assert dist.probability(total) > 0


def test_run_outputs() -> None:
    result = run("dice", {"expression": "1d20", "target": 15, "seed": 3})
    assert result["p_at_least"] == 0.3
    assert result["p_at_least_exact"] == "3/10"
    assert result["distribution"] == {"totals": list(range(1, 21)), "p": [0.05] * 20}
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
        "90d100kh45",
        "100d50",
        "3d1000kh2",
    ],
)
def test_limits_are_refused_before_any_computation(text: str) -> None:
    # Refused by the parser or by the cost check, which both come before the law is
    # computed (`distribution` checks the cost first): a refusal costs no computation.
    with pytest.raises(LimitExceededError) as early:
        check_cost(parse(text))
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": text})
    assert info.value.field == "expression"
    assert info.value.message == early.value.message


def test_too_long_expression_is_a_limit() -> None:
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": "1d6+" * 50})
    assert str(MAX_EXPRESSION_LENGTH) in info.value.message


def test_huge_string_refused_before_it_is_read() -> None:
    # Read term by term, it would be refused at its 21st term; refused for its length, it
    # was refused before the parser read it.
    text = "9d9+" * 1_000_000
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": text})
    assert f"{MAX_EXPRESSION_LENGTH} caractères" in info.value.message
    with pytest.raises(LimitExceededError) as read:
        parse(text[: MAX_EXPRESSION_LENGTH - 3])  # short enough to be read: too many terms
    assert f"{MAX_TERMS} termes" in read.value.message


def test_largest_allowed_expressions_are_exact() -> None:
    for text in (
        *("100d6", "20d100", "2d1000", "20d6kh10", "1d1000+1d1000", "100d1000kh1"),
        *("2d20kh1+2d20kl1", "50d500kh1-50d500kl1", "100d10kh99", "100d20kh100"),
    ):
        dist = distribution(parse(text))
        assert sum(p for _, p in dist.items()) == 1


def test_distribution_is_two_arrays_of_the_exact_law() -> None:
    result = run("dice", {"expression": "1d6x100-1d4+2", "seed": 1})
    law_ = law("1d6x100-1d4+2")
    shape = result["distribution"]
    assert isinstance(shape, dict) and set(shape) == {"totals", "p"}
    assert shape["totals"] == sorted(law_)
    assert shape["p"] == [float(law_[v]) for v in sorted(law_)]
    assert "distribution_exact" not in result


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        # Before: 100d50 answered 1.7 MB of JSON and 30d30+70d30 took 0.9 s of CPU.
        ("100d50", "(au plus 2\u202f000)"),
        ("30d30+70d30", "(au plus 2\u202f000)"),
        ("1d1000+1d1000+1d3", "(au plus 2\u202f000)"),
        ("3d1000kh2", "ne peuvent pas dépasser 1\u202f000 pour un calcul exact"),
        ("3d1000kh2", "(ici 3d1000kh2 : 2 × 1\u202f000)"),
        ("40d26kl39", "(ici 40d26kl39 : 39 × 26)"),
        # Over all the terms that keep some of their dice.
        ("2d1000kh1+2d1000kl1", "tous les termes réunis (ici 2d1000kh1 : 1 × 1\u202f000, "),
    ],
)
def test_refusals_name_the_limit(text: str, limit: str) -> None:
    with pytest.raises(LimitExceededError) as info:
        run("dice", {"expression": text})
    assert info.value.field == "expression"
    assert limit in info.value.message


# The costliest expressions accepted, found by a search over the grammar and its limits
# (sums of n dice of the most faces allowed, kept dice, sums of two or many terms,
# multipliers and constants, random expressions): the largest answers and the slowest.
WORST_ACCEPTED = [
    "100d20",
    "1000000+100d20",
    "-1000000-100d20",
    "1d1000x1000+1d2",
    "-1000000-2d1000x1000",
    "1000000+1d1000x999+1d2-1",
    "50d20+50d20",
    "99d1000kh1+1d1000",
    "100d11kh90",
    "20d6kh10+20d6kl10+20d6kh10+20d6kl10+20d6",
    "1d1000+1d1000",
]


@pytest.mark.parametrize("text", WORST_ACCEPTED)
def test_worst_accepted_expressions_answer_within_100_kb(text: str) -> None:
    answer = run_json("dice", json.dumps({"expression": text, "seed": 1}))
    assert json.loads(answer)["ok"] is True
    assert len(answer.encode("utf-8")) <= 100_000


SMALL_TERM = st.one_of(
    st.builds(
        lambda n, s, m: f"{n}d{s}" + (f"x{m}" if m > 1 else ""),
        st.integers(1, 4),
        st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20]),
        st.sampled_from([1, 1, 2, 3, 5, 10, 100]),
    ),
    st.builds(lambda n, s: f"{n}d{s}kl2", st.integers(2, 4), st.sampled_from([4, 6, 20])),
    st.integers(0, 50).map(str),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("+-"), SMALL_TERM), min_size=2, max_size=4))
def test_sum_of_terms_is_the_convolution_of_their_laws(parts: list[tuple[str, str]]) -> None:
    # The sum of independent terms, pair by pair with exact fractions, whichever way the
    # calculator adds them (die by die, pairs or Kronecker substitution).
    text = "".join(sign + term for sign, term in parts)
    try:
        computed = law(text)
    except LimitExceededError:
        assume(False)
    expected: dict[int, Fraction] = {0: Fraction(1)}
    for sign, term in parts:
        factor = -1 if sign == "-" else 1
        step: dict[int, Fraction] = {}
        for a, pa in expected.items():
            for b, pb in law(term).items():
                step[a + factor * b] = step.get(a + factor * b, Fraction(0)) + pa * pb
        expected = step
    assert computed == expected


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 100), sides=st.integers(1, 40), data=st.data())
def test_keeping_dice_agrees_with_its_mirror_and_the_mean(
    count: int, sides: int, data: st.DataObject
) -> None:
    keep = data.draw(st.integers(1, count))
    assume(keep * (sides - 1) + 1 <= 2000 and (keep == count or keep * sides <= 1000))
    highest, lowest = law(f"{count}d{sides}kh{keep}"), law(f"{count}d{sides}kl{keep}")
    assert sum(highest.values()) == 1 and sum(lowest.values()) == 1
    # A die of faces 1..s read as s + 1 - face: the lowest dice mirror the highest.
    assert {keep * (sides + 1) - v: p for v, p in highest.items()} == lowest
    if keep == count:
        assert highest == law(f"{count}d{sides}")
