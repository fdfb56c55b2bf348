"""Build step of the rules site: pure core modules plus a thin MkDocs plugin adapter."""
