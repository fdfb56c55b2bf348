/* The dice of the rule texts (features/calculators/dice_buttons.py writes them as buttons):
 * a tap rolls one through the rules code's dice calculator (kit/dice.py), « Chances » beside
 * it opens its law of chances. */
import { barsIcon } from "./charts.js";
import { el, onEachPage, rules } from "./page.js";
import { DICE_CHART, drawInto, formatNumber, run } from "./rules.js";

// A tap (click, Enter, Space) on a dice expression of the text rolls it, as at the table: the
// result follows it. The small button after it, « Chances », opens its chart beside the text
// (a popover: over the page, not inserted in the sentence), where a threshold can be given;
// a tap outside, Escape or « Fermer » closes it. A long press (a right click) on the dice
// opens it too. One popover per page, moved to the button that opened it.
const POPOVERS = "popover" in HTMLElement.prototype;
let dicePopover = null;

function popoverFor(trigger) {
  if (dicePopover && dicePopover.box.isConnected) return dicePopover;
  const heading = el("p", { class: "de-pop-titre", id: "de-pop-titre" });
  const target = el("input", {
    type: "number",
    inputmode: "numeric",
    step: "1",
    id: "de-pop-seuil",
    "aria-describedby": "de-pop-titre",
  });
  const chart = el("div", { class: "graphique-place", "aria-live": "polite" });
  const close = el("button", { type: "button", class: "md-button de-fermer" }, "Fermer");
  const box = el(
    "div",
    { class: "de-pop", role: "dialog", "aria-labelledby": "de-pop-titre", tabindex: "-1", popover: POPOVERS ? "auto" : null, hidden: !POPOVERS },
    heading,
    el("p", { class: "de-pop-seuil" }, el("label", { for: "de-pop-seuil" }, "Au moins "), target),
    chart,
    close,
  );
  (trigger.closest(".md-typeset") || document.body).append(box);
  dicePopover = { box, heading, target, chart, owner: null, generation: 0, timer: null };
  const state = dicePopover;
  close.addEventListener("click", () => hideDicePopover());
  target.addEventListener("input", () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => fillDicePopover(state), 120);
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

async function fillDicePopover(state) {
  const owner = state.owner;
  if (!owner) return;
  const mine = ++state.generation;
  const expression = owner.dataset.de;
  const raw = state.target.value.trim();
  const inputs = { expression };
  if (/^-?\d+$/.test(raw)) inputs.target = Number(raw);
  if (rules.status().state !== "ready" && !state.chart.firstChild) state.heading.textContent = `${expression} : préparation du calcul…`;
  try {
    const outputs = await run("dice", inputs);
    if (mine !== state.generation || state.owner !== owner) return;
    state.heading.textContent = `Chances de ${expression} : moyenne ${formatNumber(outputs.mean)}, de ${formatNumber(outputs.min)} à ${formatNumber(outputs.max)}`;
    drawInto(state.chart, DICE_CHART, outputs.distribution, outputs);
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
  if (isOpen(state)) hideDicePopover();
  state.owner = trigger;
  state.target.value = "";
  state.chart.replaceChildren();
  state.heading.textContent = `Chances de ${trigger.dataset.de}`;
  trigger.setAttribute("aria-expanded", "true");
  if (POPOVERS) state.box.showPopover();
  else state.box.hidden = false;
  placeDicePopover(state);
  state.box.focus({ preventScroll: true });
  fillDicePopover(state);
}

function setupDice(button) {
  if (button.dataset.pret) return;
  button.dataset.pret = "1";
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
  const result = el("output", { class: "de-resultat", "aria-live": "polite" });
  button.after(chances, result);
  async function roll() {
    result.textContent = "…";
    try {
      const outputs = await run("dice", {
        expression: button.dataset.de,
        seed: crypto.getRandomValues(new Uint32Array(1))[0],
      });
      result.textContent = ` → ${outputs.roll_total}`;
      result.title = outputs.roll_text || "";
    } catch (error) {
      result.textContent = ` ${error.message}`;
    }
  }
  button.addEventListener("click", roll);
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
  button.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    showDicePopover(chances);
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
