// Module worker hosting Pyodide: the only place Python runs in the page.
// Messages in:  {type: "init", runtime: {pyodide, package, module, snapshot}}, absolute URLs and
//               the rules package's module name (`rules`, its RulesPackage, is called),
//               {type: "run", id, calculator, text}, `text` the inputs' JSON (worker-client.js
//               makes it and sends one call at a time).
// Messages out: {type: "ready", mode: "snapshot" | "normal", ms, fallbackReason?},
//               {type: "started", id} as soon as a call arrives: the worker's heartbeat,
//               {type: "result", id, answer} where answer is run_json's object,
//               {type: "failed", message} when Python cannot start at all.
const PACKAGE_DIR = "/home/pyodide/regles";
let runJson = null;
let pending = [];

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function fetchGunzipped(url) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${response.status} ${url}`);
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function start(runtime) {
  const started = performance.now();
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime.pyodide).href);
  const packageBytes = fetchBytes(runtime.package);
  let pyodide = null;
  let mode = "normal";
  let fallbackReason = null;
  if (runtime.snapshot) {
    try {
      const snapshot = await fetchGunzipped(runtime.snapshot);
      pyodide = await loadPyodide({ indexURL: runtime.pyodide, _loadSnapshot: snapshot });
      mode = "snapshot";
    } catch (error) {
      // The snapshot is a private API tied to one Pyodide build: start normally instead.
      fallbackReason = String(error && error.message ? error.message : error);
      pyodide = null;
    }
  } else {
    fallbackReason = "pas d’instantané dans cette construction";
  }
  if (pyodide === null) pyodide = await loadPyodide({ indexURL: runtime.pyodide });
  // Files are not part of a memory snapshot: unpack the package in both cases.
  pyodide.unpackArchive(await packageBytes, "zip", { extractDir: PACKAGE_DIR });
  pyodide.runPython(
    `import sys, random\nif "${PACKAGE_DIR}" not in sys.path: sys.path.insert(0, "${PACKAGE_DIR}")\n` +
      // A restored snapshot would replay the random state saved at build time.
      "random.seed()",
  );
  // The rules package's `rules` (regles.kit.discover): the module may be dotted, the
  // generic calculators' "regles.kit.generic".
  runJson = pyodide.pyimport(runtime.module).rules.run_json;
  return { mode, ms: performance.now() - started, fallbackReason };
}

// Pyodide's loader does not always reject when one of its files cannot be fetched (offline,
// before the offline copy holds them): the error goes unhandled and loadPyodide never
// settles. Such a stray error while Python starts fails the start instead.
function strayError() {
  return new Promise((resolve, reject) => {
    self.addEventListener(
      "unhandledrejection",
      (event) => {
        event.preventDefault();
        reject(event.reason);
      },
      { once: true },
    );
  });
}

function answer(id, calculator, request) {
  let text;
  try {
    text = runJson(String(calculator), typeof request === "string" ? request : "{}");
  } catch (error) {
    text = JSON.stringify({
      ok: false,
      error: { kind: "internal", field: null, message: "Erreur interne du calculateur." },
    });
  }
  postMessage({ type: "result", id, answer: JSON.parse(text) });
}

onmessage = (event) => {
  const message = event.data || {};
  if (message.type === "init") {
    Promise.race([start(message.runtime), strayError()]).then(
      (info) => {
        postMessage({ type: "ready", ...info });
        for (const queued of pending) answer(queued.id, queued.calculator, queued.text);
        pending = [];
      },
      (error) => postMessage({ type: "failed", message: String(error && error.message) }),
    );
  } else if (message.type === "run") {
    postMessage({ type: "started", id: message.id }); // alive (worker-client.js, LIVENESS_MS)
    if (runJson === null) pending.push(message);
    else answer(message.id, message.calculator, message.text);
  }
};
