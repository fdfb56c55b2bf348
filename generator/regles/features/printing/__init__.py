"""Paper: print pages per system, link targets written out, print styles."""
