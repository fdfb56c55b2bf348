"""Calculators, as a feature of the build: the site's rules package (package.py), its blocks
in the pages (```` ```calculateur id ````, ```` ```calculateurs ````, ```` ```table id ````,
```` ```note id ````, forms.py), the rules' dice expressions made buttons (dice_buttons.py), a
skip link to a page's first calculator (links.py), and Python for the browser (pyodide.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from regles.core.directives import Directive, DirectiveError, directive_arguments
from regles.core.markdown_text import PageText
from regles.core.report import Kind, Problem
from regles.core.site import BuildError, SiteContext
from regles.core.stages import DocumentJob, PageJob, Stages
from regles.features.assets.csp import inline_scripts
from regles.features.calculators.dice_buttons import dice_lines, prose_of, with_lines_changed
from regles.features.calculators.forms import (
    FOLD_SCRIPT,
    Followed,
    field_offers,
    markdown_table,
    note_admonition,
    start_value,
    wide_table,
    widget_form,
)
from regles.features.calculators.links import calculator_list, with_skip_link
from regles.features.calculators.memory import memory_keys
from regles.features.calculators.package import LoadedRules, RulesPackageError, load_rules
from regles.features.calculators.pyodide import PACKAGE_FOLDER, PYODIDE_FOLDER, write_runtime
from regles.features.calculators.rules_process import RulesCallError, RulesProcess
from regles.features.links.targets import href
from regles.kit import Table

__all__ = ["CalculatorsFeature", "calculator_homes"]

# In the build cache: each page's prose, and its lines with dice made buttons.
DICE_CACHE = "des-des-pages.pickle"


def calculator_homes(
    placements: Iterable[tuple[str, str]], in_system: Callable[[str], bool]
) -> dict[str, str]:
    """Each calculator's home page, from the (page, calculator id) of its blocks in the
    pages' order: the first page of a game system that places it, where its rule is
    written. A calculator placed only outside the systems (a tools page) has none."""
    homes: dict[str, str] = {}
    for page, calculator in placements:
        if in_system(page):
            homes.setdefault(calculator, page)
    return homes


class CalculatorsFeature:
    """The site's rules, imported anew at each build (`rules`), and where its pages place
    them. `groups` are a database's group pages, which place no calculator.

    A site's own rules package runs in a process of its own, within the limits of its
    settings (rules_process.py), until every page is converted; the kit's generic
    calculators, the generator's own code, run in the build's process."""

    def __init__(self, site: SiteContext, groups: Iterable[str] = ()) -> None:
        self.site = site
        self.groups = frozenset(groups)
        settings = site.settings
        self._process: RulesProcess | None = None
        try:
            if settings.calculators.exists():
                self._process = RulesProcess(
                    settings.calculators,
                    settings.rules_limits,
                    settings.project,
                    settings.cache_dir,
                )
                self.rules = LoadedRules(self._process, self._process.name, settings.calculators)
            else:
                self.rules = load_rules(settings.calculators)
        except RulesPackageError as error:
            raise BuildError(str(error)) from error
        self.catalog: dict[str, dict[str, Any]] = {
            str(entry["id"]): entry for entry in self.rules.rules.catalog()
        }
        # Where a reader's character keeps each field (the theme's characters.js).
        self.memory = memory_keys(self.catalog.values())
        self.placements: list[tuple[str, str]] = []  # (page, calculator), in the pages' order
        self._homes: dict[str, str] | None = None
        # Once per build, each calculator's default outputs and each table, or why not.
        self._defaults: dict[str, dict[str, object] | DirectiveError] = {}
        self._tables: dict[str, Table | DirectiveError] = {}

    def register(self, stages: Stages) -> None:
        stages.indexed.append(self.find_placements)
        # Dice buttons go into the linked text (after the links' passes, 30 and above).
        stages.markdown.register(self.dice, "dice", 20)
        stages.directive("calculateur", self.calculator)
        stages.directive("calculateurs", self.calculator_list)
        stages.directive("table", self.table)
        stages.directive("note", self.note)
        stages.documents.register(self.skip_link, "calculator_skip_link", 80)
        stages.inline_scripts.update(inline_scripts(FOLD_SCRIPT))
        stages.emitters.register(self.write_runtime, "calculator_runtime", 70)
        # Python (some 20 MB) is stored for offline use after every page and the search.
        stages.offline_later += [PYODIDE_FOLDER, PACKAGE_FOLDER]
        # The rules' process is done with once every page is converted, or the build failed.
        stages.converted.append(lambda site_dir: self.close())
        stages.abandon.append(self.close)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    def find_placements(self) -> list[Problem]:
        self.placements = [
            (uri, calculator)
            for uri, page in self.site.pages
            if uri not in self.groups
            for calculator in directive_arguments(page, "calculateur")
        ]
        self._homes = None
        return []

    def homes(self) -> dict[str, str]:
        """Each calculator's home page, in the reading order (known once MkDocs read the nav:
        the first page is converted after that)."""
        if self._homes is None:
            rank = {uri: i for i, uri in enumerate(self.site.reading_order)}
            placements = sorted(self.placements, key=lambda p: rank.get(p[0], len(rank)))
            systems = self.site.systems
            self._homes = calculator_homes(placements, lambda u: systems.folder_of(u) is not None)
        return self._homes

    def dice(self, page: PageText, job: PageJob) -> tuple[PageText, list[Problem]]:
        """Each dice expression of the page's prose made a button (dice_buttons.py): the
        same prose as in the last build, the same buttons."""
        changed = self.site.kept(DICE_CACHE).get(prose_of(page), dice_lines)
        return with_lines_changed(page, changed), []

    # Directives ------------------------------------------------------------------------------

    def _default_result(self, entry: dict[str, Any]) -> dict[str, object]:
        """The outputs of a calculator for the inputs its form starts from, by the rules
        package's own `run_json` (the browser's call), once per build; the draws of the dice
        are made with a fixed seed, so the page is the same at every build (and the page
        shows none)."""
        calc_id = str(entry["id"])
        if calc_id not in self._defaults:
            self._defaults[calc_id] = self._run_defaults(calc_id, entry)
        found = self._defaults[calc_id]
        if isinstance(found, DirectiveError):
            raise found
        return found

    def _run_defaults(
        self, calc_id: str, entry: dict[str, Any]
    ) -> dict[str, object] | DirectiveError:
        inputs: dict[str, object] = {}
        for spec in entry["inputs"]:
            if spec["name"] == "seed":
                inputs["seed"] = 0
            elif start_value(spec) is not None:
                inputs[spec["name"]] = start_value(spec)
        try:
            answer = json.loads(self.rules.rules.run_json(calc_id, json.dumps(inputs)))
        except RulesCallError as error:
            return DirectiveError(
                Kind.CALCULATOR_WITHOUT_RESULT,
                f"{error.what}, pour ses valeurs par défaut : {error.reason}",
            )
        if not answer.get("ok"):
            refused = answer.get("error") or {}
            return DirectiveError(
                Kind.CALCULATOR_WITHOUT_RESULT,
                f"calculateur « {calc_id} » : ses valeurs par défaut ne donnent pas de "
                f"résultat ({refused.get('message', 'erreur')})",
            )
        return dict(answer["outputs"])

    def calculator(self, directive: Directive, page: PageText) -> str:
        """A calculator's form, with the result of its starting values; placed away from its
        rule, a link to the rule first."""
        entry = self.catalog.get(directive.argument)
        if entry is None:
            raise DirectiveError(
                Kind.UNKNOWN_CALCULATOR,
                f"calculateur inconnu « {directive.argument} » ; attendu l’un de : "
                + ", ".join(sorted(self.catalog)),
            )
        try:
            offers = field_offers(entry, self.catalog, self.memory)
        except ValueError as error:
            raise DirectiveError(Kind.UNKNOWN_CALCULATOR, str(error)) from error
        memory = self.memory.get(directive.argument)
        form = widget_form(entry, self._default_result(entry), memory, offers)
        rule_page = self.homes().get(directive.argument)
        if rule_page and rule_page != directive.file:
            link = href(directive.file, rule_page, None)
            rule = f'<p class="calculateur-regle" markdown="1">[Voir la règle]({link})</p>'
            return f"{rule}\n\n{form}"
        return form

    def calculator_list(self, directive: Directive, page: PageText) -> str:
        """The list of the calculators the page places, in order."""
        placed = directive_arguments(page, "calculateur")
        entries = [self.catalog[c] for c in dict.fromkeys(placed) if c in self.catalog]
        if not entries:
            raise DirectiveError(
                Kind.EMPTY_CALCULATOR_LIST,
                "bloc « ```calculateurs » sur une page sans calculateur : il liste les "
                "blocs « ```calculateur identifiant » de sa page",
            )
        return calculator_list(entries)

    def table(self, directive: Directive, page: PageText) -> str:
        known = self.rules.rules.table_ids()
        if directive.argument not in known:
            raise DirectiveError(
                Kind.UNKNOWN_TABLE,
                f"table inconnue « {directive.argument} » ; attendu l’une de : "
                + (", ".join(known) or "aucune (le paquet des calculateurs n’en a pas)"),
            )
        computed = self._table(directive.argument)
        table = markdown_table(computed.headers, computed.rows)
        return wide_table(table, computed.key_columns, self._followed(directive, computed))

    def _table(self, table_id: str) -> Table:
        """The table the rules compute, once per build; DirectiveError if they fail."""
        if table_id not in self._tables:
            try:
                self._tables[table_id] = self.rules.rules.table(table_id)
            except RulesCallError as error:
                self._tables[table_id] = DirectiveError(Kind.TABLE_WITHOUT_RESULT, str(error))
        found = self._tables[table_id]
        if isinstance(found, DirectiveError):
            raise found
        return found

    def _followed(self, directive: Directive, table: Table) -> Followed | None:
        """Where the page finds the reader's value a table follows (`Table.follows`)."""
        follows = table.follows
        if follows is None:
            return None
        keys = self.memory.get(follows.calculator, {}).get(follows.field)
        entry = self.catalog.get(follows.calculator)
        if keys is None or entry is None:
            raise DirectiveError(
                Kind.UNKNOWN_TABLE,
                f"table « {directive.argument} » : elle suit le champ « {follows.field} » du "
                f"calculateur « {follows.calculator} », qui n’existe pas",
            )
        (spec,) = [s for s in entry["inputs"] if s["name"] == follows.field]
        return Followed(keys, dict(follows.columns), start_value(spec), spec.get("default"))

    def note(self, directive: Directive, page: PageText) -> str:
        notes = self.rules.rules.notes
        if directive.argument not in notes:
            raise DirectiveError(
                Kind.UNKNOWN_NOTE,
                f"note inconnue « {directive.argument} » ; attendu l’une de : "
                + (", ".join(sorted(notes)) or "aucune (le paquet des calculateurs n’en a pas)"),
            )
        return note_admonition(notes[directive.argument])

    # The whole document, and after every page --------------------------------------------

    def skip_link(self, document: str, job: DocumentJob) -> str:
        """A page that holds a calculator gets a skip link to it beside the theme's own."""
        return with_skip_link(document)

    def write_runtime(self, site_dir: Path) -> None:
        """The calculators' browser runtime: Pyodide, the packed package, the start snapshot."""
        settings = self.site.settings
        try:
            write_runtime(
                site_dir,
                settings.pyodide,
                self.rules,
                settings.cache_dir,
                snapshot=settings.snapshot,
            )
        except (OSError, RuntimeError) as error:
            raise BuildError(f"environnement Python du navigateur : {error}") from error
