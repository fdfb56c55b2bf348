// `make lint` over the generator's page scripts and service worker: a name used and never
// declared or imported (a module split along its jobs that forgot an import fails only when
// that line runs in a browser), and what is declared and never used.
import globals from "globals";

export default [
  {
    files: ["generator/regles/theme/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The service worker is a classic script: Workbox comes by importScripts.
    files: ["generator/regles/theme/sw.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.serviceworker, workbox: "readonly" },
    },
  },
];
