/* The site as an installed, offline application.
 *
 * - registers the service worker (sw.js at the site root, found from page.js's siteRoot, so
 *   that it also works under a GitHub Pages project path), once per page load;
 * - shows the offline status in the footer, and the first download's progress in a corner;
 * - offers a waiting new version (« Nouvelle version disponible — Recharger »): the worker only
 *   takes over when the reader asks, then the page reloads, so a page never mixes two deploys;
 * - the install button and state of the « Installer l’application » page.
 *
 * Material's instant navigation swaps the page content without running this script again: the
 * page parts are (re)attached on every page (onEachPage); the worker is registered once.
 * The state is also on <html data-hors-ligne="…"> (for the CSS and the tests).
 */
import { el, frenchSpacing, onEachPage, siteRoot } from "./page.js";

const root = siteRoot();
// localStorage, one site per path. The name is the one installed sites already keep.
const STORAGE_PREFIX = root.pathname + ".hors-ligne.";
const MINUTE = 60 * 1000;
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
  percent: null, // first download, or repair
  updatePercent: null, // download of a new version
  version: null, // of the active worker
  newVersion: false, // a new worker is waiting
  bannerClosed: false,
  downloadSeen: false, // this page saw the first download: confirm its end in the corner
};
let registration = null;
let reloadAsked = false;
let lastCheck = Date.now();
let installPrompt = null; // the deferred beforeinstallprompt event
let installed = false;
let hideChipTimer = null;

function percentOf(bytes, total) {
  return total > 0 ? Math.min(100, Math.floor((100 * bytes) / total)) : 100;
}

// Texts ------------------------------------------------------------------------------------

function statusText() {
  switch (state.phase) {
    case PHASE.downloading:
      return state.percent === null
        ? "Téléchargement pour l’usage hors ligne…"
        : `Téléchargement pour l’usage hors ligne : ${state.percent} %`;
    case PHASE.ready:
      if (state.updatePercent !== null) {
        return `Disponible hors ligne · mise à jour : ${state.updatePercent} %`;
      }
      return navigator.onLine ? "Disponible hors ligne" : "Disponible hors ligne · sans connexion";
    case PHASE.incomplete:
      return state.percent === null
        ? "Hors ligne incomplet : fichiers à télécharger"
        : `Hors ligne incomplet : téléchargement ${state.percent} %`;
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

function progressShown() {
  if (state.phase === PHASE.downloading || state.phase === PHASE.incomplete) return state.percent;
  if (state.phase === PHASE.ready) return state.updatePercent;
  return null;
}

// Rendering --------------------------------------------------------------------------------

function progressBar(className) {
  return el("progress", { class: className, max: "100", "aria-hidden": "true" });
}

// Progress arrives several times a second during the first download: only what changed is
// written, as every write makes the browser restyle (and the <html> attributes, the page).
function setData(element, name, value) {
  if (value === null) {
    if (name in element.dataset) delete element.dataset[name];
  } else if (element.dataset[name] !== value) {
    element.dataset[name] = value;
  }
}

function fill(container, text, value) {
  setData(container, "phase", state.phase);
  const label = container.querySelector("[data-texte]");
  const spaced = frenchSpacing(text);
  if (label.textContent !== spaced) label.textContent = spaced;
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
      progressBar("hors-ligne-etat__barre"));
    host.append(block);
  }
  const text = statusText();
  block.hidden = text === "";
  fill(block, text, progressShown());
}

// In a corner, outside the swapped content: during the first download, then a confirmation.
let chip = null;
let announcer = null;
let lastMilestone = null;

function renderCorner() {
  if (!chip) {
    // aria-hidden: the live region below speaks for it.
    chip = el("div", { class: "hors-ligne-puce", "aria-hidden": "true" },
      el("span", { class: "hors-ligne-puce__texte", "data-texte": "" }),
      progressBar("hors-ligne-puce__barre"));
    chip.hidden = true;
    announcer = el("div", { class: "hors-ligne-annonce", role: "status", "aria-live": "polite" });
    document.body.append(chip, announcer);
  }
  if (state.phase === PHASE.downloading) {
    state.downloadSeen = true;
    clearTimeout(hideChipTimer);
    hideChipTimer = null;
    chip.hidden = false;
    fill(chip, statusText(), state.percent);
  } else if (state.phase === PHASE.ready && state.downloadSeen) {
    if (!chip.hidden && hideChipTimer === null) {
      fill(chip, "Disponible hors ligne", null);
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
  const milestone =
    state.phase === PHASE.downloading
      ? `${PHASE.downloading}-${Math.floor((state.percent || 0) / 25)}`
      : state.phase;
  if (milestone !== lastMilestone && (state.downloadSeen || state.phase === PHASE.failed)) {
    announcer.textContent = state.phase === PHASE.ready ? "Disponible hors ligne" : statusText();
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
    document.body.append(banner);
  }
  banner.hidden = !show;
}

function render() {
  const page = document.documentElement;
  setData(page, "horsLigne", state.phase);
  setData(page, "horsLigneMaj", state.newVersion ? "" : null);
  renderFooter();
  renderCorner();
  renderUpdateBanner();
  const corner = (chip && !chip.hidden) || (banner && !banner.hidden);
  setData(page, "horsLigneCoin", corner ? "" : null);
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

async function check() {
  const active = registration && registration.active;
  if (!active) return;
  try {
    const answer = await ask(active, { type: "STATUS" });
    state.version = answer.version;
    state.phase = answer.complete ? PHASE.ready : PHASE.incomplete;
    if (answer.complete) {
      state.percent = null;
      persist();
    }
  } catch {
    // An older worker, or a busy one: the state stays as it is.
  }
  render();
}

// Ask the browser not to evict the ~20 MB when space runs short (silent in Chrome, a
// question in Firefox: asked at most once a week).
async function persist() {
  if (!navigator.storage || !navigator.storage.persist) return;
  try {
    if (await navigator.storage.persisted()) return;
    const last = Number(localStorage.getItem(STORAGE_PREFIX + "persistance") || 0);
    if (Date.now() - last < 7 * 24 * 60 * MINUTE) return;
    localStorage.setItem(STORAGE_PREFIX + "persistance", String(Date.now()));
    await navigator.storage.persist();
  } catch {
    // Storage API refused (private mode…): the cache still works, only evictable.
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
  if (registered.active) check();
}

function receive(message) {
  if (!message || typeof message !== "object") return;
  if (message.type === "PROGRESS") {
    const value =
      typeof message.progress === "number"
        ? Math.min(100, Math.floor(100 * message.progress))
        : percentOf(message.bytes, message.total);
    const active = registration && registration.active;
    if (!active) {
      if (state.phase !== PHASE.ready) {
        state.phase = PHASE.downloading;
        state.percent = value;
      }
    } else if (message.version === state.version) {
      if (message.repair) {
        state.phase = PHASE.incomplete;
        state.percent = value;
      }
    } else {
      state.updatePercent = value < 100 ? value : null;
    }
    renderSoon();
  } else if (message.type === "READY" || message.type === "ACTIVE") {
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
    .then(follow, () => {
      // Without network, an interruption; otherwise refused (blocked, private mode…).
      state.phase = navigator.onLine ? PHASE.unavailable : PHASE.failed;
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
    else if (state.phase === PHASE.incomplete) check();
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

// When the browser has nothing else to do, or after two seconds at the latest.
function whenIdle(action) {
  if (window.requestIdleCallback) requestIdleCallback(action, { timeout: 2000 });
  else setTimeout(action, 0);
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
  render();
});
