"""Exceptions levées par les calculateurs, avec des messages en français."""

from __future__ import annotations

__all__ = [
    "CalculatorError",
    "CalculatorInputError",
    "LimitExceededError",
    "UnknownCalculatorError",
]


class CalculatorError(Exception):
    """Base of every error raised on purpose by the package."""


class CalculatorInputError(CalculatorError):
    """An input is missing, of the wrong type, out of range or inconsistent.

    ``field`` names the offending input (``"items[2].level"`` for a field of a
    list item) so that the browser can highlight it; ``message`` is French
    and meant to be shown to the user as is.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field} : {message}")
        self.field = field
        self.message = message


class LimitExceededError(CalculatorInputError):
    """An input is valid in form but too big to be computed in reasonable time."""


class UnknownCalculatorError(CalculatorError):
    """No calculator has the requested id."""

    def __init__(self, name: str) -> None:
        # The id may be anything the caller sent: keep the message short.
        shown = name if len(name) <= 60 else name[:57] + "…"
        # A lone surrogate cannot be written in UTF-8: show U+FFFD in its place.
        shown = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in shown)
        self.name = name
        self.message = f"Calculateur inconnu : « {shown} »."
        super().__init__(self.message)
