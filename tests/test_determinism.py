"""Two builds of the same sources give the same files, byte for byte.

Dates come from the sources: MkDocs dates the sitemap from SOURCE_DATE_EPOCH, which the
Makefile exports from the last commit. Both builds here get the same fixed value, and the
same site_url, each into its own temporary folder. The first makes anew what the build cache keeps
of its pages (`KEPT_RESULTS` removed from it: French spacing, print targets, dice buttons,
typo suggestions); the second takes what the first kept.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from pathlib import Path

import pytest

from regles.core.build import SPACING_CACHE
from regles.features.calculators.feature import DICE_CACHE
from regles.features.links.feature import SUGGESTIONS_CACHE
from regles.features.printing.feature import TARGETS_CACHE
from tests.conftest import ROOT, build_site

# 2027-01-01T00:00:00Z: any fixed value will do, it only has to be the same for both.
EPOCH = 1798761600
TEST_SITE_CACHE = ROOT / "build" / "cache-essai"  # tests/site/mkdocs.yml's cache_dir
KEPT_RESULTS = (SPACING_CACHE, TARGETS_CACHE, DICE_CACHE, SUGGESTIONS_CACHE)


# Pagefind 1.5 writes its filter index (and the metadata naming those files) in an order
# that changes from run to run for the same records: those files, and their lines in the
# service worker's precache list, are left out of the comparison. Everything else must match.
# (The service worker's version is a digest of its whole list, so it is left out with them.)
PAGEFIND_UNSTABLE = re.compile(
    r"^pagefind/(?:filter/.*\.pf_filter|pagefind\.[^/]*\.pf_meta|pagefind-entry\.json)$"
)
SW_UNSTABLE = (b'"pagefind/filter/', b".pf_meta", b"pagefind-entry.json", b'  "version": ')


def _bytes(site: Path, relative: str) -> bytes:
    data = (site / relative).read_bytes()
    if relative == "sw.js":
        data = b"\n".join(
            line for line in data.split(b"\n") if not any(part in line for part in SW_UNSTABLE)
        )
    return data


def digests(site: Path) -> dict[str, str]:
    relatives = (
        path.relative_to(site).as_posix() for path in sorted(site.rglob("*")) if path.is_file()
    )
    return {
        relative: hashlib.sha256(_bytes(site, relative)).hexdigest()
        for relative in relatives
        if not PAGEFIND_UNSTABLE.match(relative)
    }


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    sites = []
    for name in KEPT_RESULTS:
        (TEST_SITE_CACHE / name).unlink(missing_ok=True)
    for name in ("premiere", "seconde"):
        destination = tmp_path_factory.mktemp(name)
        result = build_site(
            destination,
            site_url="http://127.0.0.1:8000/",
            env={"SOURCE_DATE_EPOCH": str(EPOCH)},
        )
        if result.returncode != 0:
            pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")
        sites.append(destination)
        assert all((TEST_SITE_CACHE / kept).is_file() for kept in KEPT_RESULTS)
    return sites[0], sites[1]


def test_two_builds_give_identical_files(two_builds: tuple[Path, Path]) -> None:
    first, second = (digests(site) for site in two_builds)
    only_first = sorted(set(first) - set(second))
    only_second = sorted(set(second) - set(first))
    differing = sorted(p for p in set(first) & set(second) if first[p] != second[p])
    assert not (only_first or only_second or differing), (
        "deux constructions des mêmes sources diffèrent :\n"
        + "".join(f"  seulement dans la première : {p}\n" for p in only_first)
        + "".join(f"  seulement dans la seconde : {p}\n" for p in only_second)
        + "".join(f"  contenu différent : {p}\n" for p in differing)
    )


def test_sitemap_dates_come_from_source_date_epoch(two_builds: tuple[Path, Path]) -> None:
    day = datetime.datetime.fromtimestamp(EPOCH, tz=datetime.UTC).date().isoformat()
    sitemap = (two_builds[0] / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{day}</lastmod>" in sitemap
    assert sitemap.count("<lastmod>") == sitemap.count(f"<lastmod>{day}</lastmod>")


def test_the_makefile_exports_source_date_epoch_from_the_last_commit() -> None:
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    assert "export SOURCE_DATE_EPOCH" in makefile
    assert "git log -1 --format=%ct" in makefile
