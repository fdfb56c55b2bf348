"""Calculator results written as the page's script writes them (theme/assets/js/
rules.js, `formatValue`): French numbers, percentages, « oui » and « non »; and the exact
value (« 319/400 ») that the page shows a tap away (`exact_value`, rules.js `exactValue`).
The build writes each form's result for its default inputs with these, so that the page
reads whole before Python starts in the browser, and the script's first result changes
nothing that was right. tests/test_calculators_browser.py compares both on every calculator.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

__all__ = ["format_number", "format_percent", "format_value", "js_string"]

NNBSP = "\u202f"  # between thousands
NBSP = "\u00a0"  # before the percent sign
_EXPONENT = re.compile(r"^(\d)(?:\.(\d+))?e([+-]\d+)$")
_THOUSANDS = re.compile(r"\B(?=(\d{3})+(?!\d))")


def js_string(value: float) -> str:
    """`String(value)` in JavaScript: the shortest decimal that reads back as the number
    (Python's repr finds the same digits), with JavaScript's choice of when to write an
    exponent."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    digits = _shortest_digits(abs(value))
    exponent = _exponent_of(abs(value))
    if -7 < exponent < 21:
        return sign + _place_point(digits, exponent)
    rest = "." + digits[1:] if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


def _shortest_digits(value: float) -> str:
    """The significant digits of the shortest decimal of a positive float."""
    text = repr(value).lower()
    mantissa = text.split("e", 1)[0]
    digits = mantissa.replace(".", "").lstrip("0")
    return digits.rstrip("0") or "0"


def _exponent_of(value: float) -> int:
    """The decimal exponent of the first significant digit of a positive float's shortest
    decimal."""
    text = repr(value).lower()
    mantissa, _, exponent = text.partition("e")
    shift = int(exponent) if exponent else 0
    whole, _, fraction = mantissa.partition(".")
    if whole.strip("0"):
        return len(whole.lstrip("0")) - 1 + shift
    leading = len(fraction) - len(fraction.lstrip("0"))
    return -leading - 1 + shift


def _place_point(digits: str, exponent: int) -> str:
    """`digits` (significant digits) with the point after the digit of 10^exponent."""
    point = exponent + 1
    if point <= 0:
        return "0." + "0" * -point + digits
    if len(digits) <= point:
        return digits + "0" * (point - len(digits))
    return digits[:point] + "." + digits[point:]


def _plain_decimal(value: float) -> str:
    """The shortest decimal of |value|, without exponent (rules.js `plainDecimal`)."""
    text = js_string(abs(value))
    match = _EXPONENT.match(text)
    if match is None:
        return text
    digits = match.group(1) + (match.group(2) or "")
    return _place_point(digits, int(match.group(3)))


def _round_decimal(text: str, digits: int) -> tuple[str, str]:
    """Decimal text rounded half away from zero to `digits` decimals (rules.js
    `roundDecimal`): whole part and fraction, trailing zeros dropped."""
    whole, _, fraction = text.partition(".")
    if len(fraction) > digits:
        up = fraction[digits] >= "5"
        fraction = fraction[:digits]
        if up:
            joined = list(whole + fraction)
            i = len(joined) - 1
            while i >= 0 and joined[i] == "9":
                joined[i] = "0"
                i -= 1
            if i >= 0:
                joined[i] = str(int(joined[i]) + 1)
            else:
                joined.insert(0, "1")
            cut = len(joined) - len(fraction)
            whole, fraction = "".join(joined[:cut]), "".join(joined[cut:])
    fraction = fraction.rstrip("0")
    return re.sub(r"^0+(?=\d)", "", whole), fraction


def _shift_point(text: str, places: int) -> str:
    """Decimal text × 10^places (rules.js `shiftPoint`)."""
    whole, _, fraction = text.partition(".")
    fraction = fraction.ljust(places, "0")
    shifted = re.sub(r"^0+(?=\d)", "", whole + fraction[:places])
    return shifted + ("." + fraction[places:] if len(fraction) > places else "")


def _written(value: float, parts: tuple[str, str]) -> str:
    whole, fraction = parts
    negative = value < 0 or (value == 0 and math.copysign(1, value) < 0)
    grouped = _THOUSANDS.sub(NNBSP, whole)
    return ("-" if negative else "") + grouped + ("," + fraction if fraction else "")


def _french_number(value: float, digits: int) -> str:
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("-" if value < 0 else "") + "∞"
    return _written(value, _round_decimal(_plain_decimal(value), digits))


def format_number(value: float) -> str:
    return _french_number(value, 3)


def format_percent(value: float) -> str:
    if not math.isfinite(value):
        return _french_number(value, 1) + NBSP + "%"
    return _written(value, _round_decimal(_shift_point(_plain_decimal(value), 2), 1)) + NBSP + "%"


def _js_json(value: object) -> str:
    """`JSON.stringify(value)` for what a calculator's JSON holds."""
    if isinstance(value, float):
        return js_string(value) if math.isfinite(value) else "null"
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(_js_json(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (
            f"{json.dumps(str(k), ensure_ascii=False)}:{_js_json(v)}" for k, v in value.items()
        )
        return "{" + ",".join(items) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def _js_text(value: object) -> str:
    """`String(value)` for a JSON value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return js_string(value)
    if value is None:
        return "null"
    return str(value)


def exact_value(name: str, outputs: Mapping[str, object]) -> str | None:
    """The exact value of a number output (its `<name>_exact`, « 319/400 »), which the page
    keeps one tap away from the value it shows, rather than in the line (rules.js
    `exactValue`); None for a whole one (« 10/1 ») or without one."""
    value, exact = outputs.get(name), outputs.get(name + "_exact")
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(exact, str):
        return None
    return None if exact.endswith("/1") else exact


def format_value(name: str, outputs: dict[str, object]) -> str:
    """The text the page shows for the output `name` of `outputs` (rules.js `formatValue`)."""
    value = outputs.get(name)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "oui" if value else "non"
    # Probabilities are the outputs named p_… with an exact value: a percentage. The exact
    # fraction, like any other exact value, is a tap away (exact_value), not in the line.
    probability = name.startswith("p_") and isinstance(outputs.get(name + "_exact"), str)
    if isinstance(value, int | float) and probability:
        return format_percent(float(value))
    if isinstance(value, int | float):
        return format_number(float(value))
    if isinstance(value, list):
        return ", ".join(_js_json(v) if isinstance(v, dict | list) else _js_text(v) for v in value)
    if isinstance(value, dict):
        return _js_json(value)
    return str(value)
