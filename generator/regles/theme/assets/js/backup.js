/* The reader's data, saved in one file and brought back: the page `donnees/` (written by
 * features/backup, or by the site, with a div#regles-donnees).
 *
 * What the site keeps in this browser (localStorage) is named by the modules that keep it
 * (page.js's keepsData: lists, the data they set aside, the offline state) and here for
 * the theme's own settings (Material keeps them as "<site path>.__<name>"). « Tout exporter »
 * writes every such key and its value, as they are, into one JSON file, and says its name
 * once it is made; « Importer » reads
 * one back: it checks the file and each of its values (by the check of the module that keeps
 * it: a value it could not read is named and left out, the one kept here stays), says what
 * it holds, and replaces those keys only once the reader agrees, all or nothing (a full
 * storage leaves everything as it was). Each kind of data can also be cleared here, one that
 * its module cannot read (damaged) being marked as such.
 */
import {
  confirmAction,
  currentKey,
  downloadText,
  el,
  foldAccents,
  frenchSpacing,
  isQuotaError,
  keepsData,
  keptLabel,
  keptReadable,
  onEachPage,
  siteRoot,
} from "./page.js";

const FORMAT = "regles-donnees";
const VERSION = 1;
const MAX_FILE_BYTES = 20_000_000;

// The theme's settings: the colour scheme chosen, and whatever else Material keeps, as JSON
// (Material's __md_get parses it; partials/javascripts/palette.html reads the palette).
const isRecord = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
keepsData(
  (key) => (key.startsWith(`${siteRoot().pathname}.__`) ? "Réglages de l’affichage" : null),
  (value, key) => {
    const data = JSON.parse(value); // not JSON: unreadable (keptReadable)
    if (!key.endsWith(".__palette")) return true;
    return isRecord(data) && Number.isInteger(data.index) && data.index >= 0 && (data.color === undefined || isRecord(data.color));
  },
);

/** Every key of localStorage this site keeps, with its value, sorted by key. */
function keptItems() {
  const items = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      const label = key && keptLabel(key);
      const value = label ? localStorage.getItem(key) || "" : "";
      if (label) items.push({ key, label, value, readable: keptReadable(key, value) });
    }
  } catch {
    return null; // storage refused (private browsing…)
  }
  return items.sort((a, b) => a.key.localeCompare(b.key, "en"));
}

function sizeText(bytes) {
  return bytes < 1000 ? `${bytes} octets` : `${Math.round(bytes / 1000).toLocaleString("fr-FR")} Ko`;
}

/** The items by kind: [{ label, bytes, unreadable, keys }]. */
function kinds(items) {
  const byLabel = new Map();
  for (const item of items) {
    const kind = byLabel.get(item.label) || { label: item.label, bytes: 0, unreadable: false, keys: [] };
    kind.bytes += new Blob([item.value]).size;
    kind.unreadable ||= item.readable === false;
    kind.keys.push(item.key);
    byLabel.set(item.label, kind);
  }
  return [...byLabel.values()];
}

/** The items listed by kind: « Grimoires (2 Ko) », each followed by what `after(kind)` gives. */
function summary(items, after = () => []) {
  return kinds(items).map((kind) => el("li", {}, `${kind.label} (${sizeText(kind.bytes)})`, ...after(kind)));
}

/** « « A » et « B » »: the kinds named in a sentence. */
const named = (labels) => {
  const names = [...new Set(labels)].map((label) => `« ${label} »`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} et ${names.at(-1)}` : names[0];
};

/** The file's items, checked, with keys moved from its site's path to this one's; throws an
 * Error with a French message. */
function readBackup(text, file) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`« ${file} » n’est pas une sauvegarde de ce site : son contenu est illisible ici (une sauvegarde est le fichier « .json » que « Tout exporter » enregistre).`);
  }
  if (!data || typeof data !== "object" || data.format !== FORMAT) {
    throw new Error(`« ${file} » n’est pas une sauvegarde des données de ce site.`);
  }
  if (typeof data.version !== "number" || data.version > VERSION) {
    throw new Error(`« ${file} » vient d’une version plus récente du site : elle ne peut pas être lue ici.`);
  }
  if (!data.items || typeof data.items !== "object" || Array.isArray(data.items)) {
    throw new Error(`« ${file} » ne contient aucune donnée : il est peut-être abîmé.`);
  }
  const from = typeof data.site === "string" ? data.site : siteRoot().pathname;
  const here = siteRoot().pathname;
  const items = [];
  const unreadable = []; // the labels of values their module could not read
  let ignored = 0;
  for (const [saved, value] of Object.entries(data.items)) {
    const key = currentKey(from === here ? saved : saved.split(from).join(here));
    const label = keptLabel(key);
    if (!label) {
      ignored += 1;
    } else if (keptReadable(key, value)) {
      items.push({ key, label, value });
    } else {
      unreadable.push(label);
    }
  }
  if (!items.length && unreadable.length) {
    throw new Error(`« ${file} » ne contient que des données illisibles (${named(unreadable)}).`);
  }
  if (!items.length) throw new Error(`« ${file} » ne contient aucune donnée que ce site garde.`);
  return { items, ignored, unreadable, date: typeof data.date === "string" ? data.date : "" };
}

/** What an import leaves out, in a sentence (or ""). */
function leftOut(read) {
  const unreadable = read.unreadable.length
    ? ` Données illisibles dans le fichier, laissées de côté : ${named(read.unreadable)} ; celles de ce navigateur restent telles quelles.`
    : "";
  const ignored = read.ignored ? ` ${read.ignored} élément${read.ignored > 1 ? "s" : ""} que ce site ne connaît pas, ignoré${read.ignored > 1 ? "s" : ""}.` : "";
  return unreadable + ignored;
}

/** Writes every item, or none: on a refusal, each key gets its value back. */
function writeAll(items) {
  const before = items.map(({ key }) => [key, localStorage.getItem(key)]);
  try {
    for (const { key, value } of items) localStorage.setItem(key, value);
  } catch (error) {
    for (const [key, value] of before) {
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch { /* the value that was there is still there */ }
    }
    throw new Error(isQuotaError(error)
      ? "La mémoire de ce navigateur pour ce site est pleine : rien n’a été changé."
      : "Ce navigateur refuse de garder des données pour ce site : rien n’a été changé.");
  }
}

function setup() {
  const root = document.getElementById("regles-donnees");
  if (!root || root.dataset.pret) return;
  root.dataset.pret = "1";
  const say = el("p", { class: "regles-donnees__message", role: "status" });
  const draw = (message = "", kind = "info") => {
    const items = keptItems();
    say.textContent = frenchSpacing(message);
    say.dataset.kind = kind;
    if (items === null) {
      root.replaceChildren(el("p", {}, "Ce navigateur refuse de garder des données pour ce site (navigation privée ?) : il n’y a rien à sauvegarder."));
      return;
    }
    const exportAll = el("button", { type: "button", class: "md-button md-button--primary" }, "Tout exporter");
    exportAll.disabled = items.length === 0;
    exportAll.addEventListener("click", () => {
      const date = new Date().toISOString();
      const content = { format: FORMAT, version: VERSION, site: siteRoot().pathname, date,
        items: Object.fromEntries(items.map(({ key, value }) => [key, value])) };
      const site = foldAccents(document.title.split(" - ").pop() || "site").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
      const name = `donnees-${site || "site"}-${date.slice(0, 10)}.json`;
      downloadText(`${JSON.stringify(content, null, 2)}\n`, name, "application/json");
      // The download happens in the browser's own bar, which a phone may not show: the
      // page says that the file is made and its name, to find it among the downloads.
      draw(`C’est fait : vos données sont dans le fichier « ${name} », enregistré par votre navigateur avec vos téléchargements. Gardez-le : « Importer une sauvegarde » le relit, ici ou dans un autre navigateur.`);
    });
    const input = el("input", { type: "file", id: "regles-donnees-fichier", accept: ".json,application/json", class: "regles-donnees__fichier" });
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      input.value = "";
      if (!file) return;
      if (file.size > MAX_FILE_BYTES) {
        draw(`« ${file.name} » pèse ${Math.round(file.size / 1e6)} Mo : trop pour une sauvegarde de ce site, rien n’a été importé.`, "erreur");
        return;
      }
      file.text().then((text) => {
        let read;
        try {
          read = readBackup(text, file.name);
        } catch (error) {
          draw(`${error.message} Rien n’a été importé.`, "erreur");
          return;
        }
        confirmImport(read, file.name);
      }, () => draw(`« ${file.name} » est illisible. Rien n’a été importé.`, "erreur"));
    });
    const confirmImport = (read, name) => {
      const replace = el("button", { type: "button", class: "md-button md-button--primary" }, "Remplacer par le contenu du fichier");
      const cancel = el("button", { type: "button", class: "md-button" }, "Annuler");
      replace.addEventListener("click", () => {
        try {
          writeAll(read.items);
        } catch (error) {
          draw(error.message, "erreur");
          return;
        }
        draw(`Données de « ${name} » importées.${leftOut(read)}`);
      });
      cancel.addEventListener("click", () => draw("Import annulé : rien n’a été changé."));
      const date = read.date && !Number.isNaN(Date.parse(read.date)) ? new Date(read.date).toLocaleString("fr-FR") : "";
      root.replaceChildren(
        el("p", {}, `« ${name} »${date ? `, sauvegardé le ${date},` : ""} contient :`),
        el("ul", {}, ...summary(read.items)),
        el("p", {}, "Ces données remplaceront celles du même genre gardées dans ce navigateur ; les autres restent telles quelles. Exportez d’abord celles d’ici pour pouvoir revenir en arrière."),
        leftOut(read) ? el("p", {}, leftOut(read).trim()) : null,
        el("p", { class: "regles-donnees__boutons" }, replace, " ", cancel));
    };
    // Each kind can be cleared: one its module cannot read (damaged) says so.
    const clear = (kind) => {
      const button = el("button", { type: "button", class: "md-button list-button list-danger" }, "Effacer");
      button.setAttribute("aria-label", `Effacer : ${kind.label}`);
      button.addEventListener("click", async () => {
        const sure = await confirmAction(`Effacer « ${kind.label} » ?`,
          "Ces données seront effacées de ce navigateur. Exportez-les d’abord pour les garder.", "Effacer");
        if (!sure) return;
        try {
          for (const key of kind.keys) localStorage.removeItem(key);
        } catch {
          draw("Ce navigateur refuse de changer les données de ce site : rien n’a été effacé.", "erreur");
          return;
        }
        draw(`Effacé de ce navigateur : « ${kind.label} ».`);
      });
      return [kind.unreadable ? el("strong", {}, " : illisible") : null, " ", button];
    };
    root.replaceChildren(
      el("p", {}, items.length ? "Ce navigateur garde pour ce site :" : "Ce navigateur ne garde encore rien pour ce site."),
      items.length ? el("ul", {}, ...summary(items, clear)) : null,
      el("p", { class: "regles-donnees__boutons" }, exportAll, " ",
        el("label", { for: "regles-donnees-fichier", class: "md-button" }, "Importer une sauvegarde"), input),
      say);
  };
  draw();
}

onEachPage(setup);
