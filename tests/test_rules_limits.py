"""The build runs the site's rules code within limits (features/calculators/rules_process.py):
a module that loops, quits Python, raises or answers 20 MB stops the build with a French
message naming the module, the calculator or table, the limit, and the file and line. Each
case on a small package written here, run with tiny limits; then two strict builds show what
a game master reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from regles.core.report import Kind
from regles.features.calculators import rules_process
from regles.features.calculators.package import RulesLimits, RulesPackageError
from regles.features.calculators.rules_process import RulesCallError, RulesProcess
from regles.plugin import ReglesPlugin
from tests.conftest import NODE_MODULES, build_site, new_build, render

INIT = "from regles.kit import discover\nrules = discover(__name__)\n"
# One tiny limit per case of code that never ends, so that the case takes a second; the
# other limits roomy, so that a machine under load never trips them on code that does end
# (building a 20 MB answer takes a fraction of a second, more when the machine is busy).
ROOMY = RulesLimits(import_seconds=60, call_seconds=60, result_bytes=100_000)
SHORT_IMPORT = RulesLimits(import_seconds=1, call_seconds=60, result_bytes=100_000)
SHORT_CALL = RulesLimits(import_seconds=60, call_seconds=1, result_bytes=100_000)

CALCULATORS = """from regles.kit import Calculator, Output, Table

print("Ce que le code des règles écrit ne se mêle pas aux réponses.")


def endless(values):
    while True: pass


def huge(values):
    return {"x": "a" * 20_000_000}


def broken(values):
    return 1 / 0


def leaves(values):
    import sys
    sys.exit(3)


def vanishes(values):
    import os
    os._exit(0)


def fine(values):
    return {"x": 1}


CALCULATORS = tuple(
    Calculator(name, name, "", (), (Output("x", "X"),), handler)
    for name, handler in [
        ("boucle", endless), ("gros", huge), ("casse", broken), ("sortie", leaves),
        ("disparait", vanishes), ("bon", fine),
    ]
)
TABLES = {
    "bonne": lambda: Table("Bonne", ["Valeur"], [["1"], ["2"]]),
    "enorme": lambda: Table("Énorme", ["Valeur"], [["x" * 1000]] * 20_000),
    "grande": lambda: Table("Grande", ["Valeur"], [["x" * 1000]] * 2_000),
    "nombres": lambda: Table("Nombres", ["Valeur"], [[1]]),
}
"""


def line_of(code: str, words: str) -> int:
    """The number of the line of `code` that holds `words`."""
    return next(n for n, line in enumerate(code.splitlines(), 1) if words in line)


def package(root: Path, name: str, modules: dict[str, str]) -> Path:
    """A rules package `name` in `root`, with its __init__ and `modules` (name → code)."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(INIT, "utf-8")
    for module, code in modules.items():
        (folder / f"{module}.py").write_text(code, "utf-8")
    return folder


def import_error(tmp_path: Path, code: str) -> str:
    """The message of a package whose module `quoi` is `code`, imported within 1 s."""
    folder = package(tmp_path, "paquet_essai", {"quoi": code})
    with pytest.raises(RulesPackageError) as raised:
        RulesProcess(folder, SHORT_IMPORT, tmp_path)
    return str(raised.value)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (
            "x = 1\nwhile True: x += 1\n",
            "paquet_essai/quoi.py:2: l’import du module « paquet_essai.quoi » dure plus de 1 s "
            "(limite : réglage rules_limits.import_seconds du greffon regles) ; arrêté à cette "
            "ligne",
        ),
        (
            "import sys\n\nsys.exit(3)\n",
            "paquet_essai/quoi.py:3: le module « paquet_essai.quoi » appelle sys.exit(3) pendant "
            "son import : le code des règles ne doit pas quitter Python",
        ),
        (
            "import os\nos._exit(0)\n",
            "paquet_essai/quoi.py:2: le module « paquet_essai.quoi » appelle os._exit(0) pendant "
            "son import",
        ),
        (
            "x = 1\n\nraise ValueError('valeur introuvable')\n",
            "paquet_essai/quoi.py:3: le module « paquet_essai.quoi » ne s’importe pas : "
            "ValueError: valeur introuvable",
        ),
        (
            # A kit field given its choices as tuples: said at the field, where it is written.
            "from regles.kit import Field\n\n"
            "Field('taille', 'Taille', 'int', choices=((1, 'P'),))\n",
            "paquet_essai/quoi.py:3: le module « paquet_essai.quoi » ne s’importe pas : "
            "ValueError: champ « taille » : choices attend des Choice(valeur, libellé), pas "
            "(1, 'P')",
        ),
        (
            # A choice's value given as a number: said at the choice, where it is written.
            "from regles.kit import Choice\n\nChoice(4, 'Routine (+4)')\n",
            "paquet_essai/quoi.py:3: le module « paquet_essai.quoi » ne s’importe pas : "
            "ValueError: Choice(4, 'Routine (+4)') : la valeur et le libellé d’un choix sont des "
            "textes, « Choice('4', …) »",
        ),
        (
            "def f(:\n",
            "paquet_essai/quoi.py:1: le module « paquet_essai.quoi » ne s’importe pas : "
            "SyntaxError",
        ),
        (
            "import os\nimport signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
            "le processus qui importe le paquet des calculateurs s’est arrêté (signal 9) "
            "pendant l’import du module « paquet_essai.quoi »",
        ),
    ],
    ids=["boucle", "sys.exit", "os._exit", "raise", "choix", "choix-nombre", "syntaxe", "tué"],
)
def test_a_module_that_cannot_be_imported_is_named_with_its_file_and_line(
    tmp_path: Path, code: str, words: str
) -> None:
    assert words in import_error(tmp_path, code)


def test_code_that_stops_the_watchdog_is_stopped_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The child keeps its own time; code that stops its watchdog is killed by the build, a
    # grace period later (half a second here, for the test's sake).
    monkeypatch.setattr(rules_process, "GRACE_SECONDS", 0.5)
    code = "import faulthandler\nfaulthandler.cancel_dump_traceback_later()\nwhile True: pass\n"
    assert import_error(tmp_path, code) == (
        "l’import du module « paquet_essai.quoi » dure plus de 1 s (limite : réglage "
        "rules_limits.import_seconds du greffon regles) ; arrêté"
    )


def test_a_package_too_big_to_describe_is_named_with_the_limit(tmp_path: Path) -> None:
    note = "NOTES = {'longue': 'mot ' * 100_000}\n"
    message = import_error(tmp_path, note)
    assert "note « longue » (module paquet_essai.quoi) : son texte fait 400 Ko" in message
    assert "plus que la limite de 100 Ko (réglage rules_limits.result_kb" in message


@pytest.fixture(scope="module")
def rules_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("regles")
    package(root, "regles_limites", {"calculs": CALCULATORS})
    return root


@pytest.fixture(scope="module")
def rules(rules_root: Path) -> RulesProcess:
    return RulesProcess(rules_root / "regles_limites", ROOMY, rules_root)


CALLED = "calculateur « {} » (module regles_limites.calculs) : "
OK = '{"ok": true, "outputs": {"x": 1}}'


def test_a_call_past_its_time_is_stopped_where_it_was_and_the_next_one_answers(
    rules_root: Path,
) -> None:
    rules = RulesProcess(rules_root / "regles_limites", SHORT_CALL, rules_root)
    with pytest.raises(RulesCallError) as raised:
        rules.run_json("boucle", "{}")
    assert str(raised.value) == CALLED.format("boucle") + (
        "toujours en calcul après 1 s (limite : réglage rules_limits.call_seconds du greffon "
        f"regles) ; arrêté à regles_limites/calculs.py:{line_of(CALCULATORS, 'while')}"
    )
    assert rules.run_json("bon", "{}") == OK  # in a process started anew
    rules.close()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (
            "gros",
            "son résultat fait 20 Mo, plus que la limite de 100 Ko (réglage "
            "rules_limits.result_kb du greffon regles) : il irait tel quel dans la page",
        ),
        (
            "casse",
            "ZeroDivisionError: division by zero "
            f"(regles_limites/calculs.py:{line_of(CALCULATORS, '1 / 0')})",
        ),
        (
            "sortie",
            f"appelle sys.exit(3) (regles_limites/calculs.py:{line_of(CALCULATORS, 'exit(3)')}) "
            ": le code des règles ne doit pas quitter Python",
        ),
        (
            "disparait",
            f"appelle os._exit(0) (regles_limites/calculs.py:{line_of(CALCULATORS, '_exit(0)')})",
        ),
    ],
)
def test_a_call_that_fails_names_the_calculator_its_module_the_limit_and_the_line(
    rules: RulesProcess, name: str, reason: str
) -> None:
    with pytest.raises(RulesCallError) as raised:
        rules.run_json(name, "{}")
    assert str(raised.value).startswith(CALLED.format(name) + reason), str(raised.value)
    # The calculators that work still answer (in a process started anew after os._exit).
    assert rules.run_json("bon", "{}") == OK


def test_a_table_is_carried_whole_and_a_wrong_one_is_named(rules: RulesProcess) -> None:
    table = rules.table("bonne")
    assert (table.caption, table.headers, table.rows) == ("Bonne", ["Valeur"], [["1"], ["2"]])
    with pytest.raises(RulesCallError, match=r"table « enorme » .* fait 20,1 Mo, plus que la"):
        rules.table("enorme")
    with pytest.raises(RulesCallError, match=r"table « nombres » .* 1 n’est pas un texte"):
        rules.table("nombres")
    assert rules.catalog()[0]["id"] == "dice" and "bonne" in rules.table_ids()


def test_each_block_of_a_call_past_a_limit_is_an_error_at_its_line(rules_root: Path) -> None:
    # The same calculator placed twice: both blocks say so, its time spent once per build.
    package = rules_root / "regles_limites"
    build = new_build(rules_root, calculators=package, rules_limits=SHORT_CALL)
    blocks = ["```calculateur boucle", "```calculateur boucle", "```table nombres"]
    _, problems = render(build, "# P\n\n" + "\n```\n\n".join(blocks) + "\n```\n")
    build.abandon()
    kinds = {Kind.CALCULATOR_WITHOUT_RESULT, Kind.TABLE_WITHOUT_RESULT}
    failed = [p for p in problems if p.kind in kinds]
    assert [(p.line, p.kind, p.subject) for p in failed] == [
        (3, Kind.CALCULATOR_WITHOUT_RESULT, "boucle"),
        (6, Kind.CALCULATOR_WITHOUT_RESULT, "boucle"),
        (9, Kind.TABLE_WITHOUT_RESULT, "nombres"),
    ]
    assert "pour ses valeurs par défaut : toujours en calcul après 1 s" in failed[1].message


def test_the_limits_are_settings_with_wide_defaults_and_french_mistakes(tmp_path: Path) -> None:
    plugin = ReglesPlugin()
    errors, _ = plugin.load_config({}, str(tmp_path / "mkdocs.yml"))
    assert errors == []
    limits = plugin.config.rules_limits
    assert (limits.import_seconds, limits.call_seconds, limits.result_kb) == (30, 10, 1000)
    options = {"rules_limits": {"call_seconds": 0.5, "result_kb": 20}}
    errors, _ = ReglesPlugin().load_config(options, str(tmp_path / "mkdocs.yml"))
    assert errors == []
    for wrong in (0, -1, "dix", True):
        options = {"rules_limits": {"import_seconds": wrong}}
        errors, _ = ReglesPlugin().load_config(options, str(tmp_path / "mkdocs.yml"))
        assert [key for key, _ in errors] == ["rules_limits"], wrong
        assert "un nombre de secondes plus grand que zéro est attendu" in str(errors[0][1])


def site(root: Path, rules_code: str, page: str, limits: str = "") -> Path:
    """A site of one page and a rules package `regles_site` whose module is `rules_code`."""
    package(root, "regles_site", {"calculs": rules_code})
    (root / "content").mkdir()
    (root / "content" / "index.md").write_text(page, "utf-8")
    config = root / "mkdocs.yml"
    config.write_text(
        "site_name: Limites\ndocs_dir: content\ntheme:\n  name: material\n  language: fr\n"
        "plugins:\n  - regles:\n      calculators: regles_site\n"
        f"      node_modules: {NODE_MODULES}\n      snapshot: false\n{limits}",
        "utf-8",
    )
    return config


PAGE = """# Accueil

Un calculateur qui ne finit pas.

```calculateur boucle
```

Une table trop grosse.

```table grande
```
"""


def test_the_build_lists_each_call_past_its_limit_at_its_block(tmp_path: Path) -> None:
    # A second for the loop; the 2 MB table is made well within it, even on a busy machine.
    limits = "      rules_limits:\n        call_seconds: 1\n        result_kb: 100\n"
    config = site(tmp_path, CALCULATORS, PAGE, limits)
    result = build_site(tmp_path / "out", config)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "2 erreur(s) dans les sources" in output
    assert (
        "index.md:5 [boucle]: calculateur « boucle » (module regles_site.calculs), pour ses "
        "valeurs par défaut : toujours en calcul après 1 s (limite : réglage "
        "rules_limits.call_seconds du greffon regles) ; arrêté à "
        f"regles_site/calculs.py:{line_of(CALCULATORS, 'while')}"
    ) in output
    assert (
        "index.md:10 [grande]: table « grande » (module regles_site.calculs) : son résultat "
        "fait 2 Mo, plus que la limite de 100 Ko"
    ) in output
    assert "Traceback" not in output


def test_the_build_names_the_file_and_line_a_module_raises_at(tmp_path: Path) -> None:
    config = site(tmp_path, "x = 1\n\nraise ValueError('introuvable')\n", "# Accueil\n\nTexte.\n")
    result = build_site(tmp_path / "out", config)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        "regles_site/calculs.py:3: le module « regles_site.calculs » ne s’importe pas : "
        "ValueError: introuvable"
    ) in output
    assert "Traceback" not in output
