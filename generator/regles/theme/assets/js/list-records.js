/* The records of a database's data file by id and by address, for the readers' lists, and
 * the dialog that names a list. */
import { loadEntries } from "./entries.js";
import { cleanName, findList, MAX_NAME, readStore } from "./kept-lists.js";
import { askName, pageDatabase, phrase } from "./page.js";

// ---------------------------------------------------------------------------------------
// Data: the records of a database's data file by id and by address
// ---------------------------------------------------------------------------------------

const indexes = new Map(); // data file → its records by id and by address
export const loadIndexes = (database = pageDatabase()) => {
  const file = database ? database.data : "";
  if (!indexes.has(file)) {
    const loaded = loadEntries(database).then((byUrl) => {
      const byId = new Map();
      for (const record of byUrl.values()) if (typeof record.id === "string") byId.set(record.id, record);
      return { byUrl, byId };
    });
    indexes.set(file, loaded);
    loaded.catch(() => { indexes.delete(file); });
  }
  return indexes.get(file);
};

/** A kept entry's record now: by its id, else by its address; null when it is missing. */
export const resolve = (entry, { byId, byUrl }) => (entry.id && byId.get(entry.id)) || (entry.url && byUrl.get(entry.url)) || null;

/** The list page's address, as the build names it in every page
 * (<meta name="regles-listes">, main.html). */
export const listsPage = (database = pageDatabase()) => {
  const metas = [...document.querySelectorAll('meta[name="regles-listes"]')];
  const meta = metas.find((m) => database && m.dataset.base === database.folder) || metas[0];
  return new URL(meta ? meta.content : "", location.href);
};

// ---------------------------------------------------------------------------------------
// Dialogs
// ---------------------------------------------------------------------------------------

/** Asks a list's name (of list `id`, or a new one's), no other list's as kept
 * now; resolves with it, or null. `more(name)` may return a message that keeps it open. */
export const askListName = (title, initial, database, id = "", more = () => "") => askName({
  title,
  label: phrase("name_label", {}, database),
  initial,
  maxLength: MAX_NAME,
  clean: cleanName,
  check: (name) => {
    if (!name) return phrase("name_missing", {}, database);
    const same = findList(readStore(database), name);
    if (same && same.id !== id) return phrase("name_taken", { name }, database);
    return more(name);
  },
});
