/* A calculator form's fields: each control read and written as the rules take its value
 * (numbers, choices, boxes, lists of rows), the form read whole and filled, and the required
 * fields left empty. */
import { isRecord, linkedOption, linkedText } from "./form-values.js";
import { readNumber } from "./numbers.js";
import { foldAccents, parsedOr } from "./page.js";

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
export function writeControl(control, value) {
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
export function fieldLabel(field) {
  const list = field.closest("fieldset.liste");
  if (list) return list.querySelector("legend")?.textContent.trim() || list.dataset.liste;
  const label = field.closest(".champ")?.querySelector("label");
  return label ? label.textContent.trim() : field.name;
}

/* Rows of a list: the fields that count only for some rows (forms.py, data-si), and the
 * presets a row takes by its name (a datalist's data-modeles). */
export function showRowFields(row) {
  for (const holder of row.querySelectorAll(".champ[data-si]")) {
    const control = row.querySelector(`[data-type][name="${CSS.escape(holder.dataset.si)}"]`);
    const values = parsedOr(holder.dataset.siValeurs, []);
    holder.hidden = Boolean(control) && !values.includes(control.value);
  }
}

const PRESETS = new WeakMap(); // a datalist → its presets
const comparable = (text) => foldAccents(String(text ?? "")).trim().toLowerCase().replace(/\s+/g, " ");

/** The row of `control` (a field with presets) takes the preset it names, if any. */
export function takePreset(control) {
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
export function addRow(list, values) {
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
export function fillRows(list, records, add) {
  const rows = list.querySelector(".liste-lignes");
  const before = [...rows.children];
  rows.replaceChildren();
  if (Array.isArray(records) && records.every((record) => isRecord(record) && add(list, record))) return true;
  rows.replaceChildren(...before);
  return false;
}

export function readForm(form) {
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
export function fillForm(form, inputs) {
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

// A required field left empty: its message, and no result computed from a hidden default.
export function missingFields(form) {
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
