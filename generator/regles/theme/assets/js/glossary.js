/* Glossary entries: a preview of the term and its definition over the links to them.
 *
 * The build links a system's mentions of the terms its glossary defines to their entries
 * (a.lien-glossaire, features/links/references.py) and writes every entry's term and definition, as
 * paragraphs of plain text, into data/glossary.json (features/glossary/glossary.py). The bubble is
 * the entries' (preview.js): hover, keyboard focus, first tap; « Ouvrir le glossaire » goes
 * to the entry. The texts enter the page through text nodes only.
 */
import { el, urlIndexLoader } from "./page.js";
import { addPreview, openLink } from "./preview.js";

/** data/glossary.json, loaded once, on demand, kept in memory: Map(url → entry). */
const loadGlossary = urlIndexLoader("data/glossary.json");

const OPEN = "Ouvrir le glossaire";

addPreview({
  triggers: "a.lien-glossaire[href]",
  load: loadGlossary,
  content: (entry, href) => {
    const paragraphs = Array.isArray(entry.paragraphs) ? entry.paragraphs : [];
    return [
      el("p", { class: "entry-preview__title" }, el("strong", {}, String(entry.term ?? ""))),
      ...paragraphs.map((text) => el("p", { class: "entry-preview__text" }, String(text))),
      openLink(href, OPEN),
    ];
  },
  unavailable: (href) => [
    el("p", { class: "entry-preview__state" }, "Aperçu indisponible (glossaire non chargé, hors connexion ?)."),
    openLink(href, OPEN),
  ],
});
