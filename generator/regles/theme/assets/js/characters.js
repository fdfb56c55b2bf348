/* A reader's characters: the values typed into the calculators, kept in this browser under
 * a character's name, so that a calculator opens on them on any page, after a reload,
 * offline and after the site is updated. The player switches, renames, exports, imports and
 * clears them from any calculator (« Personnages… »).
 *
 * Which value a field keeps is the build's (features/calculators/memory.py): each field
 * names its keys in data-garde, best first; a field several calculators share (named and
 * labelled alike) has one key for all of them, and is typed once. This module keeps the
 * values; rules.js reads and fills the forms.
 *
 * Storage: localStorage, one key per site root (several sites may share an origin):
 *   { version: 1, current: "<name>", characters: [{ id, name: "<name>", values: { key: value } }] }
 * A value is what the field held, as the reader typed it (a text, a box ticked or not, a
 * list's rows). Unknown fields are written back as they were; a value a newer site wrote is
 * read, never written over; an unreadable one is copied aside before anything replaces it.
 * A character without an id (kept before ids were, or never renamed since) has the one its
 * name gives (page.js's formerId), written once it is renamed: a rename in another tab
 * leaves it the same character.
 *
 * Several tabs: every write reads the kept value first and changes only what the reader
 * changed (a field's value, a character's name…), by id; this tab's copy is never written
 * back. Other tabs follow each change (page.js's followStored): their forms take the new
 * values (CHARACTER_CHANGED, reason "updated"), the new character, and an open dialog its
 * new list of characters. */
import {
  askName,
  confirmAction,
  databases,
  downloadText,
  el,
  foldAccents,
  followStored,
  formerId,
  freeName,
  isQuotaError,
  keepsData,
  listsKey,
  modal,
  newId,
  onEachPage,
  parsedOr,
  siteRoot,
  storeValue,
} from "./page.js";

const VERSION = 1;
const FORMAT = "regles-personnage"; // an exported file's « format »
const MAX_NAME = 80;
const MAX_FILE_BYTES = 2_000_000;
const DEFAULT_NAME = "Mon personnage";
/** Sent on the document when the current character changes (switched, renamed, cleared),
 * here or in another tab: detail { reason: "switched" | "renamed" | "created" | "updated",
 * keys }; "updated": another tab changed the values kept under `keys`. */
export const CHARACTER_CHANGED = "regles:personnage";
/** Sent on the document when values are kept for the character: detail { keys } (the keys
 * written). */
export const VALUES_KEPT = "regles:valeurs";

const storeKey = () => `regles-personnages:${siteRoot().pathname}`;
const asideKey = () => `${storeKey()}:illisible`;

keepsData((key) => {
  if (key === storeKey()) return "Personnages (valeurs des calculateurs)";
  if (key.startsWith(asideKey())) return "Personnages illisibles mis de côté";
  return null;
}, (value, key) => key !== storeKey() || parse(value) !== null); // set aside: any text

export const cleanName = (name) => String(name ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_NAME);

const FULL = "La mémoire de ce navigateur pour ce site est pleine : rien n’a été gardé.";
const REFUSED = "Ce navigateur refuse de garder des données pour ce site (navigation privée ?) : rien n’a été gardé.";
const NEWER = "Ces personnages ont été gardés par une version plus récente du site : rechargez la page pour les modifier.";

function parse(raw) {
  const data = parsedOr(raw, null);
  return data && typeof data === "object" && !Array.isArray(data) && Array.isArray(data.characters) ? data : null;
}

/** The kept characters: { current, characters: [{ id, name, values, rest }], rest, newer }.
 * `unavailable` when the browser refuses storage, `damaged` when the value is unreadable. */
export function readCharacters() {
  const empty = { version: VERSION, current: "", characters: [], rest: {}, others: [] };
  let raw = null;
  try { raw = localStorage.getItem(storeKey()); } catch { return { ...empty, unavailable: true }; }
  if (raw === null) return empty;
  const data = parse(raw);
  if (!data) return { ...empty, damaged: true };
  const { version, current, characters, ...rest } = data;
  const store = { ...empty, rest, current: cleanName(current) };
  store.newer = typeof version === "number" && version > VERSION;
  for (const character of characters) {
    const name = character && typeof character === "object" ? cleanName(character.name) : "";
    const { name: _name, values, id, ...characterRest } = name ? character : {};
    if (!name || findCharacter(store, name)) {
      store.others.push(character);
      continue;
    }
    const kept = values && typeof values === "object" && !Array.isArray(values) ? values : {};
    const ownId = [id, formerId(name), `${formerId(name)}#${store.characters.length}`]
      .find((candidate) => typeof candidate === "string" && candidate && !findById(store, candidate)) || newId();
    store.characters.push({ id: ownId, name, values: { ...kept }, rest: characterRest });
  }
  if (!findCharacter(store, store.current)) store.current = store.characters[0]?.name || "";
  return store;
}

/** Writes the characters; throws an Error with a French message when nothing was kept. */
export function writeCharacters(store) {
  if (store.newer) throw new Error(NEWER);
  let raw = null;
  try { raw = localStorage.getItem(storeKey()); } catch { raw = null; }
  if (raw !== null && !parse(raw)) {
    // Unreadable: copied aside once, never written over without a copy.
    try { localStorage.setItem(`${asideKey()}:${Date.now()}`, raw); } catch { throw new Error(FULL); }
  }
  // An id its name gives (formerId) is not written: it is read back the same.
  const characters = store.characters.map(({ id, name, values, rest = {} }) =>
    ({ ...rest, ...(id === formerId(name) ? {} : { id }), name, values }));
  const value = { ...store.rest, version: VERSION, current: store.current, characters: [...characters, ...store.others] };
  try {
    storeValue(storeKey(), JSON.stringify(value));
  } catch (error) {
    throw new Error(isQuotaError(error) ? FULL : REFUSED);
  }
}

export const findCharacter = (store, name) => store.characters.find((c) => c.name === name) || null;
const findById = (store, id) => store.characters.find((c) => c.id === id) || null;
const currentIn = (store) => findCharacter(store, store.current);

// What this tab shows: the current character as this tab last saw it kept ({ id, name,
// values: key → its JSON }), null for none, undefined before the first reading. A write
// compares the forms' values with it to find what the reader changed.
let seen;
const snapshot = (character) => (character
  ? { id: character.id, name: character.name,
    values: Object.fromEntries(Object.entries(character.values).map(([key, value]) => [key, JSON.stringify(value)])) }
  : null);
const changedKeys = (before, after) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]);

/** The character the calculators use, or null when the reader has none yet. */
export function currentCharacter() {
  const character = currentIn(readCharacters());
  if (seen === undefined) seen = snapshot(character);
  return character;
}

/** The value kept under the first of `keys` (« hp damage.hp ») the character holds. */
export function keptValue(character, keys) {
  for (const key of String(keys).split(" ")) {
    if (key && Object.hasOwn(character.values, key)) return character.values[key];
  }
  return undefined;
}

// A first character takes the name the reader gave their last list of entries (a
// grimoire, a hunting book…): the same character, where the game's words allow it.
function firstName() {
  let raw = null;
  try { raw = localStorage.getItem(listsKey(databases()[0])); } catch { /* no storage */ }
  const lists = parsedOr(raw, null);
  return (lists && typeof lists === "object" && cleanName(lists.last)) || DEFAULT_NAME;
}

function announce(reason, keys = []) {
  document.dispatchEvent(new CustomEvent(CHARACTER_CHANGED, { detail: { reason, keys } }));
}

/** This tab now shows `store` as kept: what changed since it last saw it is announced (the
 * current character switched or renamed, values changed). */
function settle(store) {
  const before = seen || null;
  const now = currentIn(store);
  seen = snapshot(now);
  if ((before ? before.id : null) !== (now ? now.id : null)) {
    announce("switched");
    return;
  }
  if (!now) return;
  if (before.name !== now.name) announce("renamed");
  const keys = changedKeys(before.values, seen.values);
  if (keys.length) announce("updated", keys);
}

// Open dialogs, each redrawn with the characters another tab kept.
const openDialogs = new Set();
followStored(storeKey, () => {
  const store = readCharacters();
  for (const redraw of [...openDialogs]) redraw(store);
  if (store.unavailable || seen === undefined) return; // nothing shown yet
  settle(store);
});

/** Keeps `entries` ([keys, value]…) of a form for the character this tab shows (the
 * current one; made if there is none), each under the first of its keys. Only the values
 * the reader changed are written: a value the form holds as this tab was shown it is
 * left as kept, which another tab may have changed since. Throws an Error with a French
 * message. */
export function keepValues(entries) {
  const store = readCharacters();
  if (store.unavailable) throw new Error(REFUSED);
  const shown = seen === undefined ? snapshot(currentIn(store)) : seen;
  let character = (shown && findById(store, shown.id)) || currentIn(store);
  const created = !character;
  if (created) {
    const name = freeName(firstName(), (candidate) => findCharacter(store, candidate), MAX_NAME);
    character = { id: newId(), name, values: {}, rest: {} };
    store.characters.push(character);
    store.current = character.name;
  }
  // What this tab showed of this character. Another one (the one shown was cleared in
  // another tab, or made there while this one showed the worked example): nothing, and
  // the values it has stay.
  const other = !created && !(shown && shown.id === character.id);
  const base = created ? null : other ? {} : shown.values;
  const missed = base ? changedKeys(base, snapshot(character).values) : [];
  const written = [];
  for (const [keys, value] of entries) {
    const key = String(keys).split(" ")[0];
    const json = JSON.stringify(value);
    // Unchanged by the reader, or kept by another tab since this one last saw the values.
    if (base && (Object.hasOwn(base, key) ? base[key] === json : Object.hasOwn(character.values, key))) continue;
    character.values[key] = value;
    written.push(key);
  }
  if (written.length || created) writeCharacters(store);
  seen = snapshot(character);
  if (created) announce("created");
  document.dispatchEvent(new CustomEvent(VALUES_KEPT, { detail: { keys: written } }));
  // What another tab changed and this one had not shown yet: the forms take it, after
  // this change is over.
  const elsewhere = missed.filter((key) => !written.includes(key));
  if (other) queueMicrotask(() => announce("switched"));
  else if (elsewhere.length) queueMicrotask(() => announce("updated", elsewhere));
  return character;
}

const fileName = (name) =>
  `personnage-${foldAccents(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "sans-nom"}.json`;

// An exported file, in the words of the lists' files: { format, version, nom, valeurs }.
function exportCharacter(character) {
  const file = { format: FORMAT, version: VERSION, nom: character.name, valeurs: character.values };
  downloadText(JSON.stringify(file, null, 2), fileName(character.name), "application/json");
}

/** The character of an exported file's `text`: { name, values }. Throws an Error with a
 * French message that names the file and what is wrong. */
function readCharacterFile(text, file) {
  const data = parsedOr(text, undefined);
  if (data === undefined) throw new Error(`« ${file} » n’est pas un fichier JSON lisible.`);
  if (!data || typeof data !== "object" || Array.isArray(data) || data.format !== FORMAT) {
    throw new Error(`« ${file} » n’est pas un personnage exporté par ce site (format « ${FORMAT} » attendu).`);
  }
  if (typeof data.version === "number" && data.version > VERSION) {
    throw new Error(`« ${file} » vient d’une version plus récente du site : rechargez la page, puis importez-le à nouveau.`);
  }
  const name = cleanName(typeof data.nom === "string" ? data.nom : "");
  if (!name) throw new Error(`« ${file} » n’a pas de nom : le champ « nom » manque ou est vide.`);
  const values = data.valeurs;
  if (!values || typeof values !== "object" || Array.isArray(values)) {
    throw new Error(`« ${file} » n’a pas de valeurs : le champ « valeurs » manque ou n’est pas un objet.`);
  }
  return { name, values: { ...values } };
}

// The reader picks a file; resolves with it, or null when they close the picker.
const pickFile = () => new Promise((done) => {
  const input = el("input", { type: "file", accept: ".json,application/json", hidden: true });
  const picked = (file) => { input.remove(); done(file); };
  input.addEventListener("change", () => picked(input.files?.[0] || null));
  input.addEventListener("cancel", () => picked(null));
  document.body.append(input);
  input.click();
});

/** Imports a character file as a new character, « name (2) » when the name is taken, and
 * uses it: never a change to those kept. Resolves with a French message when nothing was
 * imported, or "". */
async function importCharacter() {
  const file = await pickFile();
  if (!file) return "";
  const nothing = "Rien n’a été importé.";
  if (file.size > MAX_FILE_BYTES) return `« ${file.name} » pèse ${Math.round(file.size / 1000)} ko : trop pour un personnage. ${nothing}`;
  let text;
  try { text = await file.text(); } catch { return `« ${file.name} » est illisible. ${nothing}`; }
  let read;
  try { read = readCharacterFile(text, file.name); } catch (error) { return `${error.message} ${nothing}`; }
  const store = readCharacters();
  if (store.unavailable) return REFUSED;
  const name = freeName(read.name, (candidate) => findCharacter(store, candidate), MAX_NAME);
  store.characters.push({ id: newId(), name, values: read.values, rest: {} });
  store.current = name;
  try { writeCharacters(store); } catch (error) { return error.message; }
  settle(store);
  announce("switched");
  return "";
}

// The name of character `id`, other than `initial`, must be no other's as kept now.
const askCharacterName = (title, initial, id) =>
  askName({
    title,
    label: "Nom du personnage",
    initial,
    maxLength: MAX_NAME,
    clean: cleanName,
    check: (name) => {
      if (!name) return "Donnez un nom au personnage.";
      const same = findCharacter(readCharacters(), name);
      if (name !== initial && same && same.id !== id) return `« ${name} » existe déjà : choisissez un autre nom.`;
      return "";
    },
  });

const goneElsewhere = (name) => `« ${name} » vient d’être effacé dans un autre onglet.`;

/** Uses `picked` (a kept character, or a new one by its name). */
function useCharacter(picked) {
  const store = readCharacters();
  if (picked.id) {
    const character = findById(store, picked.id);
    if (!character) return goneElsewhere(picked.name);
    store.current = character.name;
  } else {
    const name = freeName(picked.name, (candidate) => findCharacter(store, candidate), MAX_NAME);
    store.characters.push({ id: newId(), name, values: {}, rest: {} });
    store.current = name;
  }
  writeCharacters(store);
  settle(store);
  announce("switched"); // the same one too: its values replace a shared link's
  return "";
}

/** Renames `picked` as kept now. Cleared in another tab meanwhile, it is kept again under
 * its new name, with the values it had, and the reader is told: neither change is lost. */
async function renameCharacter(picked) {
  const name = await askCharacterName(`Renommer « ${picked.name} »`, picked.name, picked.id);
  if (!name || name === picked.name) return "";
  const store = readCharacters();
  let character = findById(store, picked.id);
  let said = "";
  if (!character) {
    character = { id: picked.id, name: "", values: picked.values, rest: {} };
    store.characters.push(character);
    said = `« ${picked.name} » a été effacé dans un autre onglet pendant que vous le renommiez : il est gardé sous le nom « ${name} ».`;
  }
  const taken = (candidate) => { const same = findCharacter(store, candidate); return same && same !== character; };
  const free = freeName(name, taken, MAX_NAME);
  if (!store.current || store.current === character.name) store.current = free;
  character.name = free;
  writeCharacters(store);
  settle(store);
  return said;
}

/** Clears `picked`, unless another tab renamed it since the reader confirmed: then it is
 * kept, and the reader told. */
async function clearCharacter(picked) {
  const sure = await confirmAction(`Effacer « ${picked.name} » ?`,
    "Ses valeurs seront effacées de ce navigateur. Exportez-le d’abord pour les garder.", "Effacer");
  if (!sure) return "";
  const store = readCharacters();
  const character = findById(store, picked.id);
  if (!character) return "";
  if (character.name !== picked.name) {
    return `« ${picked.name} » a été renommé « ${character.name} » dans un autre onglet : il n’a pas été effacé.`;
  }
  store.characters = store.characters.filter((c) => c !== character);
  if (store.current === character.name) store.current = store.characters[0]?.name || "";
  writeCharacters(store);
  settle(store);
  return "";
}

/** The dialog that switches, makes, renames, exports, imports and clears characters,
 * showing them as kept, also when another tab changes them while it is open. Resolves with
 * a French message to show when something failed, or "". */
export async function manageCharacters() {
  let store = readCharacters();
  if (store.unavailable) return REFUSED;
  const hadCharacters = store.characters.length > 0;
  const legend = el("legend", {}, hadCharacters ? "Personnage utilisé" : "Premier personnage");
  const fresh = el("input", { type: "radio", name: "personnage-choix", id: "personnage-choix-nouveau", value: "", checked: !currentIn(store) });
  const freshName = el("input", { type: "text", id: "personnage-dialogue-nouveau", maxlength: String(MAX_NAME), autocomplete: "off",
    placeholder: "Nom", "aria-label": "Nom du nouveau personnage", value: hadCharacters ? "" : firstName() });
  // The name it holds at first (the last list's) is selected: what the reader types replaces it.
  freshName.addEventListener("focus", () => { fresh.checked = true; freshName.select(); });
  const freshRow = el("div", { class: "list-dialog__choice list-dialog__new" }, fresh,
    el("label", { for: "personnage-choix-nouveau" }, "Nouveau : "), freshName);
  const choices = el("fieldset", { class: "list-dialog__lists" });
  const elsewhere = el("p", { class: "list-dialog__other", role: "status", hidden: true });
  const radios = () => [...choices.querySelectorAll("input[type=radio]")];
  // The choices as kept in `kept`, the one checked still checked (by id).
  const draw = (kept, checked) => {
    const focused = radios().find((radio) => radio === document.activeElement)?.value;
    const rows = kept.characters.map((character, i) =>
      el("label", { class: "list-dialog__choice", for: `personnage-choix-${i}` },
        el("input", { type: "radio", name: "personnage-choix", id: `personnage-choix-${i}`, value: character.id,
          checked: character.id === checked }),
        el("span", {}, character.name)));
    choices.replaceChildren(legend, ...rows, freshRow);
    if (focused !== undefined) radios().find((radio) => radio.value === focused)?.focus();
  };
  const checkedId = () => radios().find((radio) => radio.checked)?.value;
  draw(store, currentIn(store)?.id);
  // Until the reader picks one, the character checked is the one used, as kept now.
  let touched = false;
  choices.addEventListener("change", () => { touched = true; });
  freshName.addEventListener("focus", () => { touched = true; });
  const redraw = (kept) => {
    if (kept.unavailable) return;
    let checked = touched ? checkedId() : currentIn(kept)?.id;
    if (checked && !findById(kept, checked)) {
      elsewhere.textContent = goneElsewhere(findById(store, checked)?.name || "");
      elsewhere.hidden = false;
      checked = currentIn(kept)?.id;
      if (!checked) fresh.checked = true;
    }
    store = kept;
    draw(kept, checked);
  };
  openDialogs.add(redraw);
  const damaged = store.damaged
    ? [el("p", { class: "list-dialog__error" }, "Les personnages gardés dans ce navigateur sont illisibles : ils seront mis de côté (voir la page de sauvegarde) avant d’en garder d’autres.")]
    : [];
  let picked = null; // the choice, as kept when the reader pressed a button
  const action = await modal({
    title: "Personnages",
    content: [
      el("p", {}, "Les calculateurs gardent dans ce navigateur les valeurs du personnage choisi, sur toutes les pages du site, même hors ligne."),
      ...damaged,
      choices,
      elsewhere,
    ],
    buttons: [
      { value: "utiliser", label: "Utiliser", main: true },
      ...(hadCharacters
        ? [{ value: "renommer", label: "Renommer" }, { value: "exporter", label: "Exporter" }]
        : []),
      { value: "importer", label: "Importer…" },
      ...(hadCharacters ? [{ value: "effacer", label: "Effacer", danger: true }] : []),
      { value: "annuler", label: "Fermer" },
    ],
    check: (value) => {
      if (value === "importer") return "";
      const kept = readCharacters();
      const id = checkedId();
      const character = id ? findById(kept, id) : null;
      if (id && !character) return goneElsewhere(findById(store, id)?.name || "");
      if (value !== "utiliser" && !character) return "Choisissez d’abord un personnage gardé.";
      if (value === "utiliser" && !character) {
        const name = cleanName(freshName.value);
        if (!name) return "Donnez un nom au nouveau personnage.";
        if (findCharacter(kept, name)) return `« ${name} » existe déjà : choisissez-le dans la liste.`;
        picked = { id: "", name };
        return "";
      }
      picked = { id, name: character.name, values: { ...character.values } };
      return "";
    },
  });
  openDialogs.delete(redraw);
  try {
    if (action === "importer") return await importCharacter();
    if (!picked) return "";
    if (action === "utiliser") return useCharacter(picked);
    if (action === "renommer") return await renameCharacter(picked);
    if (action === "effacer") return await clearCharacter(picked);
    if (action === "exporter") {
      const character = findById(readCharacters(), picked.id);
      if (!character) return goneElsewhere(picked.name);
      exportCharacter(character);
    }
  } catch (error) {
    return error.message;
  }
  return "";
}

/* ---------------------------------------------------------------- values offered to a field */

/** A field offered the values the character keeps for other calculators' fields (the kit's
 * Field.offered; forms.py writes where in p.champ-offres, their keys and their labels): one
 * button each, « Force de votre personnage : 18 », which puts the value in the field as if
 * typed (rules.js then computes and keeps it). Hidden while the character has none; redrawn
 * when the character or their values change, here or in another tab. */
function offerKeptValues() {
  const places = document.querySelectorAll(".calculateur p.champ-offres[data-offres]");
  if (!places.length) return;
  const character = currentCharacter();
  for (const place of places) {
    const offers = character ? parsedOr(place.dataset.offres, []) : [];
    const buttons = (Array.isArray(offers) ? offers : []).flatMap((offer) => {
      const value = offer && typeof offer.cles === "string" ? keptValue(character, offer.cles) : undefined;
      const text = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
      if (!text) return [];
      const button = el("button", { type: "button" }, `${String(offer.libelle ?? "")} de votre personnage : ${text}`);
      button.addEventListener("click", () => {
        const field = place.closest(".champ")?.querySelector("input[data-type]");
        if (!field) return;
        field.value = text;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
      return [button];
    });
    // The same offers: left as they are (the focus stays on the one just pressed).
    const said = buttons.map((button) => button.textContent).join("\n");
    if (place.dataset.propose === said && place.hidden === !buttons.length) continue;
    place.dataset.propose = said;
    place.replaceChildren(...buttons);
    place.hidden = buttons.length === 0;
  }
}

onEachPage(offerKeptValues);
document.addEventListener(CHARACTER_CHANGED, offerKeptValues);
document.addEventListener(VALUES_KEPT, offerKeptValues);
