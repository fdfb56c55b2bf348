// Build step: one entry module and the graph of its imports, bundled by esbuild's API.
// Usage: node bundle_modules.mjs <esbuild package folder>, with on stdin the JSON object
// {"entry", "workingDir", "options"} (esbuild's build options, from features/assets/minify.py).
// Writes on stdout {"code", "inputs"} (every file read, relative to workingDir), or
// {"errors": [{"file", "line", "column", "text"}]} when esbuild refuses the graph: the API
// gives its messages as data, where the command line writes them for people.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const esbuild = createRequire(import.meta.url)(process.argv[2]);
const request = JSON.parse(readFileSync(0, "utf8"));
let answer;
try {
  const result = await esbuild.build({
    ...request.options,
    entryPoints: [request.entry],
    absWorkingDir: request.workingDir,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  answer = { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
} catch (failure) {
  if (!Array.isArray(failure.errors)) throw failure;
  answer = {
    errors: failure.errors.map(({ text, location }) => ({
      text,
      file: location ? location.file : null,
      line: location ? location.line : null,
      column: location ? location.column + 1 : null, // esbuild counts from 0
    })),
  };
}
process.stdout.write(JSON.stringify(answer));
