"""The dice of the texts roll at once, before Python (theme/assets/js/dice-roll.js): the build
writes each button's terms as the kit parses them (features/calculators/dice_buttons.py), the
page only draws the dice. Run here in Node beside the kit: every outcome of the page's roll,
tallied, is the kit's exact law, for each kind of term; advantage rolls the same terms as the
kit parses; terms that are not the build's are refused. The law of chances a button carries
reads as the dice calculator gives it, at any threshold."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from regles.core.markdown_text import segment
from regles.features.calculators.dice_buttons import (
    MAX_WRITTEN_TOTALS,
    dice_buttons,
    written_law,
    written_terms,
)
from regles.kit.dice import distribution, parse
from regles.kit.generic import rules
from tests.conftest import node_json

ROLLER = Path(__file__).resolve().parents[1] / "generator/regles/theme/assets/js/dice-roll.js"

# Each kind of term: dice, constants, minus, multipliers, keeping the highest or the lowest,
# d% — with few enough outcomes to try them all (at most 6⁴ × 4).
EXPRESSIONS = [
    "1d6", "2d6+3", "1d20+5", "3d4-2", "1d6x10", "1d%", "2d6-1d4", "1d1+2",
    "4d6kh3", "2d20kl1", "3d6kh1+1d4kl1", "-1d8+4", "2d4x3-1",
]  # fmt: skip

# Every outcome of each expression's dice, in order, fed to rollTerms; the totals tallied.
ALL_OUTCOMES = """
const { readTerms, rollTerms, twoD20Terms } = await import(process.argv[1]);
const asked = JSON.parse(require("fs").readFileSync(0, "utf8"));
const laws = asked.laws.map((written) => {
  const terms = readTerms(written);
  const sides = terms.flatMap((t) => Array(t.count).fill(t.sides));
  const faces = sides.map(() => 1);
  const ways = {};
  for (;;) {
    let next = 0;
    const { total } = rollTerms(terms, () => faces[next++]);
    ways[total] = (ways[total] || 0) + 1;
    let k = faces.length - 1;
    while (k >= 0 && faces[k] === sides[k]) faces[k--] = 1;
    if (k < 0) break;
    faces[k] += 1;
  }
  return ways;
});
const twice = asked.twice.map((written) => twoD20Terms(readTerms(written), "kh"));
const refused = asked.refused.map((text) => readTerms(text));
const rolls = Array.from({ length: 2000 }, () => rollTerms(readTerms(asked.laws[0])).total);
process.stdout.write(JSON.stringify({ laws, twice, refused, rolls }));
"""


def full_terms(expression: str) -> list[dict[str, Any]]:
    return [dataclasses.asdict(term) for term in parse(expression).terms]


@pytest.fixture(scope="module")
def answer() -> dict[str, Any]:
    written = [written_terms(e) for e in EXPRESSIONS]
    assert all(written), dict(zip(EXPRESSIONS, written, strict=True))
    return node_json(
        ALL_OUTCOMES,
        ROLLER,
        {
            "laws": written,
            "twice": [written_terms(e) for e in ("1d20+5", "1d20", "1d20+1d4", "2d20", "1d20x2")],
            "refused": [
                "pas du JSON",
                "[]",
                '[{"count":101,"sides":6}]',
                '[{"sign":2,"constant":1}]',
                '[{"count":1,"sides":0}]',
                '[{"count":2,"sides":6,"keep_mode":"kx","keep":1}]',
                '[{"count":60,"sides":6},{"count":60,"sides":6}]',
            ],
        },
    )


@pytest.mark.parametrize("index", range(len(EXPRESSIONS)), ids=EXPRESSIONS)
def test_every_outcome_of_the_pages_roll_is_the_kits_law(
    index: int, answer: dict[str, Any]
) -> None:
    law = distribution(parse(EXPRESSIONS[index]))
    tallied = {int(total): ways for total, ways in answer["laws"][index].items()}
    assert sorted(tallied.items()) == list(law.ways)
    assert sum(tallied.values()) == law.total_ways


def test_advantage_rolls_the_terms_the_kit_parses(answer: dict[str, Any]) -> None:
    assert answer["twice"] == [
        full_terms("2d20kh1+5"),
        full_terms("2d20kh1"),
        full_terms("2d20kh1+1d4"),
        None,  # two d20 already
        None,  # a d20 multiplied is not one d20 to roll twice
    ]


def test_terms_that_are_not_the_builds_are_refused(answer: dict[str, Any]) -> None:
    assert answer["refused"] == [None] * 7


def test_the_browsers_dice_stay_within_their_faces(answer: dict[str, Any]) -> None:
    # 1d6 rolled 2,000 times with the browser's random source: every face, none other.
    assert set(Counter(answer["rolls"])) == {1, 2, 3, 4, 5, 6}


def test_each_die_of_the_texts_carries_its_terms_unless_the_kit_refuses_it() -> None:
    page = dice_buttons(segment("Lancez 2d6+3 puis 1d6x100, ou 200d6 pour rire."))
    assert 'data-de="2d6+3" data-de-termes="[{&quot;count&quot;:2,' in page.text
    assert json.loads(written_terms("1d6x100") or "") == [
        {"count": 1, "sides": 6, "multiplier": 100}
    ]
    # Past the kit's limits: no terms, the rules code rolls it and says why.
    assert 'data-de="200d6" title=' in page.text
    assert written_terms("200d6") is None


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("Perte de SAN : 1d3/1d10.", ["1d3", "1d10"]),  # on a success / on a failure
        ("Perte de SAN : 1/1d6+1.", ["1d6+1"]),
        ("Voyez images/1d6.png ou v2.1d6, et un Test d20.", []),  # a path, a version, a die
        ("Lancez 2d6+3 / 1d4 au choix.", ["2d6+3", "1d4"]),
        # Dice kept or dropped, as the kit reads them; not a word that starts like them.
        (
            "Avantage : 3d10kh2, ou 2d20kl1+3 ; créer : 4d6dl1, 4d6k3.",
            ["3d10kh2", "2d20kl1+3", "4d6dl1", "4d6k3"],
        ),
        ("Un sac de 1d6kg, 2d6khz ou 1d6dlx.", []),
    ],
)
def test_the_dice_of_a_text_are_its_rolls(text: str, dice: list[str]) -> None:
    page = dice_buttons(segment(text))
    assert re.findall(r'data-de="([^"]+)"', page.text) == dice


# What the page reads of a law the build wrote, for each threshold asked.
LAW_OUTPUTS = """
const { lawOutputs } = await import(process.argv[1]);
const asked = JSON.parse(require("fs").readFileSync(0, "utf8"));
const answers = asked.cases.map(([written, target]) => lawOutputs(written, target));
const refused = asked.refused.map((text) => lawOutputs(text, 3));
process.stdout.write(JSON.stringify({ answers, refused }));
"""
# Every kind of term, a multiplier's gaps between totals, negative totals, a wide law.
LAWS = ["2d6+3", "1d20+5", "4d6kh3", "2d20kl1", "1d6x100", "-1d8+4", "1d100-50", "20d6"]


def thresholds(expression: str) -> list[int | None]:
    """No threshold, one under the least total, each total and each gap, one over the most."""
    law = distribution(parse(expression))
    totals = [total for total, _ in law.ways]
    between = [a + 1 for a, b in pairwise(totals) if b - a > 1]
    return [None, totals[0] - 1, *totals, *between[:20], totals[-1] + 1]


def test_the_law_a_button_carries_reads_as_the_dice_calculator_gives_it() -> None:
    cases = [(e, t) for e in LAWS for t in thresholds(e)]
    answer = node_json(
        LAW_OUTPUTS,
        ROLLER,
        {
            "cases": [[written_law(e), t] for e, t in cases],
            "refused": [
                "pas du JSON",
                "{}",
                '{"totals":[],"p":[],"at_least":[],"mean":0}',
                '{"totals":[2,1],"p":[0.5,0.5],"at_least":[1,0.5],"mean":1.5}',
                '{"totals":[1,2],"p":[0.5,1.5],"at_least":[1,0.5],"mean":1.5}',
                '{"totals":[1,2],"p":[0.5,0.5],"at_least":[1],"mean":1.5}',
            ],
        },
    )
    keys = ("min", "max", "mean", "distribution", "target", "p_at_least")
    for (expression, target), read in zip(cases, answer["answers"], strict=True):
        inputs: dict[str, Any] = {"expression": expression}
        if target is not None:
            inputs["target"] = target
        given = json.loads(json.dumps(rules.run("dice", inputs)))
        assert read == {k: given[k] for k in keys}, (expression, target)
    assert answer["refused"] == [None] * 6


def test_the_first_die_of_each_expression_on_a_page_carries_its_law() -> None:
    page = dice_buttons(segment("Lancez 2d6+3, puis 1d20. Encore 2d6+3 ; et 10d100 ou 200d6."))
    buttons = re.findall(r"<button [^>]*>", page.text)
    laws = [(re.findall(r'data-de="([^"]+)"', b)[0], "data-de-loi=" in b) for b in buttons]
    assert laws == [
        ("2d6+3", True),
        ("1d20", True),
        ("2d6+3", False),  # the page's first one has it
        ("10d100", False),  # 991 totals: its chances wait for Python
        ("200d6", False),  # refused by the kit
    ]
    assert len(distribution(parse("10d100")).ways) > MAX_WRITTEN_TOTALS
