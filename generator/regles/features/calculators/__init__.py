"""Calculators in the pages: forms, charts, dice buttons, and Python for the browser."""
