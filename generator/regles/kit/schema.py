"""Description des entrées et sorties des calculateurs et validation des entrées JSON."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from .errors import CalculatorInputError, LimitExceededError

__all__ = [
    "SEED_MAX",
    "Calculator",
    "Chart",
    "Choice",
    "Field",
    "InputType",
    "JsonDict",
    "Output",
    "Values",
    "fmt_number",
    "frozen_record",
    "is_utf8",
    "probability",
    "seed_field",
    "validate",
]

InputType = Literal["int", "float", "bool", "choice", "text", "list", "int_list"]
JsonDict = dict[str, object]

# Largest integer a browser can send without losing precision (2**53 - 1).
SEED_MAX = 9_007_199_254_740_991

# Only these characters count as a minus sign when formatting for humans.
_MINUS = "\u2212"


@dataclass(frozen=True)
class Choice:
    """One allowed value of a ``choice`` input (or of an ``int`` field: its number, as text)."""

    value: str
    label: str

    def __post_init__(self) -> None:
        # Said where the rules code writes it: a number given as the value was refused later,
        # by the form, as an unknown value.
        if not isinstance(self.value, str) or not isinstance(self.label, str):
            raise ValueError(
                f"Choice({self.value!r}, {self.label!r}) : la valeur et le libellé d’un choix "
                f"sont des textes, « Choice({str(self.value)!r}, …) »"
            )


@dataclass(frozen=True)
class Field:
    """One input of a calculator, as shown in the generated form.

    ``default`` must be JSON-like but immutable (tuples instead of lists,
    read-only mappings instead of dicts) so that specs hold no mutable state.
    A field whose ``default`` is None is optional when ``required`` is False
    (it then validates to None) and mandatory otherwise.
    An ``int`` field may name its values with ``choices`` (their values the numbers
    written out, "0", "1"…): the form then offers the names, the value stays a number.
    ``initial``, when set, is what the generated form starts from instead of
    ``default`` (a worked example of the documents), while a call that leaves the
    field out still gets ``default``.
    A ``list`` may offer ``presets``: rows the form fills in when the reader types the
    value of a preset's first text field (an object by its name, « pavois »).
    A field of a list's row may count only when another field of the row holds one of
    some values: ``shown_if=("category", ("item",))``; the form shows it only then (its
    value is still sent).
    A field may be ``offered`` the value the reader's character keeps for another
    calculator's field, named ``"calculator.field"`` (a score that another calculator
    keeps as « Force »): the form offers it, a tap away, when the character has one.
    A text field of dice expressions may give ``dice_examples`` (« 1d20 », « 2d6+3 »): the
    form shows them under it as the pages show dice, each rolled at a tap with its chances,
    before the rules code is there (offline, on a first visit).
    """

    name: str
    label: str
    type: InputType
    default: object = None
    required: bool = True
    min: int | float | None = None
    max: int | float | None = None
    step: int | float | None = None
    choices: tuple[Choice, ...] = ()
    unit: str | None = None
    help: str | None = None
    fields: tuple[Field, ...] = ()
    max_items: int | None = None
    max_length: int | None = None
    # Normalises alternative spellings before a choice is checked (e.g. a
    # challenge rating sent as the number 0.25 instead of the string "1/4").
    coerce: Callable[[object], object] | None = field(default=None, compare=False)
    initial: object = None
    presets: tuple[Mapping[str, object], ...] = ()
    shown_if: tuple[str, tuple[str, ...]] | None = None
    offered: tuple[str, ...] = ()
    dice_examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Said here, where the rules code writes the field (the build names its file and
        # line), not later in the kit as « 'tuple' object has no attribute 'value' ».
        for choice in self.choices:
            if not isinstance(choice, Choice):
                raise ValueError(
                    f"champ « {self.name} » : choices attend des Choice(valeur, libellé), "
                    f"pas {choice!r}"
                )
        if not self.dice_examples:
            return
        if self.type != "text":
            raise ValueError(f"champ « {self.name} » : des dice_examples demandent un texte")
        from .dice_notation import parse  # which reads this module

        for expression in self.dice_examples:
            try:
                parse(expression, self.name)
            except CalculatorInputError as error:
                raise ValueError(
                    f"champ « {self.name} » : l’exemple de dés « {expression} » est refusé : "
                    f"{error.message}"
                ) from None

    def to_json(self) -> JsonDict:
        """Return the catalog description of this input."""
        out: JsonDict = {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "required": self.required,
            "default": _thaw(self.default),
            "min": self.min,
            "max": self.max,
            "unit": self.unit,
        }
        if self.type in ("int", "float", "int_list"):
            out["step"] = (
                self.step if self.step is not None else (1 if self.type != "float" else None)
            )
        if self.type == "choice" or self.choices:
            out["choices"] = [{"value": c.value, "label": c.label} for c in self.choices]
        if self.type == "list":
            out["fields"] = [f.to_json() for f in self.fields]
        if self.type in ("list", "int_list"):
            out["max_items"] = self.max_items
        if self.type == "text":
            out["max_length"] = self.max_length
        if self.help is not None:
            out["help"] = self.help
        if self.initial is not None:
            out["initial"] = _thaw(self.initial)
        if self.presets:
            out["presets"] = _thaw(self.presets)
        if self.shown_if is not None:
            out["shown_if"] = {"field": self.shown_if[0], "values": list(self.shown_if[1])}
        if self.offered:
            out["offered"] = list(self.offered)
        if self.dice_examples:
            out["dice_examples"] = list(self.dice_examples)
        return out


@dataclass(frozen=True)
class Chart:
    """How an output that is a law of chances is drawn: a bar chart (the generator's
    features/calculators/charts.py, and its twin theme/assets/js/charts.js).

    The output's value is either ``{"totals": [int…], "p": [float…]}``, totals in increasing
    order, the bars from ``threshold`` on highlighted (``threshold`` names the output holding
    the least highlighted total; None or a null value: none), or ``{"labels": [str…],
    "p": [float…], "highlight": [bool…]}``, one bar per outcome. ``chance`` names the
    probability output (``p_…``) written on the chart, followed by ``chance_text``. With
    ``at_most``, the bars up to ``threshold`` are highlighted instead (a game that rolls
    under a score: ``threshold`` is then the greatest highlighted total)."""

    x_label: str
    y_label: str = "Chance"
    threshold: str | None = None
    chance: str | None = None
    chance_text: str = ""
    at_most: bool = False

    def to_json(self) -> JsonDict:
        return {
            "x_label": self.x_label,
            "y_label": self.y_label,
            "threshold": self.threshold,
            "chance": self.chance,
            "chance_text": self.chance_text,
            "at_most": self.at_most,
        }


@dataclass(frozen=True)
class Output:
    """One main output, displayed by the browser with its French label."""

    name: str
    label: str
    unit: str | None = None
    # For a list of records: (key, French column label) pairs shown as a table.
    columns: tuple[tuple[str, str], ...] = ()
    # A sentence rather than a figure (an explanation): shown across the results' width.
    sentence: bool = False
    # For a law of chances: drawn as a bar chart, with a table of every value.
    chart: Chart | None = None

    def to_json(self) -> JsonDict:
        """Return the catalog description of this output."""
        described: JsonDict = {"name": self.name, "label": self.label, "unit": self.unit}
        if self.columns:
            described["columns"] = [{"name": k, "label": v} for k, v in self.columns]
        if self.sentence:
            described["sentence"] = True
        if self.chart is not None:
            described["chart"] = self.chart.to_json()
        return described


@dataclass(frozen=True)
class Calculator:
    """A calculator: its catalog description plus the function computing it.

    ``headline`` names the outputs a reader looks for first (the page keeps them in view
    while the form is edited); ``rolled`` those that are a draw of the dice, not a function
    of the inputs (the page shows them once the reader has rolled)."""

    id: str
    title: str
    description: str
    inputs: tuple[Field, ...]
    outputs: tuple[Output, ...]
    handler: Callable[[Values], JsonDict] = field(compare=False)
    headline: tuple[str, ...] = ()
    rolled: tuple[str, ...] = ()

    def to_json(self) -> JsonDict:
        """Return the catalog entry of this calculator."""
        return {
            "id": self.id,
            "title": self.title,
            "description": self.description,
            "inputs": [f.to_json() for f in self.inputs],
            "outputs": [o.to_json() for o in self.outputs],
            "headline": list(self.headline),
            "rolled": list(self.rolled),
        }


class Values:
    """Validated inputs, with typed accessors so handlers stay statically typed."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = dict(data)

    def as_dict(self) -> JsonDict:
        """Return a copy of the validated values."""
        return dict(self._data)

    def get_int(self, name: str) -> int:
        value = self._data[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name)
        return value

    def get_opt_int(self, name: str) -> int | None:
        return None if self._data[name] is None else self.get_int(name)

    def get_float(self, name: str) -> float:
        value = self._data[name]
        if not isinstance(value, float):
            raise TypeError(name)
        return value

    def get_bool(self, name: str) -> bool:
        value = self._data[name]
        if not isinstance(value, bool):
            raise TypeError(name)
        return value

    def get_str(self, name: str) -> str:
        value = self._data[name]
        if not isinstance(value, str):
            raise TypeError(name)
        return value

    def get_opt_str(self, name: str) -> str | None:
        return None if self._data[name] is None else self.get_str(name)

    def get_int_list(self, name: str) -> list[int]:
        value = self._data[name]
        if not isinstance(value, list):
            raise TypeError(name)
        return [v for v in value if isinstance(v, int)]

    def get_list(self, name: str) -> list[Values]:
        value = self._data[name]
        if not isinstance(value, list):
            raise TypeError(name)
        return [v for v in value if isinstance(v, Values)]


def seed_field() -> Field:
    """Return the optional ``seed`` input shared by every calculator that rolls dice."""
    return Field(
        "seed",
        "Graine aléatoire",
        "int",
        required=False,
        min=0,
        max=SEED_MAX,
        help="Laisser vide pour un tirage au hasard ; une même graine redonne le même tirage.",
    )


def frozen_record(**values: object) -> Mapping[str, object]:
    """Build an immutable JSON-object default for a ``list`` input."""
    return MappingProxyType(values)


def probability(name: str, p: Fraction) -> JsonDict:
    """Return ``{name: float, name_exact: "p/q"}`` for an exact probability.

    The name starts with ``p_``: the page shows those outputs as percentages, and other
    exact values (a mean, a number of rolls) as numbers."""
    if not name.startswith("p_"):
        raise ValueError(f"une probabilité se nomme p_… : {name}")
    return {name: float(p), f"{name}_exact": f"{p.numerator}/{p.denominator}"}


def fmt_number(value: int | float) -> str:
    """Format a number the French way (decimal comma, typographic minus)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        # Narrow no-break space between thousands, as French typography wants.
        text = f"{value:,}".replace(",", "\u202f")
    else:
        text = str(value).replace(".", ",")
    return text.replace("-", _MINUS)


def _thaw(value: object) -> object:
    """Turn an immutable default into fresh JSON-like lists and dicts."""
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _thaw(v) for k, v in value.items()}
    return value


def _range_message(low: int | float | None, high: int | float | None) -> str:
    if low is not None and high is not None:
        return f"La valeur doit être comprise entre {fmt_number(low)} et {fmt_number(high)}."
    if low is not None:
        return f"La valeur doit être supérieure ou égale à {fmt_number(low)}."
    return (
        f"La valeur doit être inférieure ou égale à {fmt_number(high if high is not None else 0)}."
    )


def _check_range(name: str, spec: Field, value: int | float) -> None:
    if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
        raise CalculatorInputError(name, _range_message(spec.min, spec.max))


def _validate_int(name: str, spec: Field, value: object) -> int:
    # bool is a subclass of int in Python but never a number in JSON.
    if not isinstance(value, int) or isinstance(value, bool):
        raise CalculatorInputError(name, "La valeur doit être un nombre entier.")
    _check_range(name, spec, value)
    if spec.choices and str(value) not in {c.value for c in spec.choices}:
        named = ", ".join(f"{c.value} ({c.label})" for c in spec.choices)
        raise CalculatorInputError(name, f"Valeur inconnue. Valeurs possibles : {named}.")
    return value


def _validate_float(name: str, spec: Field, value: object) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise CalculatorInputError(name, "La valeur doit être un nombre.")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorInputError(name, "La valeur doit être un nombre fini.")
    _check_range(name, spec, value)
    # Huge ints are excluded by the range check above when a bound exists;
    # without one, float() could overflow, so refuse instead of crashing.
    try:
        return float(value)
    except OverflowError:
        raise CalculatorInputError(name, "La valeur est trop grande.") from None


def _validate_choice(name: str, spec: Field, value: object) -> str:
    if spec.coerce is not None:
        value = spec.coerce(value)
    allowed = [c.value for c in spec.choices]
    if not isinstance(value, str) or value not in allowed:
        raise CalculatorInputError(
            name, "Valeur inconnue. Valeurs possibles : " + ", ".join(allowed) + "."
        )
    return value


def is_utf8(text: str) -> bool:
    """Whether UTF-8 can carry `text`: a lone surrogate ("\\ud800" in JSON) is a Python
    character that no UTF-8 can."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown_key(key: object) -> str:
    """An unknown key as an error names it: shortened, lone surrogates replaced by U+FFFD."""
    text = str(key) if len(str(key)) <= 40 else str(key)[:37] + "…"
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def _validate_text(name: str, spec: Field, value: object) -> str:
    if not isinstance(value, str):
        raise CalculatorInputError(name, "La valeur doit être un texte.")
    if spec.max_length is not None and len(value) > spec.max_length:
        raise LimitExceededError(
            name, f"Le texte ne doit pas dépasser {spec.max_length} caractères."
        )
    if not is_utf8(value):
        # A lone surrogate ("\ud800" in JSON) is no character: no UTF-8 answer could echo it.
        raise CalculatorInputError(
            name,
            "Le texte contient un caractère invalide (une moitié de paire de substitution "
            "UTF-16, sans l’autre).",
        )
    return value


def _check_list(name: str, spec: Field, value: object) -> list[object]:
    if not isinstance(value, list):
        raise CalculatorInputError(name, "La valeur doit être une liste.")
    if spec.max_items is not None and len(value) > spec.max_items:
        raise LimitExceededError(
            name, f"La liste ne doit pas contenir plus de {spec.max_items} éléments."
        )
    return value


def _validate_int_list(name: str, spec: Field, value: object) -> list[int]:
    items = _check_list(name, spec, value)
    return [_validate_int(f"{name}[{i}]", spec, item) for i, item in enumerate(items)]


def _validate_list(name: str, spec: Field, value: object) -> list[Values]:
    items = _check_list(name, spec, value)
    out: list[Values] = []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise CalculatorInputError(f"{name}[{i}]", "Chaque élément doit être un objet.")
        out.append(validate(spec.fields, item, prefix=f"{name}[{i}]."))
    return out


def _validate_value(name: str, spec: Field, value: object) -> object:
    if spec.type == "int":
        return _validate_int(name, spec, value)
    if spec.type == "float":
        return _validate_float(name, spec, value)
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise CalculatorInputError(name, "La valeur doit être vrai ou faux.")
        return value
    if spec.type == "choice":
        return _validate_choice(name, spec, value)
    if spec.type == "text":
        return _validate_text(name, spec, value)
    if spec.type == "int_list":
        return _validate_int_list(name, spec, value)
    return _validate_list(name, spec, value)


def validate(specs: Sequence[Field], inputs: object, prefix: str = "") -> Values:
    """Check ``inputs`` against ``specs``, fill defaults and return typed values.

    Raises :class:`CalculatorInputError` (or :class:`LimitExceededError`) with
    the offending field name; never any other exception, whatever the JSON.
    """
    if not isinstance(inputs, Mapping):
        raise CalculatorInputError(
            prefix.rstrip(".") or "inputs", "Les entrées doivent être un objet JSON."
        )
    known = {spec.name for spec in specs}
    for key in inputs:
        if not isinstance(key, str) or key not in known:
            raise CalculatorInputError(prefix + _shown_key(key), "Champ inconnu.")
    values: dict[str, object] = {}
    for spec in specs:
        name = prefix + spec.name
        raw = inputs.get(spec.name)
        if raw is None:
            # JSON null is treated like an absent field, so forms may send
            # every field and leave the empty ones null.
            if spec.default is not None:
                raw = _thaw(spec.default)
            elif spec.required:
                raise CalculatorInputError(name, "Ce champ est obligatoire.")
            else:
                values[spec.name] = None
                continue
        values[spec.name] = _validate_value(name, spec, raw)
    return Values(values)
