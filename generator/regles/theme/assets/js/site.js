/* The page's one script: esbuild bundles this module and the graph of its imports into one
 * deferred script (features/assets/minify.py; named by content hash in features/assets/bundle.py). The
 * modules run in the order they are imported here, and so do their set-ups on every page:
 * the order mkdocs.yml listed the scripts in when they were concatenated. */
import "./rules.js";
import "./dice.js";
import "./calculator-links.js";
import "./table-columns.js";
import "./scroll-areas.js";
import "./entries.js";
import "./lists.js";
import "./glossary.js";
import "./search.js";
import "./offline.js";
import "./print.js";
import "./backup.js";
