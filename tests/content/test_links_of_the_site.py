"""This site's links, as a reader follows them: LinkChecker on the site built from
mkdocs.yml finds no broken internal link nor anchor (the same check as the generator's, on
its test site: tests/test_linkcheck.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_linkcheck import test_no_broken_internal_link_or_anchor as check_links


@pytest.mark.site
def test_no_broken_internal_link_or_anchor(site_dir: Path, site_url: str) -> None:
    check_links(site_dir, site_url)
