"""Pure part of the benchmark: medians, paired ratios, goals, French numbers and the table.

No I/O here: `tests/test_bench_format.py` checks it in milliseconds.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urljoin, urlsplit

__all__ = [
    "HEADERS",
    "NA",
    "Goal",
    "Row",
    "fmt_bytes",
    "fmt_duration",
    "fmt_number",
    "fmt_ratio",
    "fmt_scores",
    "median",
    "paired_ratio",
    "render_table",
    "same_page",
    "section",
    "verdict",
]

HEADERS = ("mesure", "nous", "référence", "rapport", "objectif", "atteint ?")
NA = "n/a"
NBSP = "\u00a0"  # thousands separator that never breaks a number in two
KILO = 1000  # Ko = 1 000 octets, Mo = 1 000 000 octets (the stricter reading of « 300 KB »)


def median(samples: Sequence[float]) -> float | None:
    """Median of the samples, None when there are none."""
    return float(statistics.median(samples)) if samples else None


def paired_ratio(ours: Sequence[float], baseline: Sequence[float]) -> float | None:
    """Median of ours[i] / baseline[i], pair by pair (runs interleaved so that each pair saw
    the same machine load). Pairs with a zero or missing baseline are left out."""
    ratios = [o / b for o, b in zip(ours, baseline, strict=False) if b > 0]
    return median(ratios)


def same_page(url: str, expected: str, root: str) -> bool:
    """Whether a search hit is the expected result (the rule of
    tests/content/search_queries.py): the same page, paths taken from the site root `root`
    (`index.html` and a final slash aside); when `expected` has an anchor, the hit must have
    that anchor too."""

    def split(address: str) -> tuple[str, str]:
        parts = urlsplit(urljoin(root, address))
        path, base = parts.path, urlsplit(root).path
        if path.startswith(base):
            path = path[len(base) :]
        path = path.lstrip("/")
        if path.endswith("index.html"):
            path = path[: -len("index.html")]
        return path.rstrip("/"), parts.fragment

    page, anchor = split(url)
    wanted_page, wanted_anchor = split(expected.lstrip("/"))
    return page == wanted_page and (not wanted_anchor or anchor == wanted_anchor)


def fmt_number(value: float | None, decimals: int = 0, unit: str = "") -> str:
    """French formatting: decimal comma, non-breaking space between thousands."""
    if value is None:
        return NA
    text = f"{value:,.{decimals}f}".replace(",", NBSP).replace(".", ",")
    if text.startswith("-") and not any(c in "123456789" for c in text):
        text = text[1:]  # "-0,0" is noise, not a sign
    return f"{text}{NBSP}{unit}" if unit else text


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return NA
    return fmt_number(ratio, 2) + "×"


def fmt_bytes(size: float | None) -> str:
    """Ko below a megabyte, Mo above (1 Ko = 1 000 octets)."""
    if size is None:
        return NA
    if size >= KILO * KILO:
        return fmt_number(size / (KILO * KILO), 1, "Mo")
    return fmt_number(size / KILO, 0 if size >= 10 * KILO or size == 0 else 1, "Ko")


def fmt_duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}{NBSP}min{NBSP}{rest:02d}{NBSP}s" if minutes else f"{rest}{NBSP}s"


def fmt_scores(scores: Sequence[float | None]) -> str:
    """Lighthouse scores as « 0,59 / 0,87 / 0,96 / 1,00 »."""
    return " / ".join(fmt_number(s, 2) for s in scores)


@dataclass(frozen=True)
class Goal:
    """What « good » means for one figure.

    kind: "max" (ours ≤ value), "min" (ours ≥ value), "ratio_max" (ours / baseline ≤ value).
    """

    kind: Literal["max", "min", "ratio_max"]
    value: float
    text: str

    def met(self, ours: float | None, ratio: float | None) -> bool | None:
        measured = ratio if self.kind == "ratio_max" else ours
        if measured is None:
            return None
        if self.kind == "min":
            return measured >= self.value
        return measured <= self.value


def verdict(met: bool | None) -> str:
    return {True: "oui", False: "NON", None: NA}[met]


@dataclass(frozen=True)
class Row:
    """One line of the table, already formatted."""

    figure: str
    ours: str
    baseline: str = "—"
    ratio: str = "—"
    goal: str = "—"
    met: str = "—"
    is_section: bool = False

    @classmethod
    def measured(
        cls,
        figure: str,
        ours: float | None,
        baseline: float | None = None,
        *,
        fmt: str = "number",
        decimals: int = 0,
        unit: str = "",
        ratio: float | None = None,
        goal: Goal | None = None,
        na_reason: str | None = None,
    ) -> Row:
        """A row from raw figures; `ratio` defaults to ours / baseline when both exist."""

        def show(value: float | None) -> str:
            if value is None:
                return na_reason or NA
            if fmt == "bytes":
                return fmt_bytes(value)
            return fmt_number(value, decimals, unit)

        if ratio is None and ours is not None and baseline:
            ratio = ours / baseline
        return cls(
            figure,
            show(ours),
            show(baseline) if baseline is not None else "—",
            fmt_ratio(ratio) if ratio is not None else "—",
            goal.text if goal else "—",
            verdict(goal.met(ours, ratio)) if goal else "—",
        )

    def cells(self) -> tuple[str, str, str, str, str, str]:
        if self.is_section:
            return (f"**{self.figure}**", "", "", "", "", "")
        return (self.figure, self.ours, self.baseline, self.ratio, self.goal, self.met)


def section(title: str) -> Row:
    return Row(title, "", is_section=True)


def render_table(rows: Sequence[Row]) -> str:
    """A Markdown pipe table, padded so that it also reads well in a terminal."""
    lines = [HEADERS, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADERS))]

    def join(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return "\n".join([join(HEADERS), rule, *(join(line) for line in lines[1:])])
