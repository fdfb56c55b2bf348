"""The site's rules package: the Python package of its calculators, computed tables and
reading notes, imported from its folder (the `calculators` option of the `regles` plugin).
The same folder is packed for Pyodide, so the browser runs the very code the build ran.

The package is written with the kit (`regles.kit`): its `__init__.py` says
`rules = discover(__name__)`, and the generator reads that `rules` (a `RulesPackage`): its
calculators (`catalog()`, `run_json`), its `table(id)` for the ```` ```table id ````
blocks and its `notes` for the ```` ```note id ```` blocks. A site without the folder has the
generic calculators alone (`regles.kit.generic`).

The build does not import the package itself: a child process does, within limits of time
and size (rules_process.py, `RulesLimits`), with the functions of this module. Tests import
it here, in their own process (`load_rules`).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from regles.kit import Table
from regles.kit.discovery import DiscoveryError, RulesPackage
from regles.kit.schema import JsonDict

__all__ = [
    "GENERIC_MODULE",
    "Loaded",
    "LoadedRules",
    "Rules",
    "RulesLimits",
    "RulesPackageError",
    "import_package",
    "load_rules",
    "package_name",
]

GENERIC_MODULE = "regles.kit.generic"
SETTING = "option calculators du greffon regles"


class RulesPackageError(Exception):
    """The rules package cannot be imported from its folder; the message says why, in French."""


class Rules(Protocol):
    """What the build reads of a rules package: a `RulesPackage`, or its stand-in in the
    build's process (rules_process.RulesProcess)."""

    @property
    def notes(self) -> Mapping[str, str]: ...

    def catalog(self) -> list[JsonDict]: ...

    def run_json(self, name: str, inputs_json: str) -> str: ...

    def table_ids(self) -> list[str]: ...

    def table(self, table_id: str) -> Table: ...


@dataclass(frozen=True)
class RulesLimits:
    """What the rules code may take at each build (`rules_limits` of the plugin): seconds per
    module imported and per call (a calculator's starting values, a table), bytes per
    result. Wide: a site's rules import in a fraction of a second and answer in milliseconds,
    with a few KB at most."""

    import_seconds: float = 30.0
    call_seconds: float = 10.0
    result_bytes: int = 1000 * 1000


RulesT = TypeVar("RulesT", bound=Rules, covariant=True)


@dataclass(frozen=True)
class Loaded(Generic[RulesT]):
    """A site's rules, and what the browser imports to run them."""

    rules: RulesT
    module: str  # the name the browser imports: the package's, or GENERIC_MODULE
    folder: Path | None  # the package's folder, packed for the browser; None: generic only


LoadedRules = Loaded[Rules]  # as the build reads them, whoever runs them


def load_rules(folder: Path) -> Loaded[RulesPackage]:
    """The rules of the package in `folder`, imported in this process under the folder's
    name; the generic calculators alone when there is no such folder."""
    if not folder.exists():
        generic = importlib.import_module(GENERIC_MODULE)
        return Loaded(generic.rules, GENERIC_MODULE, None)
    name = package_name(folder)
    try:
        rules = import_package(folder)
    except DiscoveryError as error:
        raise RulesPackageError(f"paquet des calculateurs « {name} » : {error}") from error
    except RulesPackageError:
        raise
    except Exception as error:
        raise RulesPackageError(
            f"le paquet des calculateurs « {name} » ne s’importe pas : "
            f"{type(error).__name__}: {error}"
        ) from error
    return Loaded(rules, name, folder)


def package_name(folder: Path) -> str:
    """The name the package in `folder` is imported under; an error if it cannot be one."""
    name = folder.name
    if not (folder / "__init__.py").is_file():
        raise RulesPackageError(
            f"paquet des calculateurs introuvable : « {folder} » n’a pas de __init__.py ({SETTING})"
        )
    if name == "regles" or not name.isidentifier():
        raise RulesPackageError(
            f"le dossier des calculateurs « {name} » doit porter un nom de module Python, autre "
            f"que « regles », le générateur ({SETTING})"
        )
    return name


def import_package(folder: Path) -> RulesPackage:
    """The `rules` of the package in `folder`, imported anew; what its code raises is
    raised as is (the caller says where), its modules forgotten."""
    name = package_name(folder)
    init = folder / "__init__.py"
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
    except BaseException:
        _forget(name, init)
        raise
    rules = getattr(module, "rules", None)
    if not isinstance(rules, RulesPackage):
        raise RulesPackageError(
            f"le paquet des calculateurs « {name} » n’a pas de « rules » : son __init__.py "
            "doit dire « from regles.kit import discover » puis « rules = discover(__name__) »"
        )
    return rules


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
