"""The site's rules package: the Python package of its calculators, computed tables and
reading notes, imported from its folder (the `calculators` option of the `regles` plugin).
The same folder is packed for Pyodide, so the browser runs the very code the build ran.

The package is written with the kit (`regles.kit`): its `__init__.py` says
`rules = discover(__name__)`, and the generator reads that `rules` (a `RulesPackage`): its
calculators (`catalog()`, `run_json`), its `table(id)` for the ```` ```table id ````
blocks and its `notes` for the ```` ```note id ```` blocks. A site without the folder has the
generic calculators alone (`regles.kit.generic`).

The package is imported anew at each build, so that `mkdocs serve` shows the calculators'
code as it is now, not as it was when the server started.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from regles.kit.discovery import DiscoveryError, RulesPackage

__all__ = ["GENERIC_MODULE", "LoadedRules", "RulesPackageError", "load_rules"]

GENERIC_MODULE = "regles.kit.generic"
SETTING = "option calculators du greffon regles"


class RulesPackageError(Exception):
    """The rules package cannot be imported from its folder; the message says why, in French."""


@dataclass(frozen=True)
class LoadedRules:
    """A site's rules, and what the browser imports to run them."""

    rules: RulesPackage
    module: str  # the name the browser imports: the package's, or GENERIC_MODULE
    folder: Path | None  # the package's folder, packed for the browser; None: generic only


def load_rules(folder: Path) -> LoadedRules:
    """The rules of the package in `folder`, imported under the folder's name; the generic
    calculators alone when there is no such folder."""
    if not folder.exists():
        generic = importlib.import_module(GENERIC_MODULE)
        return LoadedRules(generic.rules, GENERIC_MODULE, None)
    name = folder.name
    init = folder / "__init__.py"
    if not init.is_file():
        raise RulesPackageError(
            f"paquet des calculateurs introuvable : « {folder} » n’a pas de __init__.py ({SETTING})"
        )
    if name == "regles" or not name.isidentifier():
        raise RulesPackageError(
            f"le dossier des calculateurs « {name} » doit porter un nom de module Python, autre "
            f"que « regles », le générateur ({SETTING})"
        )
    _forget(name, init)
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:  # pragma: no cover - a file location always has one
        raise RulesPackageError(f"paquet des calculateurs illisible : {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except DiscoveryError as error:
        _forget(name, init)
        raise RulesPackageError(f"paquet des calculateurs « {name} » : {error}") from error
    except Exception as error:
        _forget(name, init)
        raise RulesPackageError(
            f"le paquet des calculateurs « {name} » ne s’importe pas : "
            f"{type(error).__name__}: {error}"
        ) from error
    rules = getattr(module, "rules", None)
    if not isinstance(rules, RulesPackage):
        raise RulesPackageError(
            f"le paquet des calculateurs « {name} » n’a pas de « rules » : son __init__.py "
            "doit dire « from regles.kit import discover » puis « rules = discover(__name__) »"
        )
    return LoadedRules(rules, name, folder)


def _forget(name: str, init: Path) -> None:
    """The package `name` and its modules out of `sys.modules`, if loaded from `init`; an
    error if another module of that name is loaded."""
    loaded = sys.modules.get(name)
    if loaded is None:
        return
    origin = Path(str(getattr(loaded, "__file__", ""))).resolve()
    if origin != init.resolve():
        raise RulesPackageError(
            f"un autre module « {name} » est déjà chargé ({origin}) : donnez au dossier des "
            f"calculateurs un autre nom ({SETTING})"
        )
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]
