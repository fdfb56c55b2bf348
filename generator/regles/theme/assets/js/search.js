/* Header search box: Pagefind, French, accent-free, offline.
 *
 * The index (pagefind/ at the site root, written by features/search/index.py) has one record per
 * rules section and per spell, with its anchor in the URL. Pagefind's module is imported only
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
 * word that fifty spells carry: "à terre" is not in the first RERANK results of all). Of
 * these first results, merged, a result whose title is the query (accents, case and
 * plurals aside) comes first, the main one first when several sections share that name (h2
 * before h3), then the titles that begin with the query. When the query names a rule (a
 * rule's title is the query, begins with it, or is made of its words: "Repos" for "repos
 * long"), rules come before spells of the same rank. The records of the page about the spell
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
import { el, foldAccents, frenchSpacing, onEachPage, rules, siteRoot } from "./page.js";

const PAGE = 10; // results shown at once
const RERANK = 20; // results whose titles are read to put exact names first
const EXCERPT_WORDS = 26;
const TYPING_PAUSE_MS = 60;
const FILTERS = ["systeme", "type", "college"];
const DEPTH = "profondeur";
const RULES_TYPE = "Règles"; // the type filter of the rules sections' records
const CALCULATORS_TYPE = "Calculateurs"; // and of the calculators' (by their title)
const RULES_RERANK = 10; // results of the rules-only search merged into the reranked ones
const TYPE_LABELS = { Site: "Pages du site" }; // type filter values shown as the reader reads them
// `titre_elisions`: the words of the title that follow an elision (« Attaques d’Opportunité »
// found by « opportunité »), weighed as the title (features/search/records.py).
const RANKING = { metaWeights: { title: 5, titre_elisions: 5, principal: 1, contexte: 1 } };

const state = {
  pagefind: null, // Promise of the initialised Pagefind module
  filterValues: null, // { systeme: {value: count}, ... } over the whole index
  lastQueryParam: null,
};

/* ---------------------------------------------------------------- helpers */

/** The databases' words for their results, from the search box (partials/search.html): by
 * their value in the type filter, the badges of an entry and of a group
 * (`{ "Sorts": { entree: "Sort", groupe: "Collège" } }`); none without a database. */
function databaseWords() {
  const box = document.querySelector("[data-recherche]");
  try {
    return JSON.parse((box && box.dataset.rechercheBases) || "{}") || {};
  } catch {
    return {};
  }
}

/** The game of the page the reader is on: the name the search gives the system (or the
 * database) whose folder holds it, the deepest one (`rules.systems`, set by the build at the
 * head of the page script); "" on a page of the site (home, tools). */
function readersSystem() {
  const root = siteRoot();
  let inside;
  try {
    inside = decodeURI(location.pathname).slice(decodeURI(root.pathname).length);
  } catch {
    return "";
  }
  let found = "";
  let depth = -1;
  for (const [folder, name] of Object.entries(rules.systems || {})) {
    if (inside.startsWith(`${folder}/`) && folder.length > depth) [found, depth] = [name, folder.length];
  }
  return found;
}

/* The games whose results are the reader's on a page of `game` (a name `readersSystem`
 * gives): itself, the databases its pages link to, and, on a database's page, the systems
 * that link to it (`linked_from` in mkdocs.yml, `rules.servedBy`). */
function gamesOf(game) {
  const games = new Set(game ? [game] : []);
  for (const [database, systems] of Object.entries(rules.servedBy || {})) {
    if (systems.includes(game)) games.add(database);
    if (database === game) systems.forEach((system) => games.add(system));
  }
  return games;
}

/* Accents, case and punctuation aside. */
function fold(text) {
  return foldAccents(text || "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/* The configured synonyms, folded: [[abbreviation, [what it stands for, as written]]]. Read
 * from the box of the page (instant navigation brings each page's own). */
const synonymsRead = { raw: null, pairs: [] };

function synonyms() {
  const box = document.querySelector("[data-recherche]");
  const raw = (box && box.getAttribute("data-recherche-synonymes")) || "";
  if (raw !== synonymsRead.raw) {
    let pairs = [];
    try {
      pairs = Object.entries(JSON.parse(raw || "{}")).map(([short, longs]) => [
        short,
        [].concat(longs).map(String),
      ]);
    } catch {
      pairs = []; // a malformed list: the query as typed, nothing more
    }
    synonymsRead.raw = raw;
    synonymsRead.pairs = pairs.filter(([short, longs]) => fold(short) && longs.some(fold));
  }
  return synonymsRead.pairs;
}

/* `words` (folded, space-separated) with the words `from` replaced by `to`, or null when
 * `words` does not hold `from` as whole words. */
function replaced(words, from, to) {
  const padded = ` ${words} `;
  const folded = fold(from);
  if (!folded || !padded.includes(` ${folded} `)) return null;
  return padded.split(` ${folded} `).join(` ${to} `).trim();
}

/* The queries a query stands for: `forward` (its abbreviations spelt out, searched first),
 * and `backward` (what it spells out as the abbreviation, searched after it); `spelt`, for
 * each forward query, what it spells out, and `meant`, what the query itself spells out. */
function variantsOf(text) {
  const folded = fold(text);
  const backward = [];
  const meant = [];
  let first = folded;
  const firstSpelt = [];
  const others = [];
  for (const [short, longs] of synonyms()) {
    const replacedFirst = replaced(first, short, longs[0]);
    if (replacedFirst !== null) {
      first = replacedFirst;
      firstSpelt.push(longs[0]);
      for (const long of longs.slice(1)) {
        others.push({ query: replaced(folded, short, long), spelt: [long] });
      }
    }
    for (const long of longs) {
      const back = replaced(folded, long, short);
      if (back !== null && !backward.includes(back)) {
        backward.push(back);
        meant.push(long);
      }
    }
  }
  const forward = first === folded ? [] : [{ query: first, spelt: firstSpelt }, ...others];
  return { forward, backward, meant };
}

function loadPagefind() {
  if (!state.pagefind) {
    const url = new URL("pagefind/pagefind.js", siteRoot()).href;
    state.pagefind = import(url).then(async (pagefind) => {
      await pagefind.options({ excerptLength: EXCERPT_WORDS, ranking: RANKING });
      await pagefind.init();
      return pagefind;
    });
    // A failed load (offline before the index was cached) may be retried later.
    state.pagefind.catch(() => {
      state.pagefind = null;
    });
  }
  return state.pagefind;
}

function cleanFilters(filters) {
  const clean = {};
  for (const [key, value] of Object.entries(filters || {})) {
    if (value !== undefined && value !== null && value !== "") clean[key] = value;
  }
  return clean;
}

/* An entry of the result list, from a Pagefind result's fragment. */
function entryOf(data, terms) {
  const filters = data.filters || {};
  const first = (key) => (filters[key] && filters[key][0]) || "";
  const raw = data.raw_url || data.url || "";
  const url = new URL(raw || "./", siteRoot());
  const title = (data.meta && data.meta.title) || url.pathname;
  const kind = first("type");
  const college = first("college");
  const context = ((data.meta && data.meta.contexte) || "").split(" › ");
  let badge;
  let where;
  const databases = databaseWords();
  const database = Object.hasOwn(databases, kind) ? databases[kind] : null;
  if (database && college) {
    // Its database's system first: which game it belongs to.
    badge = url.hash ? database.entree : database.groupe;
    const group = url.hash ? college : first("rubrique") || college;
    // The games it serves (`linked_from`) name it too: « Système · Base › Groupe ».
    const system = first("systeme");
    const served = ((rules.servedBy || {})[system] || []).filter((game) => game !== system);
    const games = [...served, system].filter(Boolean).join(" · ");
    where = [...new Set([games, group].filter(Boolean))].join(" › ");
  } else if (kind === CALCULATORS_TYPE) {
    badge = "Calculateur";
    where = context.filter(Boolean).join(" › ");
  } else {
    badge = first("systeme") || kind || "Site";
    where = context.filter((part) => part && part !== badge).join(" › ");
  }
  return {
    title,
    url: url.href,
    badge,
    where,
    depth: Number(first(DEPTH)) || 1,
    excerpt: excerptOf(data, title, terms),
  };
}

function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/* Whether a word Pagefind matched is worth marking: Pagefind matches every query word as a
 * prefix ("de" matches "dégâts"), so short words mark only themselves, and other words mark
 * their own forms (singular, plural, verb endings: "lancer" marks "lancez"). */
function worthMarking(word, terms) {
  const longest = Math.max(0, ...terms.map((t) => t.length));
  const shortest = Math.min(3, longest);
  return fold(word)
    .split(" ")
    .some((piece) =>
      terms.some((term) => {
        if (term.length < shortest || piece.length < shortest) return false;
        if (piece === term) return true;
        if (term.length < 3) return false;
        const common = commonPrefix(piece, term);
        return common === term.length || common >= Math.max(3, Math.min(piece.length, term.length) - 2);
      })
    );
}

/* Words of the record's text around its best matches, the title's own words left out
 * (the record's text begins with its title). Same word split as Pagefind's. */
function excerptOf(data, title, terms) {
  const content = String(data.content || "");
  const words = content.split(/[\r\n\s]+/g);
  const skip = Math.min(words.length, String(title).trim().split(/\s+/).length);
  const hits = new Map();
  for (const location of data.weighted_locations || []) {
    const at = location.location;
    if (at >= skip && at < words.length && worthMarking(words[at], terms)) {
      hits.set(at, (hits.get(at) || 0) + (location.balanced_score || location.weight || 1));
    }
  }
  let start = skip;
  if (hits.size) {
    let best = -1;
    for (const at of hits.keys()) {
      let sum = 0;
      for (const [other, score] of hits) {
        if (other >= at && other < at + EXCERPT_WORDS) sum += score;
      }
      if (sum > best) {
        best = sum;
        start = at;
      }
    }
    start = Math.max(skip, start - 3);
  }
  const end = Math.min(words.length, start + EXCERPT_WORDS);
  const parts = [];
  const push = (text, mark) => {
    const last = parts[parts.length - 1];
    if (!mark && last && !last.mark) last.text += text;
    else parts.push({ text, mark });
  };
  for (let i = start; i < end; i++) {
    if (i > start) push(" ", false);
    push(words[i], hits.has(i));
  }
  return { parts, before: start > skip, after: end < words.length };
}

/* A name with its plurals made singular, crudely but alike on both sides: "Coups
 * critiques" and "coup critique" are the same name. */
function nameKey(folded) {
  return folded
    .split(" ")
    .map((word) => (word.length > 3 && /[sx]$/.test(word) ? word.slice(0, -1) : word))
    .join(" ");
}

/* The root of a word that French derives others from by its ending ("invisible",
 * "invisibilité"): the word less its last two letters, for a word of seven letters at least
 * (shorter ones would find unrelated words: "vol", "volonté"). */
const ROOT_WORD = 7;
const rootOf = (word) => (word.length >= ROOT_WORD ? word.slice(0, -2) : null);

function tierOf(query, title) {
  const name = fold(title);
  if (!query || !name) return 0;
  if (nameKey(name) === nameKey(query)) return 2;
  if (name.startsWith(query)) return 1;
  // A one-word query, and a title that begins with a word of its family: « Invisibilité »
  // for "invisible".
  const root = query.includes(" ") ? null : rootOf(query);
  if (root && name.startsWith(root)) return 1;
  return 0;
}

/* Whether a title is made of the query's words ("Repos" for "repos long"), a word of three
 * letters at least among them. */
function madeOfQueryWords(query, title) {
  const asked = new Set(nameKey(fold(query)).split(" "));
  const words = nameKey(fold(title)).split(" ").filter(Boolean);
  return words.some((w) => w.length >= 3) && words.every((w) => asked.has(w));
}

/* The rank of a title for the queries: `exact` are those it may match in full only (an
 * abbreviation that was spelt out: "Calme" does not begin "CA" for the reader), `full`
 * those it may also begin with. */
function bestTier(title, full, exact) {
  let tier = 0;
  for (const query of full) tier = Math.max(tier, tierOf(query, title));
  for (const query of exact) if (tierOf(query, title) === 2) tier = 2;
  return tier;
}

/* ---------------------------------------------------------------- search */

async function rank(query, filters) {
  const pagefind = await loadPagefind();
  const text = String(query || "").trim();
  if (!text) return { entries: [], rest: [], total: 0, counts: {} };
  const chosen = cleanFilters(filters);
  const { forward, backward, meant } = variantsOf(text);
  const queries = [...forward.map((f) => f.query), text, ...backward];
  const searches = queries.map((q) => pagefind.search(q, { filters: chosen }));
  // The first query among the rules alone, unless the reader chose another type.
  const rulesOnly = !chosen.type || chosen.type === RULES_TYPE;
  if (rulesOnly) {
    searches.push(pagefind.search(queries[0], { filters: { ...chosen, type: RULES_TYPE } }));
  }
  const responses = await Promise.all(searches);
  const lists = responses.map((response) => (response && response.results) || []);
  // Merged, each result once, in the order of the searches: the first RERANK of the first
  // query, then the first ones of each other, then the rest.
  const seen = new Set();
  const head = [];
  const rest = [];
  const source = []; // for each of `head`, the search it came from first
  lists.forEach((results, at) => {
    const count = at === 0 ? RERANK : at === lists.length - 1 && rulesOnly ? RULES_RERANK : PAGE;
    results.forEach((result, order) => {
      if (seen.has(result.id)) return;
      seen.add(result.id);
      if (order < count) {
        head.push(result);
        source.push(at);
      } else rest.push(result);
    });
  });
  const datas = await Promise.all(head.map((result) => result.data()));
  // A result of what an abbreviation stands for that does not hold it in so many words
  // ("maître du jeu" finds "Maîtrise" by its first letters) comes after the others.
  const phrases = [...forward.map((f) => f.spelt), meant];
  const holds = (data, phrase) =>
    ` ${nameKey(fold(data.content))} `.includes(` ${nameKey(fold(phrase))} `);
  const weak = datas.map((data, i) =>
    (phrases[source[i]] || []).some((phrase) => !holds(data, phrase))
  );
  const folded = fold(text);
  const terms = [...new Set(queries.flatMap((q) => fold(q).split(" ")))].filter(Boolean);
  const spelt = forward.map((f) => fold(f.query));
  const full = spelt.length ? spelt : [folded];
  const exact = [...(spelt.length ? [folded] : []), ...backward.map(fold)];
  const databases = databaseWords();
  const here = readersSystem();
  const readers = gamesOf(here);
  const ranked = datas.map((data, order) => {
    const entry = entryOf(data, terms);
    const spell = Object.hasOwn(databases, (data.filters && data.filters.type && data.filters.type[0]) || "");
    // A page about the spell export (its fields, its abbreviations) names what others
    // explain: its titles never count as the query's name.
    const annex = Boolean(data.meta && data.meta.annexe);
    const tier = annex ? 0 : bestTier(entry.title, full, exact);
    // A result of the reader's game, or of the site's own pages (in no game), counts one
    // step of match more than another game's: it comes first unless the other names the
    // query (tier 2) and it does not (tier 0).
    const system = (data.filters && data.filters.systeme && data.filters.systeme[0]) || "";
    const same = Boolean(here) && (!system || readers.has(system));
    return { entry, order, spell, annex, weak: weak[order], tier, same, score: tier + same };
  });
  const namesRule = ranked.some(
    (r) => !r.spell && (r.tier > 0 || full.some((q) => madeOfQueryWords(q, r.entry.title)))
  );
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.annex - b.annex ||
      a.weak - b.weak ||
      b.same - a.same ||
      (namesRule ? a.spell - b.spell : 0) ||
      (a.tier === 2 ? a.entry.depth - b.entry.depth : 0) ||
      a.order - b.order
  );
  return {
    entries: ranked.map((r) => r.entry),
    rest,
    terms,
    total: seen.size,
    counts: (responses[0] && responses[0].filters) || {},
  };
}

async function moreEntries(rest, count, terms) {
  const batch = rest.splice(0, count);
  const datas = await Promise.all(batch.map((result) => result.data()));
  return datas.map((data) => entryOf(data, terms));
}

async function search(query, options) {
  const found = await rank(query, (options && options.filters) || {});
  return found.entries.slice(0, PAGE).map(({ title, url }) => ({ title, url }));
}

rules.search = search;

/* ---------------------------------------------------------------- box */

function setOpen(open) {
  const toggle = document.getElementById("__search");
  if (toggle && toggle.checked !== open) {
    toggle.checked = open;
    toggle.dispatchEvent(new Event("change"));
  }
}

/* Below 960 px, Material locks the page's scroll while the search covers it (body
 * [data-md-scrolllock], the reader's offset in body.style.top) and releases it 100 ms after
 * the box closes, scrolling back to that offset. A result's anchor followed before then (the
 * same page, or another that instant navigation brings in sooner) could not scroll the locked
 * page, and the release put the reader back where they were: the lock is released at the
 * tap, before the link is followed. Material's own release then finds nothing to undo. */
function releaseScrollLock() {
  const body = document.body;
  if (!body.hasAttribute("data-md-scrolllock")) return;
  const offset = -parseInt(body.style.top, 10) || 0;
  body.removeAttribute("data-md-scrolllock");
  body.style.top = "";
  window.scrollTo(0, offset);
  // Instant navigation keeps the offset it last heard of (0, under the lock) in the history
  // entry it leaves: told now, before it takes the tap, Back returns to where the reader was.
  window.dispatchEvent(new Event("scroll"));
}

/* Material writes into the current history entry some time after the page last scrolled:
 * the offset (100 ms) and, with navigation.tracking, the section in view as the address's
 * fragment (250 ms). A navigation in between (a result tapped, Back) got the page left's
 * writes: Back to a page gave it the fragment of the section just left, or that page's
 * offset (then instant navigation scrolled there instead of to a result's anchor). Each
 * scroll notes which entry it happened in; a later write to another entry, made for a scroll
 * of the one left, is dropped (a write to another page's address, one that a scroll of this
 * entry made, or one of the site's own modules goes through). */
const entries = { current: 0, scrolled: 0 };
const nextEntry = () => { entries.current += 1; };
window.addEventListener("scroll", () => { entries.scrolled = entries.current; }, { capture: true, passive: true });
window.addEventListener("popstate", nextEntry);
window.addEventListener("hashchange", nextEntry);
const pushState = history.pushState.bind(history);
history.pushState = (...args) => {
  nextEntry();
  return pushState(...args);
};
const replaceState = history.replaceState.bind(history);
history.replaceState = (state, unused, url) => {
  // Material's writes bring a state of their own; the site's modules keep history.state.
  const material = state !== history.state;
  if (material && entries.scrolled !== entries.current && sameDocumentPath(url)) return undefined;
  return replaceState(state, unused, url);
};

/* Whether `url` (absent: this address) names this page, whatever its fragment. */
function sameDocumentPath(url) {
  if (url === undefined || url === null) return true;
  try {
    const next = new URL(url, location.href);
    return next.pathname === location.pathname && next.search === location.search;
  } catch {
    return false;
  }
}

/* A result on the page being read is followed here, not by Material's instant navigation:
 * left to it, the tap went through its fetch of the same page and its scroll restoration,
 * which could put the reader back where they were, or a calculator above, folded again,
 * pushed the heading down the screen. The browser follows the fragment (a new history entry,
 * the heading scrolled to under the header, a closed block that holds it opened), through
 * `rules.followFragment` (theme/main.html), which keeps the `popstate` Chromium fires for it
 * from instant navigation. The entry left keeps the reader's offset, marked, for Back to
 * return to it. */
function landHere(link, event) {
  if (!link.hash || !sameDocumentPath(link.href)) return;
  event.preventDefault();
  event.stopPropagation(); // Material's instant navigation listens on the body
  // Past the guard above: the write is ours, made before the entry is left.
  replaceState({ x: window.scrollX, y: window.scrollY, leftForResult: true }, "");
  window.rules.followFragment(link.hash);
}

/* Back to the entry a result was tapped from: the reader's offset, whether or not instant
 * navigation (which scrolls only once it has brought a page in) takes the step too. */
window.addEventListener("popstate", (event) => {
  const state = event.state;
  if (state && state.leftForResult) window.scrollTo(state.x, state.y);
});

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
