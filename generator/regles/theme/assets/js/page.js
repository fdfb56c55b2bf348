/* What the page scripts share: the public API object, the site root, text folding, an
 * element builder, and their start-up on every page under Material's instant navigation.
 * Imported by each of them; esbuild bundles the graph into one script (features/assets/minify.py),
 * so this module runs once and its state is shared without globals. */

/** window.rules, the site's one public API (tests and readers' own scripts use it). main.html's
 * head script creates it, with `fold` for the calculator forms being parsed; each module adds
 * its part. */
export const rules = (window.rules = window.rules || {});

/** The site root as seen from this page (<meta name="regles-racine">, from main.html): every
 * URL is built from it, never from "/", as the site may live under a sub-path. Read at each
 * call: instant navigation replaces the meta tag with the next page's. */
export function siteRoot() {
  const meta = document.querySelector('meta[name="regles-racine"]');
  // 404.html gets a site-absolute root, which may start with "//" (read as another host's
  // address) or hold "//": one slash is meant.
  const content = ((meta && meta.getAttribute("content")) || "./").replace(/^\/{2,}/, "/");
  try {
    const root = new URL(content, location.href);
    if (root.origin === location.origin) {
      root.pathname = root.pathname.replace(/\/{2,}/g, "/");
      return root;
    }
  } catch {
    // a malformed root: this page's folder
  }
  return new URL("./", location.href);
}

/** The site's databases (spells, prayers, a bestiary…), in the order the site declares them:
 * each with its `folder`, its `data` file (from the site root) and its `phrases`, set at the
 * head of this script by the build (features/databases/phrases.py, `rules.databases`). */
export const databases = () => (Array.isArray(rules.databases) ? rules.databases : []);

/** The database whose pages hold `address` (a URL, or a key of the data files such as
 * « sorts/feu/#boule-de-feu », from the site root), or null. */
export function databaseOf(address) {
  const root = siteRoot();
  let path;
  try { path = decodeURI(new URL(address, root).pathname); } catch { return null; }
  return databases().find((d) => path.startsWith(decodeURI(new URL(`${d.folder}/`, root).pathname))) || null;
}

/** This page's database (a page of its folder), else the site's first; null without one. */
export const pageDatabase = () => databaseOf(location.href) || databases()[0] || null;

/** A sentence about a database (by default this page's) in the game's words, its `{name}`
 * fields filled from `values`; "" for a key the site does not have (no database). */
export function phrase(key, values = {}, database = pageDatabase()) {
  const text = ((database && database.phrases) || {})[key];
  if (typeof text !== "string") return "";
  return text.replace(/\{(\w+)\}/g, (field, name) => (name in values ? String(values[name]) : field));
}

/** « 1 sort », « 3 prières »: a count of a database's entries, in its words. */
export const entryCount = (n, database = pageDatabase()) =>
  `${n} ${phrase(n > 1 ? "entry_many" : "entry_one", {}, database)}`;

/** A loader of a list the build writes under data/ (`path`, from the site root), each item
 * with its `url`: fetched once, on the first call, and kept as a Promise of Map(url → item);
 * a failure (offline before the first visit) is tried again at the next call. */
export function urlIndexLoader(path) {
  let loaded = null;
  return () => {
    if (!loaded) {
      loaded = fetch(new URL(path, siteRoot()), { credentials: "same-origin" })
        .then((response) => {
          if (!response.ok) throw new Error(`${path} : ${response.status}`);
          return response.json();
        })
        .then((list) => {
          const byUrl = new Map();
          for (const item of Array.isArray(list) ? list : []) {
            if (item && typeof item.url === "string") byUrl.set(item.url, item);
          }
          return byUrl;
        });
      loaded.catch(() => { loaded = null; });
    }
    return loaded;
  };
}

/** Where the readers' lists of `database` are kept (lists.js): one key per site root, and
 * per database past the first, whose key is that of the sites of one database, so that
 * lists kept before a second database was declared stay its own. `base`: the key's first
 * part, FORMER_LISTS for where versions up to 0.3 kept them (kept-lists.js moves them). */
export function listsKey(database, base = "regles-lists") {
  const key = `${base}:${siteRoot().pathname}`;
  const first = databases()[0];
  return !database || !first || database.folder === first.folder ? key : `${key}#${database.folder}`;
}
export const FORMER_LISTS = "regles-grimoires";

/** The JSON value `text` holds, or `fallback` when it holds none (absent or damaged). */
export function parsedOr(text, fallback) {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** `text` without accents and in lower case: "Évocation" and "evocation" compare equal. */
export function foldAccents(text) {
  return String(text).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** `text` with French spacing, as the build gives the pages' prose (core/typography.py's
 * `spaced_marks`; a test runs both on the same inputs): a narrow no-break space before ; ! ?
 * and %, a no-break space before : and inside « ». Only the spaces already there change:
 * « 10:30 » and « 1d6! » stay. */
export function frenchSpacing(text) {
  return String(text)
    .replace(/[ \t\r\n\u00a0]+(?=[;!?])/g, "\u202f")
    .replace(/[ \t\r\n]+(?=:)/g, "\u00a0")
    .replace(/(?<=«)[ \t\r\n]+/g, "\u00a0")
    .replace(/[ \t\r\n]+(?=»)/g, "\u00a0")
    .replace(/(?<=\d)[ \t\r\n]+(?=%)/g, "\u202f");
}

/** An element: attributes set with setAttribute (true gives an empty value; false, null and
 * undefined none), children appended, strings as text nodes (never parsed as HTML), with
 * French spacing (`frenchSpacing`). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(frenchSpacing(child)));
  }
  return node;
}

/** `action` when the browser has nothing else to do, or after two seconds at the latest: a
 * busy page (a slow phone, a long download beside it) may never be idle. */
export function whenIdle(action) {
  if (window.requestIdleCallback) requestIdleCallback(action, { timeout: 2000 });
  else setTimeout(action, 0);
}

/** An error reported as uncaught (the console, window's "error" event), without stopping
 * the code that caught it. */
const reportUncaught = (error) => {
  if (typeof window.reportError === "function") window.reportError(error);
  else setTimeout(() => { throw error; }, 0);
};

/** Runs `action`, the set-up of one form, dialog or page module, on its own: what it throws
 * (or, for a promise, rejects with) is reported as uncaught and handed to `failed` (which
 * says so in the page), and the caller goes on with the next one. Returns what `action`
 * returned, or undefined when it failed. */
export function onItsOwn(action, failed = () => {}) {
  const report = (error) => {
    reportUncaught(error);
    try {
      failed(error);
    } catch (again) {
      reportUncaught(again);
    }
    return undefined;
  };
  try {
    const result = action();
    return result && typeof result.then === "function" ? result.then(undefined, report) : result;
  } catch (error) {
    return report(error);
  }
}

/** Runs `setup` on every page: the first one, and each one Material's instant navigation
 * brings in (its document$ observable). Each set-up is a task of its own: run together from
 * the same document$ emission, they made one long task that held the page's first taps.
 * Without Material's bundle, once the page is parsed. A set-up that fails leaves the others. */
export function onEachPage(setup) {
  const run = () => onItsOwn(setup);
  const pages = window.document$;
  if (pages && typeof pages.subscribe === "function") {
    pages.subscribe(() => setTimeout(run, 0));
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", run, { once: true });
  } else {
    run();
  }
}

/** The one place for the site's passing notices (the offline download, a new version, an
 * entry added to a list): a column at the bottom of the screen, outside the content that
 * instant navigation swaps. Notices stack in it and never cover one another; its height is
 * kept in --regles-avis-hauteur, which the stylesheet gives the page as bottom room and a
 * calculator's summary as its distance from the bottom, so that no notice covers the end of
 * the page or an answer. `notice` is appended to it (or stays where it already is). */
let notices = null;
// Notices about the page they were shown on (`thisPage`), each with its page's address: they
// go when the reader moves to another page (instant navigation keeps the notices' column).
// Followed from the first such notice: this module is also read without a page (Node, in
// the tests), where nothing may run at load.
const pageNotices = new Set();
let pageNoticesFollowed = false;
export function showNotice(notice, { thisPage = false } = {}) {
  if (thisPage) {
    notice.dataset.page = location.pathname;
    pageNotices.add(notice);
    if (!pageNoticesFollowed) {
      pageNoticesFollowed = true;
      onEachPage(() => {
        for (const shown of pageNotices) {
          if (!shown.isConnected || shown.dataset.page !== location.pathname) {
            shown.remove();
            pageNotices.delete(shown);
          }
        }
      });
    }
  }
  if (!notices) {
    notices = el("div", { class: "regles-avis" });
    document.body.append(notices);
    const keep = () => {
      const height = notices.getBoundingClientRect().height;
      const value = height > 0 ? `${Math.ceil(height)}px` : "";
      const style = document.documentElement.style;
      if (style.getPropertyValue("--regles-avis-hauteur") !== value) {
        if (value) style.setProperty("--regles-avis-hauteur", value);
        else style.removeProperty("--regles-avis-hauteur");
      }
    };
    // Its size, not every change inside it: the download's notice changes several times a
    // second, and each reading of the height lays the page out.
    if ("ResizeObserver" in window) new ResizeObserver(keep).observe(notices);
    else new MutationObserver(keep).observe(notices, { childList: true, subtree: true, attributes: true });
  }
  if (notice.parentNode !== notices) notices.append(notice);
  return notice;
}

/** What the site keeps in this browser, for the page that saves it all in one file and
 * brings it back (backup.js): each module that keeps data in localStorage registers a
 * function that names one of its keys in the reader's words (« Grimoires »), or returns
 * null for a key that is not its own; and, optionally, `readable(value, key)`, whether a
 * value of one of its keys is one it can read (a backup's are checked before any is kept),
 * and `renamed(key)`, the key of today for one its module kept under another name before
 * (null for others): a backup made then brings its values back where they are read now. */
const keptKinds = [];
export function keepsData(describe, readable = () => true, renamed = () => null) {
  keptKinds.push({ describe, readable, renamed });
}

/** `key`, or the key of today of a value kept under that name by an older version. */
export function currentKey(key) {
  for (const kind of keptKinds) {
    const renamed = kind.renamed(key);
    if (renamed) return renamed;
  }
  return key;
}

const keptKind = (key) => {
  for (const kind of keptKinds) {
    const label = kind.describe(key);
    if (label) return { label, readable: kind.readable };
  }
  return null;
};

/** The reader's words for a key of localStorage this site keeps, or null. */
export function keptLabel(key) {
  return keptKind(key)?.label ?? null;
}

/** Whether `value` is one the module that keeps `key` can read (false for a key it does not
 * keep, or a check that throws). */
export function keptReadable(key, value) {
  const kind = keptKind(key);
  try {
    return Boolean(kind && typeof value === "string" && kind.readable(value, key));
  } catch {
    return false;
  }
}

/** Offers `text` to the reader as a file named `name`. */
export function downloadText(text, name, type) {
  const address = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: address, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(address), 1000);
}

/** Whether a storage write failed for want of room (the name varies with browsers' ages). */
export function isQuotaError(error) {
  return Boolean(error) && (error.name === "QuotaExceededError" || error.code === 22);
}

/** A modal <dialog> built of `content` (nodes) and buttons; resolves with the value of the
 * button pressed (« » for Escape). `check(value)` may return a French message that keeps it
 * open, shown in the dialog. */
export const modal = ({ title, content, buttons, check = () => "" }) => new Promise((done) => {
  const heading = el("h2", { class: "list-dialog__title", id: "list-dialog-title" }, title);
  const error = el("p", { class: "list-dialog__error", role: "alert", hidden: true });
  // A dialog that can destroy something opens on « Annuler »: a stray tap or Enter keeps all.
  const risky = buttons.some((b) => b.danger);
  const form = el("form", { method: "dialog" }, heading, ...content, error,
    el("div", { class: "list-dialog__buttons" }, ...buttons.map(({ value, label, main, danger }) =>
      el("button", { type: "submit", value, autofocus: risky && value === "annuler",
        class: `md-button${main ? " md-button--primary" : ""}${danger ? " list-danger" : ""}` }, label))));
  const dialog = el("dialog", { class: "md-typeset list-dialog", "aria-labelledby": "list-dialog-title" }, form);
  form.addEventListener("submit", (e) => {
    const value = e.submitter ? e.submitter.value : buttons.find((b) => b.main)?.value || "";
    const problem = value && value !== "annuler" ? check(value) : "";
    if (problem) {
      e.preventDefault();
      error.textContent = frenchSpacing(problem);
      error.hidden = false;
      return;
    }
    dialog.returnValue = value;
  });
  dialog.addEventListener("close", () => { dialog.remove(); done(dialog.returnValue || ""); });
  document.body.append(dialog);
  dialog.showModal();
});

export const confirmAction = (title, text, label) =>
  modal({ title, content: [el("p", {}, text)],
    buttons: [{ value: "oui", label, main: true, danger: true }, { value: "annuler", label: "Annuler" }] })
    .then((v) => v === "oui");

/** `name`, or « name (2) », « name (3) »… : the first that `taken(candidate)` refuses,
 * cut to fit `maxLength`. Two lists or characters of one name are both kept this way. */
export const freeName = (name, taken, maxLength) => {
  if (!taken(name)) return name;
  for (let n = 2; ; n += 1) {
    const candidate = `${name.slice(0, maxLength - 6)} (${n})`;
    if (!taken(candidate)) return candidate;
  }
};

/** Asks for a name (a list's, a character's) in a dialog whose field holds `initial`,
 * selected, so that what the reader types replaces it. Resolves with the name cleaned by
 * `clean`, or null. `check(name)` returns a French message that keeps the dialog open. */
export const askName = ({ title, label, initial = "", maxLength, clean, check }) => {
  const input = el("input", { type: "text", id: "list-dialog-name", maxlength: String(maxLength),
    autocomplete: "off", value: initial, required: true });
  input.addEventListener("focus", () => input.select(), { once: true });
  return modal({
    title,
    content: [el("p", { class: "list-dialog__field" }, el("label", { for: "list-dialog-name" }, label), input)],
    buttons: [{ value: "ok", label: "Valider", main: true }, { value: "annuler", label: "Annuler" }],
    check: () => check(clean(input.value)),
  }).then((value) => (value === "ok" ? clean(input.value) : null));
};

/** A new id for a list or a character a reader keeps: random, so that two tabs never make
 * the same one; the rest of the site names it by its id, whatever its name becomes. */
export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The id of a list or a character kept without one (kept before ids were, or never
 * renamed since): its name's, the same in every tab that reads it. */
export const formerId = (name) => `nom:${name}`;

/** Follows the value localStorage keeps under `keyOf()` (read at each change: instant
 * navigation may change the page's database): `changed()` is called once it differs from
 * the last seen, after another tab wrote it (its `storage` event) or when this tab comes
 * back to the screen (a phone freezes background tabs, which may then miss events).
 * Returns the function that stops following. */
const followed = new Set();
const storedValue = (key) => {
  try { return localStorage.getItem(key); } catch { return null; }
};
let following = false; // the listeners below, added at the first follower
export function followStored(keyOf, changed) {
  const follower = { keyOf, changed, last: storedValue(keyOf()) };
  followed.add(follower);
  if (!following) {
    following = true;
    window.addEventListener("storage", checkFollowed);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") checkFollowed(); });
    window.addEventListener("pageshow", (e) => { if (e.persisted) checkFollowed(); });
  }
  return () => followed.delete(follower);
}
/** localStorage.setItem(key, raw) (throwing as it does), for a value this tab follows:
 * its own change is not taken for another tab's. */
export function storeValue(key, raw) {
  localStorage.setItem(key, raw);
  for (const follower of followed) if (follower.keyOf() === key) follower.last = raw;
}
function checkFollowed() {
  for (const follower of [...followed]) {
    const raw = storedValue(follower.keyOf());
    if (raw === follower.last) continue;
    follower.last = raw;
    follower.changed();
  }
}
