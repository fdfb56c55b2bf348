"""Pure part of the big-game benchmark: the figures of each size, their goals and the table.

One column per size, each cell « nous / Material seul »; the goals that compare sizes (a page
at s30 against one at s1, the work of a page at s30 against s3, memory and offline text
linear) come last. No I/O here: `tests/test_bench_sizes_format.py` checks it in milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.report import NA, fmt_bytes, fmt_number, fmt_ratio, median, paired_ratio

__all__ = [
    "BUILD_GOAL",
    "GROWTH_GOAL",
    "OFFLINE_TEXT_MAX",
    "Side",
    "SizeFigures",
    "edit_goal",
    "growth",
    "marginal",
    "render_grid",
    "size_table",
]

BUILD_GOAL = 1.2  # our warm build against stock Material's, at every size
GROWTH_GOAL = 1.2  # a page at the largest size against one at the smallest; linear growth
OFFLINE_TEXT_MAX = 30_000_000  # the text stored on the phone at s10
OFFLINE_TEXT_SIZE = 10
EDIT_GOALS = ((10, 1.5), (30, 3.0))  # edit → served: up to s10, then at s30 (seconds)
HEADERS = ("mesure", "objectif", "atteint ?")
SEP = " / "


def edit_goal(factor: int) -> float:
    """Seconds allowed from an edit to the served page at a size: 1,5 s up to s10, 3 s
    above."""
    for most, seconds in EDIT_GOALS:
        if factor <= most:
            return seconds
    return EDIT_GOALS[-1][1]


@dataclass
class Side:
    """One site at one size (ours, or stock Material's), as measured; empty lists and None
    for what could not be measured."""

    walls: list[float] = field(default_factory=list)  # warm builds, seconds
    cpus: list[float] = field(default_factory=list)  # their CPU, the process tree's
    peaks: list[int] = field(default_factory=list)  # peak memory of the tree, bytes
    html_pages: int | None = None
    html_bytes: int | None = None  # every HTML file
    nav_links: float | None = None  # links in the primary navigation, per page (mean)
    site_bytes: int | None = None  # every file of the built site
    offline_text: int | None = None  # what the service worker stores before the Python
    sw_js: int | None = None
    served: list[float] = field(default_factory=list)  # edit → served page, seconds
    rebuilt: list[float] = field(default_factory=list)  # edit → served page and rebuild done
    search_first: float | None = None  # ms
    search_later: list[float] = field(default_factory=list)  # ms

    @property
    def html_per_page(self) -> float | None:
        if self.html_bytes is None or not self.html_pages:
            return None
        return self.html_bytes / self.html_pages

    @property
    def cpu_per_page(self) -> float | None:
        """Median CPU of a warm build per HTML page, seconds."""
        cpu = median(self.cpus)
        if cpu is None or not self.html_pages:
            return None
        return cpu / self.html_pages


@dataclass
class SizeFigures:
    size: str  # s1, s3…
    factor: int
    markdown_pages: int
    entries: int
    ours: Side = field(default_factory=Side)
    stock: Side = field(default_factory=Side)
    seconds: float = 0.0  # what measuring this size took
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def build_ratio(self) -> float | None:
        return paired_ratio(self.ours.walls, self.stock.walls)

    @property
    def cpu_ratio(self) -> float | None:
        return paired_ratio(self.ours.cpus, self.stock.cpus)


# Cells -------------------------------------------------------------------------------------


def _pair(ours: str, stock: str | None) -> str:
    return ours if stock is None else f"{ours}{SEP}{stock}"


def _seconds(value: float | None, decimals: int = 1) -> str:
    return fmt_number(value, decimals, "s")


def _ms(value: float | None) -> str:
    return fmt_number(value, 0, "ms")


def _slowest(samples: Sequence[float]) -> float | None:
    return max(samples) if samples else None


@dataclass(frozen=True)
class GridRow:
    figure: str
    cells: tuple[str, ...]
    goal: str = "—"
    met: str = "—"
    is_section: bool = False


def render_grid(headers: Sequence[str], rows: Sequence[GridRow]) -> str:
    """A Markdown pipe table, padded so that it also reads well in a terminal."""
    lines = [tuple(headers)]
    for row in rows:
        if row.is_section:
            lines.append((f"**{row.figure}**", *([""] * (len(headers) - 1))))
        else:
            lines.append((row.figure, *row.cells, row.goal, row.met))
    widths = [max(len(line[i]) for line in lines) for i in range(len(headers))]

    def join(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return "\n".join([join(lines[0]), rule, *(join(line) for line in lines[1:])])


def _verdict(checks: Sequence[tuple[str, bool | None]]) -> str:
    """« oui » when every size measured meets its goal, « NON (s3, s10) » naming those that
    miss it, n/a when none was measured."""
    measured = [(size, met) for size, met in checks if met is not None]
    if not measured:
        return NA
    missed = [size for size, met in measured if not met]
    return "oui" if not missed else "NON (" + ", ".join(missed) + ")"


# Growth across sizes -----------------------------------------------------------------------


def growth(
    sizes: Sequence[SizeFigures], value: Callable[[SizeFigures], float | None], base: str
) -> tuple[float | None, str, str]:
    """value(largest size) / value(`base`), and the two sizes' names; None when either is
    missing or the largest is `base` itself."""
    measured = [s for s in sizes if value(s) is not None]
    reference = next((s for s in measured if s.size == base), None)
    if reference is None or not measured or measured[-1] is reference:
        return None, measured[-1].size if measured else NA, base
    last = measured[-1]
    ours, theirs = value(last), value(reference)
    if ours is None or not theirs:
        return None, last.size, base
    return ours / theirs, last.size, base


def marginal(
    sizes: Sequence[SizeFigures], value: Callable[[SizeFigures], float | None]
) -> tuple[float | None, str]:
    """How a figure grows per Markdown page added: its increase per page between the two
    largest sizes over its increase per page between the two smallest (1 for a straight
    line, above 1 when each page costs more as the site grows); with the span compared
    (« s3→s10 / s1→s3 »). None with fewer than three sizes measured."""
    measured = [(s, v) for s in sizes if (v := value(s)) is not None]
    if len(measured) < 3:
        return None, NA
    (a, va), (b, vb) = measured[0], measured[1]
    (c, vc), (d, vd) = measured[-2], measured[-1]
    first = (vb - va) / (b.markdown_pages - a.markdown_pages)
    last = (vd - vc) / (d.markdown_pages - c.markdown_pages)
    span = f"{c.size}→{d.size} / {a.size}→{b.size}"
    if first <= 0:
        return None, span
    return last / first, span


# The table ---------------------------------------------------------------------------------


def size_table(sizes: Sequence[SizeFigures]) -> str:
    """Every size side by side, goals and verdicts included."""
    headers = ("mesure (nous / Material seul)", *(s.size for s in sizes), *HEADERS[1:])
    rows: list[GridRow] = []

    def row(
        figure: str,
        cell: Callable[[SizeFigures], str],
        goal: str = "—",
        met: Callable[[SizeFigures], bool | None] | None = None,
    ) -> None:
        verdict = _verdict([(s.size, met(s)) for s in sizes]) if met else "—"
        rows.append(GridRow(figure, tuple(cell(s) for s in sizes), goal, verdict))

    def section(title: str) -> None:
        rows.append(GridRow(title, (), is_section=True))

    section("Sites générés")
    row(
        "Pages Markdown / entrées des bases",
        lambda s: f"{fmt_number(s.markdown_pages)}{SEP}{fmt_number(s.entries)}",
    )
    row(
        "Pages HTML construites",
        lambda s: _pair(fmt_number(s.ours.html_pages), fmt_number(s.stock.html_pages)),
    )
    section("Construction complète, à chaud")
    row(
        "Temps écoulé (s, médiane)",
        lambda s: _pair(_seconds(median(s.ours.walls)), _seconds(median(s.stock.walls))),
    )
    row(
        "  rapport nous ÷ Material, temps écoulé (médiane des paires)",
        lambda s: f"{fmt_ratio(s.build_ratio)} ({_pairs(len(s.ours.walls))})",
        f"≤ {fmt_number(BUILD_GOAL, 1)}×",
        lambda s: None if s.build_ratio is None else s.build_ratio <= BUILD_GOAL,
    )
    row(
        "Temps CPU (s, médiane)",
        lambda s: _pair(_seconds(median(s.ours.cpus)), _seconds(median(s.stock.cpus))),
    )
    row(
        "  rapport nous ÷ Material, temps CPU (médiane des paires)",
        lambda s: fmt_ratio(s.cpu_ratio),
        f"≤ {fmt_number(BUILD_GOAL, 1)}×",
        lambda s: None if s.cpu_ratio is None else s.cpu_ratio <= BUILD_GOAL,
    )
    row(
        "Temps CPU par page HTML (ms)",
        lambda s: _pair(
            fmt_number(_times(s.ours.cpu_per_page, 1000), 1),
            fmt_number(_times(s.stock.cpu_per_page, 1000), 1),
        ),
    )
    row(
        "Mémoire de pointe (tous les processus, médiane)",
        lambda s: _pair(fmt_bytes(median(s.ours.peaks)), fmt_bytes(median(s.stock.peaks))),
    )
    section("Pages et site")
    row(
        "HTML par page",
        lambda s: _pair(fmt_bytes(s.ours.html_per_page), fmt_bytes(s.stock.html_per_page)),
    )
    row(
        "Liens de navigation par page",
        lambda s: _pair(fmt_number(s.ours.nav_links), fmt_number(s.stock.nav_links)),
    )
    row(
        "Site entier, brut",
        lambda s: _pair(fmt_bytes(s.ours.site_bytes), fmt_bytes(s.stock.site_bytes)),
    )
    row(
        "Texte hors ligne gardé sur le téléphone (nous)",
        lambda s: fmt_bytes(s.ours.offline_text),
        f"≤ {fmt_bytes(OFFLINE_TEXT_MAX)} à s{OFFLINE_TEXT_SIZE}",
        lambda s: (
            None
            if s.factor != OFFLINE_TEXT_SIZE or s.ours.offline_text is None
            else s.ours.offline_text <= OFFLINE_TEXT_MAX
        ),
    )
    row("sw.js (nous)", lambda s: fmt_bytes(s.ours.sw_js))
    section("mkdocs serve : modification d’une page → page servie")
    row(
        "Page servie qui la montre (s, médiane)",
        lambda s: _pair(_seconds(median(s.ours.served), 2), _seconds(median(s.stock.served), 2)),
        "≤ 1,5 s jusqu’à s10, ≤ 3 s à s30",
        lambda s: (
            None
            if median(s.ours.served) is None
            else (median(s.ours.served) or 0.0) <= edit_goal(s.factor)
        ),
    )
    row(
        "  et reconstruction finie (s, médiane)",
        lambda s: _pair(_seconds(median(s.ours.rebuilt), 2), _seconds(median(s.stock.rebuilt), 2)),
    )
    section("Recherche dans Chromium")
    row(
        "1re requête (ms)",
        lambda s: _pair(_ms(s.ours.search_first), _ms(s.stock.search_first)),
    )
    row(
        "Requêtes suivantes, médiane (ms)",
        lambda s: _pair(_ms(median(s.ours.search_later)), _ms(median(s.stock.search_later))),
    )
    row(
        "Requêtes suivantes, la plus lente (ms)",
        lambda s: _pair(_ms(_slowest(s.ours.search_later)), _ms(_slowest(s.stock.search_later))),
    )
    rows += _growth_rows(sizes)
    return render_grid(headers, rows)


def _pairs(count: int) -> str:
    return f"{count} paire{'s' if count > 1 else ''}"


def _times(value: float | None, factor: float) -> float | None:
    return None if value is None else value * factor


def _growth_rows(sizes: Sequence[SizeFigures]) -> list[GridRow]:
    """The goals that compare sizes: one row each, its figure in the column of the larger
    size compared."""
    rows = [GridRow("Croissance avec la taille (nous)", (), is_section=True)]
    names = [s.size for s in sizes]

    def add(figure: str, ratio: float | None, last: str, goal: str = "—") -> None:
        column = names.index(last) if last in names else len(names) - 1
        cells = tuple(fmt_ratio(ratio) if i == column else "" for i in range(len(names)))
        if goal == "—":
            met = "—"
        else:
            met = NA if ratio is None else ("oui" if ratio <= GROWTH_GOAL else "NON")
        rows.append(GridRow(figure, cells, goal, met))

    goal = f"≤ {fmt_number(GROWTH_GOAL, 1)}×"
    ratio, last, base = growth(sizes, lambda s: s.ours.html_per_page, "s1")
    add(f"HTML par page ÷ celui de {base}", ratio, last, goal)
    ratio, last, base = growth(sizes, lambda s: s.ours.nav_links, "s1")
    add(f"Liens de navigation par page ÷ ceux de {base}", ratio, last)
    ratio, last, base = growth(sizes, lambda s: s.ours.cpu_per_page, "s3")
    add(f"Temps CPU par page HTML ÷ celui de {base}", ratio, last, goal)
    linear = f"≤ {fmt_number(GROWTH_GOAL, 1)}× (linéaire)"
    ratio, span = marginal(sizes, lambda s: median(s.ours.peaks))
    add(f"Mémoire de pointe par page ajoutée, {span}", ratio, _last(span), linear)
    ratio, span = marginal(
        sizes, lambda s: None if s.ours.offline_text is None else float(s.ours.offline_text)
    )
    add(f"Texte hors ligne par page ajoutée, {span}", ratio, _last(span), linear)
    return rows


def _last(span: str) -> str:
    """« s3→s10 / s1→s3 » → « s10 »."""
    return span.split(" / ", 1)[0].rsplit("→", 1)[-1]
