"""A game system's glossary: its entries, the links to them, their previews."""
