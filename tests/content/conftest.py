"""Tests of this site's content, not of the generator: the pages built from mkdocs.yml and
content/, compared with the owner's source documents (tests/content/sources/).

A game master who puts their own game in content/ replaces or deletes this folder; every
other test checks the generator on its own test site (tests/site/) and passes whatever
content/ holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, built_site, free_port, serve

CONTENT_SITE = ROOT / "mkdocs.yml"
SOURCES = Path(__file__).resolve().parent / "sources"
CONTENT_PORT = free_port()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This site, built from mkdocs.yml (instead of the generator's test site)."""
    return built_site(tmp_path_factory, CONTENT_SITE, CONTENT_PORT)


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    server, url = serve(site_dir, CONTENT_PORT)
    yield url + "/"
    server.shutdown()
