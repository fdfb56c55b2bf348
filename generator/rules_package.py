"""The site's rules package: the Python package of its calculators, computed tables and
reading notes, imported from its folder (the `calculators` option of the `regles` plugin).
The same folder is packed for Pyodide, so the browser runs the very code the build ran.

What the generator uses of it, by name:
- `catalog()`: the calculators' entries (id, title, description, inputs, outputs), from
  which the forms are generated;
- `run_json(name, inputs_json)`: JSON text in, JSON text out, the one call of the browser;
- if it has them, `tables` (`table_ids()`, `table(id)` with `headers` and `rows`) for the
  ```` ```table id ```` blocks, and `NOTES` (id → text) for the ```` ```note id ```` blocks.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["RulesPackageError", "import_rules_package"]


class RulesPackageError(Exception):
    """The rules package cannot be imported from its folder; the message says why, in French."""


def import_rules_package(folder: Path) -> ModuleType:
    """The package in `folder`, imported under the folder's name (once per process)."""
    name = folder.name
    init = folder / "__init__.py"
    if not init.is_file():
        raise RulesPackageError(
            f"paquet des calculateurs introuvable : « {folder} » n’a pas de __init__.py "
            "(option calculators du greffon regles)"
        )
    loaded = sys.modules.get(name)
    if loaded is not None:
        origin = Path(str(getattr(loaded, "__file__", ""))).resolve()
        if origin == init.resolve():
            return loaded
        raise RulesPackageError(
            f"un autre module « {name} » est déjà chargé ({origin}) : donnez au dossier des "
            "calculateurs un autre nom (option calculators du greffon regles)"
        )
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:  # pragma: no cover - a file location always has one
        raise RulesPackageError(f"paquet des calculateurs illisible : {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise RulesPackageError(
            f"le paquet des calculateurs « {name} » ne s’importe pas : "
            f"{type(error).__name__}: {error}"
        ) from error
    for required in ("catalog", "run_json"):
        if not callable(getattr(module, required, None)):
            raise RulesPackageError(
                f"le paquet des calculateurs « {name} » n’a pas de fonction {required}()"
            )
    return module
