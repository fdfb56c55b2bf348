// Baseline of `make bench`: Pyodide as its documentation starts it, nothing more.
onmessage = async (event) => {
  const started = performance.now();
  try {
    const { indexURL } = event.data;
    const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
    const pyodide = await loadPyodide({ indexURL });
    const value = pyodide.runPython("1 + 1");
    postMessage({ ok: value === 2, ms: performance.now() - started, message: String(value) });
  } catch (error) {
    postMessage({ ok: false, message: String(error && error.message ? error.message : error) });
  }
};
