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
 *   { version: 1, current: "Aldric", characters: [{ name: "Aldric", values: { key: value } }] }
 * A value is what the field held, as the reader typed it (a text, a box ticked or not, a
 * list's rows). Unknown fields are written back as they were; a value a newer site wrote is
 * read, never written over; an unreadable one is copied aside before anything replaces it. */
import {
  askName,
  confirmAction,
  databases,
  downloadText,
  el,
  foldAccents,
  freeName,
  isQuotaError,
  keepsData,
  listsKey,
  modal,
  parsedOr,
  siteRoot,
} from "./page.js";

const VERSION = 1;
const FORMAT = "regles-personnage"; // an exported file's « format »
const MAX_NAME = 80;
const MAX_FILE_BYTES = 2_000_000;
const DEFAULT_NAME = "Mon personnage";
/** Sent on the document when the current character changes (switched, renamed, cleared):
 * detail { reason: "switched" | "renamed" | "created" }. */
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

/** The kept characters: { current, characters: [{ name, values, rest }], rest, newer }.
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
    const { name: _name, values, ...characterRest } = name ? character : {};
    if (!name || findCharacter(store, name)) {
      store.others.push(character);
      continue;
    }
    const kept = values && typeof values === "object" && !Array.isArray(values) ? values : {};
    store.characters.push({ name, values: { ...kept }, rest: characterRest });
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
  const characters = store.characters.map(({ name, values, rest = {} }) => ({ ...rest, name, values }));
  const value = { ...store.rest, version: VERSION, current: store.current, characters: [...characters, ...store.others] };
  try {
    localStorage.setItem(storeKey(), JSON.stringify(value));
  } catch (error) {
    throw new Error(isQuotaError(error) ? FULL : REFUSED);
  }
}

export const findCharacter = (store, name) => store.characters.find((c) => c.name === name) || null;

/** The character the calculators use, or null when the reader has none yet. */
export function currentCharacter() {
  const store = readCharacters();
  return findCharacter(store, store.current);
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

function announce(reason) {
  document.dispatchEvent(new CustomEvent(CHARACTER_CHANGED, { detail: { reason } }));
}

/** Keeps `entries` ([keys, value]…) for the current character, made if there is none;
 * each under the first of its keys. Throws an Error with a French message. */
export function keepValues(entries) {
  const store = readCharacters();
  if (store.unavailable) throw new Error(REFUSED);
  let character = findCharacter(store, store.current);
  const created = !character;
  if (created) {
    character = { name: firstName(), values: {}, rest: {} };
    store.characters.push(character);
    store.current = character.name;
  }
  const written = entries.map(([keys]) => String(keys).split(" ")[0]);
  entries.forEach(([, value], i) => { character.values[written[i]] = value; });
  writeCharacters(store);
  if (created) announce("created");
  document.dispatchEvent(new CustomEvent(VALUES_KEPT, { detail: { keys: written } }));
  return character;
}

const fileName = (name) =>
  `personnage-${foldAccents(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "sans-nom"}.json`;

// An exported file, in the words of the grimoires' files: { format, version, nom, valeurs }.
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
  store.characters.push({ name, values: read.values, rest: {} });
  store.current = name;
  try { writeCharacters(store); } catch (error) { return error.message; }
  announce("switched");
  return "";
}

const askCharacterName = (title, initial, store) =>
  askName({
    title,
    label: "Nom du personnage",
    initial,
    maxLength: MAX_NAME,
    clean: cleanName,
    check: (name) => {
      if (!name) return "Donnez un nom au personnage.";
      if (name !== initial && findCharacter(store, name)) return `« ${name} » existe déjà : choisissez un autre nom.`;
      return "";
    },
  });

/** The dialog that switches, makes, renames, exports, imports and clears characters.
 * Resolves with a French message to show when something failed, or "". */
export async function manageCharacters() {
  const store = readCharacters();
  if (store.unavailable) return REFUSED;
  const current = findCharacter(store, store.current);
  const choices = store.characters.map((character, i) =>
    el("label", { class: "grimoire-dialogue__choix", for: `personnage-choix-${i}` },
      el("input", { type: "radio", name: "personnage-choix", id: `personnage-choix-${i}`, value: character.name, checked: character === current }),
      el("span", {}, character.name)));
  const fresh = el("input", { type: "radio", name: "personnage-choix", id: "personnage-choix-nouveau", value: "", checked: !current });
  const freshName = el("input", { type: "text", id: "personnage-dialogue-nouveau", maxlength: String(MAX_NAME), autocomplete: "off",
    placeholder: "ex. : Aldric", "aria-label": "Nom du nouveau personnage", value: store.characters.length ? "" : firstName() });
  // The name it holds at first (the last list's) is selected: what the reader types replaces it.
  freshName.addEventListener("focus", () => { fresh.checked = true; freshName.select(); });
  const chosen = () => {
    const radio = [...choices.map((c) => c.querySelector("input")), fresh].find((r) => r.checked);
    return radio && radio.value ? findCharacter(store, radio.value) : null;
  };
  const damaged = store.damaged
    ? [el("p", { class: "grimoire-dialogue__erreur" }, "Les personnages gardés dans ce navigateur sont illisibles : ils seront mis de côté (voir la page de sauvegarde) avant d’en garder d’autres.")]
    : [];
  const action = await modal({
    title: "Personnages",
    content: [
      el("p", {}, "Les calculateurs gardent dans ce navigateur les valeurs du personnage choisi, sur toutes les pages du site, même hors ligne."),
      ...damaged,
      el("fieldset", { class: "grimoire-dialogue__grimoires" },
        el("legend", {}, store.characters.length ? "Personnage utilisé" : "Premier personnage"),
        ...choices,
        el("div", { class: "grimoire-dialogue__choix grimoire-dialogue__nouveau" }, fresh,
          el("label", { for: "personnage-choix-nouveau" }, "Nouveau : "), freshName)),
    ],
    buttons: [
      { value: "utiliser", label: "Utiliser", main: true },
      ...(store.characters.length
        ? [{ value: "renommer", label: "Renommer" }, { value: "exporter", label: "Exporter" }]
        : []),
      { value: "importer", label: "Importer…" },
      ...(store.characters.length ? [{ value: "effacer", label: "Effacer", danger: true }] : []),
      { value: "annuler", label: "Fermer" },
    ],
    check: (value) => {
      const character = chosen();
      if (value === "importer") return "";
      if (value !== "utiliser" && !character) return "Choisissez d’abord un personnage gardé.";
      if (value === "utiliser" && !character) {
        const name = cleanName(freshName.value);
        if (!name) return "Donnez un nom au nouveau personnage.";
        if (findCharacter(store, name)) return `« ${name} » existe déjà : choisissez-le dans la liste.`;
      }
      return "";
    },
  });
  const character = chosen();
  try {
    if (action === "utiliser") {
      if (character) store.current = character.name;
      else {
        const made = { name: cleanName(freshName.value), values: {}, rest: {} };
        store.characters.push(made);
        store.current = made.name;
      }
      writeCharacters(store);
      announce("switched");
    } else if (action === "renommer") {
      const name = await askCharacterName(`Renommer « ${character.name} »`, character.name, store);
      if (!name || name === character.name) return "";
      if (store.current === character.name) store.current = name;
      character.name = name;
      writeCharacters(store);
      announce("renamed");
    } else if (action === "exporter") {
      exportCharacter(character);
    } else if (action === "importer") {
      return await importCharacter();
    } else if (action === "effacer") {
      const sure = await confirmAction(`Effacer « ${character.name} » ?`,
        "Ses valeurs seront effacées de ce navigateur. Exportez-le d’abord pour les garder.", "Effacer");
      if (!sure) return "";
      store.characters = store.characters.filter((c) => c !== character);
      if (store.current === character.name) store.current = store.characters[0]?.name || "";
      writeCharacters(store);
      announce("switched");
    }
  } catch (error) {
    return error.message;
  }
  return "";
}
