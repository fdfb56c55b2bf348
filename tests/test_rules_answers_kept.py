"""The rules child's answers are kept in the build cache (features/calculators/rules_process.py):
a build whose rules package has not changed starts no child process; a changed file, other
limits or a failure make the child run again. On small packages written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from regles.features.calculators import rules_process
from regles.features.calculators.package import RulesLimits
from regles.features.calculators.rules_process import RulesCallError, RulesProcess
from tests.test_rules_limits import ROOMY, package

CODE = """from regles.kit import Calculator, Output, Table


def fine(values):
    return {"x": ANSWER}


def broken(values):
    return 1 / 0


CALCULATORS = (
    Calculator("bon", "Bon", "", (), (Output("x", "X"),), fine),
    Calculator("casse", "Cassé", "", (), (Output("x", "X"),), broken),
)
TABLES = {"bonne": lambda: Table("Bonne", ["Valeur"], [[str(ANSWER)]])}
"""


def rules_package(root: Path, answer: int) -> Path:
    return package(root, "regles_gardees", {"calculs": CODE.replace("ANSWER", str(answer))})


def asked(folder: Path, cache: Path, limits: RulesLimits = ROOMY) -> tuple[str, list[list[str]]]:
    """A build's questions: a calculator's answer and a table's rows."""
    rules = RulesProcess(folder, limits, folder.parent, cache)
    try:
        return rules.run_json("bon", "{}"), rules.table("bonne").rows
    finally:
        rules.close()


def test_an_unchanged_package_is_answered_without_a_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, cache = rules_package(tmp_path, 7), tmp_path / "cache"
    first = asked(folder, cache)
    assert '"x": 7' in first[0] and first[1] == [["7"]]
    monkeypatch.setattr(rules_process, "_Child", _refused)
    assert asked(folder, cache) == first
    # Without a cache folder, nothing is kept: the child is needed.
    with pytest.raises(AssertionError, match="a démarré"):
        RulesProcess(folder, ROOMY, tmp_path, None)


def test_a_changed_file_or_other_limits_ask_the_child_again(tmp_path: Path) -> None:
    folder, cache = rules_package(tmp_path, 7), tmp_path / "cache"
    asked(folder, cache)
    (folder / "calculs.py").write_text(CODE.replace("ANSWER", "8"), "utf-8")
    assert asked(folder, cache)[1] == [["8"]]
    # A data file of the package counts too: its code may read it.
    (folder / "valeurs.json").write_text("{}", "utf-8")
    other = RulesLimits(import_seconds=50, call_seconds=50, result_bytes=90_000)
    assert asked(folder, cache, other)[1] == [["8"]]
    # Only the package's latest answers stay in the cache.
    assert len(list((cache / rules_process.KEPT_FOLDER).glob("*.pickle"))) == 1


def test_a_failure_is_not_kept_and_is_told_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, cache = rules_package(tmp_path, 7), tmp_path / "cache"
    for _ in range(2):
        rules = RulesProcess(folder, ROOMY, tmp_path, cache)
        with pytest.raises(RulesCallError, match="ZeroDivisionError"):
            rules.run_json("casse", "{}")
        rules.close()
    # The package's import is then answered from the cache; the failing call needs a child.
    monkeypatch.setattr(rules_process, "_Child", _refused)
    rules = RulesProcess(folder, ROOMY, tmp_path, cache)
    with pytest.raises(AssertionError, match="a démarré"):
        rules.run_json("casse", "{}")


def _refused(limits: RulesLimits) -> None:
    raise AssertionError("un processus des règles a démarré")
