"""A rules package's calculators, tables and notes, found in its modules.

A site's rules package is a folder of pure Python modules (standard library only, the same
code in CPython and in the browser's Pyodide). Each module offers what it has under three
names, all optional:

- `CALCULATORS`: a sequence of `Calculator` (`regles.kit.schema`);
- `TABLES`: a mapping, table id → a function returning a `Table` (`regles.kit.tables`);
- `NOTES`: a mapping, note id → a reading note (Markdown) for a ```` ```note id ```` block.

The package's `__init__.py` gathers them in one line, and the generator reads nothing else:

    from regles.kit import discover
    rules = discover(__name__)
    run, catalog = rules.run, rules.catalog  # for the package's own tests and scripts

Adding a module adds its calculators: there is no registry to edit. The generic calculators
(the dice roller, which the pages' inline dice also use) come first, on every site.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType, ModuleType

from . import bridge, dice
from .errors import UnknownCalculatorError
from .schema import Calculator, JsonDict, validate
from .tables import Table

__all__ = ["GENERIC_MODULES", "DiscoveryError", "RulesPackage", "discover"]

# The calculators every site offers, whatever its rules package: the inline dice need them.
GENERIC_MODULES: tuple[ModuleType, ...] = (dice,)


class DiscoveryError(Exception):
    """Two modules of a rules package claim the same id, or a name holds the wrong thing;
    the message says which, in French."""


class RulesPackage:
    """The calculators, tables and notes of a rules package, by id."""

    def __init__(self, name: str, modules: Iterable[ModuleType]) -> None:
        self.name = name
        calculators: dict[str, Calculator] = {}
        tables: dict[str, Callable[[], Table]] = {}
        notes: dict[str, str] = {}
        owners: dict[tuple[str, str], str] = {}  # (kind, id) → the module that gave it
        for module in modules:
            found: list[tuple[str, str, object]] = [
                ("calculateur", calc.id, calc) for calc in _calculators(module)
            ]
            found += [("table", key, value) for key, value in _mapping(module, "TABLES").items()]
            found += [("note", key, value) for key, value in _mapping(module, "NOTES").items()]
            for kind, key, value in found:
                other = owners.setdefault((kind, key), module.__name__)
                if other != module.__name__:
                    raise DiscoveryError(
                        f"{kind} « {key} » défini deux fois : dans {other} et dans "
                        f"{module.__name__}"
                    )
                if kind == "calculateur" and isinstance(value, Calculator):
                    calculators[key] = value
                elif kind == "table" and callable(value):
                    tables[key] = value
                elif kind == "note" and isinstance(value, str):
                    notes[key] = value
                else:
                    raise DiscoveryError(
                        f"{module.__name__} : {kind} « {key} » n’est pas "
                        + ("une fonction qui rend une Table" if kind == "table" else "un texte")
                    )
        self.calculators: Mapping[str, Calculator] = MappingProxyType(calculators)
        self._tables: Mapping[str, Callable[[], Table]] = MappingProxyType(tables)
        self.notes: Mapping[str, str] = MappingProxyType(notes)
        # (kind, id) → the module that gave it (kind: calculateur, table or note), which the
        # build names when one of them fails.
        self.owners: Mapping[tuple[str, str], str] = MappingProxyType(owners)

    def calculator(self, name: object) -> Calculator:
        """The calculator ``name``, or :class:`UnknownCalculatorError`."""
        calc = self.calculators.get(name) if isinstance(name, str) else None
        if calc is None:
            raise UnknownCalculatorError(str(name) if isinstance(name, str) else repr(type(name)))
        return calc

    def run(self, name: str, inputs: Mapping[str, object]) -> JsonDict:
        """Validate JSON ``inputs`` for calculator ``name`` and return its JSON result.

        Raises :class:`UnknownCalculatorError` for an unknown name and
        :class:`CalculatorInputError` (``.field``, French ``.message``) for bad inputs; no
        other exception whatever JSON is sent."""
        calc = self.calculator(name)
        return calc.handler(validate(calc.inputs, inputs))

    def run_json(self, name: str, inputs_json: str) -> str:
        """`run` for the browser: JSON text in, JSON text out (`regles.kit.bridge`)."""
        return bridge.run_json(self.run, name, inputs_json)

    def catalog(self) -> list[JsonDict]:
        """Every calculator's description (inputs, outputs), from which forms are made."""
        return [calc.to_json() for calc in self.calculators.values()]

    def table_ids(self) -> list[str]:
        return list(self._tables)

    def table(self, table_id: str) -> Table:
        """The table ``table_id``, built anew; KeyError if unknown."""
        return self._tables[table_id]()


def _calculators(module: ModuleType) -> list[Calculator]:
    found = getattr(module, "CALCULATORS", ())
    if not isinstance(found, list | tuple) or not all(isinstance(c, Calculator) for c in found):
        raise DiscoveryError(
            f"{module.__name__}.CALCULATORS : une liste de Calculator est attendue"
        )
    return list(found)


def _mapping(module: ModuleType, name: str) -> Mapping[str, object]:
    found = getattr(module, name, {})
    if not isinstance(found, Mapping) or not all(isinstance(key, str) for key in found):
        raise DiscoveryError(f"{module.__name__}.{name} : un dictionnaire « id: … » est attendu")
    return found


def discover(package: str | None, *, generic: bool = True) -> RulesPackage:
    """The rules package named `package`: every module of its folder (by name, those whose
    name starts with « _ » left out), after the generic calculators unless `generic` is
    False. `None`: the generic calculators alone, for a site without a rules package."""
    modules = list(GENERIC_MODULES) if generic else []
    if package is not None:
        root = importlib.import_module(package)
        names = sorted(
            info.name
            for info in pkgutil.iter_modules(getattr(root, "__path__", []))
            if not info.name.startswith("_")
        )
        modules += [importlib.import_module(f"{package}.{name}") for name in names]
    return RulesPackage(package or "regles.kit", modules)
