"""A way back: every address a generated page has had leads to where it is now."""
