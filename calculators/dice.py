"""Expressions de dés (« 2d6+3 », « 4d6kh3 », « 1d6x100 ») : analyse, loi exacte et jet."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Literal

from .errors import CalculatorInputError, LimitExceededError
from .schema import Calculator, Field, JsonDict, Output, Values, fmt_number, probability, seed_field

__all__ = [
    "CALCULATORS",
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXPRESSION_LENGTH",
    "MAX_MULTIPLIER",
    "MAX_SIDES",
    "MAX_SUPPORT",
    "MAX_TERMS",
    "MAX_WORK",
    "Distribution",
    "Expression",
    "KeepMode",
    "Term",
    "TermRoll",
    "check_cost",
    "distribution",
    "parse",
    "roll",
]

MAX_EXPRESSION_LENGTH = 100
MAX_TERMS = 20
MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000
MAX_MULTIPLIER = 1000
# Number of distinct totals the exact distribution may have: bounds both the
# computation and the size of the JSON answer.
MAX_SUPPORT = 5000
# Rough count of elementary additions allowed to compute a distribution; it is
# checked before computing so that a costly expression is refused at once.
MAX_WORK = 2_000_000

KeepMode = Literal["kh", "kl"]

_DIGITS = "0123456789"
_PLUS = "+"
# Typographic minus and dashes are accepted because the site prints "−".
_MINUSES = "-\u2212\u2013"
_TIMES = "x*\u00d7"


@dataclass(frozen=True)
class Term:
    """One signed term: ``count``d``sides`` (optionally keeping some dice) or a constant.

    A constant has ``count == 0`` and its value in ``constant``. The term is
    worth ``sign * multiplier * (sum of kept dice or constant)``.
    """

    sign: int
    count: int = 0
    sides: int = 0
    keep_mode: KeepMode | None = None
    keep: int = 0
    constant: int = 0
    multiplier: int = 1

    @property
    def is_dice(self) -> bool:
        return self.count > 0

    def label(self) -> str:
        """Canonical notation of the term, without its sign."""
        if self.is_dice:
            text = f"{self.count}d{self.sides}"
            if self.keep_mode is not None:
                text += f"{self.keep_mode}{self.keep}"
        else:
            text = str(self.constant)
        if self.multiplier != 1:
            text += f"x{self.multiplier}"
        return text

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest value of the term."""
        if self.is_dice:
            kept = self.keep if self.keep_mode is not None else self.count
            low, high = kept, kept * self.sides
        else:
            low = high = self.constant
        a, b = self.sign * self.multiplier * low, self.sign * self.multiplier * high
        return min(a, b), max(a, b)

    def support_bound(self) -> int:
        """Upper bound of the number of distinct values of the term."""
        low, high = self.bounds()
        if not self.is_dice or self.multiplier == 0:
            return 1
        return (high - low) // self.multiplier + 1

    def work(self) -> int:
        """Estimate of the additions needed to compute the term's distribution."""
        if not self.is_dice:
            return 1
        n, s = self.count, self.sides
        if self.keep_mode is None:
            return n * (n * s + s)
        return s * self.keep * (self.keep * s + 1) * (n + 1)


@dataclass(frozen=True)
class Expression:
    """A parsed dice expression: signed terms added together."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        parts: list[str] = []
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                parts.append("-")
            elif i > 0:
                parts.append("+")
            parts.append(term.label())
        return "".join(parts)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)


@dataclass(frozen=True)
class Distribution:
    """Exact law of an expression: number of ways to get each total out of ``total_ways``."""

    ways: tuple[tuple[int, int], ...]
    total_ways: int

    def probability(self, value: int) -> Fraction:
        for v, w in self.ways:
            if v == value:
                return Fraction(w, self.total_ways)
        return Fraction(0)

    def items(self) -> list[tuple[int, Fraction]]:
        return [(v, Fraction(w, self.total_ways)) for v, w in self.ways]

    @property
    def min(self) -> int:
        return self.ways[0][0]

    @property
    def max(self) -> int:
        return self.ways[-1][0]

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.ways), self.total_ways)

    def at_least(self, target: int) -> Fraction:
        return Fraction(sum(w for v, w in self.ways if v >= target), self.total_ways)


@dataclass(frozen=True)
class TermRoll:
    """Dice actually rolled for one term, and which ones were kept."""

    term: Term
    dice: tuple[int, ...]
    kept: tuple[bool, ...]
    value: int


class _Parser:
    """Recursive-descent parser reporting 1-based positions in French."""

    def __init__(self, text: str, field: str) -> None:
        # Only ASCII letters are folded so that positions stay those of the input
        # (lower-casing some other characters changes the length of the text).
        self.s = "".join(c.lower() if c.isascii() else c for c in text)
        self.i = 0
        self.field = field

    def error(self, message: str) -> CalculatorInputError:
        return CalculatorInputError(self.field, message)

    def where(self) -> str:
        if self.i >= len(self.s):
            return "à la fin de l’expression"
        return f"à la position {self.i + 1}"

    def peek(self) -> str:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1
        return self.s[self.i] if self.i < len(self.s) else ""

    def _at_digit(self) -> bool:
        # Careful: "" in "0123456789" is True in Python.
        c = self.peek()
        return c != "" and c in _DIGITS

    def number(self, what: str) -> int:
        if not self._at_digit():
            raise self.error(f"{what} attendu {self.where()}.")
        start = self.i
        while self.i < len(self.s) and self.s[self.i] in _DIGITS:
            self.i += 1
        return int(self.s[start : self.i])

    def unexpected(self, expected: str) -> CalculatorInputError:
        char = self.s[self.i]
        return self.error(f"Caractère inattendu « {char} » {self.where()} : {expected} attendu.")

    def expression(self) -> Expression:
        if self.peek() == "":
            raise self.error("L’expression est vide.")
        sign = 1
        if self.peek() in _MINUSES:
            sign = -1
            self.i += 1
        elif self.peek() == _PLUS:
            self.i += 1
        terms = [self.term(sign)]
        while (c := self.peek()) != "":
            if c == _PLUS:
                sign = 1
            elif c in _MINUSES:
                sign = -1
            else:
                raise self.unexpected("« + » ou « - »")
            self.i += 1
            if len(terms) >= MAX_TERMS:
                raise LimitExceededError(
                    self.field, f"L’expression ne peut pas compter plus de {MAX_TERMS} termes."
                )
            terms.append(self.term(sign))
        expr = Expression(tuple(terms))
        if expr.dice_count > MAX_DICE:
            raise LimitExceededError(
                self.field, f"L’expression ne peut pas lancer plus de {MAX_DICE} dés au total."
            )
        return expr

    def term(self, sign: int) -> Term:
        c = self.peek()
        if c == "":
            raise self.error("Nombre ou dé attendu à la fin de l’expression.")
        if self._at_digit():
            start = self.i
            value = self.number("Nombre")
            if self.peek() == "d":
                term = self.dice(sign, value, start)
            else:
                if value > MAX_CONSTANT:
                    raise LimitExceededError(
                        self.field,
                        f"Les nombres ne peuvent pas dépasser {fmt_number(MAX_CONSTANT)} "
                        f"(position {start + 1}).",
                    )
                term = Term(sign=sign, constant=value)
        elif c == "d":
            term = self.dice(sign, 1, self.i)
        else:
            raise self.unexpected("un nombre ou un dé")
        multiplier = 1
        while self.peek() != "" and self.peek() in _TIMES:
            self.i += 1
            start = self.i
            factor = self.number("Nombre")
            if factor > MAX_MULTIPLIER:
                raise LimitExceededError(
                    self.field,
                    f"Un multiplicateur ne peut pas dépasser {MAX_MULTIPLIER} "
                    f"(position {start + 1}).",
                )
            multiplier *= factor
            if multiplier > MAX_MULTIPLIER:
                raise LimitExceededError(
                    self.field,
                    f"Le produit des multiplicateurs ne peut pas dépasser {MAX_MULTIPLIER}.",
                )
        if multiplier == 1:
            return term
        return Term(
            sign=term.sign,
            count=term.count,
            sides=term.sides,
            keep_mode=term.keep_mode,
            keep=term.keep,
            constant=term.constant,
            multiplier=multiplier,
        )

    def dice(self, sign: int, count: int, start: int) -> Term:
        self.i += 1  # the "d"
        position = f"position {start + 1}"
        if count < 1:
            raise self.error(f"Il faut lancer au moins un dé ({position}).")
        if count > MAX_DICE:
            raise LimitExceededError(
                self.field, f"On ne peut pas lancer plus de {MAX_DICE} dés ({position})."
            )
        if self.peek() == "%":
            self.i += 1
            sides = 100
        else:
            sides = self.number("Nombre de faces")
        if sides < 1:
            raise self.error(f"Un dé doit avoir au moins une face ({position}).")
        if sides > MAX_SIDES:
            raise LimitExceededError(
                self.field, f"Un dé ne peut pas avoir plus de {MAX_SIDES} faces ({position})."
            )
        mode, keep = self.keep_suffix(count)
        return Term(sign=sign, count=count, sides=sides, keep_mode=mode, keep=keep)

    def keep_suffix(self, count: int) -> tuple[KeepMode | None, int]:
        c = self.peek()
        nxt = self.s[self.i + 1] if self.i + 1 < len(self.s) else ""
        if c == "k":
            self.i += 1
            # "k3" alone means "keep the 3 highest", as in most dice rollers.
            if nxt in ("h", "l"):
                self.i += 1
            mode: KeepMode = "kl" if nxt == "l" else "kh"
            start = self.i
            n = self.number("Nombre de dés à garder") if self._at_digit() else 1
            if not 1 <= n <= count:
                raise self.error(
                    f"On ne peut garder que de 1 à {count} dé(s) (position {start + 1})."
                )
            return mode, n
        if c == "d" and nxt in ("h", "l"):
            self.i += 2
            start = self.i
            n = self.number("Nombre de dés à écarter") if self._at_digit() else 1
            if not 0 <= n < count:
                raise self.error(
                    f"On ne peut écarter que de 0 à {count - 1} dé(s) (position {start + 1})."
                )
            # Dropping the lowest dice is keeping the highest ones, and vice versa.
            return ("kh" if nxt == "l" else "kl"), count - n
        return None, 0


def parse(text: str, field: str = "expression") -> Expression:
    """Parse a dice expression; errors are :class:`CalculatorInputError` on ``field``."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise LimitExceededError(
            field, f"L’expression ne doit pas dépasser {MAX_EXPRESSION_LENGTH} caractères."
        )
    return _Parser(text, field).expression()


def _sum_of_dice(count: int, sides: int) -> dict[int, int]:
    """Ways to obtain each sum of ``count`` dice, by running prefix sums."""
    ways = [1]  # ways[k] = ways to reach a total of k with the dice so far
    for _ in range(count):
        prefix = [0]
        for w in ways:
            prefix.append(prefix[-1] + w)
        size = len(ways) + sides - 1
        # Adding one die with faces 1..s is a moving sum of width s.
        ways = [prefix[min(k + 1, len(ways))] - prefix[max(0, k - sides + 1)] for k in range(size)]
    return {k + count: w for k, w in enumerate(ways) if w}


def _keep_highest(count: int, sides: int, keep: int) -> dict[int, int]:
    """Ways to obtain each sum of the ``keep`` highest of ``count`` dice.

    Faces are handed out from the highest down: choosing how many dice show
    each face (with binomial coefficients counting their positions) tells
    exactly which dice are among the highest without enumerating every roll.
    Once ``keep`` dice are placed the sum is settled, and the other dice may
    show any of the lower faces, so the state is closed at once.
    """
    result: defaultdict[int, int] = defaultdict(int)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for face in range(sides, 0, -1):
        nxt: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (assigned, total), ways in states.items():
            remaining = count - assigned
            choices = range(remaining, remaining + 1) if face == 1 else range(remaining + 1)
            for c in choices:
                placed = assigned + c
                kept_total = total + min(c, keep - assigned) * face
                w = ways * comb(remaining, c)
                if placed >= keep:
                    result[kept_total] += w * (face - 1) ** (count - placed)
                else:
                    nxt[(placed, kept_total)] += w
        states = nxt
    return {t: w for t, w in result.items() if w}


def _term_ways(term: Term) -> tuple[dict[int, int], int]:
    if not term.is_dice:
        return {term.sign * term.multiplier * term.constant: 1}, 1
    if term.keep_mode is None:
        raw = _sum_of_dice(term.count, term.sides)
    elif term.keep_mode == "kh":
        raw = _keep_highest(term.count, term.sides, term.keep)
    else:
        # The lowest dice of faces f are the highest of faces (s + 1 - f).
        mirrored = _keep_highest(term.count, term.sides, term.keep)
        raw = {term.keep * (term.sides + 1) - t: w for t, w in mirrored.items()}
    out: defaultdict[int, int] = defaultdict(int)
    for value, ways in raw.items():
        out[term.sign * term.multiplier * value] += ways
    return dict(out), term.sides**term.count


def check_cost(expr: Expression, field: str = "expression") -> None:
    """Refuse, before any computation, an expression whose exact law is too costly."""
    work = 0
    size = 1
    low = high = 0
    for term in expr.terms:
        work += term.work()
        t_low, t_high = term.bounds()
        t_size = term.support_bound()
        work += size * t_size
        low, high = low + t_low, high + t_high
        size = min(size * t_size, high - low + 1)
        if size > MAX_SUPPORT:
            raise LimitExceededError(
                field,
                f"L’expression a trop de résultats possibles pour un calcul exact "
                f"(au plus {fmt_number(MAX_SUPPORT)}).",
            )
        if work > MAX_WORK:
            raise LimitExceededError(field, "L’expression est trop complexe pour un calcul exact.")


def distribution(expr: Expression, field: str = "expression") -> Distribution:
    """Exact distribution of the total of ``expr`` (raises if it is too costly)."""
    check_cost(expr, field)
    acc: dict[int, int] = {0: 1}
    total_ways = 1
    for term in expr.terms:
        ways, n = _term_ways(term)
        nxt: defaultdict[int, int] = defaultdict(int)
        for a, wa in acc.items():
            for b, wb in ways.items():
                nxt[a + b] += wa * wb
        acc = dict(nxt)
        total_ways *= n
    return Distribution(tuple(sorted(acc.items())), total_ways)


def roll(expr: Expression, rng: random.Random) -> tuple[int, list[TermRoll]]:
    """Roll every die of ``expr``; return the total and the detail of each term."""
    details: list[TermRoll] = []
    total = 0
    for term in expr.terms:
        if not term.is_dice:
            value = term.sign * term.multiplier * term.constant
            details.append(TermRoll(term, (), (), value))
            total += value
            continue
        dice = tuple(rng.randint(1, term.sides) for _ in range(term.count))
        kept = [True] * len(dice)
        if term.keep_mode is not None:
            order = sorted(range(len(dice)), key=lambda k: dice[k], reverse=term.keep_mode == "kh")
            kept = [False] * len(dice)
            for k in order[: term.keep]:
                kept[k] = True
        value = term.sign * term.multiplier * sum(d for d, k in zip(dice, kept, strict=True) if k)
        details.append(TermRoll(term, dice, tuple(kept), value))
        total += value
    return total, details


def _roll_text(total: int, details: list[TermRoll]) -> str:
    parts: list[str] = []
    for i, d in enumerate(details):
        sign = "−" if d.term.sign < 0 else ("+" if i > 0 else "")
        if d.term.is_dice:
            shown = ", ".join(
                str(v) if k else f"({v})" for v, k in zip(d.dice, d.kept, strict=True)
            )
            body = f"[{shown}]"
        else:
            body = str(d.term.constant)
        if d.term.multiplier != 1:
            body += f" × {d.term.multiplier}"
        parts.append(f"{sign} {body}".strip() if sign else body)
    return " ".join(parts) + f" = {fmt_number(total)}"


def _handle(values: Values) -> JsonDict:
    expr = parse(values.get_str("expression"))
    dist = distribution(expr)
    target = values.get_opt_int("target")
    seed = values.get_opt_int("seed")
    total, details = roll(expr, random.Random(seed) if seed is not None else random.Random())
    mean = dist.mean()
    out: JsonDict = {
        "expression": str(expr),
        "min": dist.min,
        "max": dist.max,
        "mean": float(mean),
        "mean_exact": f"{mean.numerator}/{mean.denominator}",
        "distribution": {str(v): float(p) for v, p in dist.items()},
        "distribution_exact": {str(v): f"{p.numerator}/{p.denominator}" for v, p in dist.items()},
        "target": target,
    }
    if target is None:
        out.update({"p_at_least": None, "p_at_least_exact": None})
    else:
        out.update(probability("p_at_least", dist.at_least(target)))
    text = _roll_text(total, details)
    out["roll"] = {
        "total": total,
        "text": text,
        "terms": [
            {
                "term": ("-" if d.term.sign < 0 else "+") + d.term.label(),
                "dice": list(d.dice),
                "kept": list(d.kept),
                "value": d.value,
            }
            for d in details
        ],
    }
    out["roll_total"] = total
    out["roll_text"] = text
    return out


CALCULATORS = (
    Calculator(
        id="dice",
        title="Lanceur de dés",
        headline=("mean", "p_at_least"),
        rolled=("roll_text", "roll_total"),
        description=(
            "Calcule la loi exacte d’une expression de dés (moyenne, extrêmes, chances) et la "
            "lance."
        ),
        inputs=(
            Field(
                "expression",
                "Expression de dés",
                "text",
                default="2d6+3",
                max_length=MAX_EXPRESSION_LENGTH,
                help=(
                    "Par exemple 1d20, 2d6+3, 1d6x100, 4d6kh3 (garder les 3 meilleurs), "
                    "2d20kl1 (garder le plus faible), d% ou d100. "
                    f"Au plus {MAX_DICE} dés de {MAX_SIDES} faces et {MAX_TERMS} termes."
                ),
            ),
            Field(
                "target",
                "Seuil à atteindre",
                "int",
                required=False,
                min=-MAX_CONSTANT * MAX_TERMS,
                max=MAX_CONSTANT * MAX_TERMS,
                help=(
                    "Facultatif : chance d’obtenir au moins ce total ; "
                    "vide, pas de chance calculée."
                ),
            ),
            seed_field(),
        ),
        outputs=(
            Output("min", "Minimum"),
            Output("max", "Maximum"),
            Output("mean", "Moyenne"),
            Output("p_at_least", "Chance d’atteindre le seuil"),
            Output("roll_text", "Jet"),
            Output("roll_total", "Résultat du jet"),
        ),
        handler=_handle,
    ),
)
