/* A calculator form and the reader's character (characters.js): the values a form keeps for
 * the character, shown, shared with the other forms, and what a form says of whose values
 * it shows. */
import { CHARACTER_CHANGED, currentCharacter, keepValues, keptValue, manageCharacters } from "./characters.js";
import { addRow, fieldLabel, fillRows, showRowFields, writeControl } from "./form-controls.js";
import { keptText, unreadableNote } from "./form-values.js";
import { el, onItsOwn, parsedOr } from "./page.js";


// The fields a reader's character keeps (characters.js): the form's own controls and its
// lists, each naming its keys (forms.py, data-garde).
export const FORMS = new WeakMap(); // a set-up form → { example: its values as built, schedule }

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

export const formValues = (form) => keptFields(form).map(heldValue);
export const sameValues = (a, b) => {
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
export function fillFromCharacter(form, character, example) {
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
export const NOTES = new WeakMap();

// Each form says whose values it shows (form.dataset.valeurs): the rules' worked example
// while the reader has no character, a shared link's, or the character's.
export function showCharacter(form, problem = "") {
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
    // A field that starts from a worked example of the rules (the kit's `initial`), or none.
    const example = form.querySelector("[data-sans-exemple]");
    const start = example ? "Exemple des règles" : "Valeurs de départ";
    parts.push(`${start} : vos valeurs seront gardées dans ce navigateur dès que vous en changerez une. `);
    if (example) {
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
export function changedByReader(form) {
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
