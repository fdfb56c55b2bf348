/* A dice expression of the rule texts rolled at once, without Python: the build parsed it
 * with the kit (kit/dice.py, the one definition of an expression) and wrote its terms on the
 * button (features/calculators/dice_buttons.py, data-de-termes); this only draws the dice, as
 * kit/dice.py's `roll` does, and gives the roll as the dice calculator gives it. No page or
 * browser object here: tests/test_dice_at_once.py runs it in Node beside the kit. */

// A term as the build writes it: kit/dice.py's Term, its default fields left out.
export const TERM_DEFAULTS = { sign: 1, count: 0, sides: 0, keep_mode: null, keep: 0, constant: 0, multiplier: 1 };
// kit/dice.py's limits: a button holding more is not rolled here (the rules code says why).
export const MAX_TERMS = 20;
export const MAX_DICE = 100;
export const MAX_SIDES = 1000;
export const MAX_NUMBER = 1_000_000; // kit/dice_notation.py's MAX_CONSTANT

const isCount = (value, max) => Number.isSafeInteger(value) && value >= 0 && value <= max;

/** The terms written on a button (JSON text), complete; null if there are none or they are
 * not what the build writes. */
export function readTerms(text) {
  let written;
  try {
    written = JSON.parse(text || "null");
  } catch {
    return null;
  }
  if (!Array.isArray(written) || written.length === 0 || written.length > MAX_TERMS) return null;
  const terms = written.map((term) => (term && typeof term === "object" ? { ...TERM_DEFAULTS, ...term } : null));
  const valid = (t) =>
    t !== null &&
    (t.sign === 1 || t.sign === -1) &&
    isCount(t.count, MAX_DICE) &&
    isCount(t.sides, MAX_SIDES) &&
    (t.count === 0 || t.sides > 0) &&
    (t.keep_mode === null || ((t.keep_mode === "kh" || t.keep_mode === "kl") && isCount(t.keep, t.count))) &&
    isCount(t.constant, MAX_NUMBER) &&
    isCount(t.multiplier, MAX_NUMBER);
  const dice = terms.reduce((total, t) => total + (t ? t.count : 0), 0);
  return terms.every(valid) && dice <= MAX_DICE ? terms : null;
}

/** kit/dice.py's Term.label, signed: « +2d20kh1 », « -1d4 », « +5 », « +1d6x100 ». */
export function termLabel(term) {
  let text = term.count > 0 ? `${term.count}d${term.sides}` : String(term.constant);
  if (term.count > 0 && term.keep_mode !== null) text += `${term.keep_mode}${term.keep}`;
  if (term.multiplier !== 1) text += `x${term.multiplier}`;
  return (term.sign < 0 ? "-" : "+") + text;
}

/** The terms with their one d20 rolled twice, the higher kept (`keepMode` "kh", advantage)
 * or the lower ("kl"); null unless the expression has exactly one d20, as a term of its own
 * (« 1d20+5 », « 1d20+1d4 »). The same terms as the expression dice.js writes for it. */
export function twoD20Terms(terms, keepMode) {
  const d20s = terms.filter((t) => t.count > 0 && t.sides === 20);
  const single = (t) => t.count === 1 && t.sides === 20 && t.sign === 1 && t.keep_mode === null && t.multiplier === 1;
  if (d20s.length !== 1 || !single(d20s[0])) return null;
  return terms.map((t) => (t === d20s[0] ? { ...t, count: 2, keep_mode: keepMode, keep: 1 } : t));
}

/** A die of `sides` faces from the browser's random source, each face as likely. */
export function randomDie(sides) {
  const range = 2 ** 32;
  const limit = range - (range % sides); // past it, a draw would favour the low faces
  const draw = new Uint32Array(1);
  do crypto.getRandomValues(draw);
  while (draw[0] >= limit);
  return 1 + (draw[0] % sides);
}

/** Every die of `terms` rolled with `die(sides)`: the total, and each term as the dice
 * calculator gives it ({ term, dice, kept, value }), the dice kept as kit/dice.py keeps them
 * (the first of equal dice first). */
export function rollTerms(terms, die = randomDie) {
  let total = 0;
  const rolled = terms.map((term) => {
    if (term.count === 0) {
      const value = term.sign * term.multiplier * term.constant;
      total += value;
      return { term: termLabel(term), dice: [], kept: [], value };
    }
    const dice = Array.from({ length: term.count }, () => die(term.sides));
    let kept = dice.map(() => true);
    if (term.keep_mode !== null) {
      const highest = term.keep_mode === "kh";
      const order = dice.map((_, k) => k).sort((a, b) => (highest ? dice[b] - dice[a] : dice[a] - dice[b]));
      kept = dice.map(() => false);
      for (const k of order.slice(0, term.keep)) kept[k] = true;
    }
    const value = term.sign * term.multiplier * dice.reduce((sum, face, k) => sum + (kept[k] ? face : 0), 0);
    total += value;
    return { term: termLabel(term), dice, kept, value };
  });
  return { total, terms: rolled };
}

const isChance = (value) => typeof value === "number" && value >= 0 && value <= 1;

/** What the dice calculator gives of an expression's law of chances (its `min`, `max`,
 * `mean`, `distribution` and, for a `target`, `p_at_least`: the chance of that total or
 * more), read from the law the build wrote on the expression's button (data-de-loi,
 * features/calculators/dice_buttons.py's `written_law`, computed by kit/dice.py); null if
 * there is none or it is not what the build writes. */
export function lawOutputs(text, target = null) {
  let law;
  try {
    law = JSON.parse(text || "null");
  } catch {
    return null;
  }
  const { totals, p, at_least: atLeast, mean } = law && typeof law === "object" ? law : {};
  const valid =
    Array.isArray(totals) && totals.length > 0 && Array.isArray(p) && Array.isArray(atLeast) &&
    p.length === totals.length && atLeast.length === totals.length &&
    totals.every((t, i) => Number.isSafeInteger(t) && (i === 0 || t > totals[i - 1])) &&
    p.every(isChance) && atLeast.every(isChance) && Number.isFinite(mean);
  if (!valid) return null;
  // At least `target`: the chance of the first total that reaches it (none: 0).
  const reached = target === null ? -1 : totals.findIndex((t) => t >= target);
  return {
    min: totals[0],
    max: totals[totals.length - 1],
    mean,
    distribution: { totals, p },
    target,
    p_at_least: target === null ? null : reached < 0 ? 0 : atLeast[reached],
  };
}
