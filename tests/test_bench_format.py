"""Smoke test of `make bench`'s pure part: medians, paired ratios, goals, French numbers, table.
The benchmarks themselves never run under `make test`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import builds
from bench.lighthouse import LighthouseRun, good_runs, median_run, median_scores, timings
from bench.project import BuildSample, EntrySource
from bench.report import (
    NA,
    Goal,
    Row,
    fmt_bytes,
    fmt_duration,
    fmt_number,
    fmt_ratio,
    fmt_scores,
    median,
    paired_ratio,
    render_table,
    same_page,
    section,
)

NBSP = "\u00a0"


def test_median_and_paired_ratio() -> None:
    assert median([]) is None
    assert median([3.0, 1.0, 2.0]) == 2.0
    # Pair by pair: (2/1, 9/3, 4/4) → median 2, not median(ours) / median(baseline).
    assert paired_ratio([2.0, 9.0, 4.0], [1.0, 3.0, 4.0]) == 2.0
    assert paired_ratio([1.0], [0.0]) is None
    assert paired_ratio([], []) is None


def test_french_numbers() -> None:
    assert fmt_number(1234.5, 1, "ms") == f"1{NBSP}234,5{NBSP}ms"
    assert fmt_number(-0.001, 1) == "0,0"
    assert fmt_number(None) == NA
    assert fmt_ratio(0.456) == "0,46×"
    assert fmt_bytes(223_456) == f"223{NBSP}Ko"
    assert fmt_bytes(1_500) == f"1,5{NBSP}Ko"
    assert fmt_bytes(0) == f"0{NBSP}Ko"
    assert fmt_bytes(18_800_000) == f"18,8{NBSP}Mo"
    assert fmt_duration(427) == f"7{NBSP}min{NBSP}07{NBSP}s"
    assert fmt_scores([0.59, 1.0, None]) == "0,59 / 1,00 / n/a"


def test_goals() -> None:
    assert Goal("max", 300_000, "").met(223_000, None) is True
    assert Goal("min", 0.95, "").met(0.9, None) is False
    assert Goal("ratio_max", 1.5, "").met(10.0, 1.6) is False
    assert Goal("ratio_max", 1.5, "").met(10.0, None) is None


def test_rows_and_table() -> None:
    row = Row.measured(
        "Construction", 6.0, 3.0, decimals=2, unit="s", goal=Goal("ratio_max", 1.5, "≤ 1,5×")
    )
    assert row.cells() == (
        "Construction",
        f"6,00{NBSP}s",
        f"3,00{NBSP}s",
        "2,00×",
        "≤ 1,5×",
        "NON",
    )
    missing = Row.measured("Recherche", None, 2.0, na_reason="n/a (pas encore)")
    assert missing.ours == "n/a (pas encore)" and missing.ratio == "—"
    table = render_table([section("Construction"), row, missing]).splitlines()
    assert table[0].startswith("| mesure ") and table[1].startswith("| ---")
    assert table[2].startswith("| **Construction**")
    assert len({len(line) for line in table}) == 1  # padded: every line has the same width


def test_same_page() -> None:
    root = "http://127.0.0.1:8000/"
    assert same_page("http://127.0.0.1:8000/dnd5e/combat/#initiative", "dnd5e/combat/", root)
    assert same_page("/dnd5e/combat/index.html", "/dnd5e/combat", root)
    assert not same_page("http://127.0.0.1:8000/dnd5e/actions/", "dnd5e/combat/", root)
    # An expected anchor must be the hit's anchor (tests/content/search_queries.py's rule).
    assert same_page("/dnd5e/combat/#abri", "dnd5e/combat/#abri", root)
    assert not same_page("/dnd5e/combat/", "dnd5e/combat/#abri", root)


def test_a_rebuild_ends_on_either_line_mkdocs_serve_prints() -> None:
    from bench.builds import BUILT

    built = BUILT.search("INFO    -  Documentation built in 2.44 seconds")
    assert built is not None and built["seconds"] == "2.44"
    # MkDocs drops a repeated "Documentation built" message; this line always follows.
    reload = BUILT.search("INFO    -  [20:01:22] Reloading browsers")
    assert reload is not None and reload["seconds"] is None
    assert BUILT.search("INFO    -  Building documentation...") is None
    # The same lines as our plugin has MkDocs say them (regles/mkdocs_words.py).
    built = BUILT.search("INFO    -  Site construit en 2,44 s")
    assert built is not None and built["seconds"] == "2,44"
    reload = BUILT.search("INFO    -  [20:01:22] Pages ouvertes rechargées")
    assert reload is not None and reload["seconds"] is None
    assert BUILT.search("INFO    -  Construction du site…") is None


def _run(performance: float | None, seo: float = 1.0, error: str | None = None) -> LighthouseRun:
    scores = {} if error else {"performance": performance, "accessibility": 1.0, "seo": seo}
    return LighthouseRun("http://x/", 10.0, scores=scores, error=error)


def test_lighthouse_medians_over_runs() -> None:
    runs = [_run(0.91, seo=0.9), _run(0.97), _run(0.94), _run(None, error="arrêté")]
    made = good_runs(runs)
    assert len(made) == 3  # the failed run is left out
    # Per category: performance 0.94 (of .91, .97, .94), best practices absent from every run.
    assert median_scores(made) == [0.94, 1.0, None, 1.0]
    assert median_run(made).scores["performance"] == 0.94
    # An even count: the lower of the two middle runs, so the audits listed are a bad run's.
    assert median_run(made[:2]).scores["performance"] == 0.91


def test_a_runs_timings_and_a_first_paint_the_browser_held_back() -> None:
    # The metrics audit as Lighthouse 12.2.3 writes it (a run of this bench, trimmed).
    report = {
        "audits": {
            "metrics": {
                "details": {
                    "type": "debugdata",
                    "items": [
                        {
                            "totalBlockingTime": 316.5,
                            "observedFirstPaint": 1183,
                            "observedLoad": 386,
                            "speedIndex": 2322,
                        },
                        {"lcpInvalidated": False},
                    ],
                }
            }
        }
    }
    assert timings(report) == (316.5, 1183.0, 386.0)
    assert timings({"audits": {}}) == (None, None, None)
    late = LighthouseRun("http://x/", 10.0, blocking_ms=316.5, first_paint_ms=1183, load_ms=386)
    assert late.late_first_paint
    usual = LighthouseRun("http://x/", 10.0, first_paint_ms=167, load_ms=410)
    assert not usual.late_first_paint  # painted before the load ended: the usual case
    assert not LighthouseRun("http://x/", 10.0).late_first_paint


def test_the_entry_export_is_built_ten_times_over_in_two_rounds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built: list[str] = []

    def fake_build(config: Path, destination: Path, *, strict: bool) -> BuildSample:
        built.append(config.stem)
        return BuildSample(wall=0.0, cpu=float(len(built)))

    monkeypatch.setattr(builds, "timed_build", fake_build)
    monkeypatch.setattr(builds, "count_entries", lambda text: 4220)
    configs = {k: tmp_path / f"mkdocs-{k}.yml" for k in ("0", "1", "10")}
    source = EntrySource(tmp_path / "sorts.txt", "", 422, "Magie", "magie")
    result = builds.entry_scaling(configs, tmp_path, source, "", builds.Budget(60))
    assert len(result.rounds) == 9  # the pair, repeated while the budget allows
    assert [sorted(r) for r in result.rounds[:3]] == [["0", "1", "10"]] * 2 + [["0", "1"]]
    assert built.count("mkdocs-10") == 2
