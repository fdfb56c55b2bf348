"""JSON text in, JSON text out: the one call the browser's Pyodide worker makes."""

from __future__ import annotations

import json

from .catalog import run
from .errors import CalculatorError, CalculatorInputError

__all__ = ["run_json"]

# Inputs beyond this size are refused before parsing: nobody types that much in a form.
MAX_REQUEST_CHARS = 100_000


def _error(kind: str, field: str | None, message: str) -> str:
    return json.dumps(
        {"ok": False, "error": {"kind": kind, "field": field, "message": message}},
        ensure_ascii=False,
    )


def run_json(name: str, inputs_json: str) -> str:
    """`run(name, inputs)` for the browser: every failure becomes a French message.

    Answers `{"ok": true, "outputs": …}` or `{"ok": false, "error": {kind, field, message}}`;
    an unexpected exception is reported as `kind: "internal"`, never as a traceback.
    """
    if len(inputs_json) > MAX_REQUEST_CHARS:
        return _error("input", None, "La demande est trop longue.")
    try:
        inputs = json.loads(inputs_json)
    except ValueError:
        return _error("input", None, "Les valeurs envoyées ne sont pas du JSON valide.")
    if not isinstance(inputs, dict):
        return _error("input", None, "Les valeurs doivent former un objet JSON.")
    try:
        outputs = run(name, inputs)
    except CalculatorInputError as error:
        return _error("input", error.field, error.message)
    except CalculatorError as error:
        return _error("calculator", None, getattr(error, "message", str(error)))
    except Exception:  # the reader must get a message, never a traceback
        return _error("internal", None, "Erreur interne du calculateur ; signalez-la au MJ.")
    return json.dumps({"ok": True, "outputs": outputs}, ensure_ascii=False)
