/* Bar charts of the laws of chances the calculators give: the twin of features/calculators/charts.py,
 * which writes the same SVG into the page at build time for the default inputs. Both do the
 * same floating-point operations in the same order, so they write the same markup
 * (tests/test_charts_browser.py compares them). Numbers are written by the page's French
 * formatters, passed in (`format`: rules.format of rules.js), the twins of
 * features/calculators/formatting.py. */

const SVG = "http://www.w3.org/2000/svg";
const NBSP = "\u00a0";
const MAX_BARS = 48;
const TAIL = 0.0005;
const WIDTH = 320;
const HEIGHT = 210;
const BAR_MOST = 48;
const [X0, X1, Y0, Y1] = [46, 314, 42, 160];
const CHANCE_STEPS = [
  0.0001, 0.0002, 0.00025, 0.0005, 0.001, 0.002, 0.0025, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0,
];
const ROUND = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000];
const ROUND_STEPS = [...ROUND, ...ROUND.slice(1).map((s) => s * 10000)];

const round = (value) => Math.floor(value * 100 + 0.5) / 100;
const num = (value) => String(round(value));
const ceilDiv = (a, b) => -Math.floor(-a / b) + 0; // + 0: never -0, which is written "-0"
const gcd = (a, b) => {
  [a, b] = [Math.abs(a), Math.abs(b)];
  while (b) [a, b] = [b, a % b];
  return a;
};

function node(tag, attributes, ...children) {
  const element = document.createElementNS(tag === "svg" || SVG_TAGS.has(tag) ? SVG : "http://www.w3.org/1999/xhtml", tag);
  for (const [name, value] of attributes) element.setAttribute(name, String(value));
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    element.append(child);
  }
  return element;
}
const SVG_TAGS = new Set(["g", "rect", "line", "text", "title"]);

function smallPercent(p, format) {
  if (p > 0 && p < 0.0005) return "<" + NBSP + format.percent(0.001);
  return format.percent(p);
}

function ranges(totals, p, threshold) {
  const low = totals[0];
  const high = totals[totals.length - 1];
  let step = 0;
  for (const total of totals.slice(1)) step = gcd(step, total - low);
  step = step || 1;
  let width = 0;
  let start = 0;
  let count = 0;
  for (const multiple of ROUND_STEPS.slice(1)) {
    width = step * multiple;
    if (threshold !== null && low < threshold && threshold <= high) {
      start = threshold - width * ceilDiv(threshold - low, width);
    } else if ((high - low + step) % width === 0) {
      start = low; // ranges all full (1d100: 1 to 5 … 96 to 100), as charts.py says
    } else {
      start = Math.floor(low / width) * width;
    }
    count = Math.floor((high - start) / width) + 1;
    if (count <= MAX_BARS) break;
  }
  const chances = new Array(count).fill(0);
  totals.forEach((total, i) => {
    chances[Math.floor((total - start) / width)] += p[i];
  });
  return { width, start, chances };
}

/** Whether the totals `low` … `high` of a bar are on the threshold's side: from it on, or up
 * to it (`atMost`, a game that rolls under a score). */
const marked = (low, high, threshold, atMost) =>
  threshold !== null && (atMost ? high <= threshold : low >= threshold);

// What a character of an outcome's label takes (charts.py's LABEL_CHAR): where labels would
// run into each other, every second (third…) bar is labelled.
const LABEL_CHAR = 7.5;
function labelled(bars, slot) {
  const longest = Math.max(...bars.map((b) => [...b.label].length));
  const every = Math.max(1, Math.ceil((longest * LABEL_CHAR + 4) / slot));
  const chosen = [];
  for (let i = 0; i < bars.length; i += every) chosen.push(i);
  return chosen;
}

/** The bars of a chart's value (kit/schema.py `Chart`), null if it has none; those on the
 * threshold's side highlighted (`marked`). */
export function chartLayout(value, threshold, atMost = false) {
  const p = (value.p || []).map(Number);
  if (!p.length) return null;
  if (Array.isArray(value.labels)) {
    const marks = value.highlight || [];
    const bars = value.labels.map((label, i) => ({ lo: null, hi: null, label: String(label), p: p[i], highlight: Boolean(marks[i]) }));
    return { bars, width: 0, start: 0, hidden: [], hiddenP: 0, shown: [0, 0] };
  }
  const totals = (value.totals || []).map(Number);
  let first = 0;
  let last = totals.length;
  let lowP = 0;
  let highP = 0;
  if (last > MAX_BARS) {
    while (first < last - 1 && lowP + p[first] <= TAIL) lowP += p[first++];
    while (last - 1 > first && highP + p[last - 1] <= TAIL) highP += p[--last];
  }
  const hidden = [];
  if (first > 0) hidden.push([totals[0], totals[first - 1]]);
  if (last < totals.length) hidden.push([totals[last], totals[totals.length - 1]]);
  const shown = totals.slice(first, last);
  const chances = p.slice(first, last);
  const ends = [shown[0], shown[shown.length - 1]];
  if (shown.length <= MAX_BARS) {
    const bars = shown.map((t, i) => ({ lo: t, hi: t, label: null, p: chances[i], highlight: marked(t, t, threshold, atMost) }));
    return { bars, width: 0, start: 0, hidden, hiddenP: lowP + highP, shown: ends };
  }
  // A range starts at the threshold, or just after it when the bars up to it are marked.
  const edge = threshold !== null && atMost ? threshold + 1 : threshold;
  const { width, start, chances: ranged } = ranges(shown, chances, edge);
  // The ranges drawn take in the totals of the tails that fall in them.
  const end = start + ranged.length * width;
  while (first > 0 && totals[first - 1] >= start) first--;
  while (last < totals.length && totals[last] < end) last++;
  lowP = p.slice(0, first).reduce((a, b) => a + b, 0);
  highP = p.slice(last).reduce((a, b) => a + b, 0);
  hidden.length = 0;
  if (first > 0) hidden.push([totals[0], totals[first - 1]]);
  if (last < totals.length) hidden.push([totals[last], totals[totals.length - 1]]);
  ranged.fill(0);
  for (let i = first; i < last; i++) ranged[Math.floor((totals[i] - start) / width)] += p[i];
  const drawn = [totals[first], totals[last - 1]];
  const bars = ranged.map((c, i) => ({
    lo: start + i * width,
    hi: start + i * width + width - 1,
    label: null,
    p: c,
    highlight: marked(Math.max(start + i * width, drawn[0]), Math.min(start + i * width + width - 1, drawn[1]), threshold, atMost),
  }));
  return { bars, width, start, hidden, hiddenP: lowP + highP, shown: drawn };
}

function chanceStep(highest) {
  for (const step of CHANCE_STEPS) if (Math.ceil(highest / step) <= 4) return step;
  return 1.0;
}

function ticks(values, most) {
  if (values.length <= most) return values.map((_, i) => i);
  for (const step of ROUND_STEPS) {
    const chosen = [];
    values.forEach((v, i) => {
      if (v % step === 0) chosen.push(i);
    });
    if (chosen.length <= most) {
      if (chosen.length >= 2) return chosen;
      break;
    }
  }
  const every = ceilDiv(values.length, most);
  const chosen = [];
  for (let i = 0; i < values.length; i += every) chosen.push(i);
  return chosen;
}

function roundValues(low, high, width) {
  for (const step of ROUND_STEPS) {
    if (step < width) continue;
    const values = [];
    for (let v = ceilDiv(low, step) * step; v <= high; v += step) values.push(v);
    if (values.length <= 6) return values;
  }
  return [low];
}

function barLabel(bar, format) {
  if (bar.label !== null) return bar.label;
  if (bar.lo === bar.hi) return format.number(bar.lo);
  return `de ${format.number(bar.lo)} à ${format.number(bar.hi)}`;
}

const isNumber = (v) => typeof v === "number";

function chanceLine(spec, outputs, format) {
  const chance = spec.chance ? outputs[spec.chance] : null;
  if (!isNumber(chance)) return null;
  const threshold = outputs[spec.threshold || ""];
  let text = String(spec.chance_text || "");
  if (isNumber(threshold)) text = text.replaceAll("{threshold}", format.number(threshold));
  return `${format.percent(chance)} ${text}`.trim();
}

function summary(spec, layout, chance, format) {
  const { bars } = layout;
  let text;
  if (bars[0].label !== null) {
    text = `Graphique en barres : ${bars.map((b) => `${b.label} ${smallPercent(b.p, format)}`).join(", ")}.`;
  } else {
    let best = bars[0];
    for (const bar of bars) if (bar.p > best.p) best = bar;
    const kind = layout.width ? `, par tranches de ${format.number(layout.width)}` : "";
    text =
      `Graphique en barres, ${spec.x_label || ""} de ${format.number(layout.shown[0])} à ` +
      `${format.number(layout.shown[1])}${kind} ; le plus probable : ${barLabel(best, format)} (${smallPercent(best.p, format)}).`;
  }
  return chance ? `${text} ${chance}.` : text;
}

function drawSvg(spec, layout, chance, format) {
  const { bars } = layout;
  const highest = Math.max(...bars.map((b) => b.p));
  const step = chanceStep(highest);
  const count = Math.max(1, Math.ceil(highest / step));
  const top = count * step;
  const parts = [];
  if (chance) parts.push(node("text", [["class", "graphique-chance"], ["x", 4], ["y", 16]], chance));
  const grid = [];
  for (let k = 0; k <= count; k++) {
    const y = num(Y1 - ((k * step) / top) * (Y1 - Y0));
    grid.push(node("line", [["x1", X0], ["x2", X1], ["y1", y], ["y2", y]]));
    grid.push(
      node(
        "text",
        [["x", X0 - 4], ["y", num(Y1 - ((k * step) / top) * (Y1 - Y0) + 4)], ["text-anchor", "end"]],
        format.percent(k * step),
      ),
    );
  }
  parts.push(node("g", [["class", "graphique-grille"]], ...grid));
  const slot = (X1 - X0) / bars.length;
  const gap = Math.max(slot >= 6 ? slot * 0.2 : slot >= 3 ? 1 : 0, slot - BAR_MOST); // few bars: centred
  const rects = [];
  bars.forEach((bar, i) => {
    const height = (bar.p / top) * (Y1 - Y0);
    const attributes = [
      ["class", bar.highlight ? "barre barre-seuil" : "barre"],
      ["x", num(X0 + i * slot + gap / 2)],
      ["y", num(Y1 - height)],
      ["width", num(slot - gap)],
      ["height", num(height)],
      ["data-p", String(bar.p)],
    ];
    if (bar.lo !== null) attributes.push(["data-de", bar.lo], ["data-a", bar.hi]);
    rects.push(node("rect", attributes, node("title", [], `${barLabel(bar, format)} : ${smallPercent(bar.p, format)}`)));
    if (slot >= 40) {
      rects.push(
        node(
          "text",
          [["class", "graphique-valeur"], ["x", num(X0 + (i + 0.5) * slot)], ["y", num(Y1 - height - 4)], ["text-anchor", "middle"]],
          smallPercent(bar.p, format),
        ),
      );
    }
  });
  parts.push(node("g", [["class", "graphique-barres"]], ...rects));
  const axis = [node("line", [["x1", X0], ["x2", X1], ["y1", Y1], ["y2", Y1]])];
  let marks;
  if (layout.width) {
    const span = bars.length * layout.width;
    marks = roundValues(layout.start, layout.start + span, layout.width).map((v) => [v, X0 + ((v - layout.start) / span) * (X1 - X0)]);
  } else {
    const chosen = bars[0].label !== null ? labelled(bars, slot) : ticks(bars.map((b) => b.lo), 8);
    marks = chosen.map((i) => [i, X0 + (i + 0.5) * slot]);
  }
  for (const [key, x] of marks) {
    const label = layout.width ? format.number(key) : barLabel(bars[key], format);
    axis.push(node("line", [["x1", num(x)], ["x2", num(x)], ["y1", Y1], ["y2", Y1 + 3]]));
    axis.push(node("text", [["x", num(x)], ["y", Y1 + 15], ["text-anchor", "middle"]], label));
  }
  parts.push(node("g", [["class", "graphique-axe"]], ...axis));
  let xTitle = String(spec.x_label || "");
  if (layout.width) xTitle += ` (par tranches de ${format.number(layout.width)})`;
  parts.push(node("text", [["class", "graphique-titre"], ["x", Math.floor((X0 + X1) / 2)], ["y", HEIGHT - 4], ["text-anchor", "middle"]], xTitle));
  parts.push(node("text", [["class", "graphique-titre"], ["x", X0 - 4], ["y", Y0 - 12], ["text-anchor", "end"]], String(spec.y_label || "Chance")));
  return node(
    "svg",
    [["class", "graphique-svg"], ["viewBox", `0 0 ${WIDTH} ${HEIGHT}`], ["role", "img"], ["aria-label", summary(spec, layout, chance, format)]],
    ...parts,
  );
}

function table(spec, value, threshold, atMost, format) {
  const p = (value.p || []).map(Number);
  const byOutcome = Array.isArray(value.labels);
  const head = [spec.x_label || "", spec.y_label || "Chance"];
  // Both ways: a game rolls to reach a total, or to stay under it (« 3d6 sous 12 »).
  if (!byOutcome) head.push("Au moins autant", "Au plus autant");
  const cells = head.map((h) => node("th", [["scope", "col"]], String(h)));
  const rows = [];
  const rowClass = (yes) => (yes ? [["class", "graphique-seuil"]] : []);
  if (byOutcome) {
    const marks = value.highlight || [];
    value.labels.forEach((label, i) => {
      rows.push(
        node("tr", rowClass(Boolean(marks[i])), node("th", [["scope", "row"]], String(label)), node("td", [], smallPercent(p[i], format))),
      );
    });
  } else {
    const totals = (value.totals || []).map(Number);
    const atLeast = new Array(p.length).fill(0);
    let acc = 0;
    for (let i = p.length - 1; i >= 0; i--) {
      acc += p[i];
      atLeast[i] = acc;
    }
    const upTo = new Array(p.length).fill(0);
    acc = 0;
    for (let i = 0; i < p.length; i++) {
      acc += p[i];
      upTo[i] = acc;
    }
    totals.forEach((total, i) => {
      rows.push(
        node(
          "tr",
          rowClass(marked(total, total, threshold, atMost)),
          node("th", [["scope", "row"]], format.number(total)),
          node("td", [], smallPercent(p[i], format)),
          node("td", [], smallPercent(Math.min(atLeast[i], 1.0), format)),
          node("td", [], smallPercent(Math.min(upTo[i], 1.0), format)),
        ),
      );
    });
  }
  const grid = node("table", [["class", "calculateur-table"]], node("thead", [], node("tr", [], ...cells)), node("tbody", [], ...rows));
  const scroll = node("div", [["class", "graphique-defile"], ["tabindex", "0"], ["role", "region"], ["aria-label", "Tableau des chances"]], grid);
  return node("details", [["class", "graphique-donnees"]], node("summary", [], "Tableau des chances"), scroll);
}

function note(layout, format) {
  if (!layout.hidden.length) return null;
  const spans = layout.hidden.map(([a, b]) => (a !== b ? `de ${format.number(a)} à ${format.number(b)}` : format.number(a))).join(" et ");
  return `Hors du graphique : ${spans}, ${smallPercent(layout.hiddenP, format)} en tout (voir le tableau).`;
}

/** The chart of an output's value (a figure: the SVG, its note and its table of every
 * value), null if there is none for these inputs. `spec` is the output's `chart` in the
 * catalogue; `outputs` the calculator's answer, for the threshold and the chance. */
export function drawChart(spec, value, outputs, format) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const raw = outputs[spec.threshold || ""];
  const threshold = Number.isInteger(raw) ? raw : null;
  const atMost = spec.at_most === true;
  const layout = chartLayout(value, threshold, atMost);
  if (!layout) return null;
  const chance = chanceLine(spec, outputs, format);
  const text = note(layout, format);
  return node(
    "figure",
    [["class", "graphique"]],
    drawSvg(spec, layout, chance, format),
    text ? node("figcaption", [["class", "graphique-note"]], text) : null,
    table(spec, value, threshold, atMost, format),
  );
}

/** A small bar-chart icon (the « Chances » button of the inline dice), hidden from assistive
 * tools: the button has its words. */
export function barsIcon() {
  return node(
    "svg",
    [["viewBox", "0 0 16 16"], ["aria-hidden", "true"], ["focusable", "false"]],
    node("rect", [["x", 1], ["y", 9], ["width", 3], ["height", 6]]),
    node("rect", [["x", 6.5], ["y", 3], ["width", 3], ["height", 12]]),
    node("rect", [["x", 12], ["y", 6], ["width", 3], ["height", 9]]),
  );
}
