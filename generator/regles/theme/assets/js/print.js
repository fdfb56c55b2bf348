/* Paper: what the page becomes just before it is printed, and back just after (the print
 * stylesheet, impression.css, does the rest; rules.js unfolds the calculators).
 *
 * - A page shown in the dark palette prints in the light one.
 * - Closed details blocks print open.
 * - A page of entries (a group page: `h2.entry`, each entry's name, followed by its levels,
 *   fields and description; a list, whose entries are each an article) gets a choice of
 *   its paper form (before a group's first entry, after a list's entries): « Liste
 *   compacte » (the page as it is, set tighter) or « Cartes à découper ». In
 *   cards, each entry is put in a card (`.regles-carte`) of a grid (`.regles-cartes-grille`)
 *   for the time of printing, and taken out again afterwards (a list's articles are the
 *   cards; a list prints as cards by default). The choice is kept in the
 *   browser for the next pages of entries. A page may ask for cards by default with
 *   `data-impression="cartes"` on an element of its content (a list).
 *
 * window.rules.printForm(form) sets the form ("cartes" or "liste") as the choice does. */
import { el, keepsData, onEachPage, phrase, rules } from "./page.js";

const STORE = "regles-impression";
const CARDS = "regles-cartes";
const FORMS = {
  liste: "Liste compacte",
  cartes: "Cartes à découper",
};
// Its own forms only: « toString » is in every object.
const isForm = (value) => typeof value === "string" && Object.hasOwn(FORMS, value);
keepsData((key) => (key === STORE ? "Impression : forme choisie" : null), isForm);

function storedForm() {
  try {
    const value = localStorage.getItem(STORE);
    return isForm(value) ? value : null;
  } catch {
    return null; // storage refused: the page's default
  }
}

// A list (lists.js: `#reader-lists`, its entries each an `article.list-entry` of
// `.list-entries`) prints as cards unless the reader chose otherwise.
const READER_LISTS = "#reader-lists.reader-lists";

function pageDefault() {
  if (document.querySelector(READER_LISTS)) return "cartes";
  const asked = document.querySelector("article [data-impression]");
  const value = asked && asked.getAttribute("data-impression");
  return isForm(value) ? value : "liste";
}

let chosen = null; // this page's choice, once made

function currentForm() {
  return chosen || storedForm() || pageDefault();
}

function entryHeadings() {
  return Array.from(document.querySelectorAll("article h2.entry"));
}

/* ------------------------------------------------------------ the choice, on screen */

function setForm(form) {
  if (!isForm(form)) throw new Error(`forme d’impression inconnue : « ${form} »`);
  chosen = form;
  try {
    localStorage.setItem(STORE, form);
  } catch {
    // not kept: this page only
  }
  for (const input of document.querySelectorAll(".regles-impression-choix input")) {
    input.checked = input.value === form;
  }
}

function addChoice() {
  const headings = entryHeadings();
  const lists = document.querySelector(READER_LISTS);
  if (!(headings.length || lists) || document.querySelector(".regles-impression-choix")) {
    return;
  }
  const form = currentForm();
  const options = Object.entries(FORMS).map(([value, label]) => {
    const input = el("input", {
      type: "radio",
      name: "regles-impression",
      value,
      checked: value === form,
    });
    input.addEventListener("change", () => input.checked && setForm(value));
    return el("label", {}, input, label);
  });
  const button = el("button", { type: "button", class: "md-button" }, "Imprimer");
  button.addEventListener("click", () => window.print());
  const choice = el(
    "fieldset",
    { class: "regles-impression-choix" },
    el("legend", {}, phrase("print_entries")),
    ...options,
    button,
  );
  // A list's entries come first, the printing choice after them; a group page's
  // choice stands before its first entry.
  if (lists) lists.after(choice);
  else headings[0].before(choice);
}

/* ------------------------------------------------------------ just before printing */

let undo = [];

function intoCards() {
  document.documentElement.classList.add(CARDS);
  undo.push(() => document.documentElement.classList.remove(CARDS));
  const headings = entryHeadings(); // a list's entries are cards already
  if (!headings.length) return;
  const grid = el("div", { class: "regles-cartes-grille" });
  headings[0].before(grid);
  for (const heading of headings) {
    const card = el("div", { class: "regles-carte" });
    const parts = [heading];
    for (let next = heading.nextElementSibling; next; next = next.nextElementSibling) {
      if (/^H[12]$/.test(next.tagName) || next.matches(".regles-impression-choix")) break;
      parts.push(next);
    }
    const place = document.createComment("carte");
    heading.before(place);
    card.append(...parts);
    grid.append(card);
    undo.push(() => {
      place.replaceWith(...parts);
    });
  }
  undo.push(() => grid.remove());
}

function lightPalette() {
  for (const node of document.querySelectorAll("[data-md-color-scheme]")) {
    const scheme = node.getAttribute("data-md-color-scheme");
    if (scheme === "default") continue;
    node.setAttribute("data-md-color-scheme", "default");
    undo.push(() => node.setAttribute("data-md-color-scheme", scheme));
  }
}

function openDetails() {
  for (const details of document.querySelectorAll("article details:not([open])")) {
    details.open = true;
    undo.push(() => {
      details.open = false;
    });
  }
}

function beforePrint() {
  afterPrint(); // a second beforeprint without its afterprint
  lightPalette();
  openDetails();
  if (currentForm() === "cartes") intoCards();
}

function afterPrint() {
  const steps = undo.reverse();
  undo = [];
  for (const step of steps) step();
}

window.addEventListener("beforeprint", beforePrint);
window.addEventListener("afterprint", afterPrint);

rules.printForm = setForm;

onEachPage(() => {
  chosen = null;
  addChoice();
});
