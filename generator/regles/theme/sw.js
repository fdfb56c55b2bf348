/* Service worker of the rules site: the text offline first, then the calculators' runtime;
 * what was read is kept, an interrupted download resumes, a new version waits for the reader.
 *
 * This file is a template. MkDocs copies it to site/sw.js, then the last post-build step
 * (features/offline/offline.py) rewrites site/sw.js with BUILD filled in: the list of every file
 * of the site with its content hash, its size, and `later: true` on the files that a feature
 * asked to come after the text (the calculators' Python). Left unfilled, BUILD is null and the
 * script throws at once, so the browser refuses to install it: no half-configured worker.
 *
 * Every path below is relative to this script, which sits at the site root: the same file
 * works at https://example.org/ and under a GitHub Pages project path (/<repo>/).
 *
 * How a first visit goes:
 * 1. install: only the offline page and the files that style and run pages (a few hundred kB),
 *    so that the worker controls the open pages within seconds;
 * 2. from then on every file a page asks for is stored as it arrives (Workbox's precache
 *    strategy "repairs" its cache with a response whose integrity matches the list): what the
 *    reader opened stays readable even if nothing else ever downloads;
 * 3. the pages ask (STATUS) and the worker downloads what is missing: all the text (pages,
 *    search index, data, styles, scripts, icons), then the later files. Each file goes into the
 *    cache as soon as it is complete, under a key made of its address and its content hash, so
 *    an interrupted download resumes where it stopped, at the next visit or when the connection
 *    comes back, and a file already stored with the same hash is never fetched again.
 *
 * A new deploy installs next to the old one and downloads only the files whose hash changed,
 * all of them, before it says it is ready; it takes over when the reader agrees (offline.js),
 * so a page is never served a mix of two deploys, and an update never leaves less offline
 * than there was.
 */
"use strict";

const BUILD = /* @rules:build */ null;

// The Workbox runtime is served by the site itself (copied from node_modules): no CDN.
importScripts(BUILD.workbox + "workbox-sw.js");
workbox.setConfig({ modulePathPrefix: BUILD.workbox, debug: false });
// Touch every module now: workbox-sw loads them with importScripts, which a service worker
// may only call while its script first runs, never later from an event.
const { core, precaching, routing } = workbox;

const ENTRIES = BUILD.files;
const FALLBACK = new URL(BUILD.fallback, self.location.href).href;
const FALLBACK_PAGE = BUILD.fallback + "index.html";

// Pages learn progress and readiness from this channel (offline.js listens); the scope in its
// name keeps two sites of the same origin (two GitHub Pages projects of one user) apart.
const channel =
  typeof BroadcastChannel === "function"
    ? new BroadcastChannel("rules-offline:" + self.registration.scope)
    : null;

function announce(message) {
  if (channel) channel.postMessage({ version: BUILD.version, ...message });
}

// Storing ----------------------------------------------------------------------------------

// The files every page needs to look and work as it should: with the offline page, what the
// install stores before the worker takes the pages over.
const PAGE_ASSET = /\.(css|js|mjs|woff2?|svg|png|ico|webmanifest)$/;
const isShell = (entry) => !entry.later && (entry.url === FALLBACK_PAGE || PAGE_ASSET.test(entry.url));

// What the cache holds, as keys; read from the cache at each download, kept up to date as
// files arrive (ours and those the pages asked for).
const stored = new Set();
const isStored = (entry) => stored.has(entry.key);
// Why the last download stopped: "network" (no answer), "quota" (the storage is full) or
// "server" (a file refused); null while all went well.
let problem = null;

function quotaError(error) {
  return Boolean(error) && (error.name === "QuotaExceededError" || error.code === 22);
}

const controller = new precaching.PrecacheController({
  fallbackToNetwork: true,
  plugins: [
    {
      // A file a page asked for was stored on the way (matching its hash): one less to fetch.
      cacheDidUpdate: async ({ request }) => {
        if (!stored.has(request.url)) {
          stored.add(request.url);
          progressSoon();
        }
      },
      // Not stored and no network, or no room to store it: the network's answer if there is
      // one (the page still opens with a full storage), else the offline page.
      handlerDidError: async ({ request, error }) => {
        if (quotaError(error)) problem = "quota";
        try {
          return await fetch(request);
        } catch {
          return request.mode === "navigate" ? toFallback(request) : undefined;
        }
      },
    },
  ],
});
controller.addToCacheList(
  ENTRIES.map(({ url, revision, integrity }) => ({ url, revision, integrity })),
);
// Each entry's cache key (its address with `__WB_REVISION__=<hash>`): what is stored.
for (const entry of ENTRIES) entry.key = controller.getCacheKeyForURL(entry.url);

// Progress in the pages' words: the text, and the later files. Each request costs about as
// much as 16 kB of transfer, so that hundreds of small search fragments do not sit at 99 %.
const REQUEST_COST = 16 * 1024;
const GROUPS = {
  text: ENTRIES.filter((e) => !e.later),
  later: ENTRIES.filter((e) => e.later),
};

function groupStatus(entries) {
  let done = 0;
  let missing = 0;
  let total = 0;
  let bytes = 0;
  for (const entry of entries) {
    const weight = entry.size + REQUEST_COST;
    total += weight;
    bytes += entry.size;
    if (isStored(entry)) done += weight;
    else missing += 1;
  }
  return { files: entries.length, missing, bytes, progress: total ? done / total : 1 };
}

let downloading = null; // the download under way, if any

function status() {
  const text = groupStatus(GROUPS.text);
  const later = groupStatus(GROUPS.later);
  return {
    type: "STATUS",
    version: BUILD.version,
    text,
    later,
    complete: text.missing === 0 && later.missing === 0,
    running: downloading !== null,
    problem,
  };
}

// At most one progress message every 150 ms: the pages redraw on each.
let lastSent = 0;
let planned = null;
function progressSoon() {
  if (planned) return;
  const wait = Math.max(0, 150 - (Date.now() - lastSent));
  planned = setTimeout(() => {
    planned = null;
    lastSent = Date.now();
    announce(status());
  }, wait);
}

async function openCache() {
  const cache = await caches.open(controller.strategy.cacheName);
  const requests = await cache.keys();
  stored.clear(); // and refilled at once: a file the browser evicted is fetched again
  for (const request of requests) stored.add(request.url);
  return cache;
}

// Many files at a time: one after the other, hundreds of small search fragments take a
// minute even from a local server (Workbox's own install fetches them so, workbox#2528).
// Storing each one costs a few milliseconds of the cache's own work; with more requests in
// flight than a host's six HTTP/1.1 connections, the link never waits for it (the text at
// 1.5 Mbit/s: 10.9 s against 11.3 s with 6, for a limit of 9.1 s).
const PARALLEL = 32;
// A file that has not arrived after this long, at 16 kB/s at least, is given up (the link is
// there but carries nothing): the download stops and is asked for again later (offline.js).
const PATIENCE_MS = 30 * 1000;
const SLOWEST_BYTES_PER_MS = 16;

/** Fetch one file and store it under its key; null once stored, else what went wrong. */
async function store(cache, entry) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PATIENCE_MS + entry.size / SLOWEST_BYTES_PER_MS);
  try {
    let response;
    try {
      response = await fetch(
        new Request(new URL(entry.url, self.location.href).href, {
          integrity: entry.integrity,
          // Revalidated: never a stale copy, and a file the page itself just downloaded
          // comes from the browser's HTTP cache after a 304 instead of twice.
          cache: "no-cache",
          credentials: "same-origin",
          signal: abort.signal,
        }),
      );
    } catch {
      return "network";
    }
    if (!response.ok || response.redirected) return "server";
    try {
      await cache.put(entry.key, response);
    } catch (error) {
      // The body can also break off half-way (the connection dropped): nothing is stored.
      return quotaError(error) ? "quota" : "network";
    }
    stored.add(entry.key);
    progressSoon();
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Fetch the `entries` not yet stored, smallest first, each one stored as soon as it is
 * complete. Stops at the first sign that the network is gone or the storage is full (a file
 * the server refuses only skips that file), and returns how many are still missing. */
async function fetchMissing(cache, entries) {
  const queue = entries.filter((e) => !isStored(e)).sort((a, b) => a.size - b.size);
  async function fetcher() {
    while (queue.length) {
      const failure = await store(cache, queue.shift());
      if (failure) problem = failure;
      if (failure === "network" || failure === "quota") queue.length = 0;
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, fetcher));
  return entries.filter((e) => !isStored(e)).length;
}

/** Download what is missing: `groups` in order, each one whole before the next. */
function download(groups) {
  if (downloading) return downloading;
  downloading = (async () => {
    problem = null;
    const cache = await openCache();
    announce(status());
    for (const entries of groups) {
      if ((await fetchMissing(cache, entries)) > 0) break;
    }
  })()
    .catch(() => {
      problem = problem || "network";
    })
    .finally(() => {
      downloading = null;
      clearTimeout(planned);
      planned = null;
      announce(status());
    });
  return downloading;
}

// Life cycle -------------------------------------------------------------------------------

self.addEventListener("install", (event) => {
  // An update downloads every changed file before it is offered: the reader never trades
  // what works offline for a newer version. A first visit stores the offline page and what
  // pages need, then takes the pages over (the rest follows, asked for by the pages).
  const update = Boolean(self.registration.active);
  const wanted = update ? [GROUPS.text, GROUPS.later] : [GROUPS.text.filter(isShell)];
  event.waitUntil(
    download(wanted).then(() => {
      const missing = wanted.flat().filter((e) => !isStored(e));
      if (missing.length) throw new Error(`${missing.length} fichiers manquants`);
    }),
  );
});

self.addEventListener("activate", (event) => {
  // The files of the previous version that this one does not list go; the others are shared.
  event.waitUntil(controller.activate(event).then(() => announce({ type: "ACTIVE" })));
});

// Caches of older Workbox versions, under other names: gone.
precaching.cleanupOutdatedCaches();

// First install: take the open pages at once, so that they are stored as they are read.
// Updates never skip waiting by themselves: the page asks, after the reader said so.
core.clientsClaim();

// Serving ----------------------------------------------------------------------------------

// Every listed file: from the cache, else from the network, stored on the way.
routing.registerRoute(
  new precaching.PrecacheRoute(controller, {
    directoryIndex: "index.html", // regles/combat/ → regles/combat/index.html
    cleanURLs: false,
    ignoreURLParametersMatching: [/.*/], // ?h=… from search highlighting, ?depuis=…, etc.
  }),
);

// The offline page, as a redirect, so that its relative links and assets resolve from its own
// address; it reads the address that failed from `depuis` (offline.js).
function toFallback(request) {
  const fallback = new URL(FALLBACK);
  fallback.searchParams.set("depuis", request.url);
  return Response.redirect(fallback.href, 302);
}

// Navigation to an address the site does not list: the network, or else the offline page.
routing.registerRoute(
  ({ request }) => request.mode === "navigate",
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return toFallback(request);
    }
  },
);

// Messages from the pages ------------------------------------------------------------------

/** Which of `urls` (addresses of pages of this site) are stored: for the offline page. */
async function storedPages(urls) {
  await openCache();
  return urls.filter((url) => {
    const key = controller.getCacheKeyForURL(url) || controller.getCacheKeyForURL(url + "index.html");
    return Boolean(key) && stored.has(key);
  });
}

self.addEventListener("message", (event) => {
  const request = event.data || {};
  const reply = (answer) => event.ports[0] && event.ports[0].postMessage(answer);
  if (request.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (request.type === "STATUS") {
    // The state; then, if the page says it is online, the download of whatever is missing
    // (the rest of a first visit, an interrupted download, files the browser evicted),
    // unless one is under way.
    event.waitUntil(
      openCache().then(() => {
        const answer = status();
        reply(answer);
        if (request.download && !answer.complete && !downloading) {
          return download([GROUPS.text, GROUPS.later]);
        }
        return undefined;
      }),
    );
  } else if (request.type === "STORED_PAGES" && Array.isArray(request.urls)) {
    event.waitUntil(storedPages(request.urls.map(String)).then((urls) => reply({ urls })));
  }
});
