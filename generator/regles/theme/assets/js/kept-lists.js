/* The readers' lists of a database's entries as this browser keeps them (lists.js shows
 * and changes them): read, written, set aside when unreadable.
 *
 * Storage: localStorage, one key per site root and database (page.js's listsKey):
 *   { version: 2, last: "<name>", lists: [{ id, name: "<name>", entries: [{ id, url, name, group }] }] }
 * Unknown fields, lists and entries are written back as they were; a value a newer site
 * wrote is shown, never written over; an unreadable one is copied aside before anything
 * replaces it. A list without an id (kept before lists had ids, or never renamed since) has
 * the one its name gives (page.js's formerId), written only once it is renamed.
 *
 * Version 1, up to 0.3, under the key "regles-grimoires:…" (page.js's FORMER_LISTS), named a
 * list's entries `spells` and an entry's group `college`. Such lists are moved to today's key
 * as they are (`moveFormerLists`), read as version 2, and written as version 2 at the next
 * change; a backup made then brings them back under today's key (page.js's currentKey). */
import {
  databases,
  FORMER_LISTS,
  formerId,
  freeName,
  isQuotaError,
  keepsData,
  listsKey,
  newId,
  pageDatabase,
  phrase,
  storeValue,
} from "./page.js";

export const VERSION = 2;
export const MAX_NAME = 80;
export const ID_PATTERN = /^[0-9a-z]{1,16}$/;

/** A database's key (by default this page's; page.js's listsKey). */
export const storeKey = (database = pageDatabase()) => listsKey(database);

export const cleanName = (name) => String(name ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_NAME);

/** A kept entry: { id, url, name, group }, strings (id or url may be ""), with whatever
 * else it was kept with (a newer site's fields survive a save); version 1's `college` is
 * its group. */
export const cleanEntry = (entry, database = pageDatabase()) => {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return null;
  const text = (v) => (typeof v === "string" ? v.slice(0, 300) : "");
  const id = ID_PATTERN.test(entry.id) ? entry.id : "";
  const url = text(entry.url);
  if (!id && !url) return null;
  const { college, ...kept } = entry;
  const name = text(entry.name) || (id ? phrase("entry_numbered", { id }, database) : url);
  return { ...kept, id, url, name, group: text(typeof entry.group === "string" ? entry.group : college) };
};

const emptyStore = () => ({ version: VERSION, last: "", lists: [], rest: {}, others: [] });

// What the page cannot read is never written over without the player: an unreadable value is
// first copied aside (one key per copy, never replaced by a later one), and while no copy
// could be made (a full storage) nothing is saved over it. The lists' page lists the
// copies, to download or delete.
const asidePrefix = (database = pageDatabase()) => `${storeKey(database)}:illisible`;

keepsData((key) => {
  for (const database of databases()) {
    if (key === storeKey(database)) return phrase("lists_label", {}, database);
    if (key.startsWith(asidePrefix(database))) return phrase("lists_set_aside", {}, database);
  }
  return null;
}, (value, key) => !databases().some((d) => key === storeKey(d)) || parseStore(value) !== null, // set aside: any text
(key) => {
  for (const database of databases()) {
    const former = listsKey(database, FORMER_LISTS);
    if (key === former || key.startsWith(`${former}:illisible`)) return storeKey(database) + key.slice(former.length);
  }
  return null;
});

/** The lists a version up to 0.3 kept under the former key (and the copies it set aside)
 * moved to today's, as they are. When today's key holds lists already (a tab of the former
 * version still open wrote after the move), the former ones are set aside, to be put back
 * from the lists' page: nothing is merged without the reader, nothing is lost. Each former
 * key goes only once its value is in place; a storage that refuses leaves it for the next
 * page. */
const moveFormerLists = (database) => {
  const former = listsKey(database, FORMER_LISTS);
  try {
    const copies = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(`${former}:illisible`)) copies.push(key);
    }
    for (const key of copies) {
      const moved = storeKey(database) + key.slice(former.length);
      if (localStorage.getItem(moved) === null) localStorage.setItem(moved, localStorage.getItem(key));
      localStorage.removeItem(key);
    }
    const raw = localStorage.getItem(former);
    if (raw === null) return;
    const current = localStorage.getItem(storeKey(database));
    if (current === null) storeValue(storeKey(database), raw);
    else if (current !== raw && !setAside(raw, database)) return;
    localStorage.removeItem(former);
  } catch { /* storage refused or full: the former key stays, moved at the next page */ }
};

/** The copies set aside, oldest first: [{ key, raw }]. */
export const asideCopies = (database = pageDatabase()) => {
  const copies = [];
  const prefix = asidePrefix(database);
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key === prefix || (key && key.startsWith(`${prefix}:`))) {
        copies.push({ key, raw: localStorage.getItem(key) });
      }
    }
  } catch { /* storage refused: no copies to show */ }
  return copies.sort((x, y) => x.key.localeCompare(y.key, "en", { numeric: true }));
};

/** Whether `raw` is set aside: an identical copy exists, or one could be written now. */
const setAside = (raw, database = pageDatabase()) => {
  if (asideCopies(database).some((copy) => copy.raw === raw)) return true;
  try {
    localStorage.setItem(`${asidePrefix(database)}:${Date.now()}`, raw);
    return true;
  } catch {
    return false;
  }
};

export const parseStore = (raw) => {
  let data = null;
  try { data = JSON.parse(raw); } catch { return null; }
  return data && typeof data === "object" && Array.isArray(data.lists) ? data : null;
};

/** The kept lists. Unreadable: `damaged` (and `copied` when set aside). Written by a
 * newer version of the site: `newer`, shown, never saved over. Unknown fields are kept in
 * `rest`, lists the page cannot read in `others`, entries it cannot read in each list's
 * `others`: all written back as they were. Two lists of one name are both kept, the second
 * shown (and saved) as « name (2) ». */
export const readStore = (database = pageDatabase()) => {
  const empty = { ...emptyStore(), database };
  let raw = null;
  try { raw = localStorage.getItem(storeKey(database)); } catch { return { ...empty, unavailable: true }; }
  if (raw === null) return empty;
  const data = parseStore(raw);
  if (!data) return { ...empty, damaged: true, copied: setAside(raw, database) };
  const { version, last, lists: rawLists, ...rest } = data;
  const store = { ...empty, rest, last: cleanName(last) };
  store.newer = typeof version === "number" && version > VERSION;
  if (store.newer) store.version = version;
  for (const list of rawLists) {
    const name = list && typeof list === "object" ? cleanName(list.name) : "";
    if (!name) {
      store.others.push(list);
      continue;
    }
    const { name: _name, entries: kept, spells, id, ...listRest } = list; // spells: version 1
    const entries = Array.isArray(kept) ? kept : Array.isArray(spells) ? spells : [];
    const shown = freeListName(store, name);
    store.lists.push({
      id: [id, formerId(shown), `${formerId(shown)}#${store.lists.length}`]
        .find((candidate) => typeof candidate === "string" && candidate && !findListById(store, candidate)) || newId(),
      name: shown,
      entries: entries.map((e) => cleanEntry(e, database)).filter(Boolean),
      others: entries.filter((e) => !cleanEntry(e, database)),
      rest: listRest,
    });
  }
  return store;
};

const FULL = "La mémoire de ce navigateur pour ce site est pleine : rien n’a été gardé.";

/** Writes the lists; throws an Error with a French message when the browser refuses, or
 * when the value kept now would be lost (newer, or unreadable and not set aside). */
export const writeStore = (store) => {
  const { database } = store;
  if (store.newer) {
    throw new Error(phrase("newer_read_only", {}, database));
  }
  let raw = null;
  try { raw = localStorage.getItem(storeKey(database)); } catch { raw = null; }
  if (raw !== null) {
    const data = parseStore(raw);
    if (data && typeof data.version === "number" && data.version > VERSION) {
      throw new Error(phrase("changed_meanwhile", {}, database));
    }
    if (!data && !setAside(raw, database)) {
      throw new Error(phrase("full_kept_copies", { full: FULL }, database));
    }
  }
  // An id its name gives (formerId) is not written: a list untouched since then stays
  // as it was kept.
  const lists = store.lists.map(({ id, name, entries, others = [], rest = {} }) => ({
    ...rest,
    ...(id === formerId(name) ? {} : { id }),
    name,
    entries: [...entries, ...others],
  }));
  const value = { ...store.rest, version: VERSION, last: store.last, lists: [...lists, ...(store.others || [])] };
  try {
    storeValue(storeKey(database), JSON.stringify(value));
  } catch (error) {
    throw new Error(isQuotaError(error)
      ? FULL
      : "Ce navigateur refuse de garder des données pour ce site (navigation privée ?) : rien n’a été gardé.");
  }
};

export const findList = (store, name) => store.lists.find((l) => l.name === name) || null;
export const findListById = (store, id) => store.lists.find((l) => l.id === id) || null;

/** A kept entry's key in a list: its id, else its address. */
export const entryKey = (entry) => entry.id || `@${entry.url}`;
export const sameEntries = (a, b) => JSON.stringify(a.map(entryKey)) === JSON.stringify(b.map(entryKey));

/** `name`, or « name (2) », « name (3) »… : the first that no list has. */
export const freeListName = (store, name) => freeName(name, (candidate) => findList(store, candidate), MAX_NAME);

export const entryOf = (record) => ({
  id: String(record.id || ""),
  url: String(record.url || ""),
  name: String(record.name || ""),
  group: String(record.group || ""),
});

/** Puts a copy set aside back in place of the lists kept now, which are set aside first;
 * throws an Error with a French message when the browser refuses (nothing is changed). */
export const restoreCopy = (copy, database = pageDatabase()) => {
  let current = null;
  try { current = localStorage.getItem(storeKey(database)); } catch { current = null; }
  if (current !== null && !setAside(current, database)) {
    throw new Error(phrase("full_set_aside", {}, database));
  }
  try {
    localStorage.setItem(storeKey(database), copy.raw);
    localStorage.removeItem(copy.key);
  } catch {
    throw new Error("Ce navigateur a refusé de remettre la copie en place : rien n’a été changé.");
  }
};

// Once per page, with every helper above defined, before any module reads the lists
// (characters.js reads the last list's name too); not at each reading, which every render
// and every add button does.
for (const database of databases()) moveFormerLists(database);
