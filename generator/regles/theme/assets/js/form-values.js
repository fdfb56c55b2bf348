/* What a calculator's field can take from a shared link or a kept character (rules.js fills
 * the forms with them): a value a reader could have typed or chosen. Anything else (an
 * object, a list of lists, a number that is not finite) is no value for a field: these
 * helpers answer `undefined`, the field keeps what it had, and the form says so in French.
 * Nothing here walks into a value, however deep it is. */

// A list of numbers typed in one field is a few dozen at most.
const MAX_ITEMS = 1000;

/** A number written back into a field the French way: « 7,5 », « 9 ». */
export const numberText = (value) => String(value).replace(".", ",");

const isScalar = (value) =>
  typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));

/** Whether `value` is a plain record (a list's row), not a list nor null. */
export const isRecord = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The text a text or number field (of type `type`) takes for a link's `value`, as a reader
 * would have typed it: the rules then say what is wrong with it, as with a typed one. */
export function linkedText(type, value) {
  if (value === null) return "";
  if (typeof value === "number" && Number.isFinite(value)) {
    return type === "int" || type === "float" ? numberText(value) : String(value);
  }
  if (typeof value === "string" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.length <= MAX_ITEMS && value.every(isScalar)) return value.join(", ");
  return undefined;
}

/** The option value a select takes for a link's `value`: the JSON of a choice (its
 * data-json), the text of a number chosen by its name. */
export function linkedOption(type, value) {
  if (type === "choice") return value === null || isScalar(value) ? JSON.stringify(value) : undefined;
  return isScalar(value) ? String(value) : undefined;
}

/** The text a field takes for a kept `value` (what it held, as typed). */
export function keptText(value) {
  if (value === null || value === undefined) return "";
  return isScalar(value) ? String(value) : undefined;
}

const quoted = (labels) => {
  const names = labels.map((label) => `« ${label} »`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} et ${names.at(-1)}` : names[0];
};

/** What the form says of the fields (`labels`) that could not take their value from a shared
 * link (`source` "lien") or from the reader's character ("personnage"); "" for none. */
export function unreadableNote(labels, source) {
  if (!labels.length) return "";
  const many = labels.length > 1;
  if (source === "lien") {
    return many
      ? `Valeurs du lien illisibles pour ${quoted(labels)} : ces champs gardent leur valeur.`
      : `Valeur du lien illisible pour ${quoted(labels)} : ce champ garde sa valeur.`;
  }
  return many
    ? `Valeurs gardées illisibles pour ${quoted(labels)} : les valeurs par défaut sont utilisées.`
    : `Valeur gardée illisible pour ${quoted(labels)} : la valeur par défaut est utilisée.`;
}

/** A number field's text with its sign changed, as typed: « 3 » → « -3 », « −1,5 » →
 * « 1,5 », « +2 » → « -2 »; an empty field gets « - », for the digits that follow. */
export function signFlipped(text) {
  const typed = String(text).trim();
  if (/^[-−]/.test(typed)) return typed.slice(1).trimStart();
  return `-${typed.replace(/^\+/, "").trimStart()}`;
}

// The « ± » beside a number field that may be negative (forms.py), for the phones whose
// number pad has no minus sign: it changes the sign of what the field holds, and the form
// takes it as typed (rules.js listens to « input »). Pressed, it leaves the focus (and the
// phone's keyboard) in the field. One listener for every form, whichever page brings it.
if (typeof document !== "undefined") {
  const signOf = (event) => (event.target instanceof Element ? event.target.closest("button.saisie-signe") : null);
  document.addEventListener("mousedown", (event) => { if (signOf(event)) event.preventDefault(); });
  document.addEventListener("click", (event) => {
    const button = signOf(event);
    const field = button?.closest(".saisie")?.querySelector("input[data-type]");
    if (!field) return;
    field.value = signFlipped(field.value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
