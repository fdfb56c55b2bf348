"""Cross-links: « Section » references, italic mentions, table directions, quick links."""
