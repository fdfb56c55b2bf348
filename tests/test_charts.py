"""The bar charts of the laws of chances, as the build writes them
(regles/features/calculators/charts.py):
their bars are the exact law the calculator gives, put in ranges when there are many
totals, the threshold's bars highlighted, with a table of every value."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import pytest

from regles.features.calculators.charts import MAX_BARS, chart_html, small_percent
from regles.features.calculators.forms import widget_form
from regles.kit.dice import distribution, parse
from tests.conftest import rules_of_test_site

RULES = rules_of_test_site()  # tests/site/regles_essai: a chart of each kind, and the dice's
CATALOG = {str(e["id"]): e for e in RULES.catalog()}
RECT = re.compile(r"<rect ([^>]*)>")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def chart_of(calc_id: str, inputs: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    entry = CATALOG[calc_id]
    output = next(o for o in entry["outputs"] if "chart" in o)
    outputs = RULES.run(calc_id, inputs)
    return chart_html(output["chart"], outputs[output["name"]], outputs), outputs


def bars(markup: str) -> list[dict[str, str]]:
    return [dict(ATTRIBUTE.findall(attributes)) for attributes in RECT.findall(markup)]


def table_rows(markup: str) -> list[str]:
    return re.findall(r'<tr(?: class="graphique-seuil")?><th scope="row">([^<]*)</th>', markup)


def exact_law(expression: str) -> dict[int, Fraction]:
    law = distribution(parse(expression))
    return {total: Fraction(ways, law.total_ways) for total, ways in law.ways}


def test_each_total_is_a_bar_of_its_exact_chance() -> None:
    markup, _ = chart_of("dice", {"expression": "8d6", "target": 30})
    law = exact_law("8d6")
    drawn = bars(markup)
    assert [int(b["data-de"]) for b in drawn] == sorted(law)
    assert [float(b["data-p"]) for b in drawn] == [float(law[t]) for t in sorted(law)]
    # Heights in proportion to the chances (to the hundredth the drawing is rounded to).
    tallest = max(drawn, key=lambda b: float(b["data-p"]))
    ratio = float(tallest["height"]) / float(tallest["data-p"])
    for bar in drawn:
        assert abs(float(bar["height"]) - float(bar["data-p"]) * ratio) <= 0.01
    highlighted = [int(b["data-de"]) for b in drawn if "barre-seuil" in b["class"]]
    assert highlighted == list(range(30, 49))
    assert "38\u00a0% d’obtenir au moins 30" in markup
    assert table_rows(markup) == [str(t) for t in sorted(law)]


def test_many_totals_are_put_in_round_ranges_starting_at_the_threshold() -> None:
    markup, outputs = chart_of("dice", {"expression": "100d20", "target": 1100})
    law = exact_law("100d20")
    drawn = bars(markup)
    assert len(drawn) <= MAX_BARS
    widths = {int(b["data-a"]) - int(b["data-de"]) + 1 for b in drawn}
    assert len(widths) == 1 and widths.pop() in (5, 10, 20, 25, 50)
    # A range starts at the threshold: its bars are highlighted, those before are not.
    assert any(int(b["data-de"]) == 1100 for b in drawn)
    for bar in drawn:
        low, high = int(bar["data-de"]), int(bar["data-a"])
        inside = [t for t in sorted(law) if low <= t <= high]
        assert float(bar["data-p"]) == pytest.approx(float(sum(law[t] for t in inside)), abs=1e-15)
        assert ("barre-seuil" in bar["class"]) == (low >= 1100)
    # The tails left out hold almost nothing, and the note says which totals they are.
    shown = sum(float(b["data-p"]) for b in drawn)
    assert 0.999 <= shown <= 1 + 1e-9
    assert "Hors du graphique : de 100 à" in markup
    # The table lists every total, the chart or not.
    assert len(table_rows(markup)) == len(law) == 1901
    assert outputs["p_at_least"] == float(sum(p for t, p in law.items() if t >= 1100))


def test_axis_ticks_are_at_round_values() -> None:
    for expression in ("8d6", "100d20", "3d6x10", "1d100-50"):
        markup, _ = chart_of("dice", {"expression": expression})
        axis = re.search(r'<g class="graphique-axe">(.*?)</g>', markup)
        assert axis is not None
        labels = [
            int(t.replace("\u202f", ""))
            for t in re.findall(r">(-?[\d\u202f]+)</text>", axis.group(1))
        ]
        assert 2 <= len(labels) <= 8, (expression, labels)
        step = labels[1] - labels[0]
        assert all(b - a == step for a, b in itertools.pairwise(labels))
        assert any(step % r == 0 for r in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500))
        assert all(v % step == 0 for v in labels) or step == 1, (expression, labels)


def test_outcomes_are_bars_with_their_labels() -> None:
    markup, outputs = chart_of("survie", {"successes": 1, "failures": 2})
    law = outputs["outcomes"]
    drawn = bars(markup)
    assert [float(b["data-p"]) for b in drawn] == law["p"]
    assert ["barre-seuil" in b["class"] for b in drawn] == law["highlight"]
    assert table_rows(markup) == law["labels"]
    spec = next(o["chart"] for o in CATALOG["survie"]["outputs"] if "chart" in o)
    assert spec["chance_text"] in markup
    assert f'role="img" aria-label="Graphique en barres : {law["labels"][0]}' in markup


def test_totals_from_a_threshold_on_are_highlighted_with_the_chance() -> None:
    markup, outputs = chart_of("volonte", {"wounded": "below_half"})
    law = outputs["will_gap"]
    drawn = bars(markup)
    assert [int(b["data-de"]) for b in drawn] == law["totals"]
    assert [float(b["data-p"]) for b in drawn] == law["p"]
    lit = [int(b["data-de"]) for b in drawn if "barre-seuil" in b["class"]]
    assert lit == [t for t in law["totals"] if t >= outputs["control_gap"]] != []
    assert lit != law["totals"]  # some bars are below the threshold
    assert outputs["p_control"] == pytest.approx(
        sum(p for t, p in zip(law["totals"], law["p"], strict=True) if t >= outputs["control_gap"])
    )
    assert "que l’épée prenne le contrôle" in markup


def test_the_build_writes_the_defaults_chart_in_the_form() -> None:
    charted = [c for c, e in CATALOG.items() if any("chart" in o for o in e["outputs"])]
    assert {"dice", "survie", "volonte"} <= set(charted)
    for calc_id in charted:
        entry = CATALOG[calc_id]
        inputs = {"seed": 0} if any(i["name"] == "seed" for i in entry["inputs"]) else {}
        outputs = RULES.run(calc_id, inputs)
        form = widget_form(entry, outputs)
        name = next(o["name"] for o in entry["outputs"] if "chart" in o)
        value = outputs[name]
        drawn = bars(form)
        keys = value.get("totals") or value.get("labels")
        assert len(drawn) == len(keys) and [float(b["data-p"]) for b in drawn] == value["p"]
        assert f'data-graphique="{name}"' in form and "<details" in form


def test_no_value_no_chart() -> None:
    # No die rolled: the outcome is certain, the calculator gives no law to draw.
    markup, outputs = chart_of("volonte", {"alignments_differ": False, "wounded": "healthy"})
    assert outputs["will_gap"] is None and outputs["p_control"] in (0, 1)
    assert markup == ""


def test_an_even_die_in_ranges_is_drawn_even() -> None:
    # 1d100 in ranges of 5: 1 to 5 … 96 to 100, each 5 %, not 0 to 4 (4 %) … 100 alone (1 %),
    # which would draw an even die uneven; without a threshold, as with one inside.
    for inputs in ({"expression": "1d100"}, {"expression": "1d100", "target": 51}):
        markup, _ = chart_of("dice", inputs)
        drawn = bars(markup)
        assert [(int(b["data-de"]), int(b["data-a"])) for b in drawn] == [
            (low, low + 4) for low in range(1, 101, 5)
        ], inputs
        assert [float(b["data-p"]) for b in drawn] == pytest.approx([0.05] * 20)


def test_the_table_gives_the_chance_of_reaching_a_total_and_of_staying_under_it() -> None:
    # A game that rolls under a score (« 3d6 sous 12 ») reads the last column.
    markup, _ = chart_of("dice", {"expression": "3d6"})
    head = re.findall(r'<th scope="col">([^<]*)</th>', markup)
    assert head[-2:] == ["Au moins autant", "Au plus autant"]
    law = exact_law("3d6")
    row = re.search(r'<th scope="row">12</th>((?:<td>[^<]*</td>)+)</tr>', markup)
    assert row is not None
    cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
    at_least = sum(p for total, p in law.items() if total >= 12)
    at_most = sum(p for total, p in law.items() if total <= 12)
    assert (at_least, at_most) == (Fraction(81, 216), Fraction(160, 216))
    assert cells == [small_percent(float(law[12])), "37,5\u00a0%", "74,1\u00a0%"]


def at_most_chart(expression: str, target: int) -> str:
    """The dice calculator's chart of `expression`, its threshold one not to go over."""
    spec = next(o["chart"] for o in CATALOG["dice"]["outputs"] if "chart" in o)
    spec = {**spec, "at_most": True, "chance": "p_at_most", "chance_text": "au plus {threshold}"}
    outputs = RULES.run("dice", {"expression": expression, "target": target})
    law = outputs["distribution"]
    outputs["p_at_most"] = sum(
        p for t, p in zip(law["totals"], law["p"], strict=True) if t <= target
    )
    return chart_html(spec, law, outputs)


def test_with_at_most_the_totals_up_to_the_threshold_are_highlighted() -> None:
    # A game that rolls under a score: 3d6 under 12 succeeds on 3 to 12.
    markup = at_most_chart("3d6", 12)
    lit = [int(b["data-de"]) for b in bars(markup) if "barre-seuil" in b["class"]]
    assert lit == list(range(3, 13))
    marked = re.findall(r'<tr class="graphique-seuil"><th scope="row">([^<]*)</th>', markup)
    assert marked == [str(t) for t in range(3, 13)]
    assert "74,1\u00a0% au plus 12" in markup
    # In ranges, one ends at the threshold: 1d100 under 45 lights 1–5 … 41–45.
    ranged = bars(at_most_chart("1d100", 45))
    assert [(b["data-de"], b["data-a"]) for b in ranged if "barre-seuil" in b["class"]] == [
        (str(low), str(low + 4)) for low in range(1, 42, 5)
    ]


# Ten outcomes named as a d100 table names its rows.
TENTHS = {
    "labels": [f"{10 * k + 1:02d}–{10 * k + 10:02d}".replace("91–100", "91–00") for k in range(10)],
    "p": [0.1] * 10,
    "highlight": [k < 3 for k in range(10)],
}


def test_outcome_labels_that_would_touch_are_given_every_second_bar() -> None:
    # At ten bars, « 01–10 », « 11–20 »… ran into each other (« 01–1011–2021–30… »).
    markup = chart_html({"x_label": "Tirage"}, TENTHS, {})
    axis = re.search(r'<g class="graphique-axe">(.*?)</g>', markup)
    assert axis is not None
    shown = re.findall(r">([^<]+)</text>", axis.group(1))
    assert shown == TENTHS["labels"][::2]
    assert table_rows(markup) == TENTHS["labels"]  # the table names them all
    # Short labels keep one each.
    few = {"labels": ["Mort", "Stable", "Debout"], "p": [0.2, 0.3, 0.5], "highlight": []}
    axis = re.search(r'<g class="graphique-axe">(.*?)</g>', chart_html({}, few, {}))
    assert axis is not None and re.findall(r">([^<]+)</text>", axis.group(1)) == few["labels"]
