"""What a rules package is written with: fields, outputs, charts, validation, errors, the
JSON bridge to the browser, computed tables, and the discovery of a package's calculators.

Standard library only: a rules package and this kit run unchanged in CPython (the build, the
tests) and in the browser's Pyodide (the site packs both). A module of a rules package:

    from regles.kit import Calculator, Field, Output, Values

    def _double(values: Values) -> dict[str, object]:
        return {"double": 2 * values.get_int("n")}

    CALCULATORS = (
        Calculator(
            id="double",
            title="Double",
            description="Le double d’un nombre.",
            inputs=(Field("n", "Nombre", "int", default=1),),
            outputs=(Output("double", "Double"),),
            handler=_double,
        ),
    )

and the package's `__init__.py`: `rules = discover(__name__)` (`regles.kit.discovery`).
"""

from .discovery import DiscoveryError, RulesPackage, discover
from .errors import (
    CalculatorError,
    CalculatorInputError,
    LimitExceededError,
    UnknownCalculatorError,
)
from .schema import (
    SEED_MAX,
    Calculator,
    Chart,
    Choice,
    Field,
    JsonDict,
    Output,
    Values,
    fmt_number,
    frozen_record,
    probability,
    seed_field,
)
from .tables import Follows, Table, group_runs, span

__all__ = [
    "SEED_MAX",
    "Calculator",
    "CalculatorError",
    "CalculatorInputError",
    "Chart",
    "Choice",
    "DiscoveryError",
    "Field",
    "Follows",
    "JsonDict",
    "LimitExceededError",
    "Output",
    "RulesPackage",
    "Table",
    "UnknownCalculatorError",
    "Values",
    "discover",
    "fmt_number",
    "frozen_record",
    "group_runs",
    "probability",
    "seed_field",
    "span",
]
