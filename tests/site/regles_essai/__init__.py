"""The rules package of the generator's test site (tests/site/mkdocs.yml: `calculators:`).

A small game of its own, written with the kit (`regles.kit`) as a game master writes theirs:
each module offers its `CALCULATORS` (and `TABLES`, `NOTES`), found by `discover`, after the
kit's dice roller. Its calculators are the test site's, and together they use every kind of
field, output and chart the generator's tests check; this site's own rules (calculators/)
are not the generator's tests' business.
"""

from regles.kit import discover

__all__ = ["catalog", "rules", "run"]

rules = discover(__name__)
run, catalog = rules.run, rules.catalog
