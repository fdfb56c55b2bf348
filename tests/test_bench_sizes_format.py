"""The big games' table in `make bench` (bench/sizes_report.py) and the pure helpers it reads:
goals and verdicts per size, growth across sizes, the sizes asked for, the navigation links
counted in a page. Figures are made up here; no build, no browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.scale import nav_links, stored_text
from bench.scale_run import SizesPart, requested_sizes
from bench.sizes import size_factor
from bench.sizes_report import Side, SizeFigures, edit_goal, growth, marginal, size_table

NBSP = "\u00a0"


def figures(size: str, pages: int, *, html: int, ratio: float, served: float) -> SizeFigures:
    """A size whose figures grow with `pages`: HTML per page `html`, our build `ratio`
    times Material's, edits served in `served` seconds."""
    factor = size_factor(size)
    ours = Side(
        walls=[2.0 * factor * ratio] * 2,
        cpus=[1.0 * factor] * 2,
        peaks=[100_000_000 + pages * 1_000_000],
        html_pages=pages,
        html_bytes=pages * html,
        nav_links=float(pages),
        site_bytes=pages * html * 3,
        offline_text=pages * 200_000,
        sw_js=pages * 5_000,
        served=[served, served],
        search_first=200.0,
        search_later=[40.0, 50.0, 130.0],
    )
    stock = Side(walls=[2.0 * factor] * 2, cpus=[0.8 * factor] * 2, html_pages=pages)
    return SizeFigures(size, factor, pages, 400 * factor, ours, stock)


def rows(table: str) -> dict[str, list[str]]:
    """The table's cells by the row's first one."""
    out = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[cells[0]] = cells[1:]
    return out


def test_edit_goal_by_size() -> None:
    assert [edit_goal(f) for f in (1, 3, 10, 30, 100)] == [1.5, 1.5, 1.5, 3.0, 3.0]


def test_growth_and_marginal_cost() -> None:
    linear = [
        figures(s, p, html=90_000, ratio=1.0, served=1.0)
        for s, p in (("s1", 54), ("s3", 154), ("s10", 504))
    ]
    # Offline text and memory grow by the same amount per page added: a straight line.
    ratio, span = marginal(linear, lambda s: float(s.ours.offline_text or 0))
    assert ratio == pytest.approx(1.0) and span == "s3→s10 / s1→s3"
    # Quadratic: each page costs more as the site grows.
    ratio, _ = marginal(linear, lambda s: float(s.markdown_pages**2))
    assert ratio is not None and ratio > 3
    assert marginal(linear[:2], lambda s: 1.0) == (None, "n/a")
    assert growth(linear, lambda s: s.ours.html_per_page, "s1") == (1.0, "s10", "s1")
    assert growth(linear[:1], lambda s: s.ours.html_per_page, "s1")[0] is None
    assert growth(linear, lambda s: s.ours.cpu_per_page, "s30")[0] is None


def test_the_table_has_each_size_its_goals_and_verdicts() -> None:
    sizes = [
        figures("s1", 54, html=90_000, ratio=1.1, served=1.0),
        figures("s3", 154, html=150_000, ratio=1.1, served=1.4),
        figures("s10", 504, html=340_000, ratio=1.5, served=4.0),
    ]
    table = rows(size_table(sizes))
    header = size_table(sizes).splitlines()[0]
    assert [c.strip() for c in header.strip("|").split("|")][1:4] == ["s1", "s3", "s10"]
    assert table["Pages Markdown / entrées des bases"][:3] == [
        "54 / 400",
        "154 / 1" + NBSP + "200",
        "504 / 4" + NBSP + "000",
    ]
    build = table["rapport nous ÷ Material, temps écoulé (médiane des paires)"]
    assert build[0] == "1,10× (2 paires)"
    assert build[2].startswith("1,50×") and build[3:] == ["≤ 1,2×", "NON (s10)"]
    cpu = table["rapport nous ÷ Material, temps CPU (médiane des paires)"]
    assert cpu == ["1,25×", "1,25×", "1,25×", "≤ 1,2×", "NON (s1, s3, s10)"]
    assert table["Temps écoulé (s, médiane)"][0] == f"2,2{NBSP}s / 2,0{NBSP}s"
    served = table["Page servie qui la montre (s, médiane)"]
    assert served[3:] == ["≤ 1,5 s jusqu’à s10, ≤ 3 s à s30", "NON (s10)"]
    assert table["HTML par page"][0] == f"90{NBSP}Ko / n/a"
    offline = table["Texte hors ligne gardé sur le téléphone (nous)"]
    assert offline[2] == f"100,8{NBSP}Mo" and offline[4] == "NON (s10)"
    # Growth: in the column of the larger size compared, with its goal.
    assert table["HTML par page ÷ celui de s1"][:5] == ["", "", "3,78×", "≤ 1,2×", "NON"]
    assert table["Temps CPU par page HTML ÷ celui de s3"][2:] == ["1,02×", "≤ 1,2×", "oui"]
    memory = table["Mémoire de pointe par page ajoutée, s3→s10 / s1→s3"]
    assert memory[2:] == ["1,00×", "≤ 1,2× (linéaire)", "oui"]
    searched = table["Requêtes suivantes, la plus lente (ms)"][0]
    assert searched == f"130{NBSP}ms / n/a"


def test_a_size_not_measured_reads_na() -> None:
    empty = SizeFigures("s30", 30, 1504, 12_000)
    table = rows(size_table([empty]))
    build = table["rapport nous ÷ Material, temps écoulé (médiane des paires)"]
    assert build == ["n/a (0 paire)", "≤ 1,2×", "n/a"]
    assert table["HTML par page ÷ celui de s1"] == ["n/a", "≤ 1,2×", "n/a"]


def test_sizes_asked_for() -> None:
    assert requested_sizes(None) == (["s1", "s3", "s10"], ["s30"])
    assert requested_sizes(" s1, s30 ") == (["s1", "s30"], [])
    with pytest.raises(ValueError, match="taille inconnue"):
        requested_sizes("s1,grand")


def test_navigation_links_without_the_table_of_contents() -> None:
    page = (
        '<nav class="md-nav md-nav--primary" aria-label="Navigation">'
        '<ul><li><a href="a/">A</a></li><li><label class="md-nav__link">Section</label>'
        '<nav class="md-nav"><ul><li><a href="b/">B</a></li>'
        '<li><a href="c/">C</a><nav class="md-nav md-nav--secondary">'
        '<a href="#x">x</a><a href="#y">y</a></nav></li></ul></nav></li></ul></nav>'
        '<nav class="md-nav md-nav--secondary"><a href="#x">x</a></nav><a href="z/">Z</a>'
    )
    assert nav_links(page) == 3
    assert nav_links("<p>aucune navigation</p>") == 0


def test_a_size_is_estimated_from_how_the_last_two_grew(tmp_path: Path) -> None:
    part = SizesPart(tmp_path, [], [])
    assert part.estimate("s30") is None
    for size, seconds in (("s1", 80.0), ("s3", 160.0), ("s10", 400.0)):
        measured = SizeFigures(size, size_factor(size), 0, 0)
        measured.seconds = seconds
        part.figures.append(measured)
    # s3 → s10 grew less than the size (fixed costs): at least in proportion, 3× for s30.
    assert part.estimate("s30") == pytest.approx(1200.0)
    part.figures[-1].seconds = 160.0 * (10 / 3) ** 3  # faster than the square: the square
    assert part.estimate("s30") == pytest.approx(part.figures[-1].seconds * 9)


def test_the_offline_text_is_counted_as_the_phone_stores_it() -> None:
    # Packs whole, zipped as they came; the files of no pack as they are; nothing `later`.
    data = {
        "files": [
            {"url": "index.html", "size": 9000},  # the shell: alone
            {"url": "a/index.html", "size": 50_000, "pack": 0},
            {"url": "b/index.html", "size": 60_000, "pack": 0},
            {"url": "c/index.html", "size": 70_000, "pack": 1},
            {"url": "pyodide.wasm", "size": 9_000_000, "later": True},
        ],
        "packs": [{"url": "p0.bin", "size": 30_000}, {"url": "p1.bin", "size": 20_000}],
    }
    assert stored_text(data) == 9000 + 30_000 + 20_000
    assert stored_text({"files": [{"url": "x", "size": 5}]}) == 5  # a site without packs
