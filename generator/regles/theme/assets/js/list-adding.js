/* Adding an entry to a reader's list: the « + » of the index's rows, the button under each
 * heading of a group's page and in an entry's preview, the dialog that picks or creates the
 * list, and what each button says of the current list. */
import { cleanName, entryOf, findList, findListById, freeListName, MAX_NAME, readStore, storeKey, writeStore } from "./kept-lists.js";
import { MAX_ENTRIES } from "./list-formats.js";
import { levelBadge, loadEntries, previewActions } from "./entries.js";
import { listsPage } from "./list-records.js";
import { databaseOf, el, entryCount, followStored, frenchSpacing, modal, newId, pageDatabase, phrase, showNotice } from "./page.js";
import { linkKey } from "./preview.js";

// ---------------------------------------------------------------------------------------
// Adding an entry (index, group pages, previews)
// ---------------------------------------------------------------------------------------

// What shows the lists (their page) and must show an entry just added: lists.js's.
const afterAdding = new Set();
export const whenAdded = (refresh) => {
  afterAdding.add(refresh);
  return () => afterAdding.delete(refresh);
};

let notice = null;
const announce = (nodes) => {
  if (notice) notice.remove();
  const close = el("button", { type: "button", class: "list-notice__close", "aria-label": "Fermer" });
  // One line: the words shortened if they must be, never the link after them.
  const words = nodes.filter((node) => typeof node === "string");
  const text = el("span", { class: "list-notice__text", title: words.join(" ") }, ...words);
  notice = el("div", { class: "list-notice", role: "status" },
    el("p", {}, text, ...nodes.filter((node) => typeof node !== "string")), close);
  const mine = notice;
  close.addEventListener("click", () => mine.remove());
  showNotice(notice, { thisPage: true });
  setTimeout(() => mine.remove(), 8000);
};

/** The reader's current list of a store (the last used, else the last made): the one the
 * add dialog checks first. */
const lastOf = (kept) => findList(kept, kept.last) || kept.lists[kept.lists.length - 1] || null;

/** The add dialog for one entry's record. It shows the lists as kept, also when another
 * tab changes them while it is open, and adds the entry to the one chosen as kept then. */
const addToList = async (record) => {
  const database = databaseOf(record.url) || pageDatabase();
  const say = (key, values = {}) => phrase(key, values, database);
  let store = readStore(database);
  const entry = entryOf(record);
  const holds = (list) => list.entries.some((s) => (s.id && s.id === entry.id) || (!s.id && s.url === entry.url));
  const newRadio = el("input", { type: "radio", name: "list-choice", id: "list-choice-new", value: "" });
  // Without a list yet, the name of the first one is what the reader types at once.
  const newName = el("input", { type: "text", id: "list-dialog-name", maxlength: String(MAX_NAME),
    autocomplete: "off", placeholder: "Nom", "aria-label": say("new_list_name"), autofocus: !store.lists.length });
  newName.addEventListener("focus", () => { newRadio.checked = true; });
  const newRow = el("div", { class: "list-dialog__choice list-dialog__new" }, newRadio,
    el("label", { for: "list-choice-new" }, say("new_list_choice")), newName);
  const choices = el("fieldset", { class: "list-dialog__lists" });
  const elsewhere = el("p", { class: "list-dialog__other", role: "status", hidden: true });
  const radios = () => [...choices.querySelectorAll("input[type=radio]")];
  const checkedId = () => radios().find((r) => r.checked)?.value;
  // The choices as kept, `checked` (an id, "" for a new one) checked, the focus kept.
  const draw = (checked) => {
    const focused = radios().find((radio) => radio === document.activeElement)?.value;
    const rows = store.lists.map((list, i) => el("label", { class: "list-dialog__choice", for: `list-choice-${i}` },
      el("input", { type: "radio", name: "list-choice", id: `list-choice-${i}`, value: list.id, checked: list.id === checked }),
      el("span", {}, list.name),
      el("small", {}, holds(list) ? " (l’a déjà)" : ` (${entryCount(list.entries.length, database)})`)));
    newRadio.checked = !checked;
    choices.replaceChildren(el("legend", {}, store.lists.length ? say("which_list") : say("first_list")), ...rows, newRow);
    if (focused !== undefined) radios().find((radio) => radio.value === focused)?.focus();
  };
  draw(lastOf(store)?.id || "");
  // Until the reader picks one, the list checked is the last used, as kept now.
  let touched = false;
  choices.addEventListener("change", () => { touched = true; });
  newName.addEventListener("focus", () => { touched = true; });
  const gone = (id) => say("gone_elsewhere", { name: findListById(store, id)?.name || "" });
  const stop = followStored(() => storeKey(database), () => {
    const fresh = readStore(database);
    let checked = (touched ? checkedId() : lastOf(fresh)?.id) || "";
    if (checked && !findListById(fresh, checked)) {
      elsewhere.textContent = frenchSpacing(gone(checked));
      elsewhere.hidden = false;
      checked = lastOf(fresh)?.id || "";
    }
    store = fresh;
    draw(checked);
  });
  let picked = null; // the choice, as checked when « Ajouter » was pressed
  const badge = levelBadge(record);
  const value = await modal({
    title: say("add_to_a_list"),
    content: [
      el("p", { class: "list-dialog__entry" }, el("strong", {}, entry.name),
        entry.group ? ` — ${entry.group}` : "", ...(badge ? [" ", badge] : [])),
      choices,
      elsewhere,
    ],
    buttons: [{ value: "ajouter", label: "Ajouter", main: true }, { value: "annuler", label: "Annuler" }],
    check: () => {
      const fresh = readStore(database);
      const id = checkedId();
      if (id) {
        const list = findListById(fresh, id);
        if (!list) return gone(id);
        if (holds(list)) return `« ${entry.name} » est déjà dans « ${list.name} ».`;
        if (list.entries.length >= MAX_ENTRIES) return say("list_full", { name: list.name, n: MAX_ENTRIES });
        picked = { id, name: list.name };
        return "";
      }
      const name = cleanName(newName.value);
      if (!name) return say("new_list_name_missing");
      if (findList(fresh, name)) return say("name_taken_choose", { name });
      picked = { id: "", name };
      return "";
    },
  });
  stop();
  if (value !== "ajouter" || !picked) return;
  // Added to the lists as kept now: what another tab changed since stays.
  const fresh = readStore(database);
  let list = picked.id ? findListById(fresh, picked.id) : null;
  if (picked.id && !list) {
    announce([say("gone_elsewhere", { name: picked.name })]);
    return;
  }
  if (!list) {
    list = { id: newId(), name: freeListName(fresh, picked.name), entries: [] };
    fresh.lists.push(list);
  }
  if (!holds(list)) list.entries.push(entry);
  fresh.last = list.name;
  const page = listsPage(database);
  page.searchParams.set("nom", list.name);
  try {
    writeStore(fresh);
  } catch (error) {
    announce([error.message]);
    return;
  }
  // « Voir le grimoire », « Voir » alone on a phone (lists.css): the list's name, in the
  // words before it, is what the reader did not know.
  announce([say("added", { entry: entry.name, name: list.name }),
    el("a", { href: page.href, class: "list-notice__link", "aria-label": `${say("see")} ${say("the_list")}` },
      say("see"), el("span", { class: "list-notice__words" }, ` ${say("the_list")}`))]);
  for (const refresh of afterAdding) refresh();
  markAddButtons();
};

// Marked (markAddButton) by the page's pass over all its buttons, or by its own caller.
const addButton = (label, key, withText) => el("button", {
  type: "button", class: `list-add${withText ? " list-add--text" : ""}`, "data-list-entry": key,
  "aria-label": withText ? null : label, title: label,
}, withText ? phrase("add_to_list", {}, databaseOf(key)) : null);

/** The entry an add button is for (a key of the data file), else "". */
const buttonKey = (button) => {
  if (button.dataset.listEntry) return button.dataset.listEntry;
  const link = button.closest("td")?.querySelector("a[href]");
  return (link && linkKey(link)) || "";
};

/** The reader's current list of a database (the one the add dialog checks first), as kept
 * now: { name, keys: Set of its entries' addresses }, or null. */
const currentList = (database) => {
  const list = lastOf(readStore(database));
  return list && { name: list.name, keys: new Set(list.entries.map((s) => s.url).filter(Boolean)) };
};

/** An add button says whether its entry is in the reader's current list: « ✓ » and
 * « Dans « <the list’s name> » » instead of « + » (lists.css), and in its name, which a screen
 * reader reads, before what it does (it still adds the entry to a list, another one).
 * `lists` caches each database's current list during one pass over the page. */
function markAddButton(button, lists = new Map()) {
  const key = buttonKey(button);
  const database = databaseOf(key) || pageDatabase();
  const folder = database ? database.folder : "";
  if (!lists.has(folder)) lists.set(folder, currentList(database));
  const list = lists.get(folder);
  const inside = Boolean(key && list && list.keys.has(key));
  // Most buttons of an index say nothing new: left untouched (no restyling of its rows).
  if (!inside && !button.classList.contains("list-add--in")) return button;
  // What it says when the entry is in no list: the build's name, or its text's.
  if (button.dataset.ajout === undefined) {
    button.dataset.ajout = button.getAttribute("aria-label") || button.title || "";
    button.dataset.texte = button.textContent;
  }
  button.classList.toggle("list-add--in", inside);
  const where = inside ? `Dans « ${list.name} »` : "";
  if (button.classList.contains("list-add--text")) button.textContent = inside ? where : button.dataset.texte;
  button.setAttribute("aria-label", inside ? `${where}. ${button.dataset.ajout}` : button.dataset.ajout);
  return button;
}

/** Every add button of the page, after a list changed (here, in another tab) or a page came. */
export const markAddButtons = () => {
  const lists = new Map();
  for (const button of document.querySelectorAll("button.list-add")) markAddButton(button, lists);
};

// One listener for every add button of the site (they come and go with the pages).
document.addEventListener("click", (e) => {
  const button = e.target instanceof Element ? e.target.closest("button.list-add") : null;
  if (!button) return;
  e.preventDefault();
  let key = button.dataset.listEntry;
  if (!key) {
    const link = button.closest("td")?.querySelector("a[href]");
    key = link ? linkKey(link) : "";
  }
  const database = databaseOf(key) || pageDatabase();
  loadEntries(database).then((byUrl) => {
    const record = byUrl.get(key);
    if (record) addToList(record);
    else announce([phrase("entry_not_in_data", {}, database)]);
  }, () => announce([phrase("data_unavailable_added", {}, database)]));
});

previewActions.push((record) => (record && record.url
  ? markAddButton(addButton(phrase("add_named_to_list", { name: record.name }, databaseOf(record.url)), record.url, true))
  : null));

/** A button under each heading of a group page. The entry index's rows have theirs in the
 * page (pages.render_entry_table): written at load, they would lay out every row again. */
export const addButtons = () => {
  for (const heading of document.querySelectorAll(".md-content h2.entry[id]")) {
    const line = heading.nextElementSibling;
    if (!line || !line.matches("p.niveaux") || line.querySelector(".list-add")) continue;
    const key = linkKey(el("a", { href: `#${heading.id}` }));
    if (!key) continue;
    const name = heading.textContent.replace(/¶$/, "").trim();
    line.append(" ", addButton(phrase("add_named_to_list", { name }), key, true));
  }
};
