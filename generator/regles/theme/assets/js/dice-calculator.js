/* The kit's dice calculator (kit/dice_notation.py, kit/dice.py) answered in the page, before
 * Python has come: a typed expression rolls and gives its law offline as soon as the text is
 * stored. The kit stays the definition; this is its twin, line for line where it can be:
 * tests/test_dice_twin.py runs both on thousands of expressions, those the kit refuses
 * included, and asks for the same answer (the same message, every chance to its last bit,
 * the same roll for a same seed). worker-client.js's `answer` calls it only while Python is
 * not ready. No page object here but the browser's random source, so that Node runs it. */
import {
  MAX_DICE,
  MAX_NUMBER as MAX_CONSTANT,
  MAX_SIDES,
  MAX_TERMS,
  randomDie,
  rollTerms,
  TERM_DEFAULTS,
  termLabel,
} from "./dice-roll.js";

// kit/dice_notation.py's and kit/dice.py's other limits, and kit/schema.py's SEED_MAX.
const MAX_EXPRESSION_LENGTH = 100;
const MAX_MULTIPLIER = 1000;
const MAX_SUPPORT = 2000;
const MAX_KEPT_FACES = 1000;
const SEED_MAX = Number.MAX_SAFE_INTEGER;
// The dice calculator's fields (kit/dice.py's CALCULATORS): the expression's default, the
// target's bounds.
const DEFAULT_EXPRESSION = "2d6+3";
const MAX_TARGET = MAX_CONSTANT * MAX_TERMS;

/** kit/errors.py's CalculatorInputError (LimitExceededError is one too): a field, a French
 * message. */
export class DiceInputError extends Error {
  constructor(field, message) {
    super(message);
    this.name = "DiceInputError";
    this.field = field;
  }
}

/* ---------------------------------------------------------------- words */

const MINUS = "\u2212";

/** kit/schema.py's fmt_number, for a whole number: « 1 000 000 », « −7 ». */
function frenchInteger(value) {
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, "\u202f");
  return value < 0 ? MINUS + digits : digits;
}

/** kit/schema.py's _range_message, both bounds given. */
const rangeMessage = (low, high) => `La valeur doit être comprise entre ${frenchInteger(low)} et ${frenchInteger(high)}.`;

/* ---------------------------------------------------------------- reading an expression */

const DIGITS = "0123456789";
const PLUS = "+";
// Typographic minus and dashes are accepted because the site prints "−".
const MINUSES = "-\u2212\u2013";
const TIMES = "x*\u00d7";
// Python's str.isspace(), which the kit's parser skips (JavaScript's \s is another set).
const SPACES = new Set(
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
    "\u2028\u2029\u202f\u205f\u3000",
);

/** kit/dice_notation.py's _Parser: the same steps, positions in characters as Python counts
 * them (code points). */
class Parser {
  constructor(text, field) {
    // Only ASCII letters are folded, as the kit does.
    this.s = Array.from(text, (c) => (c < "\x80" ? c.toLowerCase() : c));
    this.i = 0;
    this.field = field;
  }

  error(message) {
    return new DiceInputError(this.field, message);
  }

  where() {
    return this.i >= this.s.length ? "à la fin de l’expression" : `à la position ${this.i + 1}`;
  }

  peek() {
    while (this.i < this.s.length && SPACES.has(this.s[this.i])) this.i += 1;
    return this.i < this.s.length ? this.s[this.i] : "";
  }

  atDigit() {
    const c = this.peek();
    return c !== "" && DIGITS.includes(c);
  }

  number(what) {
    if (!this.atDigit()) throw this.error(`${what} attendu ${this.where()}.`);
    const start = this.i;
    while (this.i < this.s.length && DIGITS.includes(this.s[this.i])) this.i += 1;
    // Past 2⁵³ the value is not exact, but it is then past every limit it is checked against.
    return Number(this.s.slice(start, this.i).join(""));
  }

  unexpected(expected) {
    return this.error(`Caractère inattendu « ${this.s[this.i]} » ${this.where()} : ${expected} attendu.`);
  }

  expression() {
    if (this.peek() === "") throw this.error("L’expression est vide.");
    let sign = 1;
    if (MINUSES.includes(this.peek())) {
      sign = -1;
      this.i += 1;
    } else if (this.peek() === PLUS) {
      this.i += 1;
    }
    const terms = [this.term(sign)];
    for (let c = this.peek(); c !== ""; c = this.peek()) {
      if (c === PLUS) sign = 1;
      else if (MINUSES.includes(c)) sign = -1;
      else throw this.unexpected("« + » ou « - »");
      this.i += 1;
      if (terms.length >= MAX_TERMS) throw this.error(`L’expression ne peut pas compter plus de ${MAX_TERMS} termes.`);
      terms.push(this.term(sign));
    }
    if (terms.reduce((dice, t) => dice + t.count, 0) > MAX_DICE) {
      throw this.error(`L’expression ne peut pas lancer plus de ${MAX_DICE} dés au total.`);
    }
    return terms;
  }

  term(sign) {
    const c = this.peek();
    if (c === "") throw this.error("Nombre ou dé attendu à la fin de l’expression.");
    let term;
    if (this.atDigit()) {
      const start = this.i;
      const value = this.number("Nombre");
      if (this.peek() === "d") {
        term = this.dice(sign, value, start);
      } else {
        if (value > MAX_CONSTANT) {
          throw this.error(`Les nombres ne peuvent pas dépasser ${frenchInteger(MAX_CONSTANT)} (position ${start + 1}).`);
        }
        term = newTerm({ sign, constant: value });
      }
    } else if (c === "d") {
      term = this.dice(sign, 1, this.i);
    } else {
      throw this.unexpected("un nombre ou un dé");
    }
    let multiplier = 1;
    while (this.peek() !== "" && TIMES.includes(this.peek())) {
      this.i += 1;
      const start = this.i;
      const factor = this.number("Nombre");
      if (factor > MAX_MULTIPLIER) {
        throw this.error(`Un multiplicateur ne peut pas dépasser ${MAX_MULTIPLIER} (position ${start + 1}).`);
      }
      multiplier *= factor;
      if (multiplier > MAX_MULTIPLIER) {
        throw this.error(`Le produit des multiplicateurs ne peut pas dépasser ${MAX_MULTIPLIER}.`);
      }
    }
    return { ...term, multiplier };
  }

  dice(sign, count, start) {
    this.i += 1; // the "d"
    const position = `position ${start + 1}`;
    if (count < 1) throw this.error(`Il faut lancer au moins un dé (${position}).`);
    if (count > MAX_DICE) throw this.error(`On ne peut pas lancer plus de ${MAX_DICE} dés (${position}).`);
    let sides;
    if (this.peek() === "%") {
      this.i += 1;
      sides = 100;
    } else {
      sides = this.number("Nombre de faces");
    }
    if (sides < 1) throw this.error(`Un dé doit avoir au moins une face (${position}).`);
    if (sides > MAX_SIDES) {
      throw this.error(`Un dé ne peut pas avoir plus de ${MAX_SIDES} faces (${position}).`);
    }
    const [keepMode, keep] = this.keepSuffix(count);
    return newTerm({ sign, count, sides, keep_mode: keepMode, keep });
  }

  keepSuffix(count) {
    const c = this.peek();
    const next = this.i + 1 < this.s.length ? this.s[this.i + 1] : "";
    if (c === "k") {
      this.i += 1;
      // "k3" alone means "keep the 3 highest", as in most dice rollers.
      if (next === "h" || next === "l") this.i += 1;
      const mode = next === "l" ? "kl" : "kh";
      const start = this.i;
      const n = this.atDigit() ? this.number("Nombre de dés à garder") : 1;
      if (!(n >= 1 && n <= count)) throw this.error(`On ne peut garder que de 1 à ${count} dé(s) (position ${start + 1}).`);
      return [mode, n];
    }
    if (c === "d" && (next === "h" || next === "l")) {
      this.i += 2;
      const start = this.i;
      const n = this.atDigit() ? this.number("Nombre de dés à écarter") : 1;
      if (!(n >= 0 && n < count)) {
        throw this.error(`On ne peut écarter que de 0 à ${count - 1} dé(s) (position ${start + 1}).`);
      }
      // Dropping the lowest dice is keeping the highest ones, and vice versa.
      return [next === "l" ? "kh" : "kl", count - n];
    }
    return [null, 0];
  }
}

/** kit/dice_notation.py's Term, as dice-roll.js rolls it. */
const newTerm = (fields) => ({ ...TERM_DEFAULTS, ...fields });

/** The terms of `text` (kit/dice_notation.py's `parse`); DiceInputError as the kit says it. */
export function parseExpression(text, field = "expression") {
  if (Array.from(text).length > MAX_EXPRESSION_LENGTH) {
    throw new DiceInputError(field, `L’expression ne doit pas dépasser ${MAX_EXPRESSION_LENGTH} caractères.`);
  }
  return new Parser(text, field).expression();
}

/** kit/dice_notation.py's Expression.__str__: « 2d6+3 », « -1d8+4 ». */
export const expressionText = (terms) =>
  terms.map((t, i) => (i === 0 && t.sign > 0 ? termLabel(t).slice(1) : termLabel(t))).join("");

/* ---------------------------------------------------------------- the exact law */

const isDice = (term) => term.count > 0;
const keepsSome = (term) => term.keep_mode !== null && term.keep < term.count;

function gcd(a, b) {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

function bigGcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** kit/dice_notation.py's Term.bounds: the smallest and largest value of the term. */
function bounds(term) {
  let low;
  let high;
  if (isDice(term)) {
    const kept = term.keep_mode !== null ? term.keep : term.count;
    [low, high] = [kept, kept * term.sides];
  } else {
    low = high = term.constant;
  }
  const [a, b] = [term.sign * term.multiplier * low, term.sign * term.multiplier * high];
  return [Math.min(a, b), Math.max(a, b)];
}

/** Term.support_bound: at most how many values the term has. */
function supportBound(term) {
  const [low, high] = bounds(term);
  if (!isDice(term) || term.multiplier === 0) return 1;
  return Math.floor((high - low) / term.multiplier) + 1;
}

/** Term.step: the gap between two values of the term (0 for a single value). */
const step = (term) => (supportBound(term) > 1 ? term.multiplier : 0);

/** kit/dice.py's _computation_order: the terms keeping some of their dice first. */
const computationOrder = (terms) => [...terms.filter(keepsSome), ...terms.filter((t) => !keepsSome(t))];

/** kit/dice.py's check_cost: an expression whose exact law is too costly is refused, with
 * the same words. */
function checkCost(terms, field) {
  const keeping = terms.filter(keepsSome);
  if (keeping.reduce((sum, t) => sum + t.keep * t.sides, 0) > MAX_KEPT_FACES) {
    const shown = keeping.map((t) => `${termLabel(t).slice(1)} : ${t.keep} × ${frenchInteger(t.sides)}`).join(", ");
    throw new DiceInputError(
      field,
      `En gardant une partie des dés (kh, kl, dh, dl), les dés gardés × leurs faces ne peuvent pas dépasser ` +
        `${frenchInteger(MAX_KEPT_FACES)} pour un calcul exact, tous les termes réunis (ici ${shown}).`,
    );
  }
  let size = 1;
  let gap = 0;
  let low = 0;
  let high = 0;
  for (const term of computationOrder(terms)) {
    const [termLow, termHigh] = bounds(term);
    low += termLow;
    high += termHigh;
    gap = gcd(gap, step(term));
    const lattice = gap ? Math.floor((high - low) / gap) + 1 : 1;
    size = Math.min(size * supportBound(term), lattice);
    if (size > MAX_SUPPORT) {
      throw new DiceInputError(
        field,
        `L’expression a trop de totaux possibles pour un calcul exact (au plus ${frenchInteger(MAX_SUPPORT)}).`,
      );
    }
  }
}

/** kit/dice.py's _times_die: `ways` × (1 + x^r + … + x^((sides−1)r)), r the stride, as a
 * moving sum. */
function timesDie(ways, sides, stride = 1) {
  const length = ways.length + (sides - 1) * stride;
  const out = new Array(length);
  const window = sides * stride;
  for (let i = 0; i < length; i++) {
    let sum = i < ways.length ? ways[i] : 0n;
    if (i >= stride) sum += out[i - stride];
    if (i >= window && i - window < ways.length) sum -= ways[i - window];
    out[i] = sum;
  }
  return out;
}

/** kit/dice.py's _sum_of_dice: the ways of each total of `count` dice, from `count` up. */
function sumOfDice(count, sides) {
  let ways = [1n];
  for (let k = 0; k < count; k++) ways = timesDie(ways, sides);
  return ways;
}

/** C(n, b) for b = 0 … n. */
function binomials(n) {
  const row = [1n];
  for (let b = 1; b <= n; b++) row.push((row[b - 1] * BigInt(n - b + 1)) / BigInt(b));
  return row;
}

/** kit/dice.py's _binomial_tail: the sum over b from r to n of C(n, b) × xⁿ⁻ᵇ. */
function binomialTail(n, r, x) {
  const row = binomials(n);
  let sum = 0n;
  let power = 1n; // xⁿ⁻ᵇ, from b = n down
  for (let b = n; b >= Math.max(r, 0); b--) {
    sum += row[b] * power;
    power *= x;
  }
  return sum;
}

/** kit/dice.py's _keep_highest: the ways of each sum of the `keep` highest of `count` dice,
 * from `keep` up (see its docstring for the method). */
function keepHighest(count, sides, keep) {
  if (keep === count) return sumOfDice(count, sides);
  const result = new Array(keep * (sides - 1) + 1).fill(0n);
  const row = binomials(count);
  for (let t = 1; t <= sides; t++) {
    const above = sides - t;
    const top = above ? keep - 1 : 0;
    const ways = [];
    for (let a = 0; a <= top; a++) ways.push(row[a] * binomialTail(count - a, keep - a, BigInt(t - 1)));
    let poly = [ways[top]];
    for (let a = top - 1; a >= 0; a--) poly = [ways[a], ...timesDie(poly, above)];
    const start = keep * (t - 1);
    poly.forEach((w, j) => (result[start + j] += w));
  }
  return result;
}

/** kit/dice.py's _term_ways: the ways of each value of a term (a Map, value → ways). */
function termWays(term) {
  if (!isDice(term)) return new Map([[term.sign * term.multiplier * term.constant, 1n]]);
  const { count: n, sides: s, keep: k } = term;
  // Every roll is worth 0: no sum of its dice to make (100d1000x0).
  if (term.multiplier === 0) return new Map([[0, BigInt(s) ** BigInt(n)]]);
  let low;
  let raw;
  if (term.keep_mode === null) [low, raw] = [n, sumOfDice(n, s)];
  else if (term.keep_mode === "kh") [low, raw] = [k, keepHighest(n, s, k)];
  // The lowest dice of faces f are the highest of faces (s + 1 − f): reversed sums.
  else [low, raw] = [k, keepHighest(n, s, k).reverse()];
  const factor = term.sign * term.multiplier;
  const out = new Map();
  raw.forEach((ways, i) => {
    if (ways) out.set(factor * (low + i), (out.get(factor * (low + i)) || 0n) + ways);
  });
  return out;
}

/** kit/dice.py's _lattice: the smallest value, a gap dividing every difference, the steps. */
function lattice(law) {
  const values = [...law.keys()];
  const low = Math.min(...values);
  const gap = values.reduce((g, v) => gcd(g, v - low), 0);
  return [low, gap, gap ? (Math.max(...values) - low) / gap : 0];
}

const dense = (law, low, gap, length) => Array.from({ length }, (_, i) => law.get(low + i * gap) || 0n);

/** kit/dice.py's _add_dice: `law` plus a plain sum of dice, a die at a time on the common
 * lattice; null when that lattice would hold more than MAX_SUPPORT values. */
function addDice(law, term) {
  const { count: n, sides: s, multiplier: m } = term;
  const [low, gap, span] = lattice(law);
  const common = gcd(gap, m);
  const length = gap ? span * (gap / common) + 1 : 1;
  if (length + n * (s - 1) * (m / common) > MAX_SUPPORT) return null;
  let ways = dense(law, low, common, length);
  for (let k = 0; k < n; k++) ways = timesDie(ways, s, m / common);
  // A die of faces −m × (1..s) is one of faces m × (1..s) moved by −m × (s + 1).
  const first = term.sign > 0 ? low + n * m : low - n * m * s;
  const out = new Map();
  ways.forEach((w, i) => w && out.set(first + i * common, w));
  return out;
}

/** kit/dice.py's _convolve: the law of the sum of two independent laws. */
function convolve(a, b) {
  const out = new Map();
  for (const [va, wa] of a) {
    for (const [vb, wb] of b) out.set(va + vb, (out.get(va + vb) || 0n) + wa * wb);
  }
  return out;
}

/** kit/dice.py's `distribution`: the exact law of the terms' total, as [total, ways] pairs
 * in increasing order, and the number of rolls; DiceInputError when it is too costly. */
export function distribution(terms, field = "expression") {
  checkCost(terms, field);
  let law = new Map([[0, 1n]]);
  let totalWays = 1n;
  for (const term of computationOrder(terms)) {
    const added = isDice(term) && !keepsSome(term) && term.multiplier > 0 ? addDice(law, term) : null;
    law = added || convolve(law, termWays(term));
    if (isDice(term)) totalWays *= BigInt(term.sides) ** BigInt(term.count);
  }
  return { ways: [...law].filter(([, w]) => w).sort(([a], [b]) => a - b), totalWays };
}

const bitLength = (n) => n.toString(2).length;

/** num / den (den > 0) correctly rounded to a double, as Python's int / int and float(Fraction). */
export function ratio(num, den) {
  const negative = num < 0n;
  const n = negative ? -num : num;
  const exact = BigInt(Number.MAX_SAFE_INTEGER);
  let value;
  if (n <= exact && den <= exact) {
    value = Number(n) / Number(den); // two exact doubles: the division rounds once
  } else {
    // A quotient of at least 66 bits, its last bit set when a remainder is left: rounding it
    // to 53 bits rounds the true quotient.
    const shift = Math.max(0, bitLength(den) - bitLength(n) + 66);
    const scaled = n << BigInt(shift);
    let quotient = scaled / den;
    if (scaled % den) quotient |= 1n;
    value = Number(quotient) * 2 ** -shift;
  }
  return negative ? -value : value;
}

/** A fraction as the kit writes it (Fraction's numerator/denominator): « 7/2 », « 0/1 ». */
function fractionText(num, den) {
  const divisor = bigGcd(num, den) || 1n;
  return `${num / divisor}/${den / divisor}`;
}

/* ---------------------------------------------------------------- the roll */

/** Python's random.Random(seed) (Mersenne Twister, CPython's seeding of an integer) as far as
 * kit/dice.py's `roll` uses it: `randint(1, sides)`. */
export class PythonRandom {
  constructor(seed) {
    const key = [];
    for (let rest = BigInt(seed); rest > 0n || key.length === 0; rest >>= 32n) key.push(Number(rest & 0xffffffffn));
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.seedArray(key);
  }

  seedArray(key) {
    const mt = this.mt;
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      i += 1;
      j += 1;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      i += 1;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  uint32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** randint(1, sides): Python's _randbelow, by getrandbits (sides ≤ 2³²). */
  die(sides) {
    const bits = 32 - Math.clz32(sides);
    let r;
    do r = this.uint32() >>> (32 - bits);
    while (r >= sides);
    return 1 + r;
  }
}

/** kit/dice.py's _roll_text: « [3, (1), 5] + 2 = 10 ». */
function rollText(total, rolled, terms) {
  const parts = rolled.map((r, i) => {
    const term = terms[i];
    const sign = term.sign < 0 ? MINUS : i > 0 ? "+" : "";
    let body = isDice(term) ? `[${r.dice.map((v, k) => (r.kept[k] ? String(v) : `(${v})`)).join(", ")}]` : String(term.constant);
    if (term.multiplier !== 1) body += ` × ${term.multiplier}`;
    return sign ? `${sign} ${body}` : body;
  });
  return `${parts.join(" ")} = ${frenchInteger(total)}`;
}

/* ---------------------------------------------------------------- the calculator */

const absent = (value) => value === null || value === undefined;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// JSON writes a number from this size on with an exponent (« 1e+21 »): Python reads a float.
const EXPONENT_FROM = 1e21;

/** kit/schema.py's `_validate_int` of a whole-number field (`name`, from `low` to `high`), on
 * the value the page would send, as Python reads its JSON: a string (form-controls.js sends
 * what does not read as a number), a boolean or a number with decimals is no integer. */
function wholeNumber(name, value, low, high) {
  const integer = typeof value === "number" && Number.isInteger(value) && Math.abs(value) < EXPONENT_FROM;
  if (!integer) throw new DiceInputError(name, "La valeur doit être un nombre entier.");
  if (value < low || value > high) throw new DiceInputError(name, rangeMessage(low, high));
  return value + 0; // −0 (« ± » on « 0 ») is 0, as JSON sends it to Python: never « −0 »
}

/** The kit's checks of the dice calculator's fields (kit/schema.py's `validate`), in its order,
 * for the inputs its forms send; null for any other (another key, an expression that is not
 * text, a number that is not finite…), which `run` sends to Python or refuses itself. */
function fieldsOf(inputs) {
  if (!inputs || typeof inputs !== "object" || Array.isArray(inputs)) return null;
  if (Object.keys(inputs).some((key) => !["expression", "target", "seed"].includes(key))) return null;
  const { expression, target, seed } = inputs;
  if (!(absent(expression) || typeof expression === "string")) return null;
  const sent = (v) => absent(v) || ["string", "boolean"].includes(typeof v) || Number.isFinite(v);
  if (!sent(target) || !sent(seed)) return null;
  const text = absent(expression) ? DEFAULT_EXPRESSION : expression;
  if (Array.from(text).length > MAX_EXPRESSION_LENGTH) {
    throw new DiceInputError("expression", `Le texte ne doit pas dépasser ${MAX_EXPRESSION_LENGTH} caractères.`);
  }
  if (LONE_SURROGATE.test(text)) {
    throw new DiceInputError(
      "expression",
      "Le texte contient un caractère invalide (une moitié de paire de substitution UTF-16, sans l’autre).",
    );
  }
  return {
    expression: text,
    target: absent(target) ? null : wholeNumber("target", target, -MAX_TARGET, MAX_TARGET),
    seed: absent(seed) ? null : wholeNumber("seed", seed, 0, SEED_MAX),
  };
}

/** What the kit's dice calculator answers to `inputs` (kit/dice.py's `_handle`), the same
 * outputs; DiceInputError with the kit's field and words for what it refuses; null for inputs
 * its forms do not send, which Python answers. `die(sides)` rolls without a seed. */
export function diceAnswer(inputs, die = randomDie) {
  const fields = fieldsOf(inputs);
  if (!fields) return null;
  const terms = parseExpression(fields.expression);
  const { ways, totalWays } = distribution(terms);
  const { target, seed } = fields;
  const seeded = seed === null ? null : new PythonRandom(seed);
  const { total, terms: rolled } = rollTerms(terms, seeded ? (sides) => seeded.die(sides) : die);
  const sum = ways.reduce((acc, [value, w]) => acc + BigInt(value) * w, 0n);
  const reached = ways.reduce((acc, [value, w]) => (target !== null && value >= target ? acc + w : acc), 0n);
  const text = rollText(total, rolled, terms);
  return {
    expression: expressionText(terms),
    min: ways[0][0],
    max: ways[ways.length - 1][0],
    mean: ratio(sum, totalWays),
    mean_exact: fractionText(sum, totalWays),
    distribution: { totals: ways.map(([value]) => value), p: ways.map(([, w]) => ratio(w, totalWays)) },
    target,
    p_at_least: target === null ? null : ratio(reached, totalWays),
    p_at_least_exact: target === null ? null : fractionText(reached, totalWays),
    roll: { total, text, terms: rolled },
    roll_total: total,
    roll_text: text,
  };
}
