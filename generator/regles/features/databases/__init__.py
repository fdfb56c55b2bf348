"""A database: its export read, its pages, its ids, its terms."""
