"""JSON text in, JSON text out: the one call the browser's Pyodide worker makes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from .errors import CalculatorError, CalculatorInputError
from .schema import JsonDict, is_utf8

__all__ = ["MAX_DEPTH", "MAX_REQUEST_CHARS", "run_json"]

# Inputs beyond this size are refused before parsing: nobody types that much in a form.
MAX_REQUEST_CHARS = 100_000
# Arrays and objects nested deeper than this are refused before parsing. The forms send
# three levels ({"items": [{…}]}); the parser would recurse once per level, and the depth at
# which it gives up is not the same in CPython and in the browser.
MAX_DEPTH = 20

# A JSON string (skipped whole, so brackets inside it do not count) or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)

_INVALID_CHARACTER = (
    "Les valeurs envoyées contiennent un caractère invalide (une moitié de paire de "
    "substitution UTF-16, sans l’autre)."
)


def _error(kind: str, field: str | None, message: str) -> str:
    return json.dumps(
        {"ok": False, "error": {"kind": kind, "field": field, "message": message}},
        ensure_ascii=False,
    )


def _too_deep(text: str) -> bool:
    """Whether arrays and objects are nested more than MAX_DEPTH levels in `text`."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


Run = Callable[[str, Mapping[str, object]], JsonDict]


def run_json(run: Run, name: str, inputs_json: str) -> str:
    """`run(name, inputs)` for the browser: every failure becomes a French message.

    Answers `{"ok": true, "outputs": …}` or `{"ok": false, "error": {kind, field, message}}`,
    always as text that UTF-8 can carry and JSON.parse can read; an unexpected exception is
    reported as `kind: "internal"`, never as a traceback, whatever the text sent.
    """
    if len(inputs_json) > MAX_REQUEST_CHARS:
        return _error("input", None, "La demande est trop longue.")
    if _too_deep(inputs_json):
        return _error(
            "input",
            None,
            f"Les valeurs envoyées sont trop imbriquées (au plus {MAX_DEPTH} niveaux "
            "de listes et d’objets).",
        )
    try:
        inputs = json.loads(inputs_json)
    except (ValueError, RecursionError):
        return _error("input", None, "Les valeurs envoyées ne sont pas du JSON valide.")
    if not isinstance(inputs, dict):
        return _error("input", None, "Les valeurs doivent former un objet JSON.")
    try:
        # allow_nan=False: NaN and Infinity are not JSON, JSON.parse would throw in the page.
        outputs = run(name, inputs)
        answer = json.dumps({"ok": True, "outputs": outputs}, ensure_ascii=False, allow_nan=False)
    except CalculatorInputError as error:
        answer = _error("input", error.field, error.message)
    except CalculatorError as error:
        answer = _error("calculator", None, getattr(error, "message", str(error)))
    except Exception:  # the reader must get a message, never a traceback
        return _error("internal", None, "Erreur interne du calculateur ; signalez-la au MJ.")
    if not is_utf8(answer):
        # Something sent was echoed back (a name, a field, a character of an expression).
        return _error("input", None, _INVALID_CHARACTER)
    return answer
