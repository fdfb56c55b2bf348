"""A rules package as the kit finds it (regles.kit.discovery): its modules' calculators, tables
and notes, by id, after the generic dice; and what `RulesPackage` answers. On small packages
written here, in a folder of their own."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from regles.kit import (
    CalculatorInputError,
    DiscoveryError,
    RulesPackage,
    Table,
    UnknownCalculatorError,
    discover,
)
from regles.kit.generic import rules as generic_rules

# A module offering one calculator `{id}`, whose result doubles its field « n » (1 to 10).
CALCULATOR = """
from regles.kit import Calculator, Field, Output

CALCULATORS = (
    Calculator(
        id="{id}",
        title="{id}",
        description="Le double d’un nombre.",
        inputs=(Field("n", "Nombre", "int", default=2, min=1, max=10),),
        outputs=(Output("double", "Double"),),
        handler=lambda values: {{"double": 2 * values.get_int("n"), "par": "{id}"}},
    ),
)
"""

WritePackage = Callable[[dict[str, str]], str]
_counter = itertools.count()


@pytest.fixture
def write_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WritePackage]:
    """Writes a package (module name → source) under a name of its own and makes it
    importable; its modules are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    names: list[str] = []

    def write(modules: dict[str, str]) -> str:
        name = f"paquet_essai_{next(_counter)}"
        folder = tmp_path / name
        folder.mkdir()
        (folder / "__init__.py").write_text("", encoding="utf-8")
        for module, source in modules.items():
            (folder / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        importlib.invalidate_caches()
        names.append(name)
        return name

    yield write
    for module in [m for m in sys.modules if m.split(".")[0] in names]:
        del sys.modules[module]


def ids(rules: RulesPackage) -> list[str]:
    return [str(entry["id"]) for entry in rules.catalog()]


def test_modules_are_read_in_name_order_after_the_generic_dice(
    write_package: WritePackage,
) -> None:
    package = write_package(
        {
            "b_deux": CALCULATOR.format(id="deux"),
            "a_un": CALCULATOR.format(id="un"),
            "c_trois": CALCULATOR.format(id="trois")
            + CALCULATOR.format(id="quatre").replace("CALCULATORS = (", "CALCULATORS += ("),
        }
    )
    rules = discover(package)
    assert rules.name == package
    assert ids(rules) == ["dice", "un", "deux", "trois", "quatre"]
    assert ids(discover(package, generic=False)) == ["un", "deux", "trois", "quatre"]


def test_without_a_package_the_generic_calculators_alone() -> None:
    alone = discover(None)
    assert ids(alone) == ids(generic_rules) == ["dice"]
    assert alone.table_ids() == [] and dict(alone.notes) == {}


def test_a_module_whose_name_starts_with_an_underscore_is_left_out(
    write_package: WritePackage,
) -> None:
    package = write_package(
        {
            "_aides": CALCULATOR.format(id="cache"),
            # A public module may import from it: only its own offer counts.
            "public": "from ._aides import CALCULATORS as _HIDDEN\n"
            + CALCULATOR.format(id="visible"),
        }
    )
    assert ids(discover(package)) == ["dice", "visible"]


def test_an_id_given_by_two_modules_names_both(write_package: WritePackage) -> None:
    package = write_package(
        {"premier": CALCULATOR.format(id="double"), "second": CALCULATOR.format(id="double")}
    )
    with pytest.raises(DiscoveryError) as error:
        discover(package)
    message = str(error.value)
    assert "« double »" in message
    assert f"{package}.premier" in message and f"{package}.second" in message


def test_an_id_of_the_generic_calculators_is_taken(write_package: WritePackage) -> None:
    package = write_package({"des": CALCULATOR.format(id="dice")})
    with pytest.raises(DiscoveryError, match=rf"regles\.kit\.dice et dans {package}\.des"):
        discover(package)
    assert ids(discover(package, generic=False)) == ["dice"]  # alone, it may have the id


TABLE = """
from regles.kit import Table

TABLES = {{"{id}": lambda: Table("Légende", ["A"], [["1"]])}}
"""


@pytest.mark.parametrize(
    ("first", "second", "kind"),
    [
        (TABLE.format(id="t"), TABLE.format(id="t"), "table"),
        ('NOTES = {"n": "Une note."}', 'NOTES = {"n": "Une autre."}', "note"),
    ],
)
def test_tables_and_notes_are_unique_too(
    write_package: WritePackage, first: str, second: str, kind: str
) -> None:
    package = write_package({"un": first, "deux": second})
    with pytest.raises(DiscoveryError) as error:
        discover(package)
    assert str(error.value).startswith(kind)
    assert f"{package}.un" in str(error.value) and f"{package}.deux" in str(error.value)


def test_a_table_and_a_note_may_share_an_id(write_package: WritePackage) -> None:
    package = write_package({"un": TABLE.format(id="x") + '\nNOTES = {"x": "La note."}'})
    rules = discover(package)
    assert rules.table_ids() == ["x"] and rules.notes["x"] == "La note."


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ('TABLES = {"t": "pas une fonction"}', "une fonction qui rend une Table"),
        ('NOTES = {"n": 3}', "un texte"),
        ('TABLES = ["t"]', "un dictionnaire"),
        ("NOTES = {1: 'note'}", "un dictionnaire"),
        ('CALCULATORS = "dice"', "une liste de Calculator"),
        ("CALCULATORS = (1, 2)", "une liste de Calculator"),
    ],
)
def test_a_name_holding_the_wrong_thing_is_refused_with_its_module(
    write_package: WritePackage, source: str, words: str
) -> None:
    package = write_package({"mauvais": source})
    with pytest.raises(DiscoveryError) as error:
        discover(package)
    assert f"{package}.mauvais" in str(error.value) and words in str(error.value)


# A package with a calculator, a table counting the times it is built, and a note.
FULL = {
    "regle": CALCULATOR.format(id="double")
    + """
from regles.kit import Table

BUILT = []


def _table():
    BUILT.append(1)
    return Table("Doubles", ["n", "Double"], [[str(n), str(2 * n)] for n in range(1, 4)])


TABLES = {"doubles": _table}
NOTES = {"lecture": "Le texte dit *triple* ; la règle dit double."}
""",
}


@pytest.fixture
def full(write_package: WritePackage) -> RulesPackage:
    return discover(write_package(FULL))


def test_run_validates_the_inputs_and_calls_the_calculator(full: RulesPackage) -> None:
    assert full.run("double", {"n": 4}) == {"double": 8, "par": "double"}
    assert full.run("double", {})["double"] == 4  # the field's default, 2
    with pytest.raises(CalculatorInputError) as error:
        full.run("double", {"n": 11})
    assert error.value.field == "n" and "10" in error.value.message
    with pytest.raises(CalculatorInputError) as error:
        full.run("double", {"m": 1})
    assert error.value.field == "m"
    with pytest.raises(UnknownCalculatorError, match="« triple »"):
        full.run("triple", {})
    # The generic dice are there too.
    assert full.run("dice", {"expression": "2d6"})["mean"] == 7


def test_run_json_answers_what_run_gives_or_a_french_message(full: RulesPackage) -> None:
    assert json.loads(full.run_json("double", '{"n": 3}')) == {
        "ok": True,
        "outputs": {"double": 6, "par": "double"},
    }
    refused = json.loads(full.run_json("double", '{"n": 0}'))
    assert refused["ok"] is False
    assert refused["error"]["field"] == "n" and refused["error"]["kind"] == "input"
    unknown = json.loads(full.run_json("triple", "{}"))
    assert unknown["error"] == {
        "kind": "calculator",
        "field": None,
        "message": "Calculateur inconnu : « triple ».",
    }


def test_the_catalog_describes_every_calculator_afresh(full: RulesPackage) -> None:
    catalog = full.catalog()
    assert [entry["id"] for entry in catalog] == ["dice", "double"]
    assert json.loads(json.dumps(catalog)) == catalog
    double = catalog[1]
    assert [i["name"] for i in double["inputs"]] == ["n"]
    assert double == full.calculator("double").to_json()
    double["id"] = "changé"
    assert full.catalog()[1]["id"] == "double"


def test_a_table_is_built_anew_each_time_and_notes_are_read_only(full: RulesPackage) -> None:
    assert full.table_ids() == ["doubles"]
    built = sys.modules[f"{full.name}.regle"].BUILT
    first, second = full.table("doubles"), full.table("doubles")
    assert isinstance(first, Table) and first == second and first is not second
    assert first.rows == [["1", "2"], ["2", "4"], ["3", "6"]]
    assert len(built) == 2
    with pytest.raises(KeyError):
        full.table("triples")
    assert full.notes["lecture"].startswith("Le texte dit")
    with pytest.raises(TypeError):
        full.notes["autre"] = "x"


def test_an_unknown_calculator_is_named_shortly(full: RulesPackage) -> None:
    with pytest.raises(UnknownCalculatorError) as error:
        full.calculator("x" * 200)
    assert len(error.value.message) < 100 and error.value.name == "x" * 200
    with pytest.raises(UnknownCalculatorError):
        full.calculator(3)
