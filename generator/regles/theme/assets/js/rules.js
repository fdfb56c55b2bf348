/* The calculator widgets generated at build time, computed through worker-client.js's
 * `answer` (a Pyodide module worker; before it is ready, the page's twin of the dice
 * calculator, dice-calculator.js; the dice of the texts: dice.js).
 * The main thread never runs Python; Pyodide starts only on pages that need it.
 * Here: each form set up, computed, shown, folded until the reader nears it. Its fields are
 * form-controls.js's, its numbers numbers.js's, its character's values character-forms.js's,
 * its headline results headlines.js's. */
import { currentCharacter } from "./characters.js";
import { drawChart } from "./charts.js";
import { el, onEachPage, onItsOwn, parsedOr, rules, whenIdle } from "./page.js";
import { isRecord, unreadableNote } from "./form-values.js";
import { answer, answeredAtOnce, boot, pythonState, unavailableIn } from "./worker-client.js";
import { changedByReader, fillFromCharacter, FORMS, formValues, NOTES, sameValues, showCharacter } from "./character-forms.js";
import { addRow, fillForm, missingFields, readForm, showRowFields, takePreset } from "./form-controls.js";
import { followHeadlines, keepAboveTheBottom, watchHeadlines } from "./headlines.js";
import { exactValue, formatValue } from "./numbers.js";

export { answer };

/* ---------------------------------------------------------------- charts */

// The chart of the dice calculator's `distribution` (kit/dice.py, its catalogue
// entry; tests/test_charts_browser.py checks that they agree), for the inline dice buttons.
export const DICE_CHART = {
  x_label: "Total",
  y_label: "Chance",
  threshold: "target",
  chance: "p_at_least",
  chance_text: "d’obtenir au moins {threshold}",
  at_most: false,
};

// The same, for a threshold not to go over (a game that rolls under a score): the chance of
// that total or less, the bars up to it marked.
export const DICE_CHART_AT_MOST = {
  ...DICE_CHART,
  chance: "p_at_most",
  chance_text: "d’obtenir au plus {threshold}",
  at_most: true,
};

const readSpec = (place) => parsedOr(place.dataset.spec || "{}", {});

// Draws a chart (charts.js) in `place`, keeping its table open if the reader opened it.
export function drawInto(place, spec, value, outputs) {
  const open = Boolean(place.querySelector("details[open]"));
  const chart = drawChart(spec, value, outputs, rules.format);
  if (chart && open) chart.querySelector("details").open = true;
  place.replaceChildren(...(chart ? [chart] : []));
}

rules.charts = {
  draw: (spec, value, outputs) => drawChart(spec, value, outputs, rules.format),
  dice: DICE_CHART,
};

/* ---------------------------------------------------------------- widgets */

function clearErrors(form) {
  for (const error of form.querySelectorAll(".erreur")) error.textContent = "";
  for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
}

function showError(form, error) {
  const state = form.querySelector(".calculateur-etat");
  let target = null;
  if (error.field) {
    // "items[2].level" → the control "level" of the third row of the list "items".
    const match = /^(\w+)(?:\[(\d+)\](?:\.(\w+))?)?$/.exec(error.field);
    if (match && match[2] !== undefined) {
      const list = form.querySelector(`fieldset.liste[data-liste="${CSS.escape(match[1])}"]`);
      const row = list && list.querySelectorAll(".liste-ligne")[Number(match[2])];
      target = row && match[3] ? row.querySelector(`[name="${CSS.escape(match[3])}"]`) : list;
    } else if (match) {
      target = form.querySelector(`.calculateur-champs > .champ [name="${CSS.escape(match[1])}"]`);
    }
  }
  const holder = target && (target.closest(".champ") || target);
  const slot = holder && holder.querySelector(".erreur");
  if (slot) {
    slot.textContent = error.message;
    if (target.matches("[data-type]")) target.setAttribute("aria-invalid", "true");
    state.textContent = "Une valeur est à corriger.";
  } else {
    state.textContent = error.kind === "unavailable" ? unavailableIn(form) : error.message;
  }
}

function mirrorInUrl(id, inputs) {
  const url = new URL(location.href);
  url.searchParams.set(id, JSON.stringify(inputs));
  history.replaceState(history.state, "", url);
}

const linkedRaw = (id) => new URL(location.href).searchParams.get(id);

function inputsFromUrl(id) {
  const raw = linkedRaw(id);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw);
    return isRecord(value) ? value : null;
  } catch {
    return null; // a damaged shared link leaves the defaults in place (linkDamaged)
  }
}

const LINK_DAMAGED = "Le lien partagé est illisible pour ce calculateur : il garde ses valeurs.";
const linkDamaged = (id) => Boolean(linkedRaw(id)) && !inputsFromUrl(id);

function renderOutputs(form, outputs) {
  for (const output of form.querySelectorAll("output[name]")) {
    const name = output.getAttribute("name");
    output.textContent = formatValue(name, outputs);
    // Its exact value, a tap away (regles.css), as the build writes it (forms.py).
    const exact = exactValue(name, outputs);
    if (exact === null) {
      for (const attribute of ["data-exacte", "tabindex", "title"]) output.removeAttribute(attribute);
    } else {
      output.dataset.exacte = exact;
      output.tabIndex = 0;
      output.title = `Valeur exacte : ${exact}`;
    }
  }
  for (const value of form.querySelectorAll(".calculateur-resume__valeur[data-sortie] b")) {
    value.textContent = formatValue(value.parentElement.dataset.sortie, outputs);
  }
  for (const place of form.querySelectorAll(".graphique-place[data-graphique]")) {
    drawInto(place, readSpec(place), outputs[place.dataset.graphique], outputs);
  }
  for (const table of form.querySelectorAll("table[data-sortie]")) {
    const columns = [...table.querySelectorAll("th[data-cle]")].map((th) => [th.dataset.cle, th.textContent]);
    const records = outputs[table.dataset.sortie];
    // Each cell names its column (as features/calculators/forms.py writes them): on a phone, a row is
    // read as a card. A text node, not a string: el() would French-space the rules code's
    // values, which are shown as it wrote them (as the build leaves an `output`).
    const rows = (Array.isArray(records) ? records : []).map((record) =>
      el("tr", {}, ...columns.map(([key, label]) => el("td", { "data-colonne": label }, document.createTextNode(formatValue(key, record))))),
    );
    table.tBodies[0].replaceChildren(...rows);
  }
}

// Results of values that are no longer valid (a field emptied or refused) are taken away,
// not left beside the message as if they still held.
function clearOutputs(form) {
  renderOutputs(form, {});
  delete form.dataset.resultat;
  form.dataset.sansResultat = "1"; // the units go with the values (regles.css)
}

/* ---------------------------------------------------------------- a form set up */

// Each set-up form's first computation, asked for when the form comes near the screen.
const firstResult = new WeakMap();

function setupWidget(form) {
  if (form.dataset.pret) return;
  form.dataset.pret = "1";
  const id = form.dataset.calculateur;
  const state = form.querySelector(".calculateur-etat");
  for (const list of form.querySelectorAll("fieldset.liste")) {
    let defaults = [];
    try {
      defaults = JSON.parse(list.dataset.defaut || "[]");
    } catch {
      defaults = [];
    }
    // The build wrote the default rows: only a form without them gets them here.
    if (!list.querySelector(".liste-lignes").children.length) for (const value of defaults) addRow(list, value);
    list.querySelector(".liste-ajouter").addEventListener("click", () => {
      addRow(list, null);
      changedByReader(form);
      // The new row's first field, its default selected: what the reader types replaces it.
      const first = list.querySelector(".liste-lignes").lastElementChild?.querySelector("input[data-type], select[data-type]");
      if (first) {
        first.focus();
        if (first.select) first.select();
      }
    });
    list.addEventListener("click", (event) => {
      const button = event.target.closest(".liste-retirer");
      if (!button) return;
      button.closest(".liste-ligne").remove();
      changedByReader(form);
    });
  }
  for (const row of form.querySelectorAll(".liste-lignes > .liste-ligne")) showRowFields(row);
  const home = location.pathname;
  const shared = inputsFromUrl(id);
  const example = formValues(form);
  const character = currentCharacter();
  form.dataset.valeurs = character ? "personnage" : "exemple";
  const notes = [];
  if (character) notes.push(unreadableNote(fillFromCharacter(form, character, example), "personnage"));
  const kept = formValues(form);
  if (!shared && linkDamaged(id)) notes.push(LINK_DAMAGED);
  if (shared) {
    notes.push(unreadableNote(fillForm(form, shared), "lien"));
    // The address the page itself wrote (mirrorInUrl) holds the character's own values.
    if (!character || !sameValues(kept, formValues(form))) form.dataset.valeurs = "lien";
  }
  // Values other than the build's: its result goes, until they are computed.
  const asBuilt = sameValues(example, formValues(form));
  if (!asBuilt) clearOutputs(form);

  let generation = 0;
  let seed = null;
  async function compute(mirror) {
    // A late event (a `change` on blur, a pending delay as the reader goes to another
    // page) must not write this form's inputs into the next page's address: instant
    // navigation changes the address before it swaps the content.
    if (!form.isConnected || location.pathname !== home) return;
    const mine = ++generation;
    clearErrors(form);
    if (missingFields(form).length) {
      clearOutputs(form);
      state.textContent = "Une valeur est à corriger.";
      return;
    }
    const inputs = readForm(form);
    if (seed !== null) inputs.seed = seed;
    if (mirror) {
      const { seed: _ignored, ...shown } = inputs;
      mirrorInUrl(id, shown);
    }
    if (pythonState() !== "ready" && !answeredAtOnce(id)) state.textContent = "Préparation du calculateur…";
    try {
      const outputs = await answer(id, inputs);
      if (mine !== generation || pending) return; // values changed since: computed next
      clearErrors(form);
      renderOutputs(form, outputs);
      form.dataset.resultat = "1";
      delete form.dataset.sansResultat;
      state.textContent = "";
    } catch (error) {
      if (mine !== generation || pending) return;
      clearErrors(form);
      clearOutputs(form);
      showError(form, error);
    }
  }
  // Each change is computed at once (a calculation takes a millisecond once Python is
  // ready: the answer is painted in the frame after the keystroke). Changes made while a
  // calculation runs (Python starting, a long law of dice) are computed once it is over,
  // together: the worker never queues a calculation per keystroke.
  let running = false;
  let pending = false;
  function schedule() {
    if (running) {
      pending = true;
      return;
    }
    running = true;
    compute(true).finally(() => {
      running = false;
      if (!pending) return;
      pending = false;
      schedule();
    });
  }
  const mirror = () => {
    if (form.isConnected && location.pathname === home) mirrorInUrl(id, readForm(form));
  };
  FORMS.set(form, { example, schedule, mirror });
  NOTES.set(form, notes.filter(Boolean).join(" "));
  showCharacter(form);
  const edited = (event) => {
    const row = event.target.closest && event.target.closest(".liste-ligne");
    if (row) {
      takePreset(event.target);
      showRowFields(row);
    }
    changedByReader(form);
  };
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    compute(true);
  });
  const roll = form.querySelector(".calculateur-lancer");
  if (roll) {
    roll.addEventListener("click", async () => {
      seed = crypto.getRandomValues(new Uint32Array(1))[0];
      await compute(false);
      // The roll asked for, in view: not under the notices or the headline line at the
      // bottom of the screen (its results are marked by forms.py).
      const drawn = [...form.querySelectorAll(".sortie[data-tirage]")].pop();
      if (drawn && form.dataset.resultat) keepAboveTheBottom(form, drawn);
    });
  }
  followHeadlines(form);
  // A shared link asked for this calculator's result: at once, wherever it is on the page.
  if (shared) {
    compute(false);
    return;
  }
  // The build wrote the result of the values it shows: Python is needed from the first
  // change on, not before. A character's values are computed as the form comes near.
  if (form.dataset.resultat === "defaut" && asBuilt) {
    state.textContent = pythonState() === "unavailable" && !answeredAtOnce(id) ? unavailableIn(form) : "";
    firstResult.set(form, () => {});
    return;
  }
  state.textContent = "Préparation du calculateur…";
  firstResult.set(form, () => compute(false));
  whenNearTheScreen(form);
}

// An observer that calls `action` once for each element it watches, when that element
// comes within `margin` of the screen; null in a browser without IntersectionObserver.
function onceNear(margin, action) {
  if (!("IntersectionObserver" in window)) return null;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        onItsOwn(() => action(entry.target)); // the next ones go on
      }
    },
    { rootMargin: margin },
  );
  return observer;
}

// A form far down the page is parsed folded (main.html, rules.fold): its title and
// description only. It is unfolded and set up a screen before the reader reaches it, so
// that it is whole by the time it is seen and nothing shifts on the screen.
let approach = null;
// Asks main.html's fold script to put a folded form's fields back (see rules.fold there).
const UNFOLD_EVENT = "rules:unfold";

const BROKEN = "Ce calculateur n’a pas pu démarrer : rechargez la page pour réessayer.";

/** Unfolds and sets up `form`, on its own: one that fails says so in its place, and the
 * page's other forms go on. */
export function openWidget(form) {
  onItsOwn(
    () => {
      unfold(form);
      setupWidget(form);
    },
    () => {
      const state = form.querySelector(".calculateur-etat");
      if (state) state.textContent = BROKEN;
    },
  );
}

export function folded(form) {
  const body = form.querySelector(".calculateur-corps");
  return Boolean(body && body.hidden);
}

function unfold(form) {
  const body = form.querySelector(".calculateur-corps");
  if (!body) return;
  // Its fields back first (main.html's fold listens; a form it did not fold has no listener).
  body.dispatchEvent(new CustomEvent(UNFOLD_EVENT));
  body.hidden = false;
}

// A folded form that ends in the upper half of the screen or above it (the reader scrolls
// up, jumped past it, or landed just below it before the script came) grows upwards: the
// page is scrolled by what it grew, so that the text the reader is on stays put. Lower
// down, it grows downwards, below what the reader is on. Measured after the change, so
// that any scroll anchoring by the browser is counted.
function openAndKeepInPlace(form) {
  const before = form.getBoundingClientRect();
  openWidget(form);
  if (before.bottom > window.innerHeight / 2) return;
  const grown = form.getBoundingClientRect().bottom - before.bottom;
  if (grown) window.scrollBy(0, grown);
}

function watchApproach() {
  if (approach) approach.disconnect(); // the previous page's forms (instant navigation)
  approach = onceNear("100% 0px", openAndKeepInPlace);
}

function unfoldTarget() {
  // An address that names something inside a folded form (an input's id).
  let id = "";
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return; // a damaged address names nothing
  }
  const target = id && document.getElementById(id);
  const form = target && target.closest("form.calculateur");
  if (!form) return;
  // The browser may have unfolded it first (its fragment scroll fires « beforematch » on the
  // span that held the id), then lost its target when the field took the span's place.
  if (folded(form)) openWidget(form);
  document.getElementById(id).scrollIntoView(); // the field, no longer what held its id
}

// A widget computes its first result when it comes near the screen: a page of sixteen
// calculators does not compute and redraw sixteen results at once while it loads.
let visibility = null;

function watchVisibility() {
  if (visibility) visibility.disconnect(); // the previous page's forms (instant navigation)
  visibility = onceNear("300px 0px", (form) => firstResult.get(form)?.());
}

function whenNearTheScreen(form) {
  if (visibility) visibility.observe(form);
  else firstResult.get(form)?.();
}

// Every folded form unfolded at once, the page kept where it is: for paper, which has no
// scrolling, and for the find in page of a browser that cannot search a folded form (one
// that does not know hidden="until-found": opened from the keyboard, Ctrl+F, ⌘F, F3; on a
// phone there is no key to listen to, and such a browser finds the titles only).
function openAllInPlace() {
  for (const form of document.querySelectorAll("form.calculateur")) {
    if (!folded(form)) continue;
    if (approach) approach.unobserve(form);
    openAndKeepInPlace(form);
  }
}

// A browser that knows hidden="until-found" (main.html) searches folded forms itself: it
// unfolds the one where it found the text (or that a link to a text names) and scrolls to
// it; the form, now near the reader, is set up by the approach observer.
const FINDS_FOLDED = "onbeforematch" in document.documentElement;

document.addEventListener("keydown", (event) => {
  const find =
    event.key === "F3" ||
    ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "f");
  if (find && !FINDS_FOLDED) openAllInPlace();
});
window.addEventListener("beforeprint", openAllInPlace);
window.addEventListener("hashchange", unfoldTarget);

/* ---------------------------------------------------------------- page set-up */

function setupPage() {
  watchVisibility();
  watchApproach();
  watchHeadlines();
  const forms = document.querySelectorAll("form.calculateur");
  // A die the build wrote the terms of rolls without Python (dice.js): only its chances ask.
  const dice = document.querySelectorAll("button.de[data-de]:not([data-de-termes])");
  // The dice calculator is answered in the page (worker-client.js, `answer`): alone, it does
  // not bring Python's 20 MB down on the reader's link.
  const needPython = [...forms].some((form) => !answeredAtOnce(form.dataset.calculateur));
  for (const form of forms) {
    // A shared link's inputs are shown and computed at once, wherever the form is.
    if (folded(form) && approach && !inputsFromUrl(form.dataset.calculateur)) {
      approach.observe(form);
    } else {
      openWidget(form);
    }
  }
  onItsOwn(unfoldTarget);
  if ((needPython || dice.length) && pythonState() === "idle") {
    // Start Python while the reader reads, not while the page is still loading: once the
    // page has been painted (as the offline download, offline.js), when the browser is
    // idle. A calculator used before that starts it at once (once the page has loaded, boot).
    requestAnimationFrame(() => setTimeout(() => whenIdle(() => boot().catch(() => {})), 0));
  }
}

onEachPage(setupPage);
