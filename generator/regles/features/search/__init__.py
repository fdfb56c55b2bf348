"""The search index: one Pagefind record per section and per entry."""
