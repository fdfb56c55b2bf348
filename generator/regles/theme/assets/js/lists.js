/* Lists: named lists of entries, one per character, kept in this browser.
 *
 * - On the entry index (a « + » button in each row's first cell, written by the build), on a
 *   group page (a button under each entry's heading) and in an entry's bubble (preview.js),
 *   a reader adds the entry to a list, picked or created in a small dialog; the last one
 *   used is the default.
 * - The generated page `<database folder>/<list slug>/` (div#reader-lists, pages.render_lists_page)
 *   shows one list's entries in full (fields, description), with the index's filters and
 *   sorting (entries.js's `setupFilters`, not a copy); it renames, empties and deletes them
 *   (destructive actions confirmed), shares one as a link, exports it as a JSON file and
 *   imports one.
 * - A link `…/grimoire/?nom=<name>&entrees=<id>,<id>,…` (ids of the database's data file) opens that
 *   list read-only; « Garder ce grimoire » keeps it (when the name is taken, the reader
 *   replaces that list or keeps both, the new one as « name (2) »).
 *
 * Storage (kept-lists.js): localStorage, one key per site root (several sites may share an
 * origin, as on GitHub Pages). A list is a few hundred bytes; localStorage is
 * synchronous (the page renders at once, no upgrade of a schema), works offline, and
 * Chromium, Firefox and Safari keep it as long as the site's other data (IndexedDB brings
 * nothing more at this size). Each entry is kept with its id, its address, its name and its
 * group as they were when it was added: an entry that a new export no longer has (its id
 * is not in its data file, nor its address) is shown as missing under that name, never
 * dropped. Each list has an id: a rename in another tab leaves it the same list.
 *
 * Several tabs: every change reads the lists as kept now and changes only what the
 * reader changed, by id (an entry added to a list, a rename, a deletion); this tab's copy
 * is never written back. The list page and an open add dialog follow the changes of
 * other tabs (page.js's followStored). Changes that cannot both hold keep both: a list
 * renamed here and deleted there is kept under its new name; one changed there while its
 * deletion was confirmed here is kept; the reader is told.
 *
 * The texts come from the export and from the reader: they enter the page as text nodes
 * only (page.js's `el`); the descriptions' Markdown is turned into paragraphs, lists and
 * emphasis by `descriptionNodes`, never parsed as HTML.
 *
 * Here, the lists' page. Adding an entry is list-adding.js's, the data file's records
 * list-records.js's, the share links and files list-formats.js's, the descriptions
 * descriptions.js's.
 */
import {
  confirmAction,
  databases,
  downloadText,
  el,
  entryCount,
  followStored,
  frenchSpacing,
  modal,
  newId,
  onEachPage,
  phrase,
  siteRoot,
} from "./page.js";
import {
  ID_PATTERN,
  asideCopies,
  cleanName,
  entryKey,
  entryOf,
  findList,
  findListById,
  freeListName,
  parseStore,
  readStore,
  restoreCopy,
  sameEntries,
  storeKey,
  writeStore,
} from "./kept-lists.js";
import { addButtons, markAddButtons, whenAdded } from "./list-adding.js";
import { ENTRIES_KEY, FILE_VERSION, fileName, FORMAT, FORMER_ENTRIES_KEY, MAX_ENTRIES, readListFile, repeatedCount, shareLink } from "./list-formats.js";
import { descriptionNodes } from "./descriptions.js";
import { askListName, loadIndexes, resolve } from "./list-records.js";
import { filterRow, levelBadge, setupFilters } from "./entries.js";

// A list this short reads whole on a phone's screen or two: no filter form above it.
const FILTERS_FROM = 8;

// ---------------------------------------------------------------------------------------
// The list page
// ---------------------------------------------------------------------------------------

/** The data set aside (and the kept value, while it is unreadable and could not be copied):
 * each one to download as it is, to put back in place when the page can read it, or to
 * delete once the player has it. `fail` shows a message. */
const asideSection = (store, redraw, fail) => {
  const { database } = store;
  const items = asideCopies(database).map((copy) => ({ ...copy, label: "Copie mise de côté" }));
  if (store.damaged && !store.copied) {
    let raw = null;
    try { raw = localStorage.getItem(storeKey(database)); } catch { raw = null; }
    if (raw !== null) items.unshift({ key: storeKey(database), raw, label: phrase("lists_unreadable", {}, database) });
  }
  if (!items.length) return null;
  const rows = items.map((item, i) => {
    const size = `${Math.max(1, Math.round((item.raw || "").length / 1000))} Ko`;
    const time = Number(item.key.split(":").pop());
    const when = Number.isFinite(time) && time > 0 ? `, du ${new Date(time).toLocaleString("fr-FR")}` : "";
    const download = el("button", { type: "button", class: "md-button list-button" }, "Télécharger");
    download.addEventListener("click", () => downloadText(item.raw || "", `${phrase("file_unreadable_prefix")}-${i + 1}.txt`, "text/plain"));
    const erase = el("button", { type: "button", class: "md-button list-button list-button--danger" }, "Effacer");
    erase.addEventListener("click", () => confirmAction("Effacer ces données",
      "Les effacer de ce navigateur ? Ce n’est pas réversible : téléchargez-les d’abord pour les garder.", "Effacer").then((yes) => {
      if (!yes) return;
      try { localStorage.removeItem(item.key); } catch { /* refused: they stay */ }
      redraw();
    }));
    let restore = null;
    if (item.key !== storeKey(database) && parseStore(item.raw || "")) {
      restore = el("button", { type: "button", class: "md-button list-button" }, "Remettre en place");
      restore.addEventListener("click", () => confirmAction("Remettre en place",
        phrase("restore_ask"), "Remettre en place").then((yes) => {
        if (!yes) return;
        try { restoreCopy(item, database); } catch (error) { fail(error.message); return; }
        redraw();
      }));
    }
    return el("li", { class: "list-aside__item" }, `${item.label} (${size}${when}) `, download, " ",
      restore, restore ? " " : null, erase);
  });
  return el("section", { class: "list-aside", "aria-label": "Données mises de côté" },
    el("p", {}, "Données mises de côté, telles qu’elles étaient (elles ne sont pas lues par la page) :"),
    el("ul", {}, ...rows));
};

const setupListsPage = (signal) => {
  const root = document.getElementById("reader-lists");
  if (!root) return;
  const query = new URLSearchParams(location.search);
  const shared = query.has(ENTRIES_KEY) || query.has(FORMER_ENTRIES_KEY);
  let filters = null; // the AbortController of the list's filters
  let status = ""; // a message kept across one render (after an action)
  let statusKind = "info";
  let shown = null; // the list shown ({ id, name }): the same one after a rename elsewhere
  const select = (name) => {
    const address = new URL(location.href);
    if (name) address.searchParams.set("nom", name); else address.searchParams.delete("nom");
    history.replaceState(history.state, "", address.href);
    query.delete("nom");
    if (name) query.set("nom", name);
  };

  const message = (text, kind = "info") => el("p", {
    class: `list-message list-message--${kind}`, role: kind === "error" ? "alert" : "status",
  }, text);

  const button = (label, action, extra = {}) => {
    const b = el("button", { type: "button", class: "md-button list-button", ...extra }, label);
    b.addEventListener("click", action, { signal });
    return b;
  };

  const card = (entry, record, actions) => {
    const nodes = [];
    if (record) {
      const badge = levelBadge(record);
      nodes.push(el("h2", { class: "list-entry__name" },
        el("a", { href: new URL(record.url, siteRoot()).href }, String(record.name)), ...(badge ? [" ", badge] : [])));
      nodes.push(el("p", { class: "list-entry__group" }, String(record.group ?? "")));
      const fields = record.fields && typeof record.fields === "object" ? Object.entries(record.fields) : [];
      if (fields.length) {
        nodes.push(el("dl", { class: "champs" }, ...fields.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])));
      }
      nodes.push(el("div", { class: "list-entry__description" }, ...descriptionNodes(record.description)));
    } else {
      nodes.push(el("h2", { class: "list-entry__name" }, entry.name));
      if (entry.group) nodes.push(el("p", { class: "list-entry__group" }, entry.group));
      nodes.push(el("p", { class: "list-entry__absent" },
        phrase("entry_absent"),
        entry.id ? ` (identifiant ${entry.id}).` : "."));
    }
    if (actions) nodes.push(el("p", { class: "list-entry__actions" }, ...actions));
    return el("article", { class: `list-entry${record ? "" : " list-entry--absent"}`, "data-id": entry.id || null },
      ...nodes);
  };

  /** The list of `entries` (cards), with the index's filters when there is more than one. */
  const entryList = (entries, data, removable) => {
    const list = el("div", { class: "list-entries" });
    // The index's columns, by their keys, and the export's field each one shows.
    const columns = (root.dataset.colonnes || "").split(" ").filter((c) => root.hasAttribute(`data-champ-${c}`));
    const rows = entries.map((entry, rank) => {
      const record = resolve(entry, data);
      const actions = removable ? [button("Retirer", () => removable(entry), {
        class: "md-button list-button list-remove", "aria-label": phrase("remove_from_list", { name: entry.name }) })] : null;
      const node = card(entry, record, actions);
      list.append(node);
      const fields = (record && record.fields) || {};
      // What the lists sort and filter by, as the build wrote it (`tri`, `long`).
      const orders = (record && record.tri && typeof record.tri === "object") ? record.tri : {};
      return filterRow({
        node, rank,
        name: record ? String(record.name) : entry.name,
        groupName: record ? String(record.group) : entry.group,
        values: record ? {
          group: record.group_slug, min: record.level_min, max: record.level_max, long: record.long ? "1" : "0",
        } : { group: "", min: "1", max: "10" },
        fields: Object.fromEntries(columns.map((c) => [c, String(fields[root.getAttribute(`data-champ-${c}`)] ?? "")])),
        orders: Object.fromEntries(columns.filter((c) => Number.isFinite(Number(orders[c])) && c in orders)
          .map((c) => [c, Number(orders[c])])),
        choices: (record && record.choix && typeof record.choix === "object") ? record.choix : {},
        record,
      });
    });
    return { list, rows };
  };

  // `nodes` before the list, `after` below it (what a player needs less often at the table).
  const mount = (nodes, list, rows, after = []) => {
    if (filters) filters.abort();
    filters = new AbortController();
    signal.addEventListener("abort", () => filters.abort(), { once: true });
    root.replaceChildren(...nodes);
    root.classList.toggle("reader-lists--with-entries", Boolean(list)); // lists.css: the phone's intro
    if (list) {
      root.append(list);
      if (rows.length >= FILTERS_FROM) setupFilters({ rows, list, wrapper: list, owner: root, signal: filters.signal });
    }
    root.append(...after);
    root.dataset.listReady = "1"; // for the tests: the page is drawn
  };

  const withData = (draw) => loadIndexes().then(draw, () => draw({ byId: new Map(), byUrl: new Map(), unavailable: true }));

  // The shared view: read-only, « Garder ce grimoire » -------------------------------------
  const drawShared = (data) => {
    if (!root.isConnected) return;
    const name = cleanName(query.get("nom")) || phrase("shared_list");
    const tokens = (query.get(ENTRIES_KEY) ?? query.get(FORMER_ENTRIES_KEY) ?? "").split(",").map((t) => t.trim()).filter(Boolean);
    const readable = tokens.filter((t) => ID_PATTERN.test(t));
    const unreadable = tokens.length - readable.length;
    const distinct = [...new Set(readable)];
    const repeated = repeatedCount(readable);
    const ids = distinct.slice(0, MAX_ENTRIES);
    const cut = distinct.length - ids.length;
    const entries = ids.map((id) => {
      const record = data.byId.get(id);
      return record ? entryOf(record) : { id, url: "", name: phrase("entry_unknown", { id }), group: "" };
    });
    const missing = entries.filter((e) => !data.byId.has(e.id)).length;
    const own = new URL(location.pathname, location.origin);
    // Kept under its name; when a list already has it (the same character's list, sent
    // again after a change), the reader chooses: replace it, keep both, or nothing.
    const keepAs = (choice) => {
      const store = readStore();
      const same = findList(store, name);
      let kept = name;
      let said = phrase("link_kept", { name });
      if (same && choice === "remplacer") {
        same.entries = entries;
        said = phrase("link_replaced", { name });
      } else {
        kept = freeListName(store, name);
        store.lists.push({ name: kept, entries });
        if (kept !== name) said = phrase("link_kept_renamed", { kept, name });
      }
      store.last = kept;
      try { writeStore(store); } catch (error) { status = error.message; statusKind = "error"; drawShared(data); return; }
      own.searchParams.set("nom", kept);
      try { sessionStorage.setItem("regles-list-notice", said); } catch { /* no message */ }
      location.assign(own.href);
    };
    const keep = button(phrase("keep_list"), () => {
      const same = findList(readStore(), name);
      if (!same) { keepAs("garder"); return; }
      modal({
        title: phrase("list_exists", { name }),
        content: [el("p", {}, phrase("both_sizes", { here: entryCount(same.entries.length), there: entryCount(entries.length) }))],
        buttons: [{ value: "remplacer", label: "Remplacer", main: true, danger: true },
          { value: "deux", label: "Garder les deux" }, { value: "annuler", label: "Annuler" }],
      }).then((choice) => { if (choice === "remplacer" || choice === "deux") keepAs(choice); });
    }, { class: "md-button md-button--primary list-button list-keep" });
    const head = el("section", { class: "list-share-view", "aria-label": phrase("shared_list") },
      el("p", { class: "list-share-view__title" }, `${phrase("shared_list")} : `, el("strong", {}, name),
        ` (${entryCount(entries.length)})`),
      el("p", {}, "En lecture seule : rien n’est gardé dans ce navigateur tant que vous ne le gardez pas."),
      el("p", { class: "list-buttons" }, keep,
        el("a", { class: "md-button list-button", href: own.href }, phrase("my_lists"))));
    const notes = [];
    if (status) notes.push(message(status, statusKind));
    if (data.unavailable) notes.push(message(phrase("data_unavailable_ids"), "error"));
    if (missing && !data.unavailable) notes.push(message(phrase(missing > 1 ? "link_missing_many" : "link_missing_one", { n: missing }), "warning"));
    if (unreadable) notes.push(message(`${unreadable} identifiant${unreadable > 1 ? "s" : ""} illisible${unreadable > 1 ? "s" : ""} du lien ignoré${unreadable > 1 ? "s" : ""}.`, "warning"));
    if (repeated) notes.push(message(phrase(repeated > 1 ? "link_repeated_many" : "link_repeated_one", { n: repeated }), "warning"));
    const count = (n) => n.toLocaleString("fr-FR");
    if (cut) notes.push(message(phrase(cut > 1 ? "link_cut_many" : "link_cut_one", { n: count(distinct.length), max: count(MAX_ENTRIES), cut: count(cut) }), "warning"));
    if (!entries.length) notes.push(message(phrase("link_names_none"), "warning"));
    const { list, rows } = entryList(entries, data, null);
    mount([head, ...notes], entries.length ? list : null, rows);
  };

  // The reader's own lists ---------------------------------------------------------------
  const drawOwn = (data) => {
    if (!root.isConnected) return;
    const store = readStore();
    const wanted = cleanName(query.get("nom"));
    const still = shown && findListById(store, shown.id);
    const current = still || findList(store, wanted) || findList(store, store.last) || store.lists[0] || null;
    const notes = [];
    // Deleted in another tab: said, and the page shows another one.
    if (shown && !still && !status) { status = phrase("gone_elsewhere", { name: shown.name }); statusKind = "warning"; }
    shown = current && { id: current.id, name: current.name };
    // Renamed in another tab: the address follows.
    if (current && query.has("nom") && wanted !== current.name) select(current.name);
    let said = null;
    try { said = sessionStorage.getItem("regles-list-notice"); sessionStorage.removeItem("regles-list-notice"); } catch { /* none */ }
    if (said) { status = said; statusKind = "info"; }
    if (store.unavailable) notes.push(message(phrase("storage_refused"), "error"));
    if (store.damaged && store.copied) notes.push(message(phrase("damaged_copied"), "error"));
    if (store.damaged && !store.copied) notes.push(message(phrase("damaged_not_copied"), "error"));
    if (store.newer) notes.push(message(phrase("newer_shown"), "warning"));
    const aside = asideSection(store, redraw, (text) => { status = text; statusKind = "error"; redraw(); });
    if (aside) notes.push(aside);
    // Where this browser's data is saved whole (backup.js): the lists live only here.
    const backup = new URL("donnees/", siteRoot()).href;
    notes.push(el("p", { class: "list-reminder" }, phrase("kept_here_only"),
      el("a", { href: backup }, "sauvegardez vos données"), " de temps en temps."));
    if (data.unavailable) notes.push(message(phrase("data_unavailable_names"), "error"));

    // Each change is made on the lists as they are kept now (another tab may have
    // changed them since this one drew the page). `change` may return what to say instead
    // of `done`: a string, or [text, kind].
    const save = (change, done) => {
      const fresh = readStore();
      const said = change(fresh);
      try { writeStore(fresh); } catch (error) { status = error.message; statusKind = "error"; redraw(); return; }
      [status, statusKind] = Array.isArray(said) ? said : [said ?? done, "info"];
      redraw();
      markAddButtons();
    };
    // The list shown next (null: the last used).
    const show = (list) => {
      shown = list && { id: list.id, name: list.name };
      select(list ? list.name : "");
    };
    const create = () => askListName(phrase("new_list"), "", store.database).then((name) => {
      if (!name) return;
      save((s) => {
        let list = findList(s, name);
        if (!list) { list = { id: newId(), name, entries: [] }; s.lists.push(list); }
        s.last = name;
        show(list);
      }, phrase("created", { name }));
    });

    // Import: a new list, never a change to those kept.
    const importMessage = el("p", { class: "list-import__message", role: "alert", hidden: true });
    const fileInput = el("input", { type: "file", id: "list-file", accept: ".json,application/json", class: "list-file" });
    fileInput.addEventListener("change", () => {
      const file = fileInput.files && fileInput.files[0];
      if (!file) return;
      const fail = (text) => { importMessage.textContent = frenchSpacing(text); importMessage.hidden = false; fileInput.value = ""; };
      if (file.size > 2_000_000) { fail(phrase("file_too_big", { file: file.name, size: Math.round(file.size / 1000) })); return; }
      file.text().then((text) => {
        let read;
        try { read = readListFile(text, file.name); } catch (error) { fail(`${error.message} Rien n’a été importé.`); return; }
        const kept = freeListName(readStore(), read.name);
        const unknown = data.unavailable ? [] : read.entries.filter((e) => !resolve(e, data));
        let done = phrase("imported", { name: kept, count: entryCount(read.entries.length) });
        if (read.repeated) done += ` ${phrase(read.repeated > 1 ? "import_repeated_many" : "import_repeated_one", { n: read.repeated })}`;
        if (kept !== read.name) done += ` ${phrase("name_was_taken", { name: read.name })}`;
        if (unknown.length) {
          const names = unknown.map((e) => e.name).join(", ");
          done += ` ${phrase(unknown.length > 1 ? "import_unknown_many" : "import_unknown_one", { n: unknown.length, names })}`;
        }
        save((s) => {
          const list = { id: newId(), name: freeListName(s, kept), entries: read.entries };
          s.lists.push(list);
          s.last = list.name;
          show(list);
        }, done);
      }, () => fail(`« ${file.name} » est illisible. Rien n’a été importé.`));
    }, { signal });
    const importer = el("div", { class: "list-importer" },
      el("label", { for: "list-file", class: "md-button list-button" }, "Importer un fichier JSON"),
      fileInput, importMessage);

    if (!current) {
      if (status) notes.push(message(status, statusKind));
      status = "";
      const index = root.dataset.index || "../";
      mount([...notes,
        el("p", { class: "list-empty" }, phrase("no_list_yet"),
          el("a", { href: index }, phrase("index_link")), phrase("no_list_yet_end")),
        el("p", { class: "list-buttons" }, button(phrase("new_list"), create)),
        importer], null, []);
      return;
    }

    const choice = el("select", { id: "list-name", class: "list-choice__list" },
      ...store.lists.map((l) => el("option", { value: l.name, selected: l === current },
        `${l.name} (${entryCount(l.entries.length)})`)));
    choice.addEventListener("change", () => {
      const chosen = findList(store, choice.value);
      show(chosen);
      save((s) => { const l = chosen && findListById(s, chosen.id); if (l) s.last = l.name; }, "");
    }, { signal });
    // Renamed in another tab since: said once, the reader may still give theirs.
    let warned = false;
    const renamedElsewhere = () => {
      const now = findListById(readStore(), current.id);
      if (warned || !now || now.name === current.name) return "";
      warned = true;
      return phrase("renamed_elsewhere", { now: now.name });
    };
    const rename = () => askListName(phrase("rename_list"), current.name, store.database, current.id, renamedElsewhere).then((name) => {
      if (!name || name === current.name) return;
      const old = current.name;
      save((s) => {
        let list = findListById(s, current.id);
        let said;
        // Deleted in another tab meanwhile: kept under its new name, as it was shown here.
        if (!list) {
          list = { ...current, entries: [...current.entries] };
          s.lists.push(list);
          said = [phrase("deleted_elsewhere_kept", { old, name }), "warning"];
        }
        if (s.last === list.name || !list.name) s.last = name;
        list.name = name;
        show(list);
        return said;
      }, `« ${old} » s’appelle maintenant « ${name} ».`);
    });
    const n = current.entries.length;
    const its = phrase(n > 1 ? "its_entry_many" : "its_entry_one", { n }); // « Vider » is not offered for none
    const empty = () => confirmAction(phrase("empty_list"),
      phrase(n > 1 ? "empty_ask_many" : "empty_ask_one", { n, name: current.name }), "Vider").then((yes) => {
      // The entries the reader saw go; those another tab added since stay, and are said.
      if (yes) save((s) => {
        const list = findListById(s, current.id);
        if (!list) return [phrase("gone_elsewhere", { name: current.name }), "warning"];
        const gone = new Set(current.entries.map(entryKey));
        list.entries = list.entries.filter((e) => !gone.has(entryKey(e)));
        const left = list.entries.length;
        return left ? [phrase(left > 1 ? "emptied_but_many" : "emptied_but_one", { name: list.name, n: left }), "warning"] : undefined;
      }, `« ${current.name} » est vide.`);
    });
    const remove = () => confirmAction(phrase("delete_list"),
      phrase("delete_ask", { name: current.name, its: n ? ` et ${its}` : "" }),
      "Supprimer").then((yes) => {
      if (!yes) return;
      save((s) => {
        const list = findListById(s, current.id);
        if (!list) return undefined;
        // Changed in another tab while the reader confirmed: not what they chose to delete.
        if (list.name !== current.name || !sameEntries(list.entries, current.entries)) {
          show(list);
          const said = list.name === current.name ? "changed_not_deleted" : "renamed_not_deleted";
          return [phrase(said, { name: current.name, now: list.name }), "warning"];
        }
        s.lists = s.lists.filter((l) => l !== list);
        if (s.last === list.name) s.last = "";
        show(null);
        return undefined;
      }, phrase("deleted", { name: current.name }));
    });
    const removeEntry = (entry) => {
      save((s) => {
        const list = findListById(s, current.id);
        if (list) list.entries = list.entries.filter((e) => entryKey(e) !== entryKey(entry));
      }, phrase("removed", { entry: entry.name, name: current.name }));
    };

    const link = shareLink(current.name, current.entries);
    const linkField = el("input", { type: "text", id: "list-link", readonly: true, value: link, class: "list-link" });
    // What copying did, said under the buttons the reader just used (not at the page's top).
    const copyMessage = el("p", { class: "list-copy__message", role: "status", hidden: true });
    const copy = button("Copier le lien", () => {
      const say = (text, kind) => {
        copyMessage.textContent = frenchSpacing(text);
        copyMessage.className = `list-message list-message--${kind} list-copy__message`;
        copyMessage.hidden = false;
      };
      const copied = () => say("Lien copié.", "info");
      // Without the clipboard (refused, or an older browser): the selection's copy; if that
      // fails too, the reader is told, and the link is left selected to copy by hand.
      const byHand = () => {
        linkField.focus();
        linkField.select();
        let done = false;
        try { done = document.execCommand("copy"); } catch { done = false; }
        if (done) copied();
        else say("Copie impossible dans ce navigateur : le lien est sélectionné, copiez-le à la main.", "error");
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(link).then(copied, byHand);
      else byHand();
    });
    const exportFile = button("Exporter (fichier JSON)", () => {
      const content = { format: FORMAT, version: FILE_VERSION, nom: current.name,
        [ENTRIES_KEY]: current.entries.map((e) => ({ id: e.id, nom: e.name, groupe: e.group, adresse: e.url })) };
      downloadText(`${JSON.stringify(content, null, 2)}\n`, fileName(current.name), "application/json");
    });
    const withoutId = current.entries.filter((e) => !e.id).length;

    const controls = el("section", { class: "list-choice", "aria-label": phrase("your_lists") },
      el("div", { class: "list-choice__row" },
        el("label", { for: "list-name" }, phrase("list_label")), choice),
      el("div", { class: "list-buttons" },
        button(phrase("new_list_button"), create), button("Renommer", rename),
        button("Vider", empty, { disabled: n === 0 }), button("Supprimer", remove, { class: "md-button list-button list-danger" })));
    if (status) notes.push(message(status, statusKind));
    status = "";
    const sharing = el("section", { class: "list-share", "aria-label": "Partager, exporter, importer" },
      el("h2", { class: "list-share__title" }, "Partager"),
      el("p", { class: "list-share__row" },
        el("label", { for: "list-link" }, `Lien de « ${current.name} » (en lecture seule pour qui l’ouvre)`), linkField),
      withoutId ? el("p", { class: "list-message list-message--warning" },
        phrase(withoutId > 1 ? "without_id_many" : "without_id_one", { n: withoutId })) : null,
      el("div", { class: "list-buttons" }, copy, exportFile),
      copyMessage,
      importer);
    const { list, rows } = entryList(current.entries, data, removeEntry);
    const body = n ? list : null;
    const emptyNote = n ? null : el("p", { class: "list-empty" }, phrase("list_empty", { name: current.name }),
      el("a", { href: root.dataset.index || "../" }, phrase("index_link")), phrase("list_empty_end"));
    // On paper the controls are gone: the sheet still says whose entries these are.
    const printTitle = el("p", { class: "list-print-title" },
      phrase("print_title", { name: current.name, count: entryCount(n) }));
    // The entries come right after the choice of list: sharing, exporting and importing
    // come after them, not between a player and their entries on a phone.
    mount([printTitle, controls, ...notes, emptyNote].filter(Boolean), body, rows, [sharing]);
  };

  const redraw = () => withData(shared ? drawShared : drawOwn);
  if (!shared) signal.addEventListener("abort", whenAdded(redraw), { once: true });
  // Another tab changed the lists: this one shows them as they are now.
  if (!shared) signal.addEventListener("abort", followStored(storeKey, redraw), { once: true });
  redraw();
};

// ---------------------------------------------------------------------------------------
// Start: on every page (first load and Material's instant navigation)
// ---------------------------------------------------------------------------------------

let controller = null;
onEachPage(() => {
  if (controller) controller.abort();
  controller = new AbortController();
  addButtons();
  setupListsPage(controller.signal);
  markAddButtons();
  // Another tab changed the lists: the buttons say what they hold now.
  for (const database of databases()) {
    controller.signal.addEventListener("abort", followStored(() => storeKey(database), markAddButtons), { once: true });
  }
});
