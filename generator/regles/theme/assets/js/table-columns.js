/* A table too wide for the screen shows its key columns (what each row is) and one other,
 * which the reader picks in a list above it: the columns are not hidden off the side of a
 * phone, to be scrolled to. Two kinds of tables:
 * - a computed table (features/calculators/forms.py's wide_table: a div.table-calculee
 *   around it), whose key columns the build knows (data-cles). A table that follows a
 *   reader's value (data-selon, the keys of a character's field, and data-colonnes, each
 *   value's column) opens on the column of that value (the character's Force), or of the
 *   value the field shows without it (data-depart, data-sans-exemple), and follows it as it
 *   is typed in a calculator;
 * - a table written in the text (the build gave it its class and nothing else:
 *   features/assets/wrapped_tables.py), whose first column is its key. One whose head is
 *   not a single row of single cells stays a scroll area (scroll-areas.js).
 * Where the whole table fits, or on paper, it is shown whole. */
import { CHARACTER_CHANGED, VALUES_KEPT, currentCharacter, keptValue } from "./characters.js";
import { el, onEachPage, parsedOr } from "./page.js";

const HIDDEN = "colonne-cachee"; // tables.css: not shown on a screen
const NARROW = "table-etroite"; // tables.css: its cells' room kept for the text
const tables = new Set(); // the page's narrowable tables: { table, follow, apply }

/** The column the reader's own value picks, or null. */
function followedColumn(holder) {
  if (!holder.dataset.selon) return null;
  const columns = parsedOr(holder.dataset.colonnes, {});
  // The character's value; for a character who has none, the field's default; for a reader
  // with no character, the worked example the form shows.
  const character = currentCharacter();
  const kept = character ? keptValue(character, holder.dataset.selon) : undefined;
  const unkept = character ? holder.dataset.sansExemple : holder.dataset.depart;
  const value = kept !== undefined ? String(kept).trim() : String(parsedOr(unkept, ""));
  return Object.hasOwn(columns, value) ? Number(columns[value]) : null;
}

/** Narrows `table` when it is cut, keeping its first `keys` columns; `holder` (a computed
 * table's block) says which column follows a reader's value. */
function setup(table, keys, holder, index) {
  const headers = table.tHead ? [...table.tHead.rows[0].cells] : [];
  if (headers.length - keys < 2) return;
  const id = `table-colonne-${index}`;
  const select = el("select", { id },
    ...headers.slice(keys).map((cell, i) => el("option", { value: String(keys + i) }, cell.textContent.trim())));
  const picker = el("p", { class: "table-colonne-choix", hidden: true },
    el("label", { for: id }, "Voir la colonne : "), select);
  const area = table.closest(".md-typeset__scrollwrap") || table;
  let chosen = (holder && followedColumn(holder)) ?? keys;

  const isCut = () => area.scrollWidth > area.clientWidth + 1 || table.scrollWidth > table.clientWidth + 1;
  const show = (shown) => {
    for (const row of table.rows) {
      [...row.cells].forEach((cell, i) => cell.classList.toggle(HIDDEN, i >= keys && !shown.has(i)));
    }
  };
  // Whole first, to measure; if it is cut, the key columns and the chosen one, then as
  // many of the others as fit, the nearest to the chosen one first.
  function apply() {
    const all = headers.map((_, i) => i);
    table.classList.remove(NARROW);
    show(new Set(all));
    const cut = isCut();
    picker.hidden = !cut;
    if (!cut) return;
    // Put in the page once needed: a table that fits changes nothing (no layout to redo).
    if (!picker.isConnected) area.before(picker);
    table.classList.add(NARROW);
    select.value = String(chosen);
    const shown = new Set([chosen]);
    show(shown);
    const others = all.filter((i) => i >= keys && i !== chosen).sort((a, b) => Math.abs(a - chosen) - Math.abs(b - chosen) || a - b);
    for (const column of others) {
      shown.add(column);
      show(shown);
      if (!isCut()) continue;
      shown.delete(column);
      show(shown);
      break;
    }
    picker.hidden = shown.size === all.length - keys; // all of them fit, once narrowed
  }
  select.addEventListener("change", () => {
    chosen = Number(select.value);
    apply();
  });
  const follow = () => {
    const column = holder ? followedColumn(holder) : null;
    if (column === null || column === chosen) return;
    chosen = column;
    apply();
  };
  tables.add({ table, follow, apply });
  apply();
}

let resized = null;
function watchSizes() {
  if (resized) resized.disconnect(); // the previous page's tables (instant navigation)
  tables.clear();
  if (!("ResizeObserver" in window)) return;
  let width = null;
  resized = new ResizeObserver(() => {
    // The content's width, not the tables' (which change as they are narrowed).
    const now = document.querySelector(".md-content")?.clientWidth;
    if (now === width) return;
    width = now;
    for (const table of tables) table.apply();
  });
  const content = document.querySelector(".md-content");
  if (content) resized.observe(content);
}

const followAll = () => {
  for (const entry of tables) if (entry.table.isConnected) entry.follow();
};
document.addEventListener(VALUES_KEPT, followAll);
document.addEventListener(CHARACTER_CHANGED, followAll);

// A table written in the text, with a head of one row of single cells.
const isWritten = (table) =>
  table.attributes.length === 1 && !table.closest(".table-calculee") && table.tHead?.rows.length === 1
  && [...table.rows].every((row) => [...row.cells].every((cell) => cell.colSpan === 1 && cell.rowSpan === 1));

onEachPage(() => {
  watchSizes();
  let index = 0;
  for (const holder of document.querySelectorAll(".md-typeset .table-calculee")) {
    const table = holder.querySelector("table");
    if (table) setup(table, Math.max(0, Number(holder.dataset.cles) || 1), holder, index++);
  }
  for (const table of document.querySelectorAll(".md-typeset table.regles-table")) {
    if (isWritten(table)) setup(table, 1, null, index++);
  }
});
