// Build step: start Pyodide in Node, import the rules package, save a gzipped memory snapshot.
// Usage: node snapshot.mjs <pyodide dir> <package.zip> <package name> <output.bin.gz>
// The snapshot is a private Pyodide API tied to this exact build: the page falls back to a
// normal start when it is missing or refused.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [pyodideDir, packagePath, moduleName, output] = process.argv.slice(2);
if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(moduleName || "")) {
  throw new Error(`nom de paquet Python invalide : ${moduleName}`);
}
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(readFileSync(packagePath)), "zip", { extractDir: "/home/pyodide/regles" });
pyodide.runPython(
  `import sys; sys.path.insert(0, "/home/pyodide/regles"); import ${moduleName}, json, random`,
);
writeFileSync(output, gzipSync(pyodide.makeMemorySnapshot(), { level: 6 }));
