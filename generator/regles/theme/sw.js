/* Service worker of the rules site: the whole site offline, updated only when the reader agrees.
 *
 * This file is a template. MkDocs copies it to site/sw.js, then the last post-build step
 * (features/offline/offline.py) rewrites site/sw.js with BUILD filled in: the list of every file of
 * the site with its content hash. Left unfilled, BUILD is null and the script throws at once,
 * so the browser refuses to install it: no half-configured worker.
 *
 * Every path below is relative to this script, which sits at the site root: the same file
 * works at https://example.org/ and under a GitHub Pages project path (/<repo>/).
 *
 * No size limit per file: Workbox's 2 MiB `maximumFileSizeToCacheInBytes` is an option of
 * workbox-build, which writes the precache manifest. We write our own manifest, so the
 * Pyodide runtime (pyodide.asm.wasm, ~10 MB) is precached like any other file.
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
const TOTAL_BYTES = ENTRIES.reduce((sum, e) => sum + e.size, 0);
const SIZES = new Map(ENTRIES.map((e) => [new URL(e.url, self.location.href).href, e.size]));

// Pages learn progress and readiness from this channel (offline.js listens); the scope in its
// name keeps two sites of the same origin (two GitHub Pages projects of one user) apart.
const channel =
  typeof BroadcastChannel === "function"
    ? new BroadcastChannel("rules-offline:" + self.registration.scope)
    : null;

function announce(message) {
  if (channel) channel.postMessage({ version: BUILD.version, ...message });
}

// Download progress, in bytes: files already in the cache (same revision as in a previous
// version, or from an interrupted first visit) count as done.
const progress = { done: new Set(), bytes: 0, lastSent: 0 };

// Progress that follows time rather than bytes alone: each request costs about as much as
// 16 kB of transfer, so hundreds of small search fragments do not sit at 99 %.
const REQUEST_COST = 16 * 1024;

function fractionDone(bytes, files) {
  const total = TOTAL_BYTES + REQUEST_COST * ENTRIES.length;
  return total ? (bytes + REQUEST_COST * files) / total : 1;
}

function count(address, reason) {
  const url = new URL(address);
  url.searchParams.delete("__WB_REVISION__");
  const size = SIZES.get(url.href);
  if (size === undefined || progress.done.has(url.href)) return;
  progress.done.add(url.href);
  progress.bytes += size;
  const finished = progress.done.size === ENTRIES.length;
  const now = Date.now();
  if (finished || now - progress.lastSent > 150) {
    progress.lastSent = now;
    announce({
      type: "PROGRESS",
      bytes: progress.bytes,
      total: TOTAL_BYTES,
      files: progress.done.size,
      totalFiles: ENTRIES.length,
      progress: fractionDone(progress.bytes, progress.done.size),
      ...reason,
    });
  }
}

// Workbox's install fetches one file after the other (workbox#2528). With several hundred
// files (the search index is many small fragments) that takes a minute even from a local
// server. So the install first downloads the missing files PARALLEL at a time, with their
// integrity, straight into Workbox's cache under Workbox's own keys; Workbox's loop, held
// until then (cacheKeyWillBeUsed below), finds them there and only fetches what failed,
// failing the install if that fails again: all or nothing, as Workbox alone would be.
const PARALLEL = 8;

async function download(entries, reason) {
  const cache = await caches.open(core.cacheNames.precache);
  const present = new Set((await cache.keys()).map((request) => request.url));
  const queue = [];
  for (const entry of entries) {
    const key = precaching.getCacheKeyForURL(entry.url);
    if (present.has(key)) count(key, reason);
    else queue.push([entry, key]);
  }
  // Smallest files first, Python's runtime (~19 MB) last: a reader who opened a calculator
  // page has by then downloaded it for the page itself, and the request below, revalidated
  // ("no-cache"), takes it from the browser's HTTP cache after a 304 instead of twice.
  queue.sort((a, b) => a[0].size - b[0].size);
  let failures = 0;
  async function fetcher() {
    while (queue.length) {
      const [entry, key] = queue.shift();
      try {
        const response = await fetch(
          new Request(new URL(entry.url, self.location.href).href, {
            integrity: entry.integrity,
            cache: "no-cache", // revalidated: never a stale copy, and no second download
            credentials: "same-origin",
          }),
        );
        // Redirects and errors are left to Workbox, which knows how to store or refuse them.
        if (!response.ok || response.redirected) throw new Error(`${entry.url} : ${response.status}`);
        await cache.put(key, response);
        count(key, reason);
      } catch {
        failures += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, fetcher));
  return failures;
}

let warmUp = null;

// Registered before precacheAndRoute's own listener, so that `warmUp` exists when Workbox's
// loop starts.
self.addEventListener("install", (event) => {
  progress.done.clear();
  progress.bytes = 0;
  announce({
    type: "PROGRESS",
    bytes: 0,
    total: TOTAL_BYTES,
    files: 0,
    totalFiles: ENTRIES.length,
    progress: 0,
  });
  warmUp = download(ENTRIES, {}).catch(() => undefined);
  event.waitUntil(warmUp);
});

precaching.addPlugins([
  {
    cacheKeyWillBeUsed: async ({ event, request }) => {
      if (event && event.type === "install" && warmUp) await warmUp;
      return request;
    },
    cachedResponseWillBeUsed: async ({ event, request, cachedResponse }) => {
      if (cachedResponse && event && event.type === "install") count(request.url, {});
      return cachedResponse;
    },
    cacheDidUpdate: async ({ event, request }) => {
      if (event && event.type === "install") count(request.url, {});
    },
  },
]);

// Every file, keyed by URL + revision; integrity makes the browser reject a stale copy.
// A new version installs next to the old one and only replaces it on activation: a page is
// never served a mix of two deploys.
precaching.precacheAndRoute(
  ENTRIES.map(({ url, revision, integrity }) => ({ url, revision, integrity })),
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
    } catch {
      const fallback = new URL(BUILD.fallback, self.location.href);
      fallback.searchParams.set("depuis", request.url); // read by offline.js on that page
      return Response.redirect(fallback.href, 302);
    }
  },
);

// State, for the page's status line; repair of files the browser may have evicted.
async function status() {
  const cache = await caches.open(core.cacheNames.precache);
  const present = new Set((await cache.keys()).map((request) => request.url));
  const absent = ENTRIES.filter((e) => !present.has(precaching.getCacheKeyForURL(e.url)));
  return {
    type: "STATUS",
    version: BUILD.version,
    complete: absent.length === 0,
    files: ENTRIES.length,
    missing: absent.length,
    bytes: TOTAL_BYTES,
    absent,
  };
}

let repair = null;

async function repairCache() {
  progress.done.clear();
  progress.bytes = 0;
  const failures = await download(ENTRIES, { repair: true }); // fetches only the missing
  announce({ type: failures ? "FAILED" : "READY" });
}

self.addEventListener("message", (event) => {
  const request = event.data || {};
  if (request.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (request.type === "STATUS") {
    event.waitUntil(
      status().then((answer) => {
        const { absent, ...summary } = answer;
        if (event.ports[0]) event.ports[0].postMessage(summary);
        if (absent.length && !repair) {
          repair = repairCache()
            .catch(() => announce({ type: "FAILED" }))
            .finally(() => { repair = null; });
          return repair;
        }
        return undefined;
      }),
    );
  }
});

self.addEventListener("activate", () => announce({ type: "ACTIVE" }));
