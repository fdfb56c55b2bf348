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
 *    The text that is not the shell comes in a few packs (see "Packs" below), fetched from
 *    the install on: one request and one stored entry for a few hundred files.
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
// install stores before the worker takes the pages over (marked by offline.py).
const isShell = (entry) => Boolean(entry.shell);

// What the cache holds, as keys; read from the cache at each download, kept up to date as
// files arrive (ours and those the pages asked for).
const stored = new Set();
const isStored = (entry) => stored.has(entry.key) || packed.has(entry.id);
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
// Each entry's cache key (its address with `__WB_REVISION__=<hash>`): what is stored; and
// what names its content in a pack, of this version or of an earlier one.
for (const entry of ENTRIES) {
  entry.key = controller.getCacheKeyForURL(entry.url);
  entry.id = fileId(entry.url, entry.revision);
}
const ENTRY_BY_KEY = new Map(ENTRIES.map((e) => [e.key, e]));

// Packs ------------------------------------------------------------------------------------
//
// The text that is not the shell (pages, search fragments, data) is also published in a few
// packs (BUILD.packs, written by offline.py's write_packs: gzip of a 4-byte header length,
// a JSON header of [url, size, Content-Type, revision] and the files' bytes one after the
// other). A pack is stored whole, as it came (gzip: the text takes a quarter of the room on
// the reader's device), in a cache of its own, and its files are served out of it, unzipped
// when read: one stored entry for a few hundred files. Each entry stored costs the browser
// about 1.5 ms of its own work, which, for 800 files, took longer than a 10 Mbit/s link takes
// to bring them.
//
// A pack is fetched only while none of its files is stored, so that no file is fetched twice.
// Its files are checked against their hashes before it is stored; a pack cut off half-way,
// or with a file that does not match, stores the files that did arrive whole one by one,
// like any other file, and the others come on their own.
//
// An update keeps the packs that still hold a file of the new version (by address and hash):
// only what changed is fetched.

// Not "workbox-precache-…": Workbox deletes the caches of that name that are not its own.
const PACK_CACHE = "rules-packs-" + self.registration.scope;

// Without a way to unzip a stream (an old browser), every file comes on its own.
const PACKS =
  typeof DecompressionStream === "function"
    ? BUILD.packs.map((pack, number) => ({
        url: new URL(pack.url, self.location.href).href,
        size: pack.size,
        entries: ENTRIES.filter((e) => e.pack === number),
      }))
    : [];

function fileId(url, revision) {
  return url + "\n" + revision;
}

// What the stored packs hold: file id → {pack, offset, size, type}; pack address → its ids.
const packed = new Map();
const packsStored = new Map();

/** A pack's files from its first bytes, with where each one starts; null while `bytes` are
 * too few to hold the header. */
function packHeader(bytes) {
  if (bytes.length < 4) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  if (bytes.length < 4 + length) return null;
  const list = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  let offset = 4 + length;
  return list.map(([url, size, type, revision]) => {
    const file = { id: fileId(url, revision), url, offset, size, type };
    offset += size;
    return file;
  });
}

function rememberPack(url, files) {
  packsStored.set(url, files.map((f) => f.id));
  for (const file of files) packed.set(file.id, { pack: url, ...file });
}

function forgetPack(url) {
  for (const id of packsStored.get(url) || []) {
    if (packed.get(id)?.pack === url) packed.delete(id);
  }
  packsStored.delete(url);
  packBytes.delete(url);
}

// A stored pack kept as it came is marked so (a pack stored unzipped, by an earlier version
// of this worker, is read as it is).
const ZIPPED = "X-Rules-Pack";

/** A stored pack's body, unzipped as it is read. */
const packBody = (response) =>
  response.headers.get(ZIPPED) === "gzip"
    ? response.body.pipeThrough(new DecompressionStream("gzip"))
    : response.body;

/** The header of a stored pack, read from the start of its body only. */
async function storedHeader(response) {
  const reader = packBody(response).getReader();
  let bytes = new Uint8Array(0);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return packHeader(bytes);
      bytes = joined([bytes, value]);
      const files = packHeader(bytes);
      if (files) return files;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Learn what the stored packs hold (those not known yet), and forget those the browser
 * evicted; returns the packs' cache. */
async function readPacks() {
  const cache = await caches.open(PACK_CACHE);
  const requests = await cache.keys();
  const present = new Set(requests.map((r) => r.url));
  for (const url of [...packsStored.keys()]) if (!present.has(url)) forgetPack(url);
  for (const request of requests) {
    if (packsStored.has(request.url)) continue;
    const response = await cache.match(request);
    const files = response && (await storedHeader(response).catch(() => null));
    if (files) rememberPack(request.url, files);
    else await cache.delete(request); // unreadable: its files will come again
  }
  return cache;
}

// Once per start of the worker before serving from packs (openCache reads them again).
let packsRead = null;
const packsKnown = () => (packsRead = packsRead || readPacks());

// The last few packs read, unzipped: a search reads many fragments of the same pack.
const packBytes = new Map();
const PACKS_IN_MEMORY = 4;

function readPack(url) {
  let bytes = packBytes.get(url);
  if (!bytes) {
    bytes = caches
      .open(PACK_CACHE)
      .then((cache) => cache.match(url))
      .then((response) => (response ? new Response(packBody(response)).arrayBuffer() : null))
      .then((buffer) => (buffer ? new Uint8Array(buffer) : null));
    if (packBytes.size >= PACKS_IN_MEMORY) packBytes.delete(packBytes.keys().next().value);
  } else {
    packBytes.delete(url); // most recent last
  }
  packBytes.set(url, bytes);
  return bytes;
}

/** A listed file's response out of a stored pack, or null. */
async function fromPack(entry) {
  await packsKnown();
  const place = packed.get(entry.id);
  const bytes = place && (await readPack(place.pack));
  if (!bytes || bytes.length < place.offset + place.size) return null;
  return new Response(bytes.slice(place.offset, place.offset + place.size), {
    headers: { "Content-Type": place.type },
  });
}

function joined(chunks) {
  const bytes = new Uint8Array(chunks.reduce((total, c) => total + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function base64(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)));
}

/** Whether `body` is the content the list gives `entry` (its integrity hash). */
async function matches(entry, body) {
  const digest = await crypto.subtle.digest("SHA-256", body);
  return entry.integrity === "sha256-" + base64(digest);
}

// Progress in the pages' words: the text, and the later files. Each request costs about as
// much as 16 kB of transfer, so that hundreds of small search fragments do not sit at 99 %.
const REQUEST_COST = 16 * 1024;
const GROUPS = {
  text: ENTRIES.filter((e) => !e.later),
  later: ENTRIES.filter((e) => e.later),
};

// What has arrived of the files and packs under way: a file's bytes (by its key), a pack's
// share (by its address). The percentage moves while a large file comes (Python's 10 MB take
// a minute on a slow link), not only when it is whole.
const arriving = new Map();
const PACK_OF = new Map(PACKS.flatMap((pack) => pack.entries.map((entry) => [entry, pack])));

function arrived(entry) {
  const bytes = arriving.get(entry.key);
  if (bytes !== undefined) return Math.min(bytes, entry.size);
  const pack = PACK_OF.get(entry);
  const share = pack && arriving.get(pack.url);
  return share ? share * entry.size : 0;
}

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
    else {
      missing += 1;
      done += arrived(entry);
    }
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
    running: downloading !== null || packsUnderway.size > 0,
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
  await (packsRead = readPacks());
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

/** Fetch one file and store it under its key; null once stored, else what went wrong. Its
 * bytes are read here as they come, counted (`arriving`), then checked against its hash:
 * a fetch given the hash itself (`integrity`) would only answer once the whole file is
 * there, and the percentage would stand still for as long. A file cut off half-way keeps
 * what had come (`keepPart`); the next try asks for the rest only (`Range`), and takes the
 * whole file again if the server sends it whole, or if the joined bytes do not match. */
async function store(cache, entry) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PATIENCE_MS + entry.size / SLOWEST_BYTES_PER_MS);
  const chunks = [];
  let received = 0;
  try {
    const part = await keptPart(entry);
    let response;
    try {
      response = await fetch(new URL(entry.url, self.location.href).href, {
        // Revalidated: never a stale copy, and a file the page itself just downloaded
        // comes from the browser's HTTP cache after a 304 instead of twice.
        cache: "no-cache",
        credentials: "same-origin",
        signal: abort.signal,
        headers: part ? { Range: `bytes=${part.length}-` } : {},
      });
      if (!response.ok || response.redirected || !response.body) return "server";
      if (response.status === 206) {
        if (!part || rangeStart(response) !== part.length) {
          await dropPart(entry); // not the rest of what was kept: the whole file next time
          return "server";
        }
        chunks.push(part);
        received = part.length;
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        arriving.set(entry.key, received);
        progressSoon();
      }
    } catch {
      await keepPart(entry, chunks); // no answer, or the body broke off: the rest comes later
      return "network";
    }
    await dropPart(entry);
    const body = joined(chunks);
    if (!(await matches(entry, body))) return "server";
    // The body is already decoded: the headers that described it on the wire (or a part of
    // it) go; what the page is served is the whole file, as a 200.
    const headers = new Headers(response.headers);
    for (const name of ["Content-Encoding", "Content-Length", "Content-Range"]) headers.delete(name);
    try {
      await cache.put(entry.key, new Response(body, { status: 200, headers }));
    } catch (error) {
      return quotaError(error) ? "quota" : "network";
    }
    stored.add(entry.key);
    progressSoon();
    return null;
  } finally {
    arriving.delete(entry.key);
    clearTimeout(timer);
  }
}

// Parts of files cut off half-way, by key, with the bytes that had come. In a cache of their
// own (a phone stops an idle worker: memory would forget them); not "workbox-precache-…".
const PART_CACHE = "rules-parts-" + self.registration.scope;
// Below this, a part is not worth keeping: the file comes again whole.
const PART_MIN_BYTES = 64 * 1024;

function rangeStart(response) {
  const range = /^bytes (\d+)-/.exec(response.headers.get("Content-Range") || "");
  return range ? Number(range[1]) : -1;
}

// Opened only to keep a part: the cache exists while it holds one, no longer.
async function keptPart(entry) {
  try {
    const kept = await caches.match(entry.key, { cacheName: PART_CACHE });
    if (!kept) return null;
    const bytes = new Uint8Array(await kept.arrayBuffer());
    return bytes.length > 0 && bytes.length < entry.size ? bytes : null;
  } catch {
    return null;
  }
}

async function keepPart(entry, chunks) {
  const bytes = joined(chunks);
  if (bytes.length < PART_MIN_BYTES || bytes.length >= entry.size) return;
  try {
    await (await caches.open(PART_CACHE)).put(entry.key, new Response(bytes));
  } catch {
    // not kept: the whole file comes again
  }
}

/** Delete the parts whose key `gone(key)` says; the cache too once it holds none. */
async function dropParts(gone) {
  try {
    if (!(await caches.has(PART_CACHE))) return;
    const cache = await caches.open(PART_CACHE);
    for (const request of await cache.keys()) {
      if (gone(request.url)) await cache.delete(request);
    }
    if ((await cache.keys()).length === 0) await caches.delete(PART_CACHE);
  } catch {
    // gone already
  }
}

const dropPart = (entry) => dropParts((key) => key === entry.key);

/** Store one file on its own, out of a pack that could not be stored whole. */
async function storeOne(cache, entry, body, type) {
  try {
    await cache.put(entry.key, new Response(body, { headers: { "Content-Type": type } }));
  } catch (error) {
    return quotaError(error) ? "quota" : "server";
  }
  stored.add(entry.key);
  return null;
}

/** Store what a pack brought (`bytes`, unzipped; `zipped`, as it came): whole if it all came
 * and matches the list, else each file that did, on its own. Null once all its files are
 * stored, else what went wrong. */
async function storePackBody(cache, pack, bytes, zipped, cut) {
  const files = packHeader(bytes) || [];
  const byUrl = new Map(pack.entries.map((e) => [e.url, e]));
  const checked = await Promise.all(
    files.map(async (file) => {
      const entry = byUrl.get(file.url);
      const body = bytes.subarray(file.offset, file.offset + file.size);
      const whole = file.offset + file.size <= bytes.length;
      return { file, entry, body, good: Boolean(entry) && whole && (await matches(entry, body)) };
    }),
  );
  const good = checked.filter((c) => c.good);
  const failure = cut ? "network" : "server";
  if (!cut && zipped && good.length === pack.entries.length) {
    try {
      const kept = new Response(zipped, { headers: { [ZIPPED]: "gzip" } });
      await (await caches.open(PACK_CACHE)).put(pack.url, kept);
    } catch (error) {
      return quotaError(error) ? "quota" : failure;
    }
    rememberPack(pack.url, files);
    progressSoon();
    return null;
  }
  const failures = [];
  for (const { file, entry, body } of good) {
    if (!isStored(entry)) failures.push(await storeOne(cache, entry, body, file.type));
  }
  progressSoon();
  return failures.find((f) => f === "quota") || failure;
}

/** Fetch one pack and store it; null once done, else what went wrong. */
async function storePack(cache, pack) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PATIENCE_MS + pack.size / SLOWEST_BYTES_PER_MS);
  const chunks = [];
  try {
    let response;
    try {
      response = await fetch(pack.url, {
        cache: "no-cache",
        credentials: "same-origin",
        signal: abort.signal,
      });
    } catch {
      return "network";
    }
    if (!response.ok || response.redirected || !response.body) return "server";
    // The pack as it comes, to be stored so, and unzipped, to check its files.
    const [asItCame, toUnzip] = response.body.tee();
    const zipped = new Response(asItCame).arrayBuffer().catch(() => null);
    // Its share arrived, counted on the bytes as they came (the pack's size is theirs).
    let received = 0;
    const counter = new TransformStream({
      transform(chunk, stream) {
        received += chunk.length;
        arriving.set(pack.url, Math.min(1, received / pack.size));
        progressSoon();
        stream.enqueue(chunk);
      },
    });
    const reader = toUnzip.pipeThrough(counter).pipeThrough(new DecompressionStream("gzip")).getReader();
    let cut = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch {
      cut = true; // cut off half-way (or not gzip): what had fully arrived is kept
    }
    return await storePackBody(cache, pack, joined(chunks), await zipped, cut);
  } finally {
    arriving.delete(pack.url);
    clearTimeout(timer);
  }
}

// Each pack is fetched once at a time: the install starts them, the download joins them.
const packsUnderway = new Map();

function bringPack(cache, pack) {
  if (!packsUnderway.has(pack.url)) {
    const bringing = storePack(cache, pack).finally(() => packsUnderway.delete(pack.url));
    packsUnderway.set(pack.url, bringing);
  }
  return packsUnderway.get(pack.url);
}

/** The packs none of whose files is stored yet, among `entries`. */
function wholeMissingPacks(entries) {
  const missing = new Set(entries.filter((e) => !isStored(e)));
  return PACKS.filter((p) => p.entries.length && p.entries.every((e) => missing.has(e)));
}

/** Fetch the `entries` not yet stored, each one stored as soon as it is complete: the packs
 * none of whose files is stored yet, then the other files, smallest first. Stops at the first
 * sign that the network is gone or the storage is full (a file the server refuses only skips
 * that file), and returns how many are still missing. */
async function fetchMissing(cache, entries) {
  const packs = wholeMissingPacks(entries);
  const inPacks = new Set(packs.flatMap((p) => p.entries));
  const singles = entries.filter((e) => !isStored(e) && !inPacks.has(e));
  const queue = [
    ...packs.map((pack) => ({ pack })),
    ...singles.sort((a, b) => a.size - b.size).map((entry) => ({ entry })),
  ];
  async function fetcher() {
    while (queue.length) {
      const { pack, entry } = queue.shift();
      const failure = pack ? await bringPack(cache, pack) : await store(cache, entry);
      if (failure === "network" || failure === "quota") {
        problem = failure;
        queue.length = 0;
      } else if (pack) {
        // What the pack could not bring (refused, or a file whose hash did not match) comes
        // on its own.
        queue.push(...pack.entries.filter((e) => !isStored(e)).map((e) => ({ entry: e })));
      } else if (failure) {
        problem = failure;
      }
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
      announce(status()); // at once: the pages say it as soon as the text is all there
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
  // pages need, then takes the pages over (the rest follows, asked for by the pages); the
  // packs start at once, beside the shell, and the download joins them.
  const update = Boolean(self.registration.active);
  const wanted = update ? [GROUPS.text, GROUPS.later] : [GROUPS.text.filter(isShell)];
  if (!update) {
    openCache()
      .then((cache) => wholeMissingPacks(GROUPS.text).forEach((p) => bringPack(cache, p)))
      .catch(() => {}); // the download tries again
  }
  event.waitUntil(
    download(wanted).then(() => {
      const missing = wanted.flat().filter((e) => !isStored(e));
      if (missing.length) throw new Error(`${missing.length} fichiers manquants`);
    }),
  );
});

/** Delete the parts of files this version does not list (an older deploy's). */
const dropOldParts = () => dropParts((key) => !ENTRY_BY_KEY.has(key));

/** Delete the packs that hold no file of this version (an older deploy's). */
async function dropOldPacks() {
  const cache = await readPacks();
  const current = new Set(ENTRIES.map((e) => e.id));
  for (const [url, ids] of [...packsStored]) {
    if (!ids.some((id) => current.has(id))) {
      await cache.delete(url);
      forgetPack(url);
    }
  }
}

self.addEventListener("activate", (event) => {
  // The files of the previous version that this one does not list go; the others are shared.
  event.waitUntil(
    Promise.all([controller.activate(event), dropOldPacks(), dropOldParts()]).then(() =>
      announce({ type: "ACTIVE" }),
    ),
  );
});

// Caches of older Workbox versions, under other names: gone.
precaching.cleanupOutdatedCaches();

// First install: take the open pages at once, so that they are stored as they are read.
// Updates never skip waiting by themselves: the page asks, after the reader said so.
core.clientsClaim();

// Serving ----------------------------------------------------------------------------------

// Every listed file: from its stored pack, or else from the cache, or else from the network,
// stored on the way.
const precacheRoute = new precaching.PrecacheRoute(controller, {
  directoryIndex: "index.html", // regles/combat/ → regles/combat/index.html
  cleanURLs: false,
  ignoreURLParametersMatching: [/.*/], // ?h=… from search highlighting, ?depuis=…, etc.
});
routing.registerRoute(
  new routing.Route(
    (options) => precacheRoute.match(options),
    async (options) => {
      const entry = ENTRY_BY_KEY.get(options.params && options.params.cacheKey);
      const response = entry && (await fromPack(entry).catch(() => null));
      return response || precacheRoute.handler.handle(options);
    },
  ),
);

// The offline page, as a redirect, so that its relative links and assets resolve from its own
// address; it reads the address that failed from `depuis` (offline.js). Where the offline page
// is not stored itself (the browser evicted it, or the network failed before the install
// stored it), a redirect to it would fail in turn and redirect again, without end: the worker
// answers with a page of its own instead.
async function toFallback(request) {
  const asked = new URL(request.url);
  const fallback = new URL(FALLBACK);
  if (asked.pathname !== fallback.pathname && (await fallbackStored())) {
    fallback.searchParams.set("depuis", request.url);
    return Response.redirect(fallback.href, 302);
  }
  const failed = asked.pathname === fallback.pathname ? asked.searchParams.get("depuis") : request.url;
  return writtenFallback(failed);
}

async function fallbackStored() {
  const key =
    controller.getCacheKeyForURL(FALLBACK) || controller.getCacheKeyForURL(FALLBACK + "index.html");
  const entry = ENTRY_BY_KEY.get(key);
  if (!entry) return false;
  if (await fromPack(entry).catch(() => null)) return true;
  const cache = await caches.open(controller.strategy.cacheName);
  return Boolean(await cache.match(entry.key));
}

const escaped = (text) =>
  String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The worker's own offline page: no file of the site needed, the address asked for as text. */
function writtenFallback(address) {
  const home = self.registration.scope;
  let retry = home; // the address asked for, if it is one of this site's
  try {
    if (address && new URL(address).origin === self.location.origin) retry = address;
  } catch {
    /* not an address: home */
  }
  const body = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Hors ligne</title>
<style>
body{font:1.125rem/1.5 system-ui,sans-serif;margin:0 auto;max-width:36rem;padding:1.5rem 1rem;color:#1c1b1a;background:#fff}
a{color:#6d4c41;display:inline-block;padding:.6rem 0}code{word-break:break-all}
@media (prefers-color-scheme:dark){body{color:#e8e6e3;background:#1e1e24}a{color:#ffab91}}
</style></head>
<body><main>
<h1>Hors ligne</h1>
<p>Cette page n’est pas enregistrée sur cet appareil et le réseau ne répond pas.</p>
${address ? `<p>Adresse demandée : <code>${escaped(address)}</code></p>` : ""}
<p><a href="${escaped(retry)}">Réessayer</a> · <a href="${escaped(home)}">Accueil du site</a></p>
</main></body></html>`;
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
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
    const entry = ENTRY_BY_KEY.get(key);
    return Boolean(entry) && isStored(entry);
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
