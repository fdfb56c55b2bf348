/* The dice of the rule texts (features/calculators/dice_buttons.py writes them as buttons):
 * a tap rolls one and shows the roll in a tray beside it, above the earlier rolls of the
 * session; « Chances » beside it opens its law of chances in the same place. A die whose
 * terms the build wrote (data-de-termes) rolls at once, here (dice-roll.js), Python or not,
 * and its law of chances, when the build wrote it on the page's first button of the
 * expression (data-de-loi), is drawn at once too; any other goes through the rules code's
 * dice calculator (kit/dice.py). */
import { barsIcon } from "./charts.js";
import { lawOutputs, readTerms, rollTerms, twoD20Terms } from "./dice-roll.js";
import { el, onEachPage, rules, siteRoot } from "./page.js";
import { formatNumber } from "./numbers.js";
import { answer, DICE_CHART, DICE_CHART_AT_MOST, drawInto } from "./rules.js";

const NBSP = "\u00a0";
const MINUS = "\u2212";

/* ---------------------------------------------------------------- the session's rolls */

// Every roll of the session, newest first, in sessionStorage (one key per site: two sites of
// one address keep theirs apart): it outlives instant navigation and a reload, not the tab.
// A value this script cannot read (damaged, from another version) counts as no roll; an
// entry it cannot read is left out. A browser that refuses the storage keeps them in memory.
const LOG_SIZE = 50;
const MODES = { "": "", advantage: " avec avantage", disadvantage: " avec désavantage" };
// A term of the dice calculator's roll (kit/dice.py's Term.label, signed): « +2d20kh1 »,
// « -1d4 », « +5 », « +1d6x100 ».
const TERM = /^([+-])(?:(\d{1,3})d(\d{1,4})(?:(kh|kl)(\d{1,3}))?|(\d{1,7}))(?:x(\d{1,4}))?$/;
const logKey = () => `regles-jets:${siteRoot().pathname}`;
let unsaved = null; // { key, log } when sessionStorage refused the last write

const isCount = (value) => Number.isSafeInteger(value) && value > 0;

function validTerm(term) {
  return (
    Boolean(term) &&
    typeof term.term === "string" &&
    TERM.test(term.term) &&
    Array.isArray(term.dice) &&
    term.dice.length <= 100 &&
    term.dice.every(Number.isSafeInteger) &&
    Array.isArray(term.kept) &&
    term.kept.length === term.dice.length &&
    term.kept.every((kept) => typeof kept === "boolean") &&
    Number.isFinite(term.value)
  );
}

function validEntry(entry) {
  return (
    Boolean(entry) &&
    isCount(entry.n) &&
    typeof entry.expression === "string" &&
    entry.expression.length <= 100 &&
    typeof entry.mode === "string" &&
    Object.hasOwn(MODES, entry.mode) &&
    Number.isFinite(entry.total) &&
    Array.isArray(entry.terms) &&
    entry.terms.length <= 20 &&
    entry.terms.every(validTerm)
  );
}

function readLog() {
  const key = logKey();
  if (unsaved && unsaved.key === key) return unsaved.log;
  let value = null;
  try {
    value = JSON.parse(sessionStorage.getItem(key) || "null");
  } catch {
    value = null; // damaged, or no storage at all
  }
  const jets = value && Array.isArray(value.jets) ? value.jets.filter(validEntry).slice(0, LOG_SIZE) : [];
  const last = Math.max(0, isCount(value && value.n) ? value.n : 0, ...jets.map((entry) => entry.n));
  return { n: last, jets };
}

/** `roll` ({ expression, mode, total, terms }) added at the head of the log, numbered. */
function logRoll(roll) {
  const log = readLog();
  const entry = { n: log.n + 1, ...roll };
  const next = { n: entry.n, jets: [entry, ...log.jets].slice(0, LOG_SIZE) };
  const key = logKey();
  try {
    sessionStorage.setItem(key, JSON.stringify(next));
    unsaved = null;
  } catch {
    unsaved = { key, log: next };
  }
  return { entry, log: next };
}

/* ---------------------------------------------------------------- rolls in words */

/** « 14 », « 14 et 7 », « 5, 3 et 2 ». */
function frenchList(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} et ${items[items.length - 1]}`;
}

const shown = (expression) => expression.replace(/-/g, MINUS);
const rollName = (entry) => `${shown(entry.expression)}${MODES[entry.mode] || ""}`;
const numbered = (n) => `n°${NBSP}${n}`;

/** The dice and modifiers of a roll as pieces of a sentence: strings, and the dice as
 * { face, dropped }. « d20 : 14 et 7, garde 14 · +5 »; never the calculator's notation. */
function rollPieces(terms) {
  const pieces = [];
  terms.forEach((term, index) => {
    const match = TERM.exec(term.term);
    if (!match) return;
    const [, sign, , sides, keepMode, , constant, multiplier] = match;
    const times = multiplier ? ` × ${formatNumber(Number(multiplier))}` : "";
    if (index > 0) pieces.push(" · ");
    if (constant !== undefined) {
      pieces.push(`${sign === "-" ? MINUS : "+"}${formatNumber(Number(constant))}${times}`);
      return;
    }
    pieces.push(`${sign === "-" ? `${MINUS} ` : ""}d${sides} : `);
    term.dice.forEach((face, k) => {
      if (k > 0) pieces.push(k === term.dice.length - 1 ? " et " : ", ");
      pieces.push({ face, dropped: !term.kept[k] });
    });
    const kept = term.dice.filter((_, k) => term.kept[k]).map(formatNumber);
    const dropped = term.dice.filter((_, k) => !term.kept[k]).map(formatNumber);
    if (keepMode && dropped.length) {
      pieces.push(", ", kept.length <= dropped.length ? `garde ${frenchList(kept)}` : `écarte ${frenchList(dropped)}`);
    }
    pieces.push(times);
  });
  return pieces;
}

const rollWords = (terms) =>
  rollPieces(terms)
    .map((piece) => (typeof piece === "string" ? piece : formatNumber(piece.face)))
    .join("");

/** The same pieces as elements: each die a small square, a dropped one struck out; the
 * commas and « et » between the dice are read, not shown (the squares stand apart). */
function rollNodes(terms) {
  return rollPieces(terms).map((piece) => {
    if (piece.face === undefined) {
      return piece === ", " || piece === " et " ? el("span", { class: "de-entre" }, piece) : piece;
    }
    return el("span", { class: piece.dropped ? "de-face de-ecarte" : "de-face" }, formatNumber(piece.face));
  });
}

/* ---------------------------------------------------------------- advantage */

// An expression with one d20 (1d20, 1d20+5, 1d20+1d4…) may be rolled with advantage or
// disadvantage: two d20, the higher or the lower kept (« 2d20kh1+5 », which the reader never
// sees). null for any other.
function withD20(expression) {
  const terms = expression.match(/[+-]?[^+-]+/g) || [];
  let d20s = 0;
  let at = -1;
  terms.forEach((term, index) => {
    const dice = /^[+-]?(\d*)d(\d+)/i.exec(term);
    if (!dice || Number(dice[2]) !== 20) return;
    d20s += Number(dice[1] || 1);
    if (/^\+?1?d20$/i.test(term)) at = index;
  });
  if (d20s !== 1 || at < 0) return null;
  return (keep) => terms.map((term, index) => (index === at ? term.replace(/1?d20$/i, `2d20${keep}1`) : term)).join("");
}

function rolledExpression(expression, mode) {
  const twoD20 = mode ? withD20(expression) : null;
  if (!twoD20) return expression;
  return twoD20(mode === "advantage" ? "kh" : "kl");
}

/* ---------------------------------------------------------------- the threshold's way */

// « Au moins » (to reach a total) or « Au plus » (to stay under it, a game that rolls under a
// score), as the reader last chose in this tab: sessionStorage, one key per site.
const AT_MOST = "au-plus";
const directionKey = () => `regles-seuil:${siteRoot().pathname}`;
let keptDirection = null; // when sessionStorage refuses it

function thresholdDirection() {
  try {
    return sessionStorage.getItem(directionKey()) === AT_MOST ? AT_MOST : "";
  } catch {
    return keptDirection === AT_MOST ? AT_MOST : "";
  }
}

function keepThresholdDirection(value) {
  keptDirection = value;
  try {
    sessionStorage.setItem(directionKey(), value);
  } catch {
    /* kept in memory for this page */
  }
}

/** The chance of `target` or less in a law's `distribution` (null without a target). */
function chanceUpTo(distribution, target) {
  if (!Number.isInteger(target)) return null;
  let chance = 0;
  distribution.totals.forEach((total, i) => {
    if (total <= target) chance += distribution.p[i];
  });
  return Math.min(chance, 1);
}

/* ---------------------------------------------------------------- the popover */

// One popover per page, moved to the button that opened it, in one of two parts: the tray of
// a roll (a tap on the dice) or the law of chances (« Chances » beside it, or a long press on
// the dice), where a threshold can be given. Under either, the session's earlier rolls: a
// player reads them back from « Chances » without rolling again. Over the page, not
// inserted in the sentence; a tap outside, Escape or « Fermer » closes it.
const POPOVERS = "popover" in HTMLElement.prototype;
let dicePopover = null;

function popoverFor(trigger) {
  if (dicePopover && dicePopover.box.isConnected) return dicePopover;
  // The law of chances.
  const heading = el("p", { class: "de-pop-titre", id: "de-pop-titre" });
  const target = el("input", {
    type: "number",
    inputmode: "numeric",
    step: "1",
    id: "de-pop-seuil",
    "aria-label": "Seuil",
    "aria-describedby": "de-pop-titre",
  });
  // A game rolls to reach a total, or to stay under one: the reader says which, once a session.
  const direction = el("select", { id: "de-pop-sens", "aria-label": "Au moins ou au plus" },
    el("option", { value: "" }, "Au moins"),
    el("option", { value: AT_MOST }, "Au plus"));
  direction.value = thresholdDirection();
  const chart = el("div", { class: "graphique-place", "aria-live": "polite" });
  const chancesPart = el(
    "div",
    { class: "de-pop-chances" },
    heading,
    el("p", { class: "de-pop-seuil" }, direction, " ", target),
    chart,
  );
  // The tray: the roll, what can be rolled next.
  const rollTitle = el("p", { class: "de-jet-titre", id: "de-jet-titre" });
  const current = el("div", { class: "de-jet de-jet-courant", id: "de-jet-courant" });
  const again = el("button", { type: "button", class: "md-button md-button--primary de-action" }, "Relancer");
  const advantage = el("button", { type: "button", class: "md-button de-action" }, "Avec avantage");
  const disadvantage = el("button", { type: "button", class: "md-button de-action" }, "Avec désavantage");
  const announce = el("p", { class: "de-annonce", "aria-live": "polite" });
  const previousList = el("ul", { class: "de-jets" });
  const previous = el(
    "div",
    { class: "de-jets-avant" },
    el("p", { class: "de-jets-titre", id: "de-jets-titre" }, "Jets précédents"),
    el(
      "div",
      { class: "de-jets-zone", role: "region", "aria-labelledby": "de-jets-titre", tabindex: "0" },
      previousList,
    ),
  );
  const rollPart = el(
    "div",
    { class: "de-pop-jet" },
    rollTitle,
    current,
    el("p", { class: "de-jet-actions" }, again, advantage, disadvantage),
    announce,
  );
  const close = el("button", { type: "button", class: "md-button de-fermer" }, "Fermer");
  const box = el(
    "div",
    { class: "de-pop", role: "dialog", tabindex: "-1", popover: POPOVERS ? "auto" : null, hidden: !POPOVERS },
    chancesPart,
    rollPart,
    previous,
    close,
  );
  (trigger.closest(".md-typeset") || document.body).append(box);
  dicePopover = {
    box,
    heading,
    target,
    direction,
    chart,
    chancesPart,
    rollPart,
    rollTitle,
    current,
    advantage,
    disadvantage,
    announce,
    previous,
    previousList,
    owner: null,
    generation: 0,
    rolls: 0,
    pending: null,
    timer: null,
  };
  const state = dicePopover;
  // Grown or shrunk in place (its table of chances opened, a chart drawn, a roll logged):
  // placed again, so that its end and « Fermer » stay on the screen.
  if ("ResizeObserver" in window) new ResizeObserver(() => placeDicePopover(state)).observe(box);
  close.addEventListener("click", () => hideDicePopover());
  again.addEventListener("click", () => state.owner && rollDice(state.owner, ""));
  advantage.addEventListener("click", () => state.owner && rollDice(state.owner, "advantage"));
  disadvantage.addEventListener("click", () => state.owner && rollDice(state.owner, "disadvantage"));
  target.addEventListener("input", () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => fillDicePopover(state), 120);
  });
  direction.addEventListener("change", () => {
    keepThresholdDirection(direction.value);
    fillDicePopover(state);
  });
  box.addEventListener("beforetoggle", (event) => {
    if (event.newState === "closed") closedDicePopover(state);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !POPOVERS) hideDicePopover();
  });
  return state;
}

function isOpen(state) {
  return POPOVERS ? state.box.matches(":popover-open") : !state.box.hidden;
}

function closedDicePopover(state) {
  const owner = state.owner;
  if (owner) owner.setAttribute("aria-expanded", "false");
  // Focus left in the popover as it closes (Escape, « Fermer ») goes back to its button; a
  // tap elsewhere keeps it where it went.
  if (owner && state.box.contains(document.activeElement)) owner.focus({ preventScroll: true });
  state.owner = null;
}

function hideDicePopover() {
  const state = dicePopover;
  if (!state || !isOpen(state)) return;
  if (POPOVERS) state.box.hidePopover();
  else {
    state.box.hidden = true;
    closedDicePopover(state);
  }
}

// Beside its button: under it if there is room on the screen, else above; always within it.
function placeDicePopover(state) {
  if (!state.owner || !isOpen(state)) return;
  const anchor = state.owner.getBoundingClientRect();
  const box = state.box;
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const margin = 8;
  const left = Math.max(margin, Math.min(anchor.left, innerWidth - width - margin));
  let top = anchor.bottom + 6;
  if (top + height > innerHeight - margin && anchor.top - 6 - height >= margin) top = anchor.top - 6 - height;
  // Room neither under nor above it: as near as the screen allows, over the text.
  top = Math.max(margin, Math.min(top, innerHeight - margin - height));
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(top)}px`;
}

/** Opens the popover at `trigger` on its `part` ("chances" or "jet"), unless it is open
 * there already; true when it was just opened. */
function openDicePopover(trigger, part) {
  const state = popoverFor(trigger);
  if (isOpen(state) && state.owner === trigger && state.part === part) return false;
  if (isOpen(state)) hideDicePopover();
  state.owner = trigger;
  state.part = part;
  const chances = part === "chances";
  state.chancesPart.hidden = !chances;
  state.rollPart.hidden = chances;
  state.box.setAttribute("aria-labelledby", chances ? "de-pop-titre" : "de-jet-titre");
  if (chances) state.box.removeAttribute("aria-describedby");
  else state.box.setAttribute("aria-describedby", "de-jet-courant");
  trigger.setAttribute("aria-expanded", "true");
  if (POPOVERS) state.box.showPopover();
  else state.box.hidden = false;
  return true;
}

/* ---------------------------------------------------------------- law of chances */

async function fillDicePopover(state) {
  const owner = state.owner;
  if (!owner || state.part !== "chances") return;
  const mine = ++state.generation;
  const expression = owner.dataset.de;
  const raw = state.target.value.trim();
  const inputs = { expression };
  if (/^-?\d+$/.test(raw)) inputs.target = Number(raw);
  // The law the build wrote on the expression's first button of the page: no Python needed.
  const written = Array.from(document.querySelectorAll("button.de[data-de-loi]")).find((b) => b.dataset.de === expression);
  const compiled = written ? lawOutputs(written.dataset.deLoi, inputs.target ?? null) : null;
  if (!compiled && rules.status().state !== "ready" && !state.chart.firstChild) state.heading.textContent = `${expression} : préparation du calcul…`;
  try {
    const outputs = compiled || (await answer("dice", inputs));
    if (mine !== state.generation || state.owner !== owner) return;
    state.heading.textContent = `Chances de ${expression} : moyenne ${formatNumber(outputs.mean)}, de ${formatNumber(outputs.min)} à ${formatNumber(outputs.max)}`;
    const atMost = state.direction.value === AT_MOST;
    const shown = atMost ? { ...outputs, p_at_most: chanceUpTo(outputs.distribution, outputs.target) } : outputs;
    drawInto(state.chart, atMost ? DICE_CHART_AT_MOST : DICE_CHART, outputs.distribution, shown);
  } catch (error) {
    if (mine !== state.generation) return;
    state.heading.textContent = `${expression} : ${error.message}`;
    state.chart.replaceChildren();
  }
  placeDicePopover(state);
}

function showDicePopover(trigger) {
  const state = popoverFor(trigger);
  if (isOpen(state) && state.owner === trigger) {
    hideDicePopover();
    return;
  }
  openDicePopover(trigger, "chances");
  state.target.value = "";
  state.chart.replaceChildren();
  state.heading.textContent = `Chances de ${trigger.dataset.de}`;
  showPrevious(state, readLog(), null);
  placeDicePopover(state);
  state.box.focus({ preventScroll: true });
  fillDicePopover(state);
}

/* ---------------------------------------------------------------- the tray of a roll */

// Where each dice of the page shows its last total: after it, out of the line's flow.
const lastTotals = new WeakMap();

/** Plays the brief highlight of a new roll on `node` again (none with reduced motion: the
 * stylesheet gives it no animation). */
function highlight(node) {
  node.classList.remove("de-nouveau");
  void node.offsetWidth; // a new animation, not the one already played
  node.classList.add("de-nouveau");
}

function showPrevious(state, log, currentNumber) {
  const previous = log.jets.filter((entry) => entry.n !== currentNumber);
  state.previous.hidden = previous.length === 0;
  state.previousList.replaceChildren(
    ...previous.map((entry) =>
      el(
        "li",
        { class: "de-jet", "data-n": entry.n },
        el(
          "p",
          { class: "de-jet-ligne" },
          el("span", { class: "de-jet-no" }, numbered(entry.n)),
          ` ${rollName(entry)} : `,
          el("strong", {}, formatNumber(entry.total)),
        ),
        entry.terms.length ? el("p", { class: "de-jet-des" }, rollWords(entry.terms)) : null,
      ),
    ),
  );
}

// While the roll is under way (Python may still be starting: seconds, the first time).
function showPending(state, expression, mode) {
  clearTimeout(state.pending);
  state.rollTitle.textContent = rollName({ expression, mode });
  delete state.current.dataset.n;
  const starting = rules.status().state !== "ready";
  state.current.replaceChildren(
    el("p", { class: "de-jet-attente" }, starting ? "Préparation du calcul (la première fois, quelques secondes)…" : "Jet en cours…"),
  );
  showPrevious(state, readLog(), null);
  placeDicePopover(state);
}

// Python's files not stored yet, and no network (rules.js's own words speak of « ce
// calculateur »; here, of the dice).
const UNAVAILABLE =
  "Jet impossible hors ligne pour l’instant : les dés fonctionneront quand les fichiers du site " +
  "seront téléchargés (état en bas de page).";

function showFailure(state, expression, mode, error) {
  const message = error && error.kind === "unavailable" ? UNAVAILABLE : `Jet impossible : ${error && error.message}`;
  state.rollTitle.textContent = rollName({ expression, mode });
  state.current.replaceChildren(el("p", { class: "de-jet-erreur" }, message));
  state.announce.textContent = message;
}

function showRoll(state, entry, log) {
  state.rollTitle.textContent = `Jet ${numbered(entry.n)} · ${rollName(entry)}`;
  state.current.dataset.n = entry.n;
  state.current.replaceChildren(
    el("p", { class: "de-jet-total" }, formatNumber(entry.total)),
    entry.terms.length ? el("p", { class: "de-jet-des" }, ...rollNodes(entry.terms)) : null,
  );
  highlight(state.current);
  state.announce.textContent = `Jet ${numbered(entry.n)}, ${rollName(entry)} : ${formatNumber(entry.total)}. ${rollWords(entry.terms)}`;
  showPrevious(state, log, entry.n);
}

function showLastTotal(dice, entry) {
  const output = lastTotals.get(dice);
  if (!output || !output.isConnected) return;
  output.textContent = formatNumber(entry.total);
  output.dataset.jet = entry.n;
  output.setAttribute("aria-label", `Dernier jet de ${shown(dice.dataset.de)} : ${formatNumber(entry.total)}`);
  highlight(output);
}

/** Rolls `dice` (its expression; with `mode` "advantage" or "disadvantage", two d20) and shows
 * the roll in the tray, opened at it; the roll joins the session's log. */
async function rollDice(dice, mode) {
  const opened = openDicePopover(dice, "jet");
  const state = dicePopover;
  const mine = ++state.rolls;
  const expression = dice.dataset.de;
  const oneD20 = Boolean(withD20(expression));
  const rolled = oneD20 ? mode : "";
  state.advantage.hidden = !oneD20;
  state.disadvantage.hidden = !oneD20;
  const compiled = readTerms(dice.dataset.deTermes);
  const terms = compiled && rolled ? twoD20Terms(compiled, rolled === "advantage" ? "kh" : "kl") : compiled;
  if (terms) {
    showLocalRoll(dice, state, opened, { expression, mode: rolled, ...rollTerms(terms) });
    return;
  }
  // A roll of the tray already open, with Python ready, takes a few milliseconds: the roll
  // before stays until it comes, rather than the tray flickering through « Jet en cours ».
  clearTimeout(state.pending);
  if (opened || rules.status().state !== "ready") showPending(state, expression, rolled);
  else state.pending = setTimeout(() => showPending(state, expression, rolled), 300);
  placeDicePopover(state);
  if (opened) state.box.focus({ preventScroll: true });
  const showing = () => mine === state.rolls && state.owner === dice && state.part === "jet" && isOpen(state);
  let outputs;
  try {
    outputs = await answer("dice", {
      expression: rolledExpression(expression, rolled),
      seed: crypto.getRandomValues(new Uint32Array(1))[0],
    });
  } catch (error) {
    // Not rolled (Python not there yet offline…): said in the tray, kept out of the log.
    if (mine === state.rolls) clearTimeout(state.pending);
    if (showing()) {
      showFailure(state, expression, rolled, error);
      placeDicePopover(state);
    }
    return;
  }
  const roll = outputs.roll || { total: outputs.roll_total, terms: [] };
  const { entry, log } = logRoll({
    expression,
    mode: rolled,
    total: roll.total,
    terms: Array.isArray(roll.terms) ? roll.terms.filter(validTerm) : [],
  });
  showLastTotal(dice, entry);
  if (mine === state.rolls) clearTimeout(state.pending);
  if (showing()) {
    showRoll(state, entry, log);
    placeDicePopover(state);
  }
}

/** A roll drawn here (`roll`: { expression, mode, total, terms }): logged and shown at once. */
function showLocalRoll(dice, state, opened, roll) {
  clearTimeout(state.pending);
  const { entry, log } = logRoll(roll);
  showLastTotal(dice, entry);
  showRoll(state, entry, log);
  placeDicePopover(state);
  if (opened) state.box.focus({ preventScroll: true });
}

function setupDice(button) {
  if (button.dataset.pret) return;
  button.dataset.pret = "1";
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-expanded", "false");
  const chances = el("button", {
    type: "button",
    class: "de-chances",
    "data-de": button.dataset.de,
    "aria-label": `Chances de ${button.dataset.de}`,
    title: `Chances de ${button.dataset.de}`,
    "aria-haspopup": "dialog",
    "aria-expanded": "false",
  });
  chances.append(barsIcon());
  // An <output> is a live region of its own: the tray says each roll already.
  const result = el("output", { class: "de-resultat", "aria-live": "off" });
  lastTotals.set(button, result);
  // The dice, its « Chances » and its badge on one line: in a narrow cell, « Chances » alone
  // on the next line reads as another button. (A calculator's quick dice have theirs.)
  if (button.parentElement && !button.parentElement.matches(".champ-de")) {
    const together = el("span", { class: "de-groupe" });
    button.before(together);
    together.append(button);
  }
  button.after(chances, result);
  button.addEventListener("click", () => rollDice(button, ""));
  // A tap on « Chances » while its chart is open closes it: the tap outside the popover
  // has closed it already (light dismiss, on the way down), it must not open it again.
  let wasOpen = false;
  chances.addEventListener("pointerdown", () => {
    wasOpen = Boolean(dicePopover && isOpen(dicePopover) && dicePopover.owner === chances);
  });
  chances.addEventListener("click", () => {
    if (wasOpen && !(dicePopover && isOpen(dicePopover))) {
      wasOpen = false;
      return;
    }
    wasOpen = false;
    showDicePopover(chances);
  });
  // A right click or a long press opens the chart too, once the pointer is up: Chromium
  // (150) closes at once a popover shown while a pointer is down (during « contextmenu »).
  // The keyboard's context menu key opens it at once.
  let held = null; // while a pointer is down on the dice: what to do once it is up
  button.addEventListener("pointerdown", () => {
    held = () => {};
    const release = () => {
      window.removeEventListener("pointerup", release);
      window.removeEventListener("pointercancel", release);
      const then = held;
      held = null;
      if (then) then();
    };
    window.addEventListener("pointerup", release);
    window.addEventListener("pointercancel", release);
  });
  button.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    if (held) held = () => showDicePopover(chances);
    else showDicePopover(chances);
  });
}

function placeOpenPopover() {
  if (dicePopover) placeDicePopover(dicePopover);
}
window.addEventListener("scroll", placeOpenPopover, { passive: true });
window.addEventListener("resize", placeOpenPopover, { passive: true });

onEachPage(() => {
  hideDicePopover();
  document.querySelectorAll("button.de[data-de]").forEach(setupDice);
});
