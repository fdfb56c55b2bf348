"""Écriture des dés (« 2d6+3 », « 4d6kh3 », « 1d6x100 ») : termes, expression, analyse et
limites. La loi exacte et le jet sont dans dice.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import CalculatorInputError, LimitExceededError
from .schema import (
    fmt_number,
)

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXPRESSION_LENGTH",
    "MAX_MULTIPLIER",
    "MAX_SIDES",
    "MAX_TERMS",
    "Expression",
    "KeepMode",
    "Term",
    "parse",
]

MAX_EXPRESSION_LENGTH = 100
MAX_TERMS = 20
MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000
MAX_MULTIPLIER = 1000

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

    @property
    def keeps_some(self) -> bool:
        """Whether the term keeps only some of its dice (all of them is a plain sum)."""
        return self.keep_mode is not None and self.keep < self.count

    def step(self) -> int:
        """Gap between two values of the term (0 when it has a single value)."""
        return self.multiplier if self.support_bound() > 1 else 0


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
