"""Réglages communs des tests des calculateurs : import du paquet et documents sources."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SEEDS = ROOT / "tests" / "content" / "sources"  # the owner's documents, worked examples

# The package must be importable from the checkout itself, whatever the
# working directory and whether or not it is installed in the venv.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _seed_lines(prefix: str) -> list[str]:
    matches = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    assert matches, f"document source {prefix}_* introuvable dans {SEEDS}"
    return matches[0].read_text(encoding="utf-8").splitlines()


@pytest.fixture
def seed_lines() -> Callable[[str], list[str]]:
    """Lines of the source document whose file name starts with a prefix ("003")."""
    return _seed_lines
