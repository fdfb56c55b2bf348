"""Bar charts of the laws of chances the calculators give (an output with a `chart` in the
catalogue, kit/schema.py `Chart`), written as SVG at build time for the default
inputs; theme/assets/js/charts.js is its twin, which draws the same markup in the
browser for the reader's inputs (tests/test_charts_browser.py compares both, element by
element). Only this site's code: a bar chart is a few rectangles, lines and words, and the
build, which has no JavaScript, must draw it too.

Both sides compute with the same floating-point operations in the same order (sums of the
chances, coordinates rounded to hundredths by floor(v × 100 + 0.5) / 100, steps read from
the same decimal literals), so they write the same numbers.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from regles.features.calculators.formatting import NBSP, format_number, format_percent, js_string

__all__ = ["MAX_BARS", "Bar", "chart_html", "chart_layout", "small_percent"]

# At most this many bars: some 5 px each on a phone. More totals are put in ranges.
MAX_BARS = 48
# With more totals than bars, the tails that hold at most this chance (on each side) are
# left out of the chart (the table lists them): 100d20 is a spike in 1,901 totals otherwise.
TAIL = 0.0005
# The chart's drawing, in the SVG's own units (it is scaled to the width of the page).
WIDTH, HEIGHT = 320, 210
X0, X1, Y0, Y1 = 46, 314, 42, 160  # the plot area: left, right, top, baseline
BAR_MOST = 48  # the widest bar
# What a character of an outcome's label takes at the chart's 13 px text (a digit is the
# widest, some 0.56 em): where labels would run into each other (« 01–1011–20… » at ten
# bars), every second (third…) bar is labelled, and the table names them all.
LABEL_CHAR = 7.5
# Steps of the chance axis (decimal literals, read alike by Python and JavaScript).
CHANCE_STEPS = (
    0.0001,
    0.0002,
    0.00025,
    0.0005,
    0.001,
    0.002,
    0.0025,
    0.005,
    0.01,
    0.02,
    0.025,
    0.05,
    0.1,
    0.2,
    0.25,
    0.5,
    1.0,
)
# Round steps of the totals (ranges and axis ticks).
_ROUND = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
ROUND_STEPS: tuple[int, ...] = _ROUND + tuple(s * 10000 for s in _ROUND[1:])


@dataclass(frozen=True)
class Bar:
    """One bar: the totals lo … hi (one total: lo == hi; an outcome: its label), its chance."""

    lo: int | None
    hi: int | None
    label: str | None
    p: float
    highlight: bool


@dataclass(frozen=True)
class Layout:
    bars: tuple[Bar, ...]
    width: int  # totals per bar when put in ranges; 0 when each bar is one value
    start: int  # the first range's first total (ranges only)
    hidden: tuple[tuple[int, int], ...]  # the ranges of totals left out of the chart
    hidden_p: float
    shown: tuple[int, int]  # the first and last totals drawn


def _round(value: float) -> float:
    return math.floor(value * 100 + 0.5) / 100


def _num(value: float) -> str:
    return js_string(_round(float(value)))


def small_percent(p: float) -> str:
    """A chance as the page writes it, « < 0,1 % » for one that is not 0 but rounds to it."""
    if 0 < p < 0.0005:
        return "<" + NBSP + format_percent(0.001)
    return format_percent(p)


def _sum(values: Sequence[float]) -> float:
    """Added up in order, as JavaScript does (Python's `sum` compensates, since 3.12)."""
    total = 0.0
    for value in values:
        total += value
    return total


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _ranges(
    totals: Sequence[int], p: Sequence[float], threshold: int | None
) -> tuple[int, int, list[float]]:
    """Totals put in ranges of a round width: (width, first total of the first range, the
    chance of each range). A threshold inside the totals starts a range; else the ranges
    start at a round total, unless the lowest one starts ranges that are all full (1d100:
    1 to 5 … 96 to 100, not 0 to 4 … 100 alone, which would draw an even die uneven)."""
    low, high = totals[0], totals[-1]
    step = 0
    for offset in totals[1:]:
        step = math.gcd(step, offset - low)
    step = step or 1
    for multiple in ROUND_STEPS[1:]:
        width = step * multiple
        if threshold is not None and low < threshold <= high:
            start = threshold - width * _ceil_div(threshold - low, width)
        elif (high - low + step) % width == 0:
            start = low
        else:
            start = (low // width) * width
        count = (high - start) // width + 1
        if count <= MAX_BARS:
            break
    chances = [0.0] * count
    for total, chance in zip(totals, p, strict=True):
        chances[(total - start) // width] += chance
    return width, start, chances


def _marked(low: int, high: int, threshold: int | None, at_most: bool) -> bool:
    """Whether the totals `low` … `high` of a bar are on the threshold's side: from it on,
    or up to it (`at_most`, a game that rolls under a score)."""
    if threshold is None:
        return False
    return high <= threshold if at_most else low >= threshold


def chart_layout(
    value: Mapping[str, Any], threshold: int | None, at_most: bool = False
) -> Layout | None:
    """The bars of a chart's value (kit/schema.py `Chart`), None if it has none; those on
    the threshold's side highlighted (`_marked`)."""
    p = [float(v) for v in value.get("p") or []]
    if not p:
        return None
    labels = value.get("labels")
    if isinstance(labels, list):
        marks = value.get("highlight") or []
        bars = tuple(
            Bar(None, None, str(label), chance, bool(marks[i]) if i < len(marks) else False)
            for i, (label, chance) in enumerate(zip(labels, p, strict=True))
        )
        return Layout(bars, 0, 0, (), 0.0, (0, 0))
    totals = [int(v) for v in value.get("totals") or []]
    first, last = 0, len(totals)
    low_p = high_p = 0.0
    if last > MAX_BARS:
        while first < last - 1 and low_p + p[first] <= TAIL:
            low_p += p[first]
            first += 1
        while last - 1 > first and high_p + p[last - 1] <= TAIL:
            high_p += p[last - 1]
            last -= 1
    hidden = []
    if first > 0:
        hidden.append((totals[0], totals[first - 1]))
    if last < len(totals):
        hidden.append((totals[last], totals[-1]))
    shown, chances = totals[first:last], p[first:last]
    if len(shown) <= MAX_BARS:
        bars = tuple(
            Bar(t, t, None, c, _marked(t, t, threshold, at_most))
            for t, c in zip(shown, chances, strict=True)
        )
        return Layout(bars, 0, 0, tuple(hidden), low_p + high_p, (shown[0], shown[-1]))
    # A range starts at the threshold, or just after it when the bars up to it are marked.
    edge = threshold + 1 if threshold is not None and at_most else threshold
    width, start, ranged = _ranges(shown, chances, edge)
    # The ranges drawn take in the totals of the tails that fall in them.
    end = start + len(ranged) * width
    while first > 0 and totals[first - 1] >= start:
        first -= 1
    while last < len(totals) and totals[last] < end:
        last += 1
    low_p, high_p = _sum(p[:first]), _sum(p[last:])
    hidden = [(totals[0], totals[first - 1])] if first > 0 else []
    if last < len(totals):
        hidden.append((totals[last], totals[-1]))
    ranged = [0.0] * len(ranged)
    for total, chance in zip(totals[first:last], p[first:last], strict=True):
        ranged[(total - start) // width] += chance
    shown = totals[first:last]
    bars = tuple(
        Bar(
            start + i * width,
            start + i * width + width - 1,
            None,
            c,
            _marked(
                max(start + i * width, shown[0]),
                min(start + i * width + width - 1, shown[-1]),
                threshold,
                at_most,
            ),
        )
        for i, c in enumerate(ranged)
    )
    return Layout(bars, width, start, tuple(hidden), low_p + high_p, (shown[0], shown[-1]))


def _chance_step(highest: float) -> float:
    for step in CHANCE_STEPS:
        if math.ceil(highest / step) <= 4:
            return step
    return 1.0


def _ticks(values: Sequence[int], most: int) -> list[int]:
    """The indices of the values labelled on the axis: at most `most`, at round values."""
    if len(values) <= most:
        return list(range(len(values)))
    for step in ROUND_STEPS:
        chosen = [i for i, v in enumerate(values) if v % step == 0]
        if len(chosen) <= most:
            if len(chosen) >= 2:
                return chosen
            break
    every = _ceil_div(len(values), most)
    return list(range(0, len(values), every))


def _el(tag: str, attributes: Sequence[tuple[str, object]], *children: str) -> str:
    attrs = "".join(f' {name}="{html.escape(str(v), quote=True)}"' for name, v in attributes)
    return f"<{tag}{attrs}>{''.join(children)}</{tag}>"


def _text(value: str) -> str:
    return html.escape(value, quote=False)


def _bar_label(bar: Bar) -> str:
    if bar.label is not None:
        return bar.label
    if bar.lo == bar.hi:
        return format_number(float(bar.lo or 0))
    return f"de {format_number(float(bar.lo or 0))} à {format_number(float(bar.hi or 0))}"


def _chance_line(spec: Mapping[str, Any], outputs: Mapping[str, object]) -> str | None:
    name = spec.get("chance")
    chance = outputs.get(name) if name else None
    if not isinstance(chance, int | float) or isinstance(chance, bool):
        return None
    threshold = outputs.get(spec.get("threshold") or "")
    text = str(spec.get("chance_text") or "")
    if isinstance(threshold, int | float) and not isinstance(threshold, bool):
        text = text.replace("{threshold}", format_number(float(threshold)))
    return f"{format_percent(float(chance))} {text}".strip()


def _summary(spec: Mapping[str, Any], layout: Layout, chance: str | None) -> str:
    bars = layout.bars
    if bars[0].label is not None:
        parts = ", ".join(f"{b.label} {small_percent(b.p)}" for b in bars)
        text = f"Graphique en barres : {parts}."
    else:
        best = bars[0]
        for bar in bars:
            if bar.p > best.p:
                best = bar
        kind = f", par tranches de {format_number(layout.width)}" if layout.width else ""
        text = (
            f"Graphique en barres, {spec.get('x_label', '')} de "
            f"{format_number(float(layout.shown[0]))} à {format_number(float(layout.shown[1]))}"
            f"{kind} ; le plus probable : {_bar_label(best)} ({small_percent(best.p)})."
        )
    return f"{text} {chance}." if chance else text


def _svg(spec: Mapping[str, Any], layout: Layout, chance: str | None) -> str:
    bars = layout.bars
    highest = max(b.p for b in bars)
    step = _chance_step(highest)
    count = max(1, math.ceil(highest / step))
    top = count * step
    parts: list[str] = []
    if chance:
        parts.append(
            _el("text", [("class", "graphique-chance"), ("x", 4), ("y", 16)], _text(chance))
        )
    grid = []
    for k in range(count + 1):
        y = _num(Y1 - (k * step) / top * (Y1 - Y0))
        grid.append(_el("line", [("x1", X0), ("x2", X1), ("y1", y), ("y2", y)]))
        grid.append(
            _el(
                "text",
                [
                    ("x", X0 - 4),
                    ("y", _num(Y1 - (k * step) / top * (Y1 - Y0) + 4)),
                    ("text-anchor", "end"),
                ],
                _text(format_percent(k * step)),
            )
        )
    parts.append(_el("g", [("class", "graphique-grille")], *grid))
    slot = (X1 - X0) / len(bars)
    gap = slot * 0.2 if slot >= 6 else (1 if slot >= 3 else 0)
    gap = max(gap, slot - BAR_MOST)  # few bars: not wider than BAR_MOST, centred
    rects = []
    for i, bar in enumerate(bars):
        height = bar.p / top * (Y1 - Y0)
        attributes: list[tuple[str, object]] = [
            ("class", "barre barre-seuil" if bar.highlight else "barre"),
            ("x", _num(X0 + i * slot + gap / 2)),
            ("y", _num(Y1 - height)),
            ("width", _num(slot - gap)),
            ("height", _num(height)),
            ("data-p", js_string(bar.p)),
        ]
        if bar.lo is not None:
            attributes += [("data-de", bar.lo), ("data-a", bar.hi)]
        title = _el("title", [], _text(f"{_bar_label(bar)} : {small_percent(bar.p)}"))
        rects.append(_el("rect", attributes, title))
        if slot >= 40:
            rects.append(
                _el(
                    "text",
                    [
                        ("class", "graphique-valeur"),
                        ("x", _num(X0 + (i + 0.5) * slot)),
                        ("y", _num(Y1 - height - 4)),
                        ("text-anchor", "middle"),
                    ],
                    _text(small_percent(bar.p)),
                )
            )
    parts.append(_el("g", [("class", "graphique-barres")], *rects))
    axis = [_el("line", [("x1", X0), ("x2", X1), ("y1", Y1), ("y2", Y1)])]
    if layout.width:
        span = len(bars) * layout.width
        marks = [
            (v, X0 + (v - layout.start) / span * (X1 - X0))
            for v in _round_values(layout.start, layout.start + span, layout.width)
        ]
    else:
        if bars[0].label is not None:
            longest = max(len(b.label or "") for b in bars)
            every = max(1, math.ceil((longest * LABEL_CHAR + 4) / slot))
            chosen = list(range(0, len(bars), every))
        else:
            chosen = _ticks([b.lo or 0 for b in bars], 8)
        marks = [(i, X0 + (i + 0.5) * slot) for i in chosen]
    for key, x in marks:
        label = format_number(float(key)) if layout.width else _bar_label(bars[key])
        axis.append(_el("line", [("x1", _num(x)), ("x2", _num(x)), ("y1", Y1), ("y2", Y1 + 3)]))
        axis.append(
            _el("text", [("x", _num(x)), ("y", Y1 + 15), ("text-anchor", "middle")], _text(label))
        )
    parts.append(_el("g", [("class", "graphique-axe")], *axis))
    x_title = str(spec.get("x_label", ""))
    if layout.width:
        x_title += f" (par tranches de {format_number(layout.width)})"
    parts.append(
        _el(
            "text",
            [
                ("class", "graphique-titre"),
                ("x", (X0 + X1) // 2),
                ("y", HEIGHT - 4),
                ("text-anchor", "middle"),
            ],
            _text(x_title),
        )
    )
    parts.append(
        _el(
            "text",
            [("class", "graphique-titre"), ("x", X0 - 4), ("y", Y0 - 12), ("text-anchor", "end")],
            _text(str(spec.get("y_label", "Chance"))),
        )
    )
    return _el(
        "svg",
        [
            ("class", "graphique-svg"),
            ("viewBox", f"0 0 {WIDTH} {HEIGHT}"),
            ("role", "img"),
            ("aria-label", _summary(spec, layout, chance)),
        ],
        *parts,
    )


def _round_values(low: int, high: int, width: int) -> list[int]:
    """Round totals from `low` to `high` for the axis of ranges: at most six."""
    for step in ROUND_STEPS:
        if step < width:
            continue
        first = _ceil_div(low, step) * step
        values = list(range(first, high + 1, step))
        if len(values) <= 6:
            return values
    return [low]


def _table(
    spec: Mapping[str, Any], value: Mapping[str, Any], threshold: int | None, at_most: bool
) -> str:
    p = [float(v) for v in value.get("p") or []]
    labels = value.get("labels")
    by_outcome = isinstance(labels, list)
    keys = [str(v) for v in labels] if isinstance(labels, list) else None
    totals = [int(v) for v in value.get("totals") or []] if keys is None else []
    head = [spec.get("x_label", ""), spec.get("y_label", "Chance")]
    if not by_outcome:
        # Both ways: a game rolls to reach a total, or to stay under it (« 3d6 sous 12 »).
        head += ["Au moins autant", "Au plus autant"]
    cells = "".join(_el("th", [("scope", "col")], _text(str(h))) for h in head)
    rows = []
    if keys is not None:
        marks = value.get("highlight") or []
        for i, (label, chance) in enumerate(zip(keys, p, strict=True)):
            marked = i < len(marks) and bool(marks[i])
            rows.append(
                _el(
                    "tr",
                    [("class", "graphique-seuil")] if marked else [],
                    _el("th", [("scope", "row")], _text(label)),
                    _el("td", [], _text(small_percent(chance))),
                )
            )
    else:
        at_least = [0.0] * len(p)
        acc = 0.0
        for i in range(len(p) - 1, -1, -1):
            acc += p[i]
            at_least[i] = acc
        up_to = [0.0] * len(p)
        acc = 0.0
        for i in range(len(p)):
            acc += p[i]
            up_to[i] = acc
        for total, chance, above, below in zip(totals, p, at_least, up_to, strict=True):
            marked = _marked(total, total, threshold, at_most)
            rows.append(
                _el(
                    "tr",
                    [("class", "graphique-seuil")] if marked else [],
                    _el("th", [("scope", "row")], _text(format_number(float(total)))),
                    _el("td", [], _text(small_percent(chance))),
                    _el("td", [], _text(small_percent(min(above, 1.0)))),
                    _el("td", [], _text(small_percent(min(below, 1.0)))),
                )
            )
    table = _el(
        "table",
        [("class", "calculateur-table")],
        _el("thead", [], _el("tr", [], cells)),
        _el("tbody", [], *rows),
    )
    scroll = [("class", "graphique-defile"), ("tabindex", "0"), ("role", "region")]
    return _el(
        "details",
        [("class", "graphique-donnees")],
        _el("summary", [], "Tableau des chances"),
        _el("div", [*scroll, ("aria-label", "Tableau des chances")], table),
    )


def _note(layout: Layout) -> str | None:
    parts = []
    if layout.hidden:
        spans = " et ".join(
            f"de {format_number(float(a))} à {format_number(float(b))}"
            if a != b
            else format_number(float(a))
            for a, b in layout.hidden
        )
        parts.append(
            f"Hors du graphique : {spans}, {small_percent(layout.hidden_p)} en tout "
            "(voir le tableau)."
        )
    return " ".join(parts) or None


def chart_html(spec: Mapping[str, Any], value: object, outputs: Mapping[str, object]) -> str:
    """The chart of an output's value (the figure, its note and its table), "" if it has
    no value (the calculator draws none for these inputs)."""
    if not isinstance(value, Mapping):
        return ""
    raw = outputs.get(spec.get("threshold") or "")
    threshold = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
    at_most = spec.get("at_most") is True
    layout = chart_layout(value, threshold, at_most)
    if layout is None:
        return ""
    chance = _chance_line(spec, outputs)
    note = _note(layout)
    caption = _el("figcaption", [("class", "graphique-note")], _text(note)) if note else ""
    return _el(
        "figure",
        [("class", "graphique")],
        _svg(spec, layout, chance),
        caption,
        _table(spec, value, threshold, at_most),
    )
