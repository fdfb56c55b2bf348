/* A reader's list as it leaves this browser and comes back: its share link and its file,
 * read whatever version of the site made them. */
import { cleanEntry, cleanName, ID_PATTERN } from "./kept-lists.js";
import { foldAccents, phrase } from "./page.js";

// The exported file's « format » and version, its list of entries (each { id, nom, groupe,
// adresse }), and a share link's parameter: names of a format, the same whatever the game's
// words. Files and links made by versions up to 0.3 (format « regles-grimoire », « sorts »,
// an entry's « college ») read the same.
export const FORMAT = "regles-liste";
const FORMER_FORMAT = "regles-grimoire";
export const FILE_VERSION = 2;
export const ENTRIES_KEY = "entrees";
export const FORMER_ENTRIES_KEY = "sorts";
export const MAX_ENTRIES = 1000; // in one list, a link or a file

/** The share link of a list: this page's address, `nom` and the ids, commas kept. */
export const shareLink = (name, entries) => {
  const page = new URL(location.pathname, location.origin);
  const ids = entries.map((e) => e.id).filter(Boolean);
  return `${page.href}?nom=${encodeURIComponent(name)}&${ENTRIES_KEY}=${ids.join(",")}`;
};

export const fileName = (name) => `${phrase("file_prefix")}-${foldAccents(name)
  .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "sans-nom"}.json`;

/** An imported file's text → { name, entries } or throws an Error naming what is wrong. */
export const readListFile = (text, file) => {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(String(error && error.message));
    const where = at ? ` (illisible vers le caractère ${Number(at[1]) + 1})` : "";
    throw new Error(phrase("file_not_json", { file, where }));
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    const what = Array.isArray(data) ? "une liste" : data === null ? "null" : `une valeur (${typeof data})`;
    throw new Error(phrase("file_not_a_list", { file, what, key: ENTRIES_KEY }));
  }
  if (data.format !== undefined && data.format !== FORMAT && data.format !== FORMER_FORMAT) {
    throw new Error(`« ${file} » est au format « ${String(data.format).slice(0, 40)} », pas « ${FORMAT} ».`);
  }
  const name = typeof data.nom === "string" ? cleanName(data.nom) : "";
  if (!name) throw new Error(`« ${file} » n’a pas de nom : le champ « nom » manque ou est vide.`);
  const listed = data[ENTRIES_KEY] ?? data[FORMER_ENTRIES_KEY];
  if (!Array.isArray(listed)) throw new Error(phrase("file_entries_not_list", { file, key: ENTRIES_KEY }));
  if (listed.length > MAX_ENTRIES) throw new Error(phrase("file_too_many", { file, n: listed.length, max: MAX_ENTRIES }));
  const entries = listed.map((s, i) => {
    const item = typeof s === "string" ? { id: s } : s;
    if (!item || typeof item !== "object" || Array.isArray(item)) {
      throw new Error(`${phrase("file_item", { file, n: i + 1 })} : un objet { "id": …, "nom": … } est attendu.`);
    }
    if (item.id !== undefined && !ID_PATTERN.test(String(item.id))) {
      throw new Error(`${phrase("file_item", { file, n: i + 1 })} : identifiant « ${String(item.id).slice(0, 30)} » mal formé (chiffres et lettres minuscules).`);
    }
    const entry = cleanEntry({ id: item.id, url: item.adresse, name: item.nom, group: item.groupe ?? item.college });
    if (!entry) throw new Error(`${phrase("file_item", { file, n: i + 1 })} : ni « id » ni « adresse ».`);
    return entry;
  });
  // An entry named twice is kept once, and the reader is told.
  const keys = entries.map((e) => e.id || e.url);
  const seen = new Set();
  const unique = entries.filter((e, i) => !seen.has(keys[i]) && seen.add(keys[i]));
  return { name, entries: unique, repeated: repeatedCount(keys) };
};

/** How many of the values appear more than once. */
export const repeatedCount = (values) => {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) || 0) + 1);
  return [...counts.values()].filter((n) => n > 1).length;
};
