"""The rules package of a site that has none of its own: the generic calculators alone
(the dice roller, which the pages' inline dice use)."""

from .discovery import discover

__all__ = ["rules"]

rules = discover(None)
