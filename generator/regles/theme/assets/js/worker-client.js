/* The client of the rules' worker (rules-worker.mjs, Pyodide): window.rules.run() and its queue.
 *
 * Calls wait in a queue of the page's (at most `rules.maxWaiting`; past that, refused with a
 * message) and reach the worker one at a time. The worker acknowledges each call as it gets
 * it (« started »), before Python runs: that is its heartbeat. With one call at a time it is
 * idle when a call is sent, so a worker silent `LIVENESS_MS` after a send is dead (or never
 * got it) and is replaced, the call sent again once. Once a call has started, Python holds
 * the worker's thread and nothing can beat: only the call's own timeout (`rules.timeoutMs`,
 * counted from its start, never while it waits) ends it, and a new worker takes the queue.
 * So a live worker is never judged by the queue's state, however many calls wait.
 *
 * Inputs go as JSON text, made here: a value that is not data (cyclic, deeper than the kit
 * reads, a getter or a Proxy that throws, a BigInt, a function, a DOM node) is refused before
 * anything is sent, with the kit's input error (RulesError, kind "input"). */
import { diceAnswer, DiceInputError } from "./dice-calculator.js";
import { rules, siteRoot } from "./page.js";

const STATE = {
  worker: null,
  booting: null,
  queue: [], // calls not yet sent, oldest first
  current: null, // the call the worker has, or null
  nextId: 1,
  status: { state: "idle", mode: null, ms: null, fallbackReason: null },
};
const DEFAULT_TIMEOUT_MS = 30000;
// A page's forms ask for one calculation each at most (rules.js computes changes together):
// a thousand waiting is a script's flood, refused rather than held for minutes.
const DEFAULT_MAX_WAITING = 1000;
// An idle worker acknowledges a call within milliseconds; this much silence is a dead one.
const LIVENESS_MS = 2000;
// As the kit's bridge (regles/kit/bridge.py): deeper or longer is refused there too, with
// the same words.
const MAX_DEPTH = 20;
const MAX_REQUEST_CHARS = 100_000;
const TOO_DEEP = `Les valeurs envoyées sont trop imbriquées (au plus ${MAX_DEPTH} niveaux de listes et d’objets).`;
const TOO_LONG = "La demande est trop longue.";
const UNSENDABLE = "Ces valeurs ne peuvent pas être envoyées au calculateur.";
const NOT_FINITE = "Nombre invalide : entrez un nombre fini.";
const BUSY = "Trop de calculs sont demandés à la fois : celui-ci n’a pas été fait ; réessayez dans un instant.";

export class RulesError extends Error {
  constructor(kind, field, message) {
    super(message);
    this.name = "RulesError";
    this.kind = kind;
    this.field = field;
  }
}

function setStatus(patch) {
  Object.assign(STATE.status, patch);
  document.dispatchEvent(new CustomEvent("rules:status", { detail: { ...STATE.status } }));
}

/** Where Python is: "idle", "loading", "ready", "failed" or "unavailable". */
export const pythonState = () => STATE.status.state;

/* ---------------------------------------------------------------- inputs as JSON text */

/** A JSON-ready copy of `value` at `path` (as the rules name fields: "items[2].qty"), `depth`
 * levels of lists and objects down; throws a RulesError for what is not data. `budget`
 * counts the values copied, so that a huge one stops early. */
function plainCopy(value, path, depth, ancestors, budget) {
  if (--budget.left < 0) throw new RulesError("input", null, TOO_LONG);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (value === undefined) return undefined; // left out, as JSON.stringify does
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RulesError("input", path || null, NOT_FINITE);
    return value;
  }
  if (typeof value !== "object") throw new RulesError("input", path || null, UNSENDABLE); // bigint, function, symbol
  if (depth + 1 > MAX_DEPTH) throw new RulesError("input", null, TOO_DEEP);
  if (ancestors.has(value)) throw new RulesError("input", path || null, UNSENDABLE); // it holds itself
  ancestors.add(value);
  let copy;
  if (Array.isArray(value)) {
    copy = [];
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i], `${path}[${i}]`, depth + 1, ancestors, budget);
      copy.push(item === undefined ? null : item);
    }
  } else {
    // Data only: a plain object, not a date, a map, a DOM node or a class's instance.
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new RulesError("input", path || null, UNSENDABLE);
    copy = {};
    for (const key of Object.keys(value)) {
      const item = plainCopy(value[key], path ? `${path}.${key}` : key, depth + 1, ancestors, budget);
      if (item !== undefined) copy[key] = item;
    }
  }
  ancestors.delete(value);
  return copy;
}

/** The JSON text of `inputs`, or a RulesError (kind "input") saying why it cannot be sent. */
export function requestText(inputs) {
  try {
    const copy = plainCopy(inputs ?? {}, "", 0, new Set(), { left: MAX_REQUEST_CHARS });
    const text = JSON.stringify(copy);
    if (text.length > MAX_REQUEST_CHARS) throw new RulesError("input", null, TOO_LONG);
    return text;
  } catch (error) {
    // A getter or a Proxy's trap that throws, a stack too short for it: not data either.
    if (error instanceof RulesError) throw error;
    throw new RulesError("input", null, UNSENDABLE);
  }
}

/* ---------------------------------------------------------------- starting Python */

// Python (some 18 MB to download, then compile) starts once the page has loaded and been
// painted: sooner, it competes with the page's own set-up for the network and the
// processor (started at once, Lighthouse's total blocking time was higher and the first
// result came no sooner: the load is done soon after DOMContentLoaded). A load that takes
// long (an image that does not come) holds it back `LOAD_WAIT_MS` at most.
const LOAD_WAIT_MS = 2000;

function pageLoaded() {
  return new Promise((resolve) => {
    if (document.readyState === "complete") return resolve();
    const timer = setTimeout(resolve, LOAD_WAIT_MS);
    window.addEventListener(
      "load",
      () =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            clearTimeout(timer);
            resolve();
          }, 0),
        ),
      { once: true },
    );
  });
}

// Python's files come from the network at the first calculation, unless the offline copy
// holds them (offline.js marks <html data-hors-ligne-calculateurs="pret">). Without network
// before that, a calculator says so in its place; the answer the build wrote stays shown.
export const UNAVAILABLE =
  "Pas encore disponible hors ligne : ce calculateur fonctionnera quand ses fichiers seront " +
  "téléchargés (état en bas de page).";

const pythonStored = () => document.documentElement.dataset.horsLigneCalculateurs === "pret";

// Offline, before the copy holds Python, a start cannot succeed: it is not tried (Pyodide's
// loader, its files missing, may also never settle).
class Unreachable extends Error {}

function bootError(error) {
  const message = String((error && error.message) || error);
  if (error instanceof Unreachable || (!pythonStored() && (!navigator.onLine || /fetch|network|load/i.test(message)))) {
    setStatus({ state: "unavailable" });
    return new RulesError("unavailable", null, UNAVAILABLE);
  }
  if (error instanceof RulesError) return error;
  return new RulesError("internal", null, "Python n’a pas pu démarrer : " + message);
}

/** What `form` says offline before Python's files are stored: with what works already, a
 * field's dice examples (forms.py), which roll without it. */
export const unavailableIn = (form) =>
  form.querySelector(".champ-des") ? `${UNAVAILABLE} Les jets rapides, eux, se lancent déjà.` : UNAVAILABLE;

// The calculators the page answers itself until Python is ready, by id: the kit's dice
// calculator (dice-calculator.js, its twin), which every site has under this id
// (kit/discovery.py), so that a typed expression rolls offline before Python.
const IN_THE_PAGE = { dice: diceAnswer };

/** Whether the calculator `id` is answered before Python (its form says nothing of Python). */
export const answeredAtOnce = (id) => Object.hasOwn(IN_THE_PAGE, id);

function showUnavailable() {
  for (const form of document.querySelectorAll("form.calculateur[data-pret]")) {
    if (answeredAtOnce(form.dataset.calculateur)) continue;
    const state = form.querySelector(".calculateur-etat");
    if (state && !state.textContent) state.textContent = unavailableIn(form);
  }
}

document.addEventListener("rules:status", (event) => {
  if (event.detail.state === "unavailable") showUnavailable();
});
// Back online, or Python's files now stored: the next calculation tries again, and the
// message goes.
function availableAgain() {
  if (STATE.status.state !== "unavailable") return;
  setStatus({ state: "idle" });
  for (const form of document.querySelectorAll("form.calculateur")) {
    const state = form.querySelector(".calculateur-etat");
    if (state && state.textContent === unavailableIn(form)) state.textContent = "";
  }
}
window.addEventListener("online", availableAgain);
new MutationObserver(() => {
  if (pythonStored()) availableAgain();
}).observe(document.documentElement, { attributeFilter: ["data-hors-ligne-calculateurs"] });

function heard(worker, message) {
  const call = STATE.current;
  if (!call || call.worker !== worker || message.id !== call.id) return;
  if (message.type === "started") {
    call.started = true;
    clearTimeout(call.liveness);
    // Its time counts from now, not while it waited behind others.
    call.timer = setTimeout(() => timedOut(worker, call), rules.timeoutMs);
  } else if (message.type === "result") {
    finish(call);
    const answer = message.answer || {};
    const error = answer.error || {};
    if (answer.ok) call.resolve(answer.outputs);
    else call.reject(new RulesError(error.kind || "internal", error.field ?? null, String(error.message || "Erreur interne du calculateur.")));
    pump();
  }
}

export async function boot() {
  if (STATE.booting) return STATE.booting;
  STATE.booting = (async () => {
    setStatus({ state: "loading" });
    await pageLoaded();
    if (!navigator.onLine && !pythonStored()) throw new Unreachable("hors ligne");
    const root = siteRoot();
    const response = await fetch(new URL("assets/rules-runtime.json", root));
    if (!response.ok) throw new Error("description du calculateur introuvable");
    const paths = await response.json();
    // The module the worker imports: a plain (dotted) name, never code.
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(paths.module)) throw new Error("description du calculateur invalide");
    const runtime = {
      pyodide: new URL(paths.pyodide, root).href,
      package: new URL(paths.package, root).href,
      module: paths.module,
      snapshot: paths.snapshot && !rules.disableSnapshot ? new URL(paths.snapshot, root).href : null,
    };
    const worker = new Worker(new URL("assets/js/rules-worker.mjs", root), { type: "module" });
    STATE.worker = worker;
    // A worker ended from outside (a reader's script, rules.worker().terminate()) sends no
    // event: its own terminate says so.
    const terminate = worker.terminate.bind(worker);
    worker.terminate = () => {
      terminate();
      replaceWorker(worker);
    };
    return new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const message = event.data || {};
        if (message.type === "ready") {
          setStatus({
            state: "ready",
            mode: message.mode,
            ms: message.ms,
            fallbackReason: message.fallbackReason,
          });
          resolve(worker);
        } else if (message.type === "failed") {
          setStatus({ state: "failed" });
          STATE.booting = null;
          reject(new RulesError("internal", null, "Python n’a pas pu démarrer : " + message.message));
        } else {
          heard(worker, message);
        }
      };
      // A worker that dies is replaced at once, its call sent again to the new one.
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new RulesError("internal", null, "Le calculateur n’a pas pu démarrer."));
        replaceWorker(worker);
      };
      worker.onmessageerror = () => replaceWorker(worker);
      worker.postMessage({ type: "init", runtime });
    });
  })().catch((error) => {
    throw bootError(error);
  });
  STATE.booting.catch(() => {
    STATE.booting = null;
  });
  return STATE.booting;
}

/* ---------------------------------------------------------------- the queue */

/** `call` is no longer the worker's: its timers stop, the next may go. */
function finish(call) {
  clearTimeout(call.liveness);
  clearTimeout(call.timer);
  if (STATE.current === call) STATE.current = null;
}

// A worker that is gone (terminated, crashed, silent, stuck) is replaced: the call it had,
// if it had not answered, goes first to a new one, once. One that dies while Python starts
// fails that start (boot): the calls waiting say so, and the next call starts another.
function replaceWorker(worker) {
  if (STATE.worker !== worker) return;
  const wasReady = STATE.status.state === "ready";
  STATE.worker = null;
  STATE.booting = null;
  worker.terminate();
  setStatus({ state: "idle" });
  const call = STATE.current;
  if (call && call.worker === worker) {
    finish(call);
    if (call.resent) call.reject(new RulesError("internal", null, "Le calculateur s’est arrêté ; réessayez."));
    else {
      call.resent = true;
      STATE.queue.unshift(call);
    }
  }
  if (wasReady) pump();
}

function timedOut(worker, call) {
  if (STATE.current !== call) return;
  finish(call);
  call.reject(new RulesError("internal", null, "Le calculateur n’a pas répondu à temps ; réessayez."));
  // Python is stuck in it: the calls waiting go to a new worker.
  replaceWorker(worker);
}

function send(worker, call) {
  STATE.current = call;
  call.worker = worker;
  call.id = STATE.nextId++;
  call.started = false;
  call.liveness = setTimeout(() => {
    // A page busy past the delay may hold the worker's « started » in its queue, behind this
    // timer: let the messages already there be read before the worker is judged.
    setTimeout(() => {
      if (STATE.current === call && !call.started) replaceWorker(worker);
    }, 0);
  }, LIVENESS_MS);
  try {
    worker.postMessage({ type: "run", id: call.id, calculator: call.calculator, text: call.text });
  } catch {
    replaceWorker(worker); // a worker that cannot take a string is no worker
  }
}

/** Sends the next call once the worker is free (and started). */
function pump() {
  if (STATE.current || !STATE.queue.length) return;
  boot().then(
    (worker) => {
      if (STATE.current || !STATE.queue.length) return;
      if (STATE.worker !== worker) {
        pump(); // replaced while it started
        return;
      }
      send(worker, STATE.queue.shift());
    },
    (error) => {
      for (const call of STATE.queue.splice(0)) call.reject(error);
    },
  );
}

export function run(calculator, inputs) {
  let name;
  let text;
  try {
    name = String(calculator);
    text = requestText(inputs);
  } catch (error) {
    return Promise.reject(error instanceof RulesError ? error : new RulesError("input", null, UNSENDABLE));
  }
  if (STATE.queue.length >= rules.maxWaiting) return Promise.reject(new RulesError("busy", null, BUSY));
  return new Promise((resolve, reject) => {
    STATE.queue.push({ calculator: name, text, resolve, reject, resent: false });
    pump();
  });
}

/** `run`, or, while Python is not ready, the page's own answer for a calculator it has a twin
 * of (IN_THE_PAGE): the same outputs, the same input errors (RulesError, kind "input"). Inputs
 * the twin does not take, and an error of its own, go to Python. */
export function answer(calculator, inputs) {
  const twin = answeredAtOnce(calculator) && STATE.status.state !== "ready" ? IN_THE_PAGE[calculator] : null;
  if (twin) {
    try {
      const outputs = twin(inputs);
      if (outputs) return Promise.resolve(outputs);
    } catch (error) {
      if (error instanceof DiceInputError) return Promise.reject(new RulesError("input", error.field, error.message));
      console.error(error); // Python answers, as it would without the twin
    }
  }
  return run(calculator, inputs);
}

Object.assign(rules, {
  run,
  boot,
  status: () => ({ ...STATE.status }),
  worker: () => STATE.worker,
  RulesError,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxWaiting: DEFAULT_MAX_WAITING,
  disableSnapshot: false,
});
