/* Service worker of the rules site: the whole site offline, updated only when the reader agrees.
 *
 * This file is a template. MkDocs copies it to site/sw.js, then the last post-build step
 * (generator/offline.py) rewrites site/sw.js with CONSTRUCTION filled in: the list of every
 * file of the site with its content hash. Left unfilled, CONSTRUCTION is null and the script
 * throws at once, so the browser refuses to install it: no half-configured worker.
 *
 * Every path below is relative to this script, which sits at the site root: the same file
 * works at https://example.org/ and under a GitHub Pages project path (/<repo>/).
 *
 * No size limit per file: Workbox's 2 MiB `maximumFileSizeToCacheInBytes` is an option of
 * workbox-build, which writes the precache manifest. We write our own manifest, so the
 * Pyodide runtime (pyodide.asm.wasm, ~10 MB) is precached like any other file.
 */
"use strict";

const CONSTRUCTION = /* @regles:construction */ null;

// The Workbox runtime is served by the site itself (copied from node_modules): no CDN.
importScripts(CONSTRUCTION.workbox + "workbox-sw.js");
workbox.setConfig({ modulePathPrefix: CONSTRUCTION.workbox, debug: false });
// Touch every module now: workbox-sw loads them with importScripts, which a service worker
// may only call while its script first runs, never later from an event.
const { core, precaching, routing } = workbox;

const ENTREES = CONSTRUCTION.fichiers;
const TOTAL_OCTETS = ENTREES.reduce((somme, e) => somme + e.taille, 0);
const TAILLES = new Map(ENTREES.map((e) => [new URL(e.url, self.location.href).href, e.taille]));

// Pages learn progress and readiness from this channel; the scope in its name keeps two sites
// of the same origin (two GitHub Pages projects of one user) apart.
const canal =
  typeof BroadcastChannel === "function"
    ? new BroadcastChannel("regles-hors-ligne:" + self.registration.scope)
    : null;

function annoncer(message) {
  if (canal) canal.postMessage({ version: CONSTRUCTION.version, ...message });
}

// Download progress, in bytes: files already in the cache (same revision as in a previous
// version, or from an interrupted first visit) count as done.
const progression = { faits: new Set(), octets: 0, dernierEnvoi: 0 };

// Progress that follows time rather than bytes alone: each request costs about as much as
// 16 kB of transfer, so hundreds of small search fragments do not sit at 99 %.
const COUT_REQUETE = 16 * 1024;

function avancement(octets, fichiers) {
  const total = TOTAL_OCTETS + COUT_REQUETE * ENTREES.length;
  return total ? (octets + COUT_REQUETE * fichiers) / total : 1;
}

function compter(adresse, motif) {
  const url = new URL(adresse);
  url.searchParams.delete("__WB_REVISION__");
  const taille = TAILLES.get(url.href);
  if (taille === undefined || progression.faits.has(url.href)) return;
  progression.faits.add(url.href);
  progression.octets += taille;
  const fini = progression.faits.size === ENTREES.length;
  const maintenant = Date.now();
  if (fini || maintenant - progression.dernierEnvoi > 150) {
    progression.dernierEnvoi = maintenant;
    annoncer({
      type: "PROGRESSION",
      octets: progression.octets,
      total: TOTAL_OCTETS,
      fichiers: progression.faits.size,
      totalFichiers: ENTREES.length,
      avancement: avancement(progression.octets, progression.faits.size),
      ...motif,
    });
  }
}

// Workbox's install fetches one file after the other (workbox#2528). With several hundred
// files (the search index is many small fragments) that takes a minute even from a local
// server. So the install first downloads the missing files PARALLELE at a time, with their
// integrity, straight into Workbox's cache under Workbox's own keys; Workbox's loop, held
// until then (cacheKeyWillBeUsed below), finds them there and only fetches what failed,
// failing the install if that fails again: all or nothing, as Workbox alone would be.
const PARALLELE = 8;

async function telecharger(entrees, motif) {
  const cache = await caches.open(core.cacheNames.precache);
  const presentes = new Set((await cache.keys()).map((requete) => requete.url));
  const file = [];
  for (const entree of entrees) {
    const cle = precaching.getCacheKeyForURL(entree.url);
    if (presentes.has(cle)) compter(cle, motif);
    else file.push([entree, cle]);
  }
  // Smallest files first, Python's runtime (~19 MB) last: a reader who opened a calculator
  // page has by then downloaded it for the page itself, and the request below, revalidated
  // ("no-cache"), takes it from the browser's HTTP cache after a 304 instead of twice.
  file.sort((a, b) => a[0].taille - b[0].taille);
  let echecs = 0;
  async function ouvrier() {
    while (file.length) {
      const [entree, cle] = file.shift();
      try {
        const reponse = await fetch(
          new Request(new URL(entree.url, self.location.href).href, {
            integrity: entree.integrity,
            cache: "no-cache", // revalidated: never a stale copy, and no second download
            credentials: "same-origin",
          }),
        );
        // Redirects and errors are left to Workbox, which knows how to store or refuse them.
        if (!reponse.ok || reponse.redirected) throw new Error(`${entree.url} : ${reponse.status}`);
        await cache.put(cle, reponse);
        compter(cle, motif);
      } catch (erreur) {
        echecs += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLELE }, ouvrier));
  return echecs;
}

let prechauffage = null;

// Registered before precacheAndRoute's own listener, so that `prechauffage` exists when
// Workbox's loop starts.
self.addEventListener("install", (event) => {
  progression.faits.clear();
  progression.octets = 0;
  annoncer({
    type: "PROGRESSION",
    octets: 0,
    total: TOTAL_OCTETS,
    fichiers: 0,
    totalFichiers: ENTREES.length,
    avancement: 0,
  });
  prechauffage = telecharger(ENTREES, {}).catch(() => undefined);
  event.waitUntil(prechauffage);
});

precaching.addPlugins([
  {
    cacheKeyWillBeUsed: async ({ event, request }) => {
      if (event && event.type === "install" && prechauffage) await prechauffage;
      return request;
    },
    cachedResponseWillBeUsed: async ({ event, request, cachedResponse }) => {
      if (cachedResponse && event && event.type === "install") compter(request.url, {});
      return cachedResponse;
    },
    cacheDidUpdate: async ({ event, request }) => {
      if (event && event.type === "install") compter(request.url, {});
    },
  },
]);

// Every file, keyed by URL + revision; integrity makes the browser reject a stale copy.
// A new version installs next to the old one and only replaces it on activation: a page is
// never served a mix of two deploys.
precaching.precacheAndRoute(
  ENTREES.map(({ url, revision, integrity }) => ({ url, revision, integrity })),
  {
    directoryIndex: "index.html", // regles/combat/ → regles/combat/index.html
    cleanURLs: false,
    ignoreURLParametersMatching: [/.*/], // ?h=… from search highlighting, ?depuis=…, etc.
  },
);
precaching.cleanupOutdatedCaches();

// First install: take the open pages at once, so that they work offline without a reload.
// Updates never skip waiting by themselves: the page asks, after the reader said so.
core.clientsClaim();

// Navigation to anything not cached: the network, or else the offline page (a redirect, so
// that its relative links and assets resolve from its own address).
routing.registerRoute(
  ({ request }) => request.mode === "navigate",
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (erreur) {
      const secours = new URL(CONSTRUCTION.secours, self.location.href);
      secours.searchParams.set("depuis", request.url);
      return Response.redirect(secours.href, 302);
    }
  },
);

// State, for the page's status line; repair of files the browser may have evicted.
async function etat() {
  const cache = await caches.open(core.cacheNames.precache);
  const presentes = new Set((await cache.keys()).map((requete) => requete.url));
  const manquantes = ENTREES.filter((e) => !presentes.has(precaching.getCacheKeyForURL(e.url)));
  return {
    type: "ETAT",
    version: CONSTRUCTION.version,
    complet: manquantes.length === 0,
    fichiers: ENTREES.length,
    manquants: manquantes.length,
    octets: TOTAL_OCTETS,
    manquantes,
  };
}

let reparation = null;

async function reparer() {
  progression.faits.clear();
  progression.octets = 0;
  const echecs = await telecharger(ENTREES, { reparation: true }); // fetches only the missing
  annoncer({ type: echecs ? "ECHEC" : "PRET" });
}

self.addEventListener("message", (event) => {
  const demande = event.data || {};
  if (demande.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (demande.type === "ETAT") {
    event.waitUntil(
      etat().then((reponse) => {
        const { manquantes, ...resume } = reponse;
        if (event.ports[0]) event.ports[0].postMessage(resume);
        if (manquantes.length && !reparation) {
          reparation = reparer()
            .catch(() => annoncer({ type: "ECHEC" }))
            .finally(() => { reparation = null; });
          return reparation;
        }
        return undefined;
      }),
    );
  }
});

self.addEventListener("activate", () => annoncer({ type: "ACTIVE" }));
