/* Numbers as the calculators show them, in French (« 1 234,5 », « 12,5 % »), with their exact
 * value a tap away, and numbers as a reader types them (« 7,5 » or « 7.5 »). */
import { rules } from "./page.js";

// French numbers as Intl.NumberFormat("fr-FR") writes them (narrow no-break space between
// thousands, decimal comma, no-break space before "%", at most `digits` decimals rounded half away from zero, on the
// shortest decimal that reads back as the number), without Intl: building an Intl formatter
// loads locale data, a long task on a slow phone for the first result of a page.
// tests/test_calculators_browser.py compares it with Intl on thousands of numbers.
const NNBSP = "\u202f"; // between thousands
const NBSP = "\u00a0"; // before the percent sign

function roundDecimal(text, digits) {
  // `text`: digits with an optional point, no sign, no exponent.
  let [whole, fraction = ""] = text.split(".");
  if (fraction.length > digits) {
    const up = fraction.charCodeAt(digits) >= 53; // "5".."9"
    fraction = fraction.slice(0, digits);
    if (up) {
      const joined = (whole + fraction).split("");
      let i = joined.length - 1;
      while (i >= 0 && joined[i] === "9") joined[i--] = "0";
      if (i >= 0) joined[i] = String(Number(joined[i]) + 1);
      else joined.unshift("1");
      whole = joined.slice(0, joined.length - fraction.length).join("");
      fraction = joined.slice(joined.length - fraction.length).join("");
    }
  }
  fraction = fraction.replace(/0+$/, "");
  return [whole.replace(/^0+(?=\d)/, ""), fraction];
}

function plainDecimal(value) {
  // The shortest decimal of |value|, written out without exponent.
  const text = String(Math.abs(value));
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[1] + (match[2] || "");
  const point = 1 + Number(match[3]);
  if (point <= 0) return "0." + "0".repeat(-point) + digits;
  return digits.length <= point ? digits + "0".repeat(point - digits.length) : digits.slice(0, point) + "." + digits.slice(point);
}

function shiftPoint(text, places) {
  // `text` × 10^places, as decimal text (percentages are exact: 0.125 → 12.5).
  let [whole, fraction = ""] = text.split(".");
  fraction = fraction.padEnd(places, "0");
  return (whole + fraction.slice(0, places)).replace(/^0+(?=\d)/, "") + (fraction.length > places ? "." + fraction.slice(places) : "");
}

function frenchNumber(value, digits) {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : (value < 0 ? "-" : "") + "∞";
  return written(value, roundDecimal(plainDecimal(value), digits));
}

function written(value, [whole, fraction]) {
  const negative = value < 0 || Object.is(value, -0);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, NNBSP);
  return (negative ? "-" : "") + grouped + (fraction ? "," + fraction : "");
}

export function formatNumber(value) {
  return frenchNumber(value, 3);
}

function formatPercent(value) {
  if (!Number.isFinite(value)) return frenchNumber(value, 1) + NBSP + "%";
  return written(value, roundDecimal(shiftPoint(plainDecimal(value), 2), 1)) + NBSP + "%";
}

rules.format = { number: formatNumber, percent: formatPercent };

/** The exact value of a number output (its `<name>_exact`, « 319/400 »), kept a tap away
 * from the value shown rather than in the line; null for a whole one (« 10/1 ») or without
 * one (features/calculators/formatting.py's `exact_value`). */
export function exactValue(name, outputs) {
  const value = outputs[name];
  const exact = outputs[name + "_exact"];
  if (typeof value !== "number" || typeof exact !== "string") return null;
  return exact.endsWith("/1") ? null : exact;
}

export function formatValue(name, outputs) {
  const value = outputs[name];
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "oui" : "non";
  // Probabilities are the outputs named p_… with an exact value: a percentage. The exact
  // fraction, like any other exact value (a mean), is a tap away (exactValue).
  if (typeof value === "number" && name.startsWith("p_") && typeof outputs[name + "_exact"] === "string") {
    return formatPercent(value);
  }
  if (typeof value === "number") return formatNumber(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}


// A number as phones and people type it: « 7,5 » or « 7.5 », a sign, spaces between the
// thousands (« 1 500 »). Anything else (« 7,5,2 », « 1,000.5 », « douze ») stays the text it
// is, and the rules say the field wants a number: never a different number than the one meant.
const TYPED_NUMBER = /^[-+−]?(\d+([.,]\d*)?|[.,]\d+)$/;

export function readNumber(raw) {
  const compact = raw.replace(/[\s\u00a0\u202f]/g, "");
  if (!TYPED_NUMBER.test(compact)) return raw;
  return Number(compact.replace("−", "-").replace(",", "."));
}
