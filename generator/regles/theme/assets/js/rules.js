/* The calculator widgets generated at build time, computed through window.rules.run()
 * (worker-client.js: a Pyodide module worker; the dice of the texts: dice.js).
 * The main thread never runs Python; Pyodide starts only on pages that need it. */
import { CHARACTER_CHANGED, currentCharacter, keepValues, keptValue, manageCharacters } from "./characters.js";
import { drawChart } from "./charts.js";
import { el, foldAccents, onEachPage, onItsOwn, parsedOr, rules, whenIdle } from "./page.js";
import { isRecord, keptText, linkedOption, linkedText, unreadableNote } from "./form-values.js";
import { UNAVAILABLE, boot, pythonState, run } from "./worker-client.js";

export { run };

/* ---------------------------------------------------------------- formatting */

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
function exactValue(name, outputs) {
  const value = outputs[name];
  const exact = outputs[name + "_exact"];
  if (typeof value !== "number" || typeof exact !== "string") return null;
  return exact.endsWith("/1") ? null : exact;
}

function formatValue(name, outputs) {
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

/* ---------------------------------------------------------------- charts */

// The chart of the dice calculator's `distribution` (kit/dice.py, its catalogue
// entry; tests/test_charts_browser.py checks that they agree), for the inline dice buttons.
export const DICE_CHART = {
  x_label: "Total",
  y_label: "Chance",
  threshold: "target",
  chance: "p_at_least",
  chance_text: "d’obtenir au moins {threshold}",
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

// A number as phones and people type it: « 7,5 » or « 7.5 », a sign, spaces between the
// thousands (« 1 500 »). Anything else (« 7,5,2 », « 1,000.5 », « douze ») stays the text it
// is, and the rules say the field wants a number: never a different number than the one meant.
const TYPED_NUMBER = /^[-+−]?(\d+([.,]\d*)?|[.,]\d+)$/;

export function readNumber(raw) {
  const compact = raw.replace(/[\s\u00a0\u202f]/g, "");
  if (!TYPED_NUMBER.test(compact)) return raw;
  return Number(compact.replace("−", "-").replace(",", "."));
}

function readControl(control) {
  const type = control.dataset.type;
  if (type === "bool") return control.checked;
  const raw = control.value.trim();
  if (type === "choice") {
    const option = control.selectedOptions[0];
    return option && option.dataset.json ? JSON.parse(option.dataset.json) : raw;
  }
  if (raw === "") return undefined; // the calculator's default applies
  if (type === "int" || type === "float") return readNumber(raw);
  if (type === "int_list") {
    return raw
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((token) => (/^-?\d+$/.test(token) ? Number(token) : token));
  }
  return raw;
}

/** Writes a link's `value` into `control` as a reader would have typed or chosen it; false,
 * the control left as it was, for a value no reader could give it (form-values.js). */
function writeControl(control, value) {
  const type = control.dataset.type;
  if (type === "bool") {
    if (typeof value !== "boolean") return false;
    control.checked = value;
    return true;
  }
  if (control.tagName === "SELECT") {
    // Not one of its options: never left to show the first option as if it were chosen.
    const wanted = linkedOption(type, value);
    const option = [...control.options].find((o) => (type === "choice" ? o.dataset.json : o.value) === wanted);
    if (wanted === undefined || !option) return false;
    option.selected = true;
    return true;
  }
  const text = linkedText(type, value);
  if (text === undefined) return false;
  control.value = text;
  return true;
}

/** What the form calls `field` (a control, or a list's fieldset), to name it in a message. */
function fieldLabel(field) {
  const list = field.closest("fieldset.liste");
  if (list) return list.querySelector("legend")?.textContent.trim() || list.dataset.liste;
  const label = field.closest(".champ")?.querySelector("label");
  return label ? label.textContent.trim() : field.name;
}

function ownControls(container) {
  return [...container.querySelectorAll("[data-type]")].filter(
    (c) => c.closest(".liste-ligne") === container.closest(".liste-ligne") || container.classList.contains("liste-ligne"),
  );
}

/* Rows of a list: the fields that count only for some rows (forms.py, data-si), and the
 * presets a row takes by its name (a datalist's data-modeles). */
function showRowFields(row) {
  for (const holder of row.querySelectorAll(".champ[data-si]")) {
    const control = row.querySelector(`[data-type][name="${CSS.escape(holder.dataset.si)}"]`);
    const values = parsedOr(holder.dataset.siValeurs, []);
    holder.hidden = Boolean(control) && !values.includes(control.value);
  }
}

const PRESETS = new WeakMap(); // a datalist → its presets
const comparable = (text) => foldAccents(String(text ?? "")).trim().toLowerCase().replace(/\s+/g, " ");

/** The row of `control` (a field with presets) takes the preset it names, if any. */
function takePreset(control) {
  const row = control.closest(".liste-ligne");
  const offered = control.list;
  if (!row || !offered) return;
  if (!PRESETS.has(offered)) {
    const presets = parsedOr(offered.dataset.modeles, []);
    PRESETS.set(offered, Array.isArray(presets) ? presets : []);
  }
  const typed = comparable(control.value);
  const preset = PRESETS.get(offered).find((p) => p && comparable(p[control.name]) === typed);
  if (!preset) return;
  for (const other of row.querySelectorAll("[data-type]")) {
    if (other !== control && other.name in preset) writeControl(other, preset[other.name]);
  }
}

/** Adds a row to `list`, filled with a link's `values` (a record) if any; false when the list
 * is full or a value could not be written. */
function addRow(list, values) {
  const rows = list.querySelector(".liste-lignes");
  if (rows.children.length >= Number(list.dataset.max || 20)) return false;
  const index = rows.children.length;
  const row = list.querySelector("template").content.firstElementChild.cloneNode(true);
  for (const element of row.querySelectorAll("[id], [for], [aria-describedby]")) {
    for (const attribute of ["id", "for", "aria-describedby"]) {
      const value = element.getAttribute(attribute);
      if (value) element.setAttribute(attribute, value.replaceAll("__i__", String(index)));
    }
  }
  let written = true;
  if (values) {
    for (const control of row.querySelectorAll("[data-type]")) {
      if (Object.hasOwn(values, control.name) && !writeControl(control, values[control.name])) written = false;
    }
  }
  showRowFields(row);
  rows.append(row);
  return written;
}

/** The rows of `list` replaced by those `add(list, record)` makes of `records`, all or none:
 * a value that is not a list of records, or a record that could not be added, leaves the
 * rows as they were (false). */
function fillRows(list, records, add) {
  const rows = list.querySelector(".liste-lignes");
  const before = [...rows.children];
  rows.replaceChildren();
  if (Array.isArray(records) && records.every((record) => isRecord(record) && add(list, record))) return true;
  rows.replaceChildren(...before);
  return false;
}

function readForm(form) {
  const inputs = {};
  for (const control of form.querySelectorAll(".calculateur-champs > .champ [data-type]")) {
    const value = readControl(control);
    if (value !== undefined) inputs[control.name] = value;
  }
  for (const list of form.querySelectorAll("fieldset.liste")) {
    inputs[list.dataset.liste] = [...list.querySelectorAll(".liste-ligne")].map((row) => {
      const item = {};
      for (const control of row.querySelectorAll("[data-type]")) {
        const value = readControl(control);
        if (value !== undefined) item[control.name] = value;
      }
      return item;
    });
  }
  return inputs;
}

/** The form filled with a shared link's `inputs`; returns the labels of the fields that
 * could not take theirs (they keep what they had). */
function fillForm(form, inputs) {
  const unreadable = [];
  for (const control of form.querySelectorAll(".calculateur-champs > .champ [data-type]")) {
    if (Object.hasOwn(inputs, control.name) && !writeControl(control, inputs[control.name])) {
      unreadable.push(fieldLabel(control));
    }
  }
  for (const list of form.querySelectorAll("fieldset.liste")) {
    if (!Object.hasOwn(inputs, list.dataset.liste)) continue;
    if (!fillRows(list, inputs[list.dataset.liste], addRow)) unreadable.push(fieldLabel(list));
  }
  return unreadable;
}

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
    state.textContent = error.message;
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

/* ---------------------------------------------------------------- a reader's character */

// The fields a reader's character keeps (characters.js): the form's own controls and its
// lists, each naming its keys (forms.py, data-garde).
const FORMS = new WeakMap(); // a set-up form → { example: its values as built, schedule }

const keptFields = (form) =>
  [...form.querySelectorAll(".calculateur-champs > .champ [data-garde], fieldset.liste[data-garde]")];

/** What a field holds as typed: a text, a box ticked or not, a list's rows of those. */
function heldValue(field) {
  if (field.matches("fieldset")) {
    return [...field.querySelectorAll(".liste-ligne")].map((row) =>
      Object.fromEntries([...row.querySelectorAll("[data-type]")].map((control) => [control.name, heldValue(control)])),
    );
  }
  return field.type === "checkbox" ? field.checked : field.value;
}

/** Puts back what `heldValue` read; a choice the site no longer offers is left as it is.
 * A value no such field holds (an object, a list of lists: a damaged or hand-made file)
 * leaves the field as it was: false. */
function holdValue(field, value) {
  if (field.matches("fieldset")) {
    return fillRows(field, value, (list, record) => {
      if (!addRow(list, null)) return false;
      const row = list.querySelector(".liste-lignes").lastElementChild;
      const controls = [...row.querySelectorAll("[data-type]")];
      const held = controls.every((control) => !Object.hasOwn(record, control.name) || holdValue(control, record[control.name]));
      showRowFields(row);
      return held;
    });
  }
  if (field.type === "checkbox") {
    if (typeof value !== "boolean") return false;
    field.checked = value;
    return true;
  }
  const text = keptText(value);
  if (text === undefined) return false;
  if (field.tagName !== "SELECT") field.value = text;
  else if ([...field.options].some((option) => option.value === text)) field.value = text;
  return true;
}

const formValues = (form) => keptFields(form).map(heldValue);
const sameValues = (a, b) => {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false; // a kept value too deep to write is no field's value
  }
};

/** A field's value without the worked example the form starts from (its default, written
 * by the build only where the two differ). */
function leaveExample(field) {
  const value = parsedOr(field.dataset.sansExemple, undefined);
  if (value === undefined) return;
  if (!field.matches("fieldset")) {
    writeControl(field, value);
    return;
  }
  field.querySelector(".liste-lignes").replaceChildren();
  for (const row of Array.isArray(value) ? value : []) if (row && typeof row === "object") addRow(field, row);
}

/** The form filled with `character`'s values; a field it has none for, or none it can hold,
 * takes its default: what the build wrote (`example`, as formValues reads it), but for a
 * worked example. Returns the labels of the fields whose kept value could not be held. */
function fillFromCharacter(form, character, example) {
  const unreadable = [];
  keptFields(form).forEach((field, i) => {
    const value = keptValue(character, field.dataset.garde);
    if (value !== undefined && holdValue(field, value)) return;
    if (value !== undefined) unreadable.push(fieldLabel(field));
    if (field.dataset.sansExemple !== undefined) leaveExample(field);
    else holdValue(field, example[i]);
  });
  return unreadable;
}

// What a form says of the values it could not take (a link's, a character's), until it is
// filled again: form → French sentence.
const NOTES = new WeakMap();

// Each form says whose values it shows (form.dataset.valeurs): the rules' worked example
// while the reader has no character, a shared link's, or the character's.
function showCharacter(form, problem = "") {
  let line = form.querySelector(".calculateur-personnage");
  if (!line) {
    line = el("p", { class: "calculateur-personnage" });
    form.querySelector(".calculateur-champs").before(line);
  }
  const character = currentCharacter();
  const manage = el("button", { type: "button", class: "calculateur-personnage__changer" }, "Personnages…");
  manage.addEventListener("click", async () => {
    const failed = await onItsOwn(manageCharacters);
    if (failed === undefined) showCharacter(form, "Les personnages n’ont pas pu s’ouvrir ; rechargez la page.");
    else if (failed) showCharacter(form, failed);
  });
  const parts = [];
  if (form.dataset.valeurs === "lien") {
    parts.push("Valeurs d’un lien partagé : gardées pour votre personnage dès que vous en changez une. ");
  } else if (form.dataset.valeurs === "personnage" && character) {
    parts.push("Valeurs de ", el("strong", {}, character.name), ", gardées dans ce navigateur. ");
  } else {
    parts.push("Exemple des règles : vos valeurs seront gardées dans ce navigateur dès que vous en changerez une. ");
    if (form.querySelector("[data-sans-exemple]")) {
      const clear = el("button", { type: "button", class: "calculateur-personnage__vider" }, "Partir de zéro");
      clear.addEventListener("click", () => {
        for (const field of form.querySelectorAll("[data-sans-exemple]")) leaveExample(field);
        changedByReader(form);
      });
      parts.push(clear, " ");
    }
  }
  parts.push(manage);
  const said = [NOTES.get(form), problem].filter(Boolean).join(" ");
  if (said) parts.push(el("span", { class: "calculateur-personnage__erreur", role: "alert" }, ` ${said}`));
  line.replaceChildren(...parts);
}

/** The reader changed `form`: its values are kept for the character (made if there is
 * none), the page's other forms that share a field take its new value, and it computes. */
function changedByReader(form) {
  const fields = keptFields(form);
  let problem = "";
  if (fields.length) {
    try {
      const character = keepValues(fields.map((field) => [field.dataset.garde, heldValue(field)]));
      const before = form.dataset.valeurs;
      form.dataset.valeurs = "personnage";
      if (before !== "personnage") showCharacter(form);
      shareValues(form, character);
    } catch (error) {
      problem = error.message;
    }
  }
  if (problem) showCharacter(form, problem);
  const state = FORMS.get(form);
  if (!state) return;
  // The address follows at once, not once computed: reloaded meanwhile, the page must not
  // take an older address for a shared link.
  state.mirror();
  state.schedule();
}

function shareValues(source, character) {
  for (const form of document.querySelectorAll("form.calculateur[data-pret]")) {
    if (form === source || form.dataset.valeurs === "lien") continue;
    let changed = false;
    for (const field of keptFields(form)) {
      const value = keptValue(character, field.dataset.garde.split(" ")[0]);
      if (value === undefined || sameValues(value, heldValue(field))) continue;
      // Typed in now (another tab wrote it meanwhile): what the reader types, and the caret, stay.
      if (document.hasFocus() && field.contains(document.activeElement)) continue;
      holdValue(field, value);
      changed = true;
    }
    if (!changed) continue;
    form.dataset.valeurs = "personnage";
    showCharacter(form);
    const other = FORMS.get(form);
    if (other) {
      other.mirror();
      other.schedule();
    }
  }
}

// Another character chosen (or the last one cleared): every form takes its values, or
// the worked example again; renamed, the forms say the new name.
document.addEventListener(CHARACTER_CHANGED, (event) => {
  const character = currentCharacter();
  // Values typed in another tab: the forms take them, as they take those of another form.
  if (event.detail.reason === "updated") {
    if (character) shareValues(null, character);
    return;
  }
  for (const form of document.querySelectorAll("form.calculateur[data-pret]")) {
    const state = FORMS.get(form);
    if (!state) continue;
    onItsOwn(() => {
      if (event.detail.reason === "switched") {
        if (character) {
          NOTES.set(form, unreadableNote(fillFromCharacter(form, character, state.example), "personnage"));
          form.dataset.valeurs = "personnage";
        } else {
          NOTES.delete(form);
          keptFields(form).forEach((field, i) => holdValue(field, state.example[i]));
          form.dataset.valeurs = "exemple";
        }
        state.schedule();
      }
      showCharacter(form);
    });
  }
});

// A required field left empty: its message, and no result computed from a hidden default.
function missingFields(form) {
  const missing = [...form.querySelectorAll('[aria-required="true"]')].filter(
    (control) => control.value.trim() === "" && !control.closest("template"),
  );
  for (const control of missing) {
    const slot = control.closest(".champ").querySelector(".erreur");
    const label = control.closest(".champ").querySelector("label");
    slot.textContent = `Indiquez une valeur${label ? ` : ${label.textContent}` : ""}.`;
    control.setAttribute("aria-invalid", "true");
  }
  return missing;
}

// The headline results (the catalogue's `headline`) stay in view while the form is edited:
// a line of them is kept at the bottom of the screen (CSS: sticky) from the first focus or
// change of a field, for as long as one of the results themselves is not whole on the screen.
const HEADLINE_SHOWN = new WeakMap(); // form → whether its headline results are on the screen
let headlines = null;

function watchHeadlines() {
  if (headlines) headlines.disconnect(); // the previous page's forms (instant navigation)
  if (!("IntersectionObserver" in window)) return;
  // A result counts as on the screen when it is whole there: half a line cut by the bottom
  // of the screen is not read.
  headlines = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const form = entry.target.closest("form.calculateur");
        const seen = HEADLINE_SHOWN.get(form) || new Set();
        if (entry.isIntersecting && entry.intersectionRatio > 0.99) seen.add(entry.target);
        else seen.delete(entry.target);
        HEADLINE_SHOWN.set(form, seen);
        showSummary(form);
      }
    },
    { threshold: [0, 1] },
  );
}

function showSummary(form) {
  const summary = form.querySelector(".calculateur-resume");
  if (!summary) return;
  const all = form.querySelectorAll(".sortie-principale").length;
  const seen = (HEADLINE_SHOWN.get(form) || new Set()).size;
  summary.hidden = !form.dataset.edite || seen >= all;
}

// A field that takes the focus (a tap, the keyboard's « Suivant ») and ends under that line
// of results, or under the notices, is brought above them: the browser brings it into the
// screen, not out from under what the page keeps at its bottom.
function keepAboveTheBottom(form, field) {
  requestAnimationFrame(() => {
    let top = window.innerHeight;
    const summary = form.querySelector(".calculateur-resume");
    if (summary && !summary.hidden) top = Math.min(top, summary.getBoundingClientRect().top);
    const notices = document.querySelector(".regles-avis");
    const stack = notices && notices.getBoundingClientRect();
    if (stack && stack.height) top = Math.min(top, stack.top);
    const overlap = field.getBoundingClientRect().bottom + 8 - top;
    if (overlap > 0) window.scrollBy(0, overlap);
  });
}

function followHeadlines(form) {
  const mark = () => {
    if (form.dataset.edite) return;
    form.dataset.edite = "1";
    showSummary(form);
  };
  // Only when the focus moves: typing in a field does not move it under anything.
  form.addEventListener("focusin", (event) => {
    mark();
    if (event.target.matches("input, select, textarea, button")) keepAboveTheBottom(form, event.target);
  });
  form.addEventListener("input", mark);
  if (headlines) for (const output of form.querySelectorAll(".sortie-principale")) headlines.observe(output);
}

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
    if (pythonState() !== "ready") state.textContent = "Préparation du calculateur…";
    try {
      const outputs = await run(id, inputs);
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
    roll.addEventListener("click", () => {
      seed = crypto.getRandomValues(new Uint32Array(1))[0];
      compute(false);
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
    state.textContent = pythonState() === "unavailable" ? UNAVAILABLE : "";
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
  for (const form of forms) {
    // A shared link's inputs are shown and computed at once, wherever the form is.
    if (folded(form) && approach && !inputsFromUrl(form.dataset.calculateur)) {
      approach.observe(form);
    } else {
      openWidget(form);
    }
  }
  onItsOwn(unfoldTarget);
  if ((forms.length || dice.length) && pythonState() === "idle") {
    // Start Python while the reader reads, not while the page is still loading: once the
    // page has been painted (as the offline download, offline.js), when the browser is
    // idle. A calculator used before that starts it at once (once the page has loaded, boot).
    requestAnimationFrame(() => setTimeout(() => whenIdle(() => boot().catch(() => {})), 0));
  }
}

onEachPage(setupPage);
