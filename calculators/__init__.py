"""Calculateurs de règles du site (D&D 5e, OSE, PMT Lankhmar, règle maison) en Python pur.

This site's rules package, written with the generator's kit (`regles.kit`): each module
offers its `CALCULATORS`, `TABLES` and `NOTES`, found by `discover`; the dice roller comes
from the kit.
"""

from __future__ import annotations

from regles.kit import discover

__all__ = ["catalog", "rules", "run", "run_json"]

rules = discover(__name__)
run = rules.run
run_json = rules.run_json
catalog = rules.catalog
