"""Regles: a static site generator for tabletop role-playing rules in French.

A game master's site is a folder of Markdown pages, database exports and a rules package;
this package builds it with MkDocs and Material (`regles.plugin`), writes new sites
(`regles new`, `regles.cli`) and gives rules packages their kit (`regles.kit`).

Imported in the browser too, by Pyodide, for `regles.kit`: nothing here may import more
than the standard library.
"""

__version__ = "0.3.0"
