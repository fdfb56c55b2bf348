/* Header search box: Pagefind, French, accent-free, offline. The asking and the ranking are
 * search-ranking.js's, a tapped result's landing search-landing.js's; here, the box.
 *
 * The index (pagefind/ at the site root, written by features/search/index.py) has one record per
 * rules section and per entry, with its anchor in the URL. Pagefind's module is imported only
 * when the reader first focuses the box (or a page is opened with ?q=), from the site root
 * (page.js): the site works under any sub-path and offline (the service worker precaches
 * pagefind/ like any other file). Pagefind then fetches only the index chunks and result
 * fragments a query needs.
 *
 * The game's words: the configured synonyms (`search: synonyms:` of the regles plugin, in
 * the box's data-recherche-synonymes) work both ways. A query that holds an abbreviation
 * ("CA") is searched as what it stands for ("classe d'armure") first, then as typed; a
 * query that spells out what an abbreviation stands for is also searched as the
 * abbreviation, after. No request of their own: they come with the page.
 *
 * Ranking: Pagefind's (stemmed, diacritics folded, prefix matching, title boost) for each of
 * those queries, plus the same first query among the rules alone (a rule's name can be a
 * word that fifty entries carry: "à terre" is not in the first RERANK results of all). Of
 * these first results, merged, a result whose title is the query (accents, case and
 * plurals aside) comes first, the main one first when several sections share that name (h2
 * before h3), then the titles that begin with the query. When the query names a rule (a
 * rule's title is the query, begins with it, or is made of its words: "Repos" for "repos
 * long"), rules come before entries of the same rank. The records of the page about the entry
 * export (its fields and abbreviations: meta `annexe`) come after the others of their rank,
 * their titles never counted as the query's name: "MJ" leads to the rules, not to the
 * export's list of the words it leaves undefined. The reader's game (the system, or the
 * database, whose folder holds the page, with the databases it links to: none on the site's
 * own pages) weighs one step of match: its results and the site's pages come before those of
 * other games, unless one of these is named by the query and none of the reader's is, even
 * by its first words.
 * Each database's entry names its database and the systems it serves.
 *
 * Nothing read from the query, the URL or the index is ever parsed as HTML: results and
 * excerpts are built with text nodes and <mark> elements.
 *
 * window.rules.search(query, { filters }) → Promise of the ranked [{ title, url }] the box
 * shows (absolute URLs on this origin, with the anchor).
 *
 * A page may hold another door to the same box: the field of the ```accueil block
 * (features/links/home.py, [data-recherche-relais]). It has no results of its own: what the
 * reader types in it, a tap or Enter, carries its text into the header's box, which opens
 * (full screen on a phone) with the focus, and searches. Reaching it with Tab does not open
 * the box; typing does. When the box closes, the field shows the query the box was left with.
 */
import { el, frenchSpacing, onEachPage } from "./page.js";
import { landHere, releaseScrollLock } from "./search-landing.js";
import { loadPagefind, moreEntries, PAGE, rank, state } from "./search-ranking.js";

const TYPING_PAUSE_MS = 60;
const TYPE_LABELS = { Site: "Pages du site" }; // type filter values shown as the reader reads them

/* ---------------------------------------------------------------- box */

function setOpen(open) {
  const toggle = document.getElementById("__search");
  if (toggle && toggle.checked !== open) {
    toggle.checked = open;
    toggle.dispatchEvent(new Event("change"));
  }
}

function isOpen() {
  const toggle = document.getElementById("__search");
  return Boolean(toggle && toggle.checked);
}

function renderEntry(entry) {
  const item = el("li", { class: "md-search-result__item" });
  const link = el("a", { class: "md-search-result__link" });
  link.href = entry.url;
  link.tabIndex = -1;
  link.dataset.rechercheLien = "";
  const article = el("article", { class: "md-search-result__article md-typeset" });
  article.append(el("div", { class: "md-search-result__icon md-icon" }));
  article.append(el("h1", {}, entry.title));
  const where = el("p", { class: "regles-recherche__ou" });
  where.append(el("span", { class: "regles-recherche__badge" }, entry.badge));
  if (entry.where) where.append(document.createTextNode(" " + entry.where));
  article.append(where);
  const { parts, before, after } = entry.excerpt;
  if (parts.length) {
    const teaser = el("p", { class: "md-search-result__teaser regles-recherche__extrait" });
    if (before) teaser.append("… ");
    for (const part of parts) {
      teaser.append(part.mark ? el("mark", {}, part.text) : document.createTextNode(part.text));
    }
    if (after) teaser.append(" …");
    article.append(teaser);
  }
  link.append(article);
  item.append(link);
  return item;
}

/** The reader's query, between guillemets kept to it (its own text is left as typed). */
const quoted = (text) => `«\u00a0${text}\u00a0»`;

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function fillFilterOptions(box, totals, counts) {
  for (const select of box.querySelectorAll("[data-recherche-filtre]")) {
    const key = select.dataset.rechercheFiltre;
    const values = Object.keys((totals && totals[key]) || {}).sort((a, b) =>
      a.localeCompare(b, "fr")
    );
    const current = select.value;
    const existing = new Map(
      [...select.options].filter((o) => o.value).map((o) => [o.value, o])
    );
    for (const value of values) {
      let option = existing.get(value);
      if (!option) {
        option = el("option", { value });
        select.append(option);
      }
      const count = counts && counts[key] ? counts[key][value] || 0 : null;
      const label = (key === "type" && TYPE_LABELS[value]) || value;
      option.textContent = count === null ? label : `${label} (${count})`;
      option.disabled = count === 0 && value !== current;
    }
    // One value for the whole site (the system of a site of one game): nothing to choose,
    // and the room goes to the other filters.
    select.closest("label").hidden = values.length < 2 && !current;
  }
}

// Each set-up box's search, for an address with ?q=.
const searchOf = new WeakMap();

function setupBox(box) {
  if (box.dataset.rechercheLiee) return;
  box.dataset.rechercheLiee = "1";
  const form = box.querySelector("[data-recherche-formulaire]");
  const input = box.querySelector("[data-recherche-saisie]");
  const list = box.querySelector("[data-recherche-liste]");
  const status = box.querySelector("[data-recherche-etat]");
  const filtersRow = box.querySelector("[data-recherche-filtres]");
  const more = box.querySelector("[data-recherche-plus]");
  const selects = [...box.querySelectorAll("[data-recherche-filtre]")];
  const hint = status.textContent.trim();
  const ui = { seq: 0, pending: [], rest: [], terms: [], shown: 0 };

  function chosenFilters() {
    const chosen = {};
    for (const select of selects) if (select.value) chosen[select.dataset.rechercheFiltre] = select.value;
    return chosen;
  }

  function links() {
    return [...list.querySelectorAll("a[data-recherche-lien]")];
  }

  async function showMore() {
    const seq = ui.seq;
    const next = ui.pending.splice(0, PAGE);
    if (next.length < PAGE && ui.rest.length) {
      next.push(...(await moreEntries(ui.rest, PAGE - next.length, ui.terms)));
      if (seq !== ui.seq) return;
    }
    for (const entry of next) list.append(renderEntry(entry));
    ui.shown += next.length;
    more.hidden = !(ui.pending.length || ui.rest.length);
  }

  async function run() {
    const seq = ++ui.seq;
    const query = input.value;
    if (!query.trim()) {
      list.replaceChildren();
      more.hidden = true;
      filtersRow.hidden = true;
      status.textContent = hint;
      return;
    }
    if (!state.pagefind) status.textContent = "Chargement de l’index de recherche…";
    let found;
    try {
      found = await rank(query, chosenFilters());
      if (!state.filterValues) {
        const pagefind = await loadPagefind();
        state.filterValues = await pagefind.filters();
      }
    } catch (error) {
      if (seq !== ui.seq) return;
      list.replaceChildren();
      more.hidden = true;
      status.textContent = frenchSpacing("La recherche n’a pas pu démarrer (index injoignable hors ligne ?).");
      return;
    }
    if (seq !== ui.seq) return; // a newer query is under way
    fillFilterOptions(box, state.filterValues, found.counts);
    filtersRow.hidden = false;
    list.replaceChildren();
    ui.pending = found.entries;
    ui.rest = found.rest;
    ui.terms = found.terms;
    ui.shown = 0;
    await showMore();
    if (seq !== ui.seq) return;
    // The query is shown back as text (textContent), whatever it contains.
    status.textContent = found.total
      ? `${plural(found.total, "résultat", "résultats")} pour ${quoted(query.trim())}`
      : `Aucun résultat pour ${quoted(query.trim())}`;
  }

  function goToFirst() {
    const first = links()[0];
    if (first) {
      setOpen(false);
      first.click();
    }
  }

  function openBox() {
    setOpen(true);
    loadPagefind().catch(() => {});
  }

  input.addEventListener("focus", openBox);
  // A short pause while the reader types: no index fetch for every intermediate letter.
  let typing = 0;
  input.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(run, TYPING_PAUSE_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    goToFirst();
  });
  form.addEventListener("reset", () => {
    setTimeout(() => {
      run();
      input.focus();
    });
  });
  for (const select of selects) {
    select.addEventListener("change", () => {
      select.classList.toggle("regles-recherche__actif", Boolean(select.value));
      run();
    });
  }
  more.addEventListener("click", () => showMore());
  list.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (!link) return;
    setOpen(false);
    releaseScrollLock();
    landHere(link, event);
  });

  // The header's magnifier (phones) and the overlay toggle the box: focus follows.
  const toggle = document.getElementById("__search");
  if (toggle) {
    toggle.addEventListener("change", () => {
      if (toggle.checked) {
        if (document.activeElement !== input) input.focus();
        loadPagefind().catch(() => {});
      } else if (box.contains(document.activeElement)) {
        document.activeElement.blur();
      }
    });
  }

  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      setOpen(false);
      input.blur();
      return;
    }
    if (event.target instanceof HTMLSelectElement) return;
    // A letter typed while a result has the focus goes on in the query (as in Material).
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      if (event.target !== input) input.focus();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const stops = [input, ...links()];
    const at = stops.indexOf(document.activeElement);
    const step = event.key === "ArrowDown" ? 1 : -1;
    const next = stops[(Math.max(0, at) + step + stops.length) % stops.length];
    event.preventDefault();
    next.focus();
  });

  searchOf.set(box, (query) => {
    input.value = query;
    openBox();
    input.focus();
    return run();
  });

  // A reader quick off the mark ("/" and a word as the page ends loading) can be in the
  // box before this set-up, which waits for a task of its own: the browser passes input
  // before timers. What was typed then was not heard: open the box and search it now.
  if (document.activeElement === input) {
    openBox();
    if (input.value.trim()) run();
  }
}

/* "/", "s" or "f" (as in Material) focus the box, unless the reader is typing elsewhere. */
function typingElsewhere(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !["radio", "checkbox", "button", "submit", "reset"].includes(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

function onKeydown(event) {
  if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
  if (!["/", "s", "f"].includes(event.key) || event.isComposing) return;
  if (isOpen() || typingElsewhere(document.activeElement)) return;
  const input = document.querySelector("[data-recherche] [data-recherche-saisie]");
  if (!input) return;
  event.preventDefault();
  input.focus();
}

/* The ```accueil field: a door to the header's box, never a second search. */
function setupRelay(form, box) {
  if (form.dataset.rechercheLiee) return;
  form.dataset.rechercheLiee = "1";
  const field = form.querySelector("[data-recherche-relais-saisie]");
  const open = searchOf.get(box);
  if (!field || !open) return;
  const handOver = () => open(field.value.slice(0, 200));
  field.addEventListener("input", handOver);
  field.addEventListener("click", handOver);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    handOver();
  });
  const input = box.querySelector("[data-recherche-saisie]");
  const toggle = document.getElementById("__search");
  if (toggle && input) {
    const closed = () => {
      if (!form.isConnected) {
        toggle.removeEventListener("change", closed);
      } else if (!toggle.checked) {
        field.value = input.value;
      }
    };
    toggle.addEventListener("change", closed);
  }
}

function onPage() {
  const box = document.querySelector("[data-recherche]");
  if (!box) return;
  setupBox(box);
  for (const form of document.querySelectorAll("[data-recherche-relais]")) setupRelay(form, box);
  // ?q=… opens the box with that query (as text: the input's value, never markup).
  const query = new URLSearchParams(location.search).get("q");
  if (query && location.href !== state.lastQueryParam) {
    state.lastQueryParam = location.href;
    searchOf.get(box)(query.slice(0, 200));
  }
}

window.addEventListener("keydown", onKeydown);
onEachPage(onPage);
