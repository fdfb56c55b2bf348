/* The site as an installed, offline application.
 *
 * - registers the service worker (sw.js at the site root, found from page.js's siteRoot, so
 *   that it also works under a GitHub Pages project path), once per page load;
 * - says in words what works offline, in the footer and, while a download runs, among the
 *   notices at the bottom of the screen: « Pages et recherche : hors ligne · Calculateurs :
 *   40 % » (the worker stores the text first, then the files listed as `later`);
 * - asks the worker to go on with a download that stopped: at each page, when the connection
 *   comes back, and every half minute while the page is shown;
 * - asks the browser to keep the copy (persistent storage) and says so when it refuses;
 * - offers a waiting new version (« Nouvelle version disponible — Recharger »): the worker only
 *   takes over when the reader asks, then the page reloads, so a page never mixes two deploys;
 * - on the offline page, lists the pages already stored;
 * - the install button and state of the « Installer l’application » page.
 *
 * Material's instant navigation swaps the page content without running this script again: the
 * page parts are (re)attached on every page (onEachPage); the worker is registered once.
 * The state is also on <html>, for the stylesheet, the calculators and the tests:
 * data-hors-ligne (the phase, below), data-hors-ligne-texte="pret" once every page and the
 * search are stored, data-hors-ligne-calculateurs="pret" once the later files are too.
 */
import { el, frenchSpacing, keepsData, onEachPage, showNotice, siteRoot, whenIdle } from "./page.js";

const root = siteRoot();
// localStorage, one site per path. The name is the one installed sites already keep.
const STORAGE_PREFIX = root.pathname + ".hors-ligne.";
keepsData(
  (key) => (key.startsWith(STORAGE_PREFIX) ? "Pages hors ligne : dernière demande au navigateur de les garder" : null),
  (value) => /^\d{1,16}$/.test(value), // a date, in milliseconds
);
const MINUTE = 60 * 1000;
// While a download is stopped (no network), the worker is asked again this often.
const RETRY_MS = 30 * 1000;
// The worker's messages to every page of the site; the scope in the name keeps two sites of
// one origin apart. Its counterpart is in sw.js.
const CHANNEL = "rules-offline:" + root.href;

// The phases, as the page root's data-hors-ligne attribute (and the stylesheet) name them.
const PHASE = {
  waiting: "attente",
  unavailable: "indisponible",
  development: "developpement",
  downloading: "telechargement",
  ready: "pret",
  incomplete: "incomplet",
  failed: "echec",
};

const state = {
  phase: PHASE.waiting,
  offline: null, // the worker's last STATUS: {text, later, complete, running, problem}
  updatePercent: null, // download of a new version
  version: null, // of the active worker
  newVersion: false, // a new worker is waiting
  bannerClosed: false,
  chipClosed: null, // the reader closed the download's notice in this tab (read once)
  downloadSeen: false, // this page saw a download: confirm its end among the notices
  persistRefused: false, // the browser may evict the copy
};
let registration = null;
let reloadAsked = false;
let lastCheck = Date.now();
let installPrompt = null; // the deferred beforeinstallprompt event
let installed = false;
let hideChipTimer = null;
let retryTimer = null;

function percent(fraction) {
  return Math.min(99, Math.floor(100 * fraction));
}

function groupDone(group) {
  return !group || group.missing === 0;
}

// Texts ------------------------------------------------------------------------------------

// Why a download stopped, as the worker says it (STATUS.problem).
const STOPPED = {
  network: "interrompu, reprendra avec la connexion",
  quota: "espace de stockage plein sur cet appareil",
  server: "des fichiers n’ont pas pu être téléchargés, nouvel essai plus tard",
};

/** What works offline, group by group: « Pages et recherche : hors ligne · Calculateurs : 40 % ». */
function groupsText(status) {
  const { text, later } = status;
  const word = (group) => (groupDone(group) ? "hors ligne" : `${percent(group.progress)} %`);
  if (status.complete) {
    return later.files ? "Pages, recherche et calculateurs : hors ligne" : "Pages et recherche : hors ligne";
  }
  const parts = [`Pages et recherche : ${word(text)}`];
  if (later.files) {
    const waits = !groupDone(text) && later.progress === 0;
    parts.push(`Calculateurs : ${waits ? "en attente" : word(later)}`);
  }
  const stopped = !status.running && STOPPED[status.problem];
  return parts.join(" · ") + (stopped ? ` — ${stopped}` : "");
}

function statusText() {
  switch (state.phase) {
    case PHASE.downloading:
    case PHASE.incomplete:
    case PHASE.ready: {
      if (!state.offline) return "Téléchargement pour l’usage hors ligne…";
      let text = groupsText(state.offline);
      if (state.updatePercent !== null) text += ` · mise à jour : ${state.updatePercent} %`;
      else if (state.phase === PHASE.ready && !navigator.onLine) text += " · sans connexion";
      return text;
    }
    case PHASE.failed:
      return "Téléchargement hors ligne interrompu : il reprendra avec la connexion";
    case PHASE.unavailable:
      return "Lecture hors ligne non prise en charge par ce navigateur";
    case PHASE.development:
      return "Hors ligne désactivé pendant « mkdocs serve »";
    default:
      return "";
  }
}

const PERSIST_REFUSED =
  "Le navigateur n’a pas garanti la place de cette copie : il pourra l’effacer s’il manque d’espace.";

/** The progress bar's value: the group being downloaded (the text, then the later files). */
function progressShown() {
  if (state.phase === PHASE.ready) return state.updatePercent;
  const status = state.offline;
  if (!status || status.complete) return null;
  const group = groupDone(status.text) ? status.later : status.text;
  return percent(group.progress);
}

// Rendering --------------------------------------------------------------------------------

function progressBar(className) {
  return el("progress", { class: className, max: "100", "aria-hidden": "true" });
}

// Progress arrives several times a second during a download: only what changed is written,
// as every write makes the browser restyle (and the <html> attributes, the page).
function setData(element, name, value) {
  if (value === null) {
    if (name in element.dataset) delete element.dataset[name];
  } else if (element.dataset[name] !== value) {
    element.dataset[name] = value;
  }
}

function setText(element, text) {
  const spaced = frenchSpacing(text);
  if (element.textContent !== spaced) element.textContent = spaced;
}

function fill(container, text, value) {
  setData(container, "phase", state.phase);
  setText(container.querySelector("[data-texte]"), text);
  const progress = container.querySelector("progress");
  const hidden = value === null || value === undefined;
  if (progress.hidden !== hidden) progress.hidden = hidden;
  if (!hidden) {
    if (progress.value !== value) progress.value = value;
  } else if (progress.hasAttribute("value")) {
    progress.removeAttribute("value");
  }
}

// In the footer, replaced by each instant navigation: rebuilt when missing.
function renderFooter() {
  const host = document.querySelector(".md-footer-meta__inner");
  if (!host) return;
  let block = host.querySelector(".hors-ligne-etat");
  if (!block) {
    block = el("div", { class: "hors-ligne-etat" },
      el("span", { class: "hors-ligne-etat__texte", "data-texte": "" }),
      progressBar("hors-ligne-etat__barre"),
      el("span", { class: "hors-ligne-etat__stockage", hidden: true }));
    host.append(block);
  }
  const text = statusText();
  block.hidden = text === "";
  fill(block, text, progressShown());
  const storage = block.querySelector(".hors-ligne-etat__stockage");
  setText(storage, PERSIST_REFUSED);
  storage.hidden = !state.persistRefused;
}

// Among the notices, outside the swapped content: during a download, then a confirmation.
// One line, which the reader may close: it then stays closed in this tab (sessionStorage),
// and the footer still says where the download is.
let chip = null;
let announcer = null;
let lastMilestone = null;
const CHIP_CLOSED = root.pathname + ".avis-copie-ferme";

function readChipClosed() {
  try {
    return sessionStorage.getItem(CHIP_CLOSED) === "1";
  } catch {
    return false;
  }
}

function closeChip() {
  try {
    sessionStorage.setItem(CHIP_CLOSED, "1");
  } catch {
    // not kept: closed on this page only
  }
  state.chipClosed = true;
  render();
}

// Why a download stopped, in the few words a one-line notice has room for.
const STOPPED_SHORT = {
  network: "reprendra avec la connexion",
  quota: "plus de place sur l’appareil",
  server: "nouvel essai plus tard",
};

/** The notice's line: the group under way and its share, the rest is the footer's. */
function chipText() {
  const status = state.offline;
  if (state.phase !== PHASE.downloading) {
    if (state.phase === PHASE.ready) return "Disponible hors ligne";
    const why = (status && STOPPED_SHORT[status.problem]) || STOPPED_SHORT.network;
    return `Copie hors ligne arrêtée : ${why}`;
  }
  if (!status) return "Copie hors ligne…";
  if (!groupDone(status.text)) return `Copie hors ligne : pages ${percent(status.text.progress)} %`;
  return `Copie hors ligne : calculateurs ${percent(status.later.progress)} %`;
}

function renderCorner() {
  if (!chip) {
    const close = el("button", { type: "button", class: "hors-ligne-puce__fermer",
      title: "Masquer", "aria-label": "Masquer l’avis de copie hors ligne" }, "×");
    close.addEventListener("click", closeChip);
    // The text is aria-hidden: the live region below speaks for it.
    chip = el("div", { class: "hors-ligne-puce" },
      el("span", { class: "hors-ligne-puce__texte", "data-texte": "", "aria-hidden": "true" }),
      close,
      progressBar("hors-ligne-puce__barre"));
    chip.hidden = true;
    announcer = el("div", { class: "hors-ligne-annonce", role: "status", "aria-live": "polite" });
    document.body.append(announcer);
    showNotice(chip);
  }
  if (state.chipClosed === null) state.chipClosed = readChipClosed();
  const running = state.phase === PHASE.downloading;
  if (state.chipClosed) {
    chip.hidden = true;
  } else if (running) {
    state.downloadSeen = true;
    clearTimeout(hideChipTimer);
    hideChipTimer = null;
    chip.hidden = false;
    fill(chip, chipText(), progressShown());
  } else if (state.downloadSeen && state.phase !== PHASE.waiting) {
    // Over: say how it ended a moment (« … hors ligne », or where and why it stopped).
    if (!chip.hidden && hideChipTimer === null) {
      fill(chip, chipText(), null);
      hideChipTimer = setTimeout(() => {
        chip.hidden = true;
        state.downloadSeen = false;
        render();
      }, 6000);
    }
  } else {
    chip.hidden = true;
  }
  // Screen readers hear the milestones, not every percent.
  const status = state.offline;
  const milestone = running
    ? `${PHASE.downloading}-${groupDone(status && status.text)}-${Math.floor((progressShown() || 0) / 25)}`
    : state.phase;
  if (milestone !== lastMilestone && (state.downloadSeen || state.phase === PHASE.failed)) {
    announcer.textContent = frenchSpacing(state.phase === PHASE.ready ? "Disponible hors ligne" : statusText());
  }
  lastMilestone = milestone;
}

let banner = null;

function renderUpdateBanner() {
  const show = state.newVersion && !state.bannerClosed;
  if (!banner && !show) return;
  if (!banner) {
    const reload = el("button", { class: "hors-ligne-maj__recharger", type: "button" }, "Recharger");
    reload.addEventListener("click", switchToNewVersion);
    const close = el(
      "button",
      { class: "hors-ligne-maj__fermer", type: "button", title: "Plus tard", "aria-label": "Plus tard" },
      "×",
    );
    close.addEventListener("click", () => {
      state.bannerClosed = true;
      render();
    });
    banner = el("div", { class: "hors-ligne-maj", role: "status" },
      el("span", { class: "hors-ligne-maj__texte" }, "Nouvelle version disponible"),
      el("span", { class: "hors-ligne-maj__tiret", "aria-hidden": "true" }, " — "),
      reload,
      close);
    showNotice(banner);
  }
  banner.hidden = !show;
}

function render() {
  const page = document.documentElement;
  const status = state.offline;
  setData(page, "horsLigne", state.phase);
  setData(page, "horsLigneTexte", status && groupDone(status.text) ? "pret" : null);
  setData(page, "horsLigneCalculateurs", status && groupDone(status.later) ? "pret" : null);
  setData(page, "horsLigneMaj", state.newVersion ? "" : null);
  renderFooter();
  renderCorner();
  renderUpdateBanner();
  renderInstall();
}

// Progress messages: at most one rendering per frame.
let renderPlanned = false;
function renderSoon() {
  if (renderPlanned) return;
  renderPlanned = true;
  requestAnimationFrame(() => {
    renderPlanned = false;
    render();
  });
}

// Service worker ---------------------------------------------------------------------------

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timeout = setTimeout(() => reject(new Error("sans réponse")), 10000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timeout);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** The active worker's state: it also goes on with any download left unfinished. */
async function check() {
  const active = registration && registration.active;
  if (!active) return;
  try {
    const answer = await ask(active, { type: "STATUS", download: navigator.onLine });
    state.version = answer.version;
    apply(answer);
  } catch {
    // An older worker, or a busy one: the state stays as it is.
  }
  render();
}

function apply(status) {
  if (!status.text || !status.later) return; // a worker of an older version
  state.offline = status;
  if (status.complete) state.phase = PHASE.ready;
  else state.phase = status.running ? PHASE.downloading : PHASE.incomplete;
  if (groupDone(status.text)) persist();
  planRetry();
}

// A download that stopped for want of network is asked for again while the page is shown
// (the worker fetches only what is missing); a full storage waits for the next page.
function planRetry() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const status = state.offline;
  if (!status || status.complete || status.running || status.problem === "quota") return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    if (document.visibilityState === "visible" && navigator.onLine) check();
    else planRetry();
  }, RETRY_MS);
}

// Ask the browser not to evict the copy when space runs short (silent in Chrome, a question
// in Firefox: asked at most once a week); a refusal is said in the footer.
let persistAsked = false;
async function persist() {
  if (persistAsked || !navigator.storage || !navigator.storage.persist) return;
  persistAsked = true;
  try {
    if (await navigator.storage.persisted()) return;
    const key = STORAGE_PREFIX + "persistance";
    const last = Number(localStorage.getItem(key) || 0);
    const granted = Date.now() - last < 7 * 24 * 60 * MINUTE ? false : await navigator.storage.persist();
    if (!granted) {
      if (!last) localStorage.setItem(key, String(Date.now()));
      state.persistRefused = true;
      render();
    }
  } catch {
    // Storage API refused (private mode…): the cache still works, only evictable.
    state.persistRefused = true;
    render();
  }
}

let waitingSeen = null;

function newVersionReady() {
  const waiting = registration && registration.waiting;
  state.newVersion = Boolean(waiting && registration.active);
  if (waiting && waiting !== waitingSeen) state.bannerClosed = false; // yet another version
  waitingSeen = waiting;
  state.updatePercent = null;
  render();
}

function followInstall(worker) {
  const update = Boolean(registration.active);
  if (!update) {
    state.phase = PHASE.downloading;
    render();
  }
  worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && update) {
      newVersionReady();
    } else if (worker.state === "activated" && !update) {
      check();
    } else if (worker.state === "redundant") {
      if (!update && state.phase === PHASE.downloading) state.phase = PHASE.failed;
      state.updatePercent = null;
      newVersionReady();
    }
  });
}

function follow(registered) {
  if (!registered) {
    // Some environments stub the API out (automation that blocks workers…).
    state.phase = PHASE.unavailable;
    render();
    return;
  }
  registration = registered;
  registered.addEventListener("updatefound", () => {
    if (registered.installing) followInstall(registered.installing);
  });
  if (registered.installing) followInstall(registered.installing);
  if (registered.waiting) newVersionReady();
  if (registered.active) {
    check();
    listStoredPages();
  }
}

function receive(message) {
  if (!message || typeof message !== "object") return;
  if (message.type === "STATUS") {
    const active = registration && registration.active;
    const other = registration && (registration.installing || registration.waiting);
    if (!active || message.version === state.version || (!other && state.version === null)) {
      // The active worker's download; or, before there is one, the first install's.
      if (!active && state.phase !== PHASE.downloading) return;
      apply(message);
      if (!active) state.phase = PHASE.downloading;
    } else if (message.text && message.later) {
      // A new version, downloading next to the active one.
      const all = message.text.progress * message.text.bytes + message.later.progress * message.later.bytes;
      const total = message.text.bytes + message.later.bytes;
      state.updatePercent = message.complete || !message.running ? null : percent(total ? all / total : 1);
    }
    renderSoon();
  } else if (message.type === "ACTIVE") {
    check();
  }
}

// The worker's progress, to every page of the site (BroadcastChannel).
let broadcast = null;

function openChannel() {
  if (broadcast || typeof BroadcastChannel !== "function") return;
  broadcast = new BroadcastChannel(CHANNEL);
  broadcast.onmessage = (event) => receive(event.data);
}

function closeChannel() {
  if (broadcast) broadcast.close();
  broadcast = null;
}

function switchToNewVersion() {
  const waiting = registration && registration.waiting;
  if (!waiting) {
    location.reload();
    return;
  }
  reloadAsked = true;
  waiting.addEventListener("statechange", () => {
    if (waiting.state === "activated") reload();
  });
  waiting.postMessage({ type: "SKIP_WAITING" });
}

let reloading = false;
function reload() {
  if (reloading) return;
  reloading = true;
  location.reload();
}

function lookForUpdate(force) {
  if (!registration || !navigator.onLine) return;
  if (!force && Date.now() - lastCheck < 10 * MINUTE) return;
  lastCheck = Date.now();
  registration.update().catch(() => {});
}

function register() {
  navigator.serviceWorker
    .register(new URL("sw.js", root).href, { scope: root.href })
    .then(follow, (error) => {
      // sw.js did not come (the network): an interruption; otherwise refused (blocked,
      // private mode…).
      const network = !navigator.onLine || /fetch/i.test(String(error));
      state.phase = network ? PHASE.failed : PHASE.unavailable;
      render();
    });
}

function start() {
  if (!navigator.serviceWorker || !window.isSecureContext) {
    state.phase = PHASE.unavailable;
    return;
  }
  // `mkdocs serve` injects live reload into the pages: files change under the worker's feet
  // and would no longer match their hashes. No worker there, and none left behind.
  // (Found by its script element: a Content-Security-Policy may keep it from running.)
  const liveReload = Array.from(document.scripts).some(
    (script) => !script.src && script.textContent.includes("livereload("),
  );
  if (liveReload || typeof window.livereload === "function") {
    state.phase = PHASE.development;
    navigator.serviceWorker.getRegistrations().then((list) => {
      for (const r of list) if (r.scope === root.href) r.unregister();
    });
    return;
  }
  openChannel();
  // The channel is closed while the page is hidden: a message arriving while the page waits
  // in the browser's back/forward cache would evict it (the download sends several a
  // second), and the Back button would reload it. Back on screen, the page asks again.
  window.addEventListener("pagehide", closeChannel);
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    openChannel();
    check();
  });
  // A new version took over: in the tab that asked, and in every other tab that was
  // running the previous one, reload so that no page goes on with the old files. The first
  // install (no previous worker) takes the page without reloading it.
  let controller = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const previous = controller;
    controller = navigator.serviceWorker.controller;
    if (reloadAsked || previous) reload();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") lookForUpdate(false);
  });
  window.addEventListener("online", () => {
    if (fallbackAddress) {
      // The « online » event often comes before the connection really works: a moment.
      const address = fallbackAddress;
      setTimeout(() => {
        if (address === fallbackAddress && navigator.onLine) location.assign(address);
      }, 1500);
      return;
    }
    if (state.phase === PHASE.failed || state.phase === PHASE.unavailable) register();
    else if (state.phase === PHASE.incomplete || state.phase === PHASE.downloading) check();
    lookForUpdate(true);
    render();
  });
  window.addEventListener("offline", render);
  // The download (some 20 MB) waits until the page has loaded, been painted, and the
  // browser is idle: sooner, it competes with the page's own set-up for the network and the
  // processor (begun at the first paint, it made the page's scripts' tasks longer, and
  // Lighthouse's total blocking time higher). A page opened hidden paints nothing: its
  // download waits until it is shown.
  afterLoad(() => requestAnimationFrame(() => setTimeout(() => whenIdle(register), 0)));
}

function afterLoad(action) {
  if (document.readyState === "complete") action();
  else window.addEventListener("load", action, { once: true });
}

// Installation -----------------------------------------------------------------------------

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault(); // our button, on the install page, rather than the browser's bar
  installPrompt = event;
  renderInstall();
});
window.addEventListener("appinstalled", () => {
  installed = true;
  installPrompt = null;
  renderInstall();
});

function standalone() {
  return (
    window.matchMedia("(display-mode: standalone)").matches ||
    window.matchMedia("(display-mode: window-controls-overlay)").matches ||
    navigator.standalone === true
  );
}

function appleDevice() {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

function installText() {
  if (standalone()) return "Vous utilisez l’application installée.";
  if (installed) return "Application installée : vous la trouverez avec vos autres applications.";
  if (installPrompt) return "Votre navigateur peut installer l’application en un clic.";
  if (appleDevice()) {
    return "Sur iPhone et iPad, l’installation se fait dans Safari, par le bouton de partage : voir ci-dessous.";
  }
  return "Votre navigateur ne propose pas l’installation en un clic : suivez les instructions ci-dessous pour votre appareil.";
}

function renderInstall() {
  const button = document.querySelector(".installer-bouton");
  const text = document.querySelector(".installer-etat");
  if (button) {
    if (!button.dataset.horsLigne) {
      button.dataset.horsLigne = "";
      button.addEventListener("click", install);
    }
    button.hidden = !installPrompt || standalone();
  }
  if (text) text.textContent = frenchSpacing(installText());
}

async function install() {
  if (!installPrompt) return;
  const prompt = installPrompt;
  installPrompt = null;
  prompt.prompt();
  try {
    const choice = await prompt.userChoice;
    if (choice.outcome === "accepted") installed = true;
  } catch {
    // The prompt was closed without answer.
  }
  renderInstall();
}

// Offline page: the address that could not be reached, to try again ------------------------

let fallbackAddress = null; // the address to go back to when the network returns

function fallbackPage() {
  fallbackAddress = null;
  const link = document.querySelector(".hors-ligne-reessayer");
  const from = new URLSearchParams(location.search).get("depuis");
  if (!link || !from) return;
  let target;
  try {
    target = new URL(from);
  } catch {
    return;
  }
  // Only an address of this site: the parameter must not send the reader elsewhere.
  if (target.origin !== root.origin || !target.pathname.startsWith(root.pathname)) return;
  link.href = target.href;
  fallbackAddress = target.href;
  const address = document.querySelector(".hors-ligne-adresse");
  let path = target.pathname.slice(root.pathname.length) || "/";
  try {
    path = decodeURI(path);
  } catch {
    // Shown as it came.
  }
  if (address) address.textContent = path;
  const block = link.closest(".hors-ligne-depuis");
  if (block) block.hidden = false;
}

// The pages already stored, listed on the offline page: those of the menu that the worker
// holds (during a first download, or when the storage is full, not all of them are).
async function listStoredPages() {
  const block = document.querySelector(".hors-ligne-enregistrees");
  const active = registration && registration.active;
  if (!block || !active) return;
  const links = new Map();
  for (const link of document.querySelectorAll(".md-nav a.md-nav__link[href]")) {
    const url = new URL(link.getAttribute("href"), location.href);
    url.hash = "";
    url.search = "";
    const title = link.textContent.trim();
    if (url.origin === root.origin && title && !links.has(url.href)) links.set(url.href, title);
  }
  let answer;
  try {
    answer = await ask(active, { type: "STORED_PAGES", urls: [...links.keys()] });
  } catch {
    return;
  }
  const list = block.querySelector("ul");
  if (!list || !block.isConnected) return;
  list.replaceChildren(
    ...answer.urls.map((url) => el("li", {}, el("a", { href: url }, links.get(url)))),
  );
  block.hidden = answer.urls.length === 0;
}

// Start ------------------------------------------------------------------------------------

let started = false;
onEachPage(() => {
  if (!started) {
    started = true;
    start();
  } else {
    lookForUpdate(false);
  }
  fallbackPage();
  listStoredPages();
  render();
});
