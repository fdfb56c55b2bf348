"""The dice calculator answered in the page before Python (theme/assets/js/dice-calculator.js)
is the kit's twin: run here in Node beside the kit (kit/dice.py, kit/dice_notation.py) on the
same inputs, it must give the same answer. The same refusal, field and French words, for
every expression the kit refuses; the same law, every chance equal to its last bit; the same
roll for a same seed. The expressions are written by hand for each rule of the notation and
each limit, and drawn at random from its pieces, with a fixed seed."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from regles.kit.errors import CalculatorInputError
from regles.kit.generic import rules
from tests.conftest import node_json

TWIN = Path(__file__).resolve().parents[1] / "generator/regles/theme/assets/js/dice-calculator.js"

# Each rule of the notation and each of its messages, in a few spellings.
WRITTEN = [
    "2d6+3", "1d20", "d20", "D%", "1d%", "d100", "4d6kh3", "4d6k3", "4d6k", "4d6kl1", "2d20kl",
    "4d6dl1", "4d6dl", "4d6dh2", "5d10dh0", "1d6x100", "1d6*10", "2d4×3x2", "1d6x0", "-1d8+4",
    "+1d4", "−1d6–2", "3d6 - 2", " 2 d 6 + 1 ", "2D6KH1", "0", "-5", "1000000", "1000001",
    "", "   ", "+", "-", "2d6+", "2d6++1", "2d", "d", "0d6", "1d0", "101d6", "1d1001",
    "1d1000", "100d1", "4d6kh5", "4d6kh0", "4d6dl4", "1d6x1001", "1d6x40x40", "2d6 3",
    "2d6a", "é", "2d6+1é", "1d6\u202f+\u202f2", "1d6\x1c+2", "1d6\ufeff+2", "1d6\u00a0+2",
    "🎲", "1d6+🎲", "1" * 101, "1" * 100, "1d6+" * 20 + "1", "1d6+" * 19 + "1",
    "99999999999999999999999", "1d99999999999999999999", "60d6+60d6", "50d6+50d6",
    "100d20", "50d20+50d20", "10d100kh5", "20d50kh20", "2d1000kh1", "2d1000kh1+1d2",
    "3d1000kh1", "1d1000x1000+1d2", "1d1000x1000+1d1000", "20d100", "21d100", "10d100kh1+10d100kl1",
    "1d6x1000+1d6x999+1d6", "3d6kh2-4d6kl3+2d4x3-7", "1d1+1d1", "1d2x0+5", "5d300kh4",
    "2d1000kh1+2d6kl1", "100d1000x0", "100d1000x0+1d6", "10d100kh9x0",
]  # fmt: skip

PIECES = [
    "1", "2", "3", "6", "0", "10", "20", "100", "1000", "1001", "d", "D", "%", "k", "K", "h",
    "l", "L", "x", "*", "×", "+", "-", "−", "–", " ", "\t", "\u202f", "\x1c", "\ufeff", "a",
    "é", "(", ".", ",", "🎲",
]  # fmt: skip
SIDES = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100]


def drawn_pieces(draw: random.Random) -> str:
    """A string of the notation's pieces, most of them wrong."""
    return "".join(draw.choice(PIECES) for _ in range(draw.randint(1, 9)))


def drawn_expression(draw: random.Random) -> str:
    """An expression as a player writes one, most of them right."""
    terms = []
    for _ in range(draw.randint(1, 4)):
        if draw.random() < 0.25:
            term = str(draw.randint(0, 30))
        else:
            count = draw.randint(1, 6)
            term = f"{count}d{draw.choice(SIDES)}"
            if draw.random() < 0.3:
                term += draw.choice(["kh", "kl", "k", "dl", "dh"]) + str(draw.randint(0, count))
        if draw.random() < 0.15:
            term += f"x{draw.choice([0, 2, 10, 100])}"
        terms.append(draw.choice(["+", "-"]) + term)
    text = "".join(terms)
    return text[1:] if text.startswith("+") else text


def inputs_for(draw: random.Random, expression: str) -> dict[str, Any]:
    """The expression with a target or none, a seed or none, as the forms send them."""
    inputs: dict[str, Any] = {"expression": expression}
    if draw.random() < 0.6:
        inputs["target"] = draw.choice([-30, 0, 3, 7, 10, 12, 18, 25, 100, 500])
    if draw.random() < 0.7:
        seeds = [0, 1, 42, 2**32 - 1, 2**32, 2**53 - 1, draw.randint(0, 2**53 - 1)]
        inputs["seed"] = draw.choice(seeds)
    return inputs


def cases() -> list[dict[str, Any]]:
    draw = random.Random(20261207)
    expressions = WRITTEN + [drawn_pieces(draw) for _ in range(1500)]
    expressions += [drawn_expression(draw) for _ in range(600)]
    found = [inputs_for(draw, expression) for expression in expressions]
    # The fields the forms send beside the expression, at their limits and past them.
    found += [
        {},
        {"expression": None, "target": None, "seed": None},
        {"expression": "2d6", "target": 20_000_000},
        {"expression": "2d6", "target": -20_000_001},
        {"expression": "2d6", "seed": -1},
        {"expression": "2d6", "seed": 2**53 - 1},
        {"expression": "\ud800"},
        {"expression": "1d6+\udfff"},
        {"expression": "1d6+🎲"},
        # What the page sends for what does not read as a whole number (form-controls.js:
        # the text typed, or a number with decimals), as Python reads it.
        {"expression": "2d6", "target": 7.5},
        {"expression": "2d6", "target": "12a"},
        {"expression": "2d6", "target": True},
        {"expression": "2d6", "target": 1e21},
        {"expression": "2d6", "target": 2**60},
        {"expression": "2d6", "seed": 0.5},
        {"expression": "2d6", "seed": "graine"},
        {"expression": "2d6", "seed": 2**53},
    ]
    return found


def kit_answer(inputs: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"outputs": json.loads(json.dumps(rules.run("dice", inputs)))}
    except CalculatorInputError as error:
        return {"error": {"field": error.field, "message": error.message}}


ANSWERS = """
const { diceAnswer, DiceInputError } = await import(process.argv[1]);
const asked = JSON.parse(require("fs").readFileSync(0, "utf8"));
const noDie = () => { throw new Error("un jet sans graine ne se compare pas"); };
const answers = asked.map(({ inputs, seeded }) => {
  try {
    const outputs = diceAnswer(inputs, seeded ? noDie : undefined);
    return outputs === null ? null : { outputs };
  } catch (error) {
    if (!(error instanceof DiceInputError)) throw error;
    return { error: { field: error.field, message: error.message } };
  }
});
process.stdout.write(JSON.stringify(answers));
"""


def twin_answers(inputs: list[dict[str, Any]]) -> list[Any]:
    asked = [{"inputs": i, "seeded": "seed" in i and i["seed"] is not None} for i in inputs]
    return node_json(ANSWERS, TWIN, asked)  # type: ignore[no-any-return]


def without_roll(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without its roll, which a seed alone makes the same."""
    if "outputs" not in answer:
        return answer
    rolled = ("roll", "roll_total", "roll_text")
    return {"outputs": {k: v for k, v in answer["outputs"].items() if k not in rolled}}


@pytest.fixture(scope="module")
def both() -> list[tuple[dict[str, Any], dict[str, Any], Any]]:
    inputs = cases()
    return list(zip(inputs, [kit_answer(i) for i in inputs], twin_answers(inputs), strict=True))


def test_the_twin_answers_every_input_the_forms_send(both: list[Any]) -> None:
    assert [inputs for inputs, _, twin in both if twin is None] == []


def test_the_twin_refuses_what_the_kit_refuses_with_its_words(both: list[Any]) -> None:
    kit_refused = [(i, kit["error"]) for i, kit, _ in both if "error" in kit]
    twin_refused = [(i, twin.get("error")) for i, _, twin in both if "error" in (twin or {})]
    assert twin_refused == kit_refused
    # Every message of the notation, of its limits and of the fields is met: 24 once cut
    # before their first figure, sign, bracket or quote.
    shapes = {re.split(r"[«\d(−]", error["message"])[0] for _, error in kit_refused}
    assert len(shapes) == 24, sorted(shapes)


def test_the_twin_gives_the_kits_law_to_the_last_bit(both: list[Any]) -> None:
    answered = [(i, kit, twin) for i, kit, twin in both if "outputs" in kit]
    assert len(answered) >= 500
    for inputs, kit, twin in answered:
        assert without_roll(twin) == without_roll(kit), inputs


def test_the_twin_rolls_the_kits_dice_for_a_seed(both: list[Any]) -> None:
    seeded = [(i, k, t) for i, k, t in both if "outputs" in k and i.get("seed") is not None]
    assert len(seeded) >= 300
    for inputs, kit, twin in seeded:
        assert twin == kit, inputs


def test_without_a_seed_the_twin_rolls_the_browsers_dice_within_the_law() -> None:
    (answer,) = twin_answers([{"expression": "3d6kh2+1"}])
    outputs = answer["outputs"]
    assert 3 <= outputs["roll_total"] <= 13
    assert outputs["roll_text"].endswith(f"= {outputs['roll_total']}")


def test_inputs_the_forms_do_not_send_are_left_to_python() -> None:
    odd = [
        {"expression": "2d6", "autre": 1},
        {"expression": 7},
        {"expression": "2d6", "target": {}},
        [],
    ]
    assert twin_answers(odd) == [None] * len(odd)  # type: ignore[arg-type]


RATIOS = """
const { ratio } = await import(process.argv[1]);
const asked = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(asked.map(([num, den]) => ratio(BigInt(num), BigInt(den)))));
"""


def test_each_chance_is_the_quotient_rounded_once_as_python_rounds_it() -> None:
    draw = random.Random(7)
    den = 3**40  # past 2⁵³: the quotient is computed on big integers
    pairs = [
        (den * (2**54 + 2) + 1, den),  # just past a tie (doubles are 4 apart): rounds up
        (den * (2**54 + 2) - 1, den),  # just before it: rounds down
        (-(den * (2**54 + 2) + 1), den),
        (1, 20**100),  # the least chance of 100d20
        (0, 7),
        (2**53 + 1, 2**53 + 3),
    ]
    pairs += [(draw.randrange(-(10**40), 10**40), draw.randrange(1, 10**45)) for _ in range(300)]
    asked = [[str(num), str(den)] for num, den in pairs]
    assert node_json(RATIOS, TWIN, asked) == [num / den for num, den in pairs]


NEGATIVE_ZERO = """
const { diceAnswer } = await import(process.argv[1]);
const outputs = diceAnswer({ expression: "2d6", target: -0, seed: 1 });
process.stdout.write(JSON.stringify({ negative: Object.is(outputs.target, -0) }));
"""


def test_a_threshold_of_minus_zero_is_zero() -> None:
    # « ± » on « 0 » gives −0 in the page; JSON sends it to Python as 0, the twin reads it so.
    assert node_json(NEGATIVE_ZERO, TWIN, {}) == {"negative": False}
