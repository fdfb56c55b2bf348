"""A spell database: its export read, its pages, its ids, its terms."""
