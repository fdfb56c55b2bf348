/* The search's answers: Pagefind loaded and asked, the query's variants (synonyms, accents,
 * elisions), each result's title, place and excerpt, and the ranking that puts the reader's
 * game and the exact names first (search.js's docstring says how it weighs). */
import { foldAccents, rules, siteRoot } from "./page.js";

export const PAGE = 10; // results shown at once
const RERANK = 20; // results whose titles are read to put exact names first
const EXCERPT_WORDS = 26;
const DEPTH = "profondeur";
const RULES_TYPE = "Règles"; // the type filter of the rules sections' records
const CALCULATORS_TYPE = "Calculateurs"; // and of the calculators' (by their title)
const RULES_RERANK = 10; // results of the rules-only search merged into the reranked ones
// `titre_elisions`: the words of the title that follow an elision (« Attaques d’Opportunité »
// found by « opportunité »), weighed as the title (features/search/records.py).
const RANKING = { metaWeights: { title: 5, titre_elisions: 5, principal: 1, contexte: 1 } };


export const state = {
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

export function loadPagefind() {
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
  const entryGroup = first("groupe");
  const context = ((data.meta && data.meta.contexte) || "").split(" › ");
  let badge;
  let where;
  const databases = databaseWords();
  const database = Object.hasOwn(databases, kind) ? databases[kind] : null;
  if (database && entryGroup) {
    // Its database's system first: which game it belongs to.
    badge = url.hash ? database.entree : database.groupe;
    const group = url.hash ? entryGroup : first("rubrique") || entryGroup;
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

export async function rank(query, filters) {
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
    const inDatabase = Object.hasOwn(databases, (data.filters && data.filters.type && data.filters.type[0]) || "");
    // A page about the entry export (its fields, its abbreviations) names what others
    // explain: its titles never count as the query's name.
    const annex = Boolean(data.meta && data.meta.annexe);
    const tier = annex ? 0 : bestTier(entry.title, full, exact);
    // A result of the reader's game, or of the site's own pages (in no game), counts one
    // step of match more than another game's: it comes first unless the other names the
    // query (tier 2) and it does not (tier 0).
    const system = (data.filters && data.filters.systeme && data.filters.systeme[0]) || "";
    const same = Boolean(here) && (!system || readers.has(system));
    return { entry, order, inDatabase, annex, weak: weak[order], tier, same, score: tier + same };
  });
  const namesRule = ranked.some(
    (r) => !r.inDatabase && (r.tier > 0 || full.some((q) => madeOfQueryWords(q, r.entry.title)))
  );
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.annex - b.annex ||
      a.weak - b.weak ||
      b.same - a.same ||
      (namesRule ? a.inDatabase - b.inDatabase : 0) ||
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

export async function moreEntries(rest, count, terms) {
  const batch = rest.splice(0, count);
  const datas = await Promise.all(batch.map((result) => result.data()));
  return datas.map((data) => entryOf(data, terms));
}

async function search(query, options) {
  const found = await rank(query, (options && options.filters) || {});
  return found.entries.slice(0, PAGE).map(({ title, url }) => ({ title, url }));
}

rules.search = search;
