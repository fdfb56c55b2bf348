/* Entries: filters and sorting of « Tous les sorts », an entry's preview over its links.
 *
 * - The « Tous les sorts » page (table#entry-table) gets a filter form (text, group, levels,
 *   a choice list per column of a few values, the « long » box, descriptions; the build
 *   says which: features/databases/columns.py) and sortable headers. The state lives
 *   in the address's query (history.replaceState): a filtered list can be shared and is found
 *   again on going back. Everything is read from the DOM: nothing to load, unless the reader
 *   also asks for the descriptions (the database's data file).
 * - On every page, a link to an entry (a.entry-link, links of small.homonymes, names in the
 *   table) shows a preview of the entry on hover, on keyboard focus, or at the first tap
 *   (the bubble of preview.js).
 *
 * The texts come from the entry export: they enter the page through text nodes only.
 * No address absolute from "/": everything is resolved from the site root (page.js).
 */
import {
  databaseOf,
  el,
  entryCount,
  foldAccents,
  frenchSpacing,
  onEachPage,
  pageDatabase,
  phrase,
  siteRoot,
  urlIndexLoader,
} from "./page.js";
import { addPreview, linkKey, openLink, preview } from "./preview.js";

const ROMAN_NUMERALS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
const MAX_LEVEL = ROMAN_NUMERALS.length;
const NONE = "-"; // the filter value "empty field" (never a real value of the export)
// Made on first sort, not at load on every page (an Intl object loads locale data).
let intlCollator = null;
const collator = {
  compare(a, b) {
    intlCollator = intlCollator || new Intl.Collator("fr", { numeric: true });
    return intlCollator.compare(a, b);
  },
};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/** Comparable text: no accents nor case, apostrophes and ligatures made one. */
const fold = (text) =>
  foldAccents(text)
    .replace(/[’‘ʼ`´]/g, "'")
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/\s+/g, " ")
    .trim();

/** Order of the choice lists: no accents nor case, then character by character. Without
 * Intl.Collator: made at its first use (the locale's data), it waits until the reader sorts. */
const alphabetical = (a, b) => {
  const x = fold(a);
  const y = fold(b);
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

export const roman = (n) => {
  let rest = Math.trunc(Number(n)) || 0;
  if (rest >= 1 && rest <= MAX_LEVEL) return ROMAN_NUMERALS[rest - 1];
  const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"],
    [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let written = "";
  for (const [value, letters] of table) {
    while (rest >= value) { written += letters; rest -= value; }
  }
  return written || String(n);
};

export const levels = (min, max) => (min === max ? roman(min) : `${roman(min)}–${roman(max)}`);

/** The badge of an entry's levels after its name (« II–IV », said « Niveaux II à IV »), null
 * for an entry of an export without levels (its record's are null). */
export const levelBadge = (record) => {
  if (record.level_min === null || record.level_min === undefined) return null;
  const min = Number(record.level_min);
  const max = Number(record.level_max);
  const title = min === max ? `Niveau ${roman(min)}` : `Niveaux ${roman(min)} à ${roman(max)}`;
  return el("span", { class: "niveau", title }, levels(min, max));
};

/** A description's Markdown → plain text (escapes, emphasis, bullets). */
const plainText = (markdown) =>
  String(markdown)
    .replace(/\\(.)|\*+|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (_m, escaped) => escaped ?? "")
    .replace(/^\s*-\s+/gm, "• ")
    .replace(/\s+/g, " ")
    .trim();

const excerpt = (text, length = 200) => {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const space = cut.lastIndexOf(" ");
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
};

// ---------------------------------------------------------------------------------------
// Data: each database's data file (data/bases/<folder>.json), loaded once, on demand
// ---------------------------------------------------------------------------------------

const loaders = new Map(); // data file → its loader
/** The records of a database (by default this page's), by address: its data file, loaded
 * once, on the first call. */
export const loadEntries = (database = pageDatabase()) => {
  if (!database) return Promise.reject(new Error("aucune base de données sur ce site"));
  if (!loaders.has(database.data)) loaders.set(database.data, urlIndexLoader(database.data));
  return loaders.get(database.data)();
};

// ---------------------------------------------------------------------------------------
// An entry's preview (hover, focus, tap): the bubble of preview.js
// ---------------------------------------------------------------------------------------

const TRIGGERS = "a.entry-link[href], small.homonymes a[href], #entry-table tbody td:first-child a[href]";

/** The database a link of this page leads into (its `href` as written), else this page's. */
const linkDatabase = (href) => {
  try {
    return databaseOf(new URL(href, location.href).href) || pageDatabase();
  } catch {
    return pageDatabase();
  }
};

const entryContent = (record, href) => {
  const database = databaseOf(record.url) || linkDatabase(href);
  const badge = levelBadge(record);
  const title = el("p", { class: "entry-preview__title" },
    el("strong", {}, String(record.name ?? "")), ...(badge ? [" ", badge] : []));
  const nodes = [title, el("p", { class: "entry-preview__group" }, String(record.group ?? ""))];
  const fields = record.fields && typeof record.fields === "object" ? Object.entries(record.fields) : [];
  if (fields.length) {
    const list = el("dl", { class: "entry-preview__fields" });
    for (const [key, value] of fields) list.append(el("dt", {}, key), el("dd", {}, String(value)));
    nodes.push(list);
  }
  const text = excerpt(plainText(record.description ?? ""));
  if (text) nodes.push(el("p", { class: "entry-preview__text" }, text));
  const actions = openLink(href, phrase("open_entry", {}, database));
  for (const action of previewActions) {
    const node = action(record);
    if (node) actions.append(node);
  }
  nodes.push(actions);
  return nodes;
};

/** What other modules add to an entry's bubble, next to « Ouvrir la fiche »: each a function
 * of the entry's record giving a node, or null (list-adding.js: « Ajouter à … »). */
export const previewActions = [];

addPreview({
  triggers: TRIGGERS,
  // A link's key names its database: its entries' data file only is read.
  load: (key) => loadEntries(databaseOf(key || "") || pageDatabase()),
  content: entryContent,
  unavailable: (href) => [
    el("p", { class: "entry-preview__state" }, phrase("preview_unavailable", {}, linkDatabase(href))),
    openLink(href, phrase("open_entry", {}, linkDatabase(href))),
  ],
});

// ---------------------------------------------------------------------------------------
// « Tous les sorts »: filters, count, sorting, state in the address
// ---------------------------------------------------------------------------------------

// The address's query parameters, but the choice filters' (their columns' keys): shared
// links hold these names. Before 0.4 the group's filter and column were « college » in an
// address: a link made then still reads, and is written back with today's names.
const FORMER_GROUP = "college";
const PARAMETERS = ["texte", "groupe", FORMER_GROUP, "min", "max", "long", "desc", "tri", "ordre"];

/** The filters the build gives a list (`data-filtres` of the index's table or of the lists'
 * page, features/databases/pages.py): `choix`, each choice filter's `cle`, `libelle` and
 * `sans` (the choice of the entries without a value); `long`, the « long » box's column
 * (`cle`, `champ`) or null. */
const filtersOf = (owner) => {
  try {
    const said = JSON.parse(owner.dataset.filtres || "{}");
    return { choices: Array.isArray(said.choix) ? said.choix : [], long: said.long || null };
  } catch {
    return { choices: [], long: null };
  }
};

// The columns that are not one of the export's fields.
const FIXED_COLUMNS = ["nom", "groupe", "niveaux"];

// The text a column is sorted by, in a row: its name, its group's, else its field's value.
const columnText = (row, column) =>
  column === "nom" ? row.name : column === "groupe" ? row.groupName : row.fields[column] || "";

/** A row of the filters: what they read of one entry. `node`: the element shown, hidden and
 * moved (a table row, a card); `values`: its `group` slug, `min`, `max` and `long` ("1" or
 * not); `fields`: the value of each of the index's columns, by its key (« duree »);
 * `choices`: for each choice filter, the values it counts for (the build's `data-choix-*`,
 * `choix` of a record);
 * `orders`: for a column that sorts by its value (a time, a distance), that value's order,
 * as the build wrote it (features/databases/ordering.py: `data-tri-*` of the index's rows,
 * `tri` of a record); `record`: its record of the data file, when the row is made from it
 * (its description is then at hand). */
export const filterRow = ({
  node, rank, name, groupName, values, fields = {}, orders = {}, choices = {}, nameLink = null, record = null,
}) => {
  // No levels (null): an entry of an export without any.
  const leveled = values.min !== null && values.min !== undefined && values.min !== "";
  const min = leveled ? Number.parseInt(values.min, 10) || 1 : null;
  const max = leveled ? Number.parseInt(values.max, 10) || min : null;
  const trimmed = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v ?? "").trim()]));
  return {
    node, rank, name, groupName, min, max,
    fields: trimmed,
    orders,
    choices, // for each choice filter's key, the values the entry counts for
    group: values.group || "",
    long: values.long === "1",
    nameLink,
    record,
    raw: [name, groupName, ...Object.values(trimmed)].join(" "),
    text: null, // raw folded, made at the first text search
    description: null,
  };
};

const setupTable = (signal) => {
  const table = document.getElementById("entry-table");
  if (!table || !table.tBodies[0] || table.dataset.indexReady) return;
  table.dataset.indexReady = "1";
  const tbody = table.tBodies[0];
  const headers = Array.from(table.tHead ? table.tHead.rows[0].cells : []);
  const columns = headers.map((th) => th.dataset.colonne || "").filter((c) => !FIXED_COLUMNS.includes(c));
  const { choices } = filtersOf(table);

  // Rows read once, nothing written into them (the cards' labels come from the page); the
  // original order is the last criterion (a stable sort).
  const rows = Array.from(tbody.rows).filter((tr) => tr.cells.length >= headers.length).map((tr, rank) => filterRow({
    node: tr,
    rank,
    name: tr.cells[0].textContent.trim(),
    groupName: tr.cells[1].textContent.trim(),
    values: tr.dataset,
    fields: Object.fromEntries(columns.map((c) => [c, tr.getAttribute(`data-${c}`) || ""])),
    orders: Object.fromEntries(columns.filter((c) => tr.hasAttribute(`data-tri-${c}`))
      .map((c) => [c, Number(tr.getAttribute(`data-tri-${c}`)) || 0])),
    choices: Object.fromEntries(choices.map(({ cle }) =>
      [cle, (tr.getAttribute(`data-choix-${cle}`) || "").split("|").filter(Boolean)])),
    nameLink: tr.cells[0].querySelector("a"),
  }));
  const wrapper = table.closest(".md-typeset__scrollwrap") || table;
  if (table.parentElement && table.parentElement.classList.contains("md-typeset__table")) {
    table.parentElement.classList.add("index-scroll");
  }
  wrapper.classList.add("index-wrapper");
  setupFilters({ rows, list: tbody, wrapper, owner: table, headers, signal });
};

/** The filter form, count and sorting of the entry index over `rows` (`filterRow`), the
 * state in the address's query: for the index's table, and for any list of entries (the
 * list page). `list`: the parent of the rows' nodes, which sorting reorders; `wrapper`:
 * what the form goes before (hidden when no row is left); `owner`: the element that holds
 * the filter labels (`data-libelle-*`) and receives `data-visibles` and `data-index-active`;
 * `headers`: the table's header cells, made sort buttons; without them, the form gets a
 * « Trier par » choice. */
export const setupFilters = ({ rows, list, wrapper, owner, headers = [], signal }) => {
  const base = siteRoot();
  const tbody = list;
  const table = owner;
  const total = rows.length;

  // The values present, for the choice lists: each filter's values with their counts, and
  // the count of the rows without any.
  const { choices: choiceFilters, long: longFilter } = filtersOf(owner);
  const groups = new Map();
  const present = choiceFilters.map(() => ({ values: new Map(), without: 0 }));
  const count = (m, k) => m.set(k, (m.get(k) || 0) + 1);
  for (const row of rows) {
    if (!groups.has(row.group)) groups.set(row.group, { name: row.groupName, n: 0 });
    groups.get(row.group).n += 1;
    choiceFilters.forEach(({ cle }, i) => {
      const values = row.choices[cle] || [];
      if (values.length) new Set(values).forEach((v) => count(present[i].values, v)); else present[i].without += 1;
    });
  }
  const sorted = (m) => Array.from(m.keys()).sort(alphabetical);
  // The levels the export uses, from its lowest to its highest (all of them without rows);
  // an export without levels has no such filter (the build writes no label for it).
  const hasLevels = owner.hasAttribute("data-libelle-niveaux");
  const leveled = rows.filter((r) => r.min !== null);
  const lowest = leveled.length ? Math.min(...leveled.map((r) => r.min)) : 1;
  const highest = leveled.length ? Math.max(...leveled.map((r) => r.max)) : MAX_LEVEL;
  const anyLong = Boolean(longFilter) && rows.some((r) => r.long);

  // Form --------------------------------------------------------------------------------
  const id = (s) => `index-${s}`;
  const field = (name, label, control, className = "") =>
    el("div", { class: `index-field ${className}`.trim() }, el("label", { for: id(name) }, label), control);
  const option = (value, text) => el("option", { value }, text);

  const textInput = el("input", {
    type: "search", id: id("texte"), name: "texte", autocomplete: "off", spellcheck: "false",
    placeholder: phrase("index_placeholder"), enterkeyhint: "search",
    "aria-describedby": id("compte"), maxlength: "200",
  });
  const groupChoice = el("select", { id: id("groupe"), name: "groupe" }, option("", `${phrase("index_group_all")} (${total})`));
  for (const [slug, { name, n }] of Array.from(groups).sort((a, b) => alphabetical(a[1].name, b[1].name))) {
    groupChoice.append(option(slug, `${name} (${n})`));
  }
  const levelChoice = (name) => {
    const s = el("select", { id: id(name), name });
    if (hasLevels) for (let n = lowest; n <= highest; n += 1) s.append(option(String(n), ROMAN_NUMERALS[n - 1]));
    return s;
  };
  const minChoice = levelChoice("min");
  const maxChoice = levelChoice("max");
  minChoice.setAttribute("aria-label", "Niveau minimal");
  maxChoice.setAttribute("aria-label", "Niveau maximal");
  // A choice list per filter: « Sans filtre », each value with its count, then the rows
  // without a value.
  const choiceLists = choiceFilters.map(({ cle, sans }, i) => {
    const { values, without } = present[i];
    const select = el("select", { id: id(cle), name: cle }, option("", "Sans filtre"));
    for (const k of sorted(values)) select.append(option(k, `${k} (${values.get(k)})`));
    if (without) select.append(option(NONE, `${sans} (${without})`));
    return select;
  });
  const longBox = el("input", { type: "checkbox", id: id("long"), name: "long" });
  const descriptionsBox = el("input", { type: "checkbox", id: id("desc"), name: "desc" });
  const counter = el("p", { id: id("compte"), class: "index-count", role: "status", "aria-live": "polite" });
  const note = el("p", { class: "index-note", hidden: true });
  const clear = el("button", { type: "button", class: "md-button index-clear" }, "Réinitialiser");

  // What each filter filters, as the table names it (pages.render_entry_table): « Classe
  // de sort » rather than the export's bare « Classe », read as a character's class.
  const label = (key, fallback) => table.getAttribute(`data-libelle-${key}`) || fallback;
  // On a phone the filters and the sorting are folded behind one button, so that the first
  // screen shows the search field, the count and the first entries (entries.css); wider, the
  // button is not shown and everything is.
  const toggleCount = el("span", { class: "index-fold__count" });
  const toggle = el("button", {
    type: "button", class: "index-fold", "aria-expanded": "false", "aria-controls": id("plus"),
  }, "Filtres et tri", toggleCount);
  const more = el("div", { class: "index-more", id: id("plus") },
    field("groupe", label("groupe", phrase("search_group_any")), groupChoice, "index-field--group"),
    hasLevels ? el("fieldset", { class: "index-levels" },
      el("legend", {}, label("niveaux", "Niveaux")),
      field("min", "de", minChoice),
      field("max", "à", maxChoice)) : null,
    // A filter no entry of the list has a value for is left out.
    ...choiceFilters.map(({ cle, libelle }, i) => (present[i].values.size ? field(cle, libelle, choiceLists[i]) : null)),
    el("div", { class: "index-boxes" },
      anyLong ? el("label", { for: id("long") }, longBox, ` « ${longFilter.champ} : long » seulement`) : null,
      el("label", { for: id("desc") }, descriptionsBox, " Chercher aussi dans les descriptions")));
  const form = el("form", { class: "index-filters", role: "search", "aria-label": phrase("index_filter") },
    field("texte", phrase("index_search"), textInput, "index-field--text"),
    toggle,
    more,
    el("div", { class: "index-bar" }, counter, clear),
    note);
  // No entry left: everything back; or, for words typed while the descriptions are not
  // searched (their box folded away on a phone), the descriptions searched too.
  const showAll = el("button", { type: "button", class: "index-link" }, "Tout réafficher");
  const searchDescriptions = el("button", { type: "button", class: "index-link", hidden: true },
    "Chercher aussi dans les descriptions");
  const empty = el("p", { class: "index-empty", hidden: true },
    `${phrase("index_empty")} `, showAll, searchDescriptions);

  wrapper.before(form);
  wrapper.after(empty);

  // The columns by their names in the filters and the address, as the build writes them
  // (features/databases/pages.py): each header's, or, for a list of cards, the list's.
  const COLUMNS = headers.length
    ? headers.map((th) => th.dataset.colonne || "")
    : (owner.dataset.colonnes || "").split(" ").filter(Boolean);

  // Sortable headers: a button in each <th>.
  const buttons = headers.map((th, i) => {
    const name = th.textContent.trim();
    const b = el("button", { type: "button", class: "index-sort", "data-colonne": COLUMNS[i] || "" },
      name, el("span", { class: "index-sort__icon", "aria-hidden": "true" }));
    th.replaceChildren(b);
    th.setAttribute("scope", "col");
    return b;
  });

  // Without headers (a list of cards): « Trier par » and the order, in the form; a column
  // no entry of the list fills is not offered.
  const sortName = (c) => (c === "nom" ? "Nom" : c === "groupe" ? label("groupe", phrase("search_group_any"))
    : c === "niveaux" ? label("niveaux", "Niveaux") : label(c, c));
  const filled = (c) => FIXED_COLUMNS.includes(c) || rows.some((r) => r.fields[c]);
  const sortChoice = headers.length ? null : el("select", { id: id("tri"), name: "tri" },
    option("", "Ordre de la liste"),
    ...COLUMNS.filter(filled).map((c) => option(c, sortName(c))));
  const orderChoice = headers.length ? null : el("select", { id: id("ordre"), name: "ordre" },
    option("asc", "croissant"), option("desc", "décroissant"));
  if (sortChoice) more.append(field("tri", "Trier par", sortChoice), field("ordre", "Ordre", orderChoice));

  // State -------------------------------------------------------------------------------
  const noChoice = () => Object.fromEntries(choiceFilters.map(({ cle }) => [cle, ""]));
  const DEFAULT = { text: "", group: "", min: lowest, max: highest, chosen: noChoice(),
    longOnly: false, descriptions: false, sort: "", order: "asc" };
  let state = { ...DEFAULT };
  const valuesOf = (select) => new Set(Array.from(select.options, (o) => o.value));

  const readAddress = () => {
    const p = new URLSearchParams(location.search);
    const s = { ...DEFAULT };
    const within = (select, v) => (v !== null && valuesOf(select).has(v) ? v : "");
    s.text = (p.get("texte") || "").slice(0, 200);
    s.group = within(groupChoice, p.get("groupe") ?? p.get(FORMER_GROUP));
    s.chosen = Object.fromEntries(choiceFilters.map(({ cle }, i) => [cle, within(choiceLists[i], p.get(cle))]));
    const level = (v, fallback) => {
      const n = /^\d{1,2}$/.test(v || "") ? Number(v) : NaN;
      return n >= lowest && n <= highest ? n : fallback;
    };
    // An export without levels takes no level from the address (a link made elsewhere).
    s.min = hasLevels ? level(p.get("min"), lowest) : lowest;
    s.max = hasLevels ? level(p.get("max"), highest) : highest;
    if (s.min > s.max) [s.min, s.max] = [s.max, s.min];
    s.longOnly = p.get("long") === "1";
    s.descriptions = p.get("desc") === "1";
    const sort = p.get("tri") === FORMER_GROUP ? "groupe" : p.get("tri");
    s.sort = COLUMNS.includes(sort) ? sort : "";
    s.order = p.get("ordre") === "desc" ? "desc" : "asc";
    return s;
  };

  const writeAddress = () => {
    if (!table.isConnected) return; // the page changed (instant navigation)
    const address = new URL(location.href);
    [...PARAMETERS, ...choiceFilters.map(({ cle }) => cle)].forEach((k) => address.searchParams.delete(k));
    const q = address.searchParams;
    if (state.text.trim()) q.set("texte", state.text);
    if (state.group) q.set("groupe", state.group);
    if (state.min !== DEFAULT.min) q.set("min", String(state.min));
    if (state.max !== DEFAULT.max) q.set("max", String(state.max));
    for (const { cle } of choiceFilters) if (state.chosen[cle]) q.set(cle, state.chosen[cle]);
    if (state.longOnly) q.set("long", "1");
    if (state.descriptions) q.set("desc", "1");
    if (state.sort) { q.set("tri", state.sort); if (state.order === "desc") q.set("ordre", "desc"); }
    if (address.href !== location.href) history.replaceState(history.state, "", address.href);
  };

  const toForm = () => {
    textInput.value = state.text;
    groupChoice.value = state.group;
    minChoice.value = String(state.min);
    maxChoice.value = String(state.max);
    choiceFilters.forEach(({ cle }, i) => { choiceLists[i].value = state.chosen[cle]; });
    longBox.checked = state.longOnly;
    descriptionsBox.checked = state.descriptions;
    if (sortChoice) { sortChoice.value = state.sort; orderChoice.value = state.order; }
  };

  const fromForm = () => {
    state = {
      ...state,
      text: textInput.value,
      group: groupChoice.value,
      min: hasLevels ? Number(minChoice.value) : state.min,
      max: hasLevels ? Number(maxChoice.value) : state.max,
      chosen: Object.fromEntries(choiceFilters.map(({ cle }, i) => [cle, choiceLists[i].value])),
      longOnly: longBox.checked,
      descriptions: descriptionsBox.checked,
    };
  };

  // The folding button says how many filters and sorts are set, hidden as they are. Its
  // nodes stay: the text field's « change », fired as a tap on the button takes the focus,
  // redraws the count, and a node taken out under the finger would lose the tap.
  const showToggle = () => {
    const set = [state.group, state.min !== DEFAULT.min || state.max !== DEFAULT.max,
      ...Object.values(state.chosen), state.longOnly, state.descriptions, state.sort].filter(Boolean).length;
    const text = set ? ` (${set} ${set > 1 ? "actifs" : "actif"})` : "";
    if (toggleCount.textContent !== text) toggleCount.textContent = text;
  };
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    form.classList.toggle("index-filters--open", open);
  }, { signal });

  // Filter ------------------------------------------------------------------------------
  const keeps = (row, words) => {
    if (state.group && row.group !== state.group) return false;
    if (row.min !== null && (row.max < state.min || row.min > state.max)) return false; // overlapping levels
    for (const { cle } of choiceFilters) {
      const wanted = state.chosen[cle];
      const values = row.choices[cle] || [];
      if (wanted === NONE ? values.length : wanted && !values.includes(wanted)) return false;
    }
    if (state.longOnly && !row.long) return false;
    if (words.length) {
      if (row.text === null) row.text = fold(row.raw);
      const haystack = state.descriptions && row.description ? `${row.text} ${row.description}` : row.text;
      return words.every((w) => haystack.includes(w));
    }
    return true;
  };

  const apply = () => {
    const words = fold(state.text).split(" ").filter(Boolean);
    sortRows();
    let n = 0;
    for (const row of rows) {
      const kept = keeps(row, words);
      if (row.node.hidden === kept) row.node.hidden = !kept;
      if (kept) n += 1;
    }
    counter.textContent = entryCount(n);
    counter.append(el("span", { class: "index-count__total" }, ` sur ${total}`));
    table.dataset.visibles = String(n);
    empty.hidden = n > 0;
    searchDescriptions.hidden = !words.length || state.descriptions;
    wrapper.hidden = n === 0;
    form.classList.toggle("index-filters--active", JSON.stringify({ ...state, sort: "", order: "asc" })
      !== JSON.stringify({ ...DEFAULT }));
    showToggle();
    writeAddress();
  };

  // Sorting -----------------------------------------------------------------------------
  const comparison = (column) => {
    if (column === "niveaux") return (a, b) => a.min - b.min || a.max - b.max;
    const textOf = (row) => columnText(row, column);
    // A column of times or distances: by their orders, the build's.
    if (rows.some((row) => column in row.orders)) {
      const orderOf = (row) => row.orders[column] || 0;
      return (a, b) => orderOf(a) - orderOf(b) || collator.compare(textOf(a), textOf(b));
    }
    return (a, b) => collator.compare(textOf(a), textOf(b));
  };
  const emptyIn = (column) => (row) => (column === "niveaux" ? false : !columnText(row, column));

  // The sort the rows follow in the page ("": the export's, as loaded). Moving the 422 rows
  // makes the browser restyle and lay them all out again: not for nothing.
  let sortInPlace = "";
  // Without an order chosen, words typed put the entries whose name holds them first, in
  // the export's order: « brume » shows the entry « Brume » before the 20 entries of the
  // group « Brume & Vent ».
  const namedFirst = () => {
    const words = state.sort ? [] : fold(state.text).split(" ").filter(Boolean);
    if (!words.length) return [];
    return rows.filter((row) => {
      if (row.foldedName === undefined) row.foldedName = fold(row.name);
      return words.every((w) => row.foldedName.includes(w));
    });
  };
  const sortRows = () => {
    const named = namedFirst();
    const moved = named.length > 0 && named.length < rows.length && named.some((row, i) => row.rank !== i);
    const wanted = state.sort ? `${state.sort} ${state.order}` : moved ? `noms ${named.map((r) => r.rank)}` : "";
    if (wanted !== sortInPlace) {
      let order;
      if (!state.sort) {
        const first = new Set(named);
        order = moved ? [...named, ...rows.filter((row) => !first.has(row))] : [...rows];
      } else {
        const cmp = comparison(state.sort);
        const isEmpty = emptyIn(state.sort);
        const direction = state.order === "desc" ? -1 : 1;
        // Stable: the export's order breaks ties; empty fields always at the end of the list.
        order = [...rows].sort((a, b) => (isEmpty(a) - isEmpty(b)) || direction * cmp(a, b) || a.rank - b.rank);
      }
      const fragment = document.createDocumentFragment();
      order.forEach((row) => fragment.append(row.node));
      tbody.append(fragment);
      sortInPlace = wanted;
    }
    headers.forEach((th, i) => {
      const active = COLUMNS[i] === state.sort;
      if (active) th.setAttribute("aria-sort", state.order === "desc" ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
      buttons[i].title = active && state.order === "asc" ? "Trier en ordre décroissant" : "Trier en ordre croissant";
    });
  };

  // Descriptions (optional) ---------------------------------------------------------------
  let descriptionsReady = false;
  const loadDescriptions = () => {
    if (descriptionsReady) return;
    note.hidden = false;
    note.textContent = "Chargement des descriptions…";
    loadEntries().then((byUrl) => {
      if (!table.isConnected) return;
      for (const row of rows) {
        const key = !row.record && row.nameLink ? linkKey(row.nameLink, base) : null;
        const record = row.record || (key ? byUrl.get(key) : null);
        if (!record) continue;
        const fields = record.fields && typeof record.fields === "object" ? Object.values(record.fields) : [];
        row.description = fold(`${fields.join(" ")} ${plainText(record.description ?? "")}`);
      }
      descriptionsReady = true;
      note.hidden = true;
      note.textContent = "";
      apply();
    }, () => {
      if (!table.isConnected) return;
      note.textContent = frenchSpacing("Descriptions indisponibles (hors connexion ?) : recherche limitée au tableau.");
    });
  };

  // Events (on this page's elements, dropped at the next navigation) -----------------------
  // A new order (a header, or « Trier par »): the rows, the fold button's count, the address.
  const sortBy = (sort, order) => {
    state = { ...state, sort, order };
    sortRows();
    showToggle();
    writeAddress();
  };
  const onChange = (e) => {
    if (e && sortChoice && (e.target === sortChoice || e.target === orderChoice)) {
      sortBy(sortChoice.value, orderChoice.value);
      return;
    }
    fromForm();
    if (e && e.target === minChoice && state.min > state.max) { state.max = state.min; maxChoice.value = String(state.max); }
    if (e && e.target === maxChoice && state.max < state.min) { state.min = state.max; minChoice.value = String(state.min); }
    if (state.descriptions) loadDescriptions();
    else { note.hidden = true; }
    apply();
  };
  form.addEventListener("input", onChange, { signal });
  form.addEventListener("change", onChange, { signal });
  form.addEventListener("submit", (e) => { e.preventDefault(); textInput.blur(); }, { signal });
  const clearAll = () => {
    state = { ...DEFAULT };
    toForm();
    note.hidden = true;
    apply();
  };
  clear.addEventListener("click", clearAll, { signal });
  showAll.addEventListener("click", () => { clearAll(); textInput.focus(); }, { signal });
  searchDescriptions.addEventListener("click", () => {
    descriptionsBox.checked = true;
    onChange();
    textInput.focus();
  }, { signal });
  buttons.forEach((b) => b.addEventListener("click", () => {
    const column = b.dataset.colonne;
    sortBy(column, state.sort === column && state.order === "asc" ? "desc" : "asc");
  }, { signal }));

  state = readAddress();
  toForm();
  if (state.descriptions) loadDescriptions();
  apply(); // sorts the rows too
  table.dataset.indexActive = "1"; // for the tests: the page is ready
};

// ---------------------------------------------------------------------------------------
// Start: on every page (first load and Material's instant navigation)
// ---------------------------------------------------------------------------------------

let controller = null;
onEachPage(() => {
  if (controller) controller.abort();
  controller = new AbortController();
  preview.close();
  setupTable(controller.signal);
});
