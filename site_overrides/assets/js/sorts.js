/* Sorts : filtres et tri de « Tous les sorts », aperçu d’un sort au survol de ses liens.
 *
 * - La page « Tous les sorts » (table#table-sorts) reçoit un formulaire de filtres (texte,
 *   collège, niveaux, classe, résistance, temps long, descriptions) et des en-têtes triables.
 *   L’état vit dans la requête de l’adresse (history.replaceState) : une liste filtrée se
 *   partage et se retrouve au retour arrière. Tout se lit dans le DOM : rien à charger, sauf
 *   si le lecteur demande aussi les descriptions (data/spells.json).
 * - Sur toutes les pages, un lien vers un sort (a.lien-sort, liens de small.homonymes, noms de
 *   la table) montre un aperçu du sort au survol, au focus clavier, ou au premier toucher.
 *
 * Les textes viennent de l’export des sorts : ils n’entrent dans la page que par textContent.
 * Aucune adresse absolue depuis « / » : tout se résout depuis <meta name="regles-racine">.
 */
(() => {
  "use strict";

  if (window.__reglesSorts) return; // une seule instance, même si le script est rejoué
  window.__reglesSorts = true;

  const ROMAINS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
  const NIVEAU_MAX = ROMAINS.length;
  const AUCUN = "-"; // valeur de filtre « champ vide » (jamais une vraie valeur de l’export)
  // Made on first sort, not at load on every page (an Intl object loads locale data).
  let collateur = null;
  const collator = {
    compare(a, b) {
      collateur = collateur || new Intl.Collator("fr", { numeric: true });
      return collateur.compare(a, b);
    },
  };

  // ---------------------------------------------------------------------------------------
  // Outils
  // ---------------------------------------------------------------------------------------

  /** Texte comparable : sans accents ni casse, apostrophes et ligatures unifiées. */
  const plier = (texte) =>
    String(texte)
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[’‘ʼ`´]/g, "'")
      .replace(/œ/g, "oe")
      .replace(/æ/g, "ae")
      .replace(/\s+/g, " ")
      .trim();

  /** Ordre des listes de choix : sans accents ni casse, puis caractère par caractère. Sans
   * Intl.Collator : créé au premier usage (données de la locale, ~15 ms), il attend qu’on trie. */
  const alphabetique = (a, b) => {
    const x = plier(a);
    const y = plier(b);
    if (x !== y) return x < y ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  };

  const romain = (n) => {
    let reste = Math.trunc(Number(n)) || 0;
    if (reste >= 1 && reste <= NIVEAU_MAX) return ROMAINS[reste - 1];
    const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"],
      [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
    let sortie = "";
    for (const [valeur, lettres] of table) {
      while (reste >= valeur) { sortie += lettres; reste -= valeur; }
    }
    return sortie || String(n);
  };

  const niveaux = (min, max) => (min === max ? romain(min) : `${romain(min)}–${romain(max)}`);

  /** Construit un élément : attributs par setAttribute, enfants texte par nœuds texte. */
  const el = (balise, attributs = {}, ...enfants) => {
    const noeud = document.createElement(balise);
    for (const [nom, valeur] of Object.entries(attributs)) {
      if (valeur === false || valeur === null || valeur === undefined) continue;
      noeud.setAttribute(nom, valeur === true ? "" : String(valeur));
    }
    for (const enfant of enfants) {
      if (enfant === null || enfant === undefined || enfant === false) continue;
      noeud.append(enfant instanceof Node ? enfant : document.createTextNode(String(enfant)));
    }
    return noeud;
  };

  /** Racine du site vue depuis la page courante (jamais « / » : le site vit sous un chemin). */
  const racine = () => {
    const meta = document.querySelector('meta[name="regles-racine"]');
    return new URL(meta ? meta.getAttribute("content") || "./" : "./", location.href);
  };

  /** Markdown d’une description → texte brut (échappements, emphase, puces). */
  const texteBrut = (markdown) =>
    String(markdown)
      .replace(/\\(.)|\*+|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (_m, echappe) => echappe ?? "")
      .replace(/^\s*-\s+/gm, "• ")
      .replace(/\s+/g, " ")
      .trim();

  const extrait = (texte, longueur = 200) => {
    if (texte.length <= longueur) return texte;
    const coupe = texte.slice(0, longueur);
    const espace = coupe.lastIndexOf(" ");
    return `${(espace > longueur * 0.6 ? coupe.slice(0, espace) : coupe).replace(/[\s,;:.–-]+$/, "")}…`;
  };

  // ---------------------------------------------------------------------------------------
  // Données : data/spells.json, chargé une fois, à la demande, gardé en mémoire
  // ---------------------------------------------------------------------------------------

  let donnees = null;

  const chargerSorts = () => {
    if (!donnees) {
      const adresse = new URL("data/spells.json", racine());
      donnees = fetch(adresse, { credentials: "same-origin" })
        .then((reponse) => {
          if (!reponse.ok) throw new Error(`data/spells.json : ${reponse.status}`);
          return reponse.json();
        })
        .then((liste) => {
          const parUrl = new Map();
          for (const sort of Array.isArray(liste) ? liste : []) {
            if (sort && typeof sort.url === "string") parUrl.set(sort.url, sort);
          }
          return parUrl;
        });
      donnees.catch(() => { donnees = null; }); // un échec (hors ligne) se retente plus tard
    }
    return donnees;
  };

  /** Clé d’un lien dans spells.json (« sorts/acoustique/#blast-sonore »), ou null. */
  const cleDuLien = (lien, base = racine()) => {
    let adresse;
    try { adresse = new URL(lien.getAttribute("href") || "", location.href); } catch { return null; }
    if (adresse.origin !== base.origin || !adresse.hash || adresse.hash === "#") return null;
    if (!adresse.pathname.startsWith(base.pathname)) return null;
    let chemin = adresse.pathname.slice(base.pathname.length).replace(/(^|\/)index\.html$/, "$1");
    let ancre = adresse.hash;
    try { chemin = decodeURI(chemin); ancre = decodeURIComponent(ancre); } catch { /* tel quel */ }
    return chemin + ancre;
  };

  // ---------------------------------------------------------------------------------------
  // Aperçu d’un sort (survol, focus, toucher)
  // ---------------------------------------------------------------------------------------

  const DECLENCHEURS = "a.lien-sort[href], small.homonymes a[href], #table-sorts tbody td:first-child a[href]";

  const apercu = (() => {
    let bulle = null;
    let lien = null; // lien dont la bulle est montrée (ou en cours d’ouverture)
    let tapOuvert = null; // lien ouvert par un premier toucher : le second le suit
    let tuMontrer = 0;
    let tuCacher = 0;
    let jeton = 0;
    let sourisX = null;
    let sourisY = null;
    let ecarte = null; // lien dont Échap a fermé la bulle : pas de réouverture tout de suite

    const creer = () => {
      if (bulle && bulle.isConnected) return bulle;
      bulle = el("div", { id: "sort-apercu", class: "sort-apercu", role: "tooltip", hidden: true });
      bulle.addEventListener("pointerenter", () => clearTimeout(tuCacher));
      bulle.addEventListener("pointerleave", (e) => {
        if (e.pointerType === "mouse") cacherBientot();
      });
      document.body.append(bulle);
      return bulle;
    };

    const contenu = (sort, href) => {
      const min = Number(sort.level_min);
      const max = Number(sort.level_max);
      const titre = el("p", { class: "sort-apercu__titre" },
        el("strong", {}, String(sort.name ?? "")), " ",
        el("span", { class: "niveau", title: min === max ? `Niveau ${romain(min)}` : `Niveaux ${romain(min)} à ${romain(max)}` },
          niveaux(min, max)));
      const noeuds = [titre, el("p", { class: "sort-apercu__college" }, String(sort.college ?? ""))];
      const champs = sort.fields && typeof sort.fields === "object" ? Object.entries(sort.fields) : [];
      if (champs.length) {
        const dl = el("dl", { class: "sort-apercu__champs" });
        for (const [cle, valeur] of champs) dl.append(el("dt", {}, cle), el("dd", {}, String(valeur)));
        noeuds.push(dl);
      }
      const texte = extrait(texteBrut(sort.description ?? ""));
      if (texte) noeuds.push(el("p", { class: "sort-apercu__texte" }, texte));
      noeuds.push(el("p", { class: "sort-apercu__actions" },
        el("a", { class: "sort-apercu__ouvrir", href, tabindex: "-1" }, "Ouvrir la fiche du sort")));
      return noeuds;
    };

    const placer = () => {
      if (!bulle || !lien || !lien.isConnected) return;
      const rects = Array.from(lien.getClientRects());
      let r = rects[0] || lien.getBoundingClientRect();
      if (sourisY !== null && rects.length > 1) {
        r = rects.find((x) => sourisY >= x.top && sourisY <= x.bottom
          && (sourisX === null || (sourisX >= x.left && sourisX <= x.right))) || r;
      }
      const marge = 8;
      const largeurVue = document.documentElement.clientWidth;
      const hauteurVue = window.innerHeight;
      bulle.style.left = "0px";
      bulle.style.top = "0px";
      const l = bulle.offsetWidth;
      const h = bulle.offsetHeight;
      let x = Math.min(Math.max(r.left, marge), Math.max(marge, largeurVue - l - marge));
      let y = r.bottom + 6;
      const dessus = r.top - 6 - h;
      if (y + h > hauteurVue - marge && dessus >= marge) y = dessus;
      bulle.classList.toggle("sort-apercu--dessus", y === dessus);
      x += window.scrollX;
      y += window.scrollY;
      bulle.style.left = `${Math.round(x)}px`;
      bulle.style.top = `${Math.round(y)}px`;
    };

    const fermer = () => {
      clearTimeout(tuMontrer);
      clearTimeout(tuCacher);
      jeton += 1;
      if (lien) {
        if (lien.getAttribute("aria-describedby") === "sort-apercu") lien.removeAttribute("aria-describedby");
        lien.removeAttribute("data-apercu-ouvert");
      }
      lien = null;
      tapOuvert = null;
      if (bulle) { bulle.hidden = true; bulle.replaceChildren(); }
    };

    const montrer = (cible, { touche = false } = {}) => {
      clearTimeout(tuMontrer);
      clearTimeout(tuCacher);
      if (lien === cible && bulle && !bulle.hidden) { if (touche) tapOuvert = cible; return; }
      const cle = cleDuLien(cible);
      if (!cle) return;
      fermer();
      lien = cible;
      const moi = ++jeton;
      const b = creer();
      const ouvrir = (noeuds) => {
        if (moi !== jeton || !cible.isConnected) return;
        b.replaceChildren(...noeuds);
        b.hidden = false;
        if (!cible.hasAttribute("aria-describedby")) cible.setAttribute("aria-describedby", "sort-apercu");
        cible.setAttribute("data-apercu-ouvert", "");
        if (touche) tapOuvert = cible;
        placer();
      };
      let pret = false;
      // Un « Chargement… » seulement si la lecture des données traîne.
      const attente = setTimeout(() => {
        if (!pret) ouvrir([el("p", { class: "sort-apercu__etat" }, "Chargement…")]);
      }, 150);
      chargerSorts().then(
        (parUrl) => {
          pret = true;
          clearTimeout(attente);
          const sort = parUrl.get(cle);
          if (!sort) { if (moi === jeton) fermer(); return; }
          ouvrir(contenu(sort, cible.getAttribute("href")));
        },
        () => {
          pret = true;
          clearTimeout(attente);
          ouvrir([el("p", { class: "sort-apercu__etat" }, "Aperçu indisponible (données des sorts non chargées, hors connexion ?)."),
            el("p", { class: "sort-apercu__actions" },
              el("a", { class: "sort-apercu__ouvrir", href: cible.getAttribute("href"), tabindex: "-1" }, "Ouvrir la fiche du sort"))]);
        },
      );
    };

    const cacherBientot = () => {
      clearTimeout(tuMontrer);
      clearTimeout(tuCacher);
      tuCacher = setTimeout(fermer, 250);
    };

    const declencheur = (cible) => (cible instanceof Element ? cible.closest(DECLENCHEURS) : null);
    let dernierToucher = 0;
    let dernierPointeur = "mouse";

    // Écouteurs délégués, posés une seule fois pour toute la vie de l’onglet.
    document.addEventListener("pointerdown", (e) => {
      dernierPointeur = e.pointerType || "mouse";
      dernierToucher = Date.now();
      if (bulle && !bulle.hidden && !bulle.contains(e.target) && declencheur(e.target) !== lien) fermer();
    }, true);

    document.addEventListener("pointerover", (e) => {
      if (e.pointerType !== "mouse") return;
      const cible = declencheur(e.target);
      if (!cible) return;
      sourisX = e.clientX;
      sourisY = e.clientY;
      if (ecarte === cible) return;
      if (cible === lien) { clearTimeout(tuCacher); return; }
      chargerSorts().catch(() => {}); // lecture anticipée pendant le délai
      clearTimeout(tuMontrer);
      tuMontrer = setTimeout(() => montrer(cible), 200);
    });

    document.addEventListener("pointerout", (e) => {
      if (e.pointerType !== "mouse") return;
      const cible = declencheur(e.target);
      if (!cible || (e.relatedTarget instanceof Node && cible.contains(e.relatedTarget))) return;
      if (ecarte === cible) ecarte = null;
      if (cible === lien) cacherBientot();
      else clearTimeout(tuMontrer);
    });

    document.addEventListener("focusin", (e) => {
      const cible = declencheur(e.target);
      if (!cible) return;
      if (Date.now() - dernierToucher < 600) return; // focus donné par un clic ou un toucher
      ecarte = null;
      sourisY = null;
      sourisX = null;
      montrer(cible);
    });

    document.addEventListener("focusout", (e) => {
      const cible = declencheur(e.target);
      if (!cible || cible !== lien) return;
      if (e.relatedTarget instanceof Node && bulle && bulle.contains(e.relatedTarget)) return;
      if (ecarte === cible) ecarte = null;
      if (Date.now() - dernierToucher < 600 && dernierPointeur !== "mouse") return;
      cacherBientot();
    });

    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !bulle || bulle.hidden) return;
      ecarte = lien;
      fermer();
    });

    // Au toucher : le premier montre l’aperçu, le second suit le lien. Phase de capture sur
    // document : la navigation instantanée de Material (sur body) ne voit pas le premier.
    document.addEventListener("click", (e) => {
      // « Ouvrir » : le lien suit son cours, la bulle se ferme ensuite (même page comprise).
      if (bulle && e.target instanceof Node && bulle.contains(e.target)) {
        setTimeout(fermer, 0);
        return;
      }
      const cible = declencheur(e.target);
      if (!cible || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const touche = dernierPointeur !== "mouse" && Date.now() - dernierToucher < 1500;
      if (!touche) { fermer(); return; }
      if (tapOuvert === cible && bulle && !bulle.hidden) { fermer(); return; } // second toucher
      if (!cleDuLien(cible)) return;
      e.preventDefault();
      e.stopPropagation();
      montrer(cible, { touche: true });
    }, true);

    window.addEventListener("resize", () => { if (bulle && !bulle.hidden) placer(); });

    return { fermer };
  })();

  // ---------------------------------------------------------------------------------------
  // « Tous les sorts » : filtres, compte, tri, état dans l’adresse
  // ---------------------------------------------------------------------------------------

  const PARAMETRES = ["texte", "college", "min", "max", "classe", "resistance", "long", "desc", "tri", "ordre"];
  const COLONNES = ["nom", "college", "niveaux", "classe", "duree", "temps", "resistance"];

  /** « Vol-3 », « Vol+Magerie » → « Vol » : l’attribut sans ses modificateurs. */
  const resistanceDeBase = (valeur) => {
    let base = valeur.trim();
    for (let avant = ""; avant !== base;) {
      avant = base;
      base = base.replace(/\s*[+\-−]\s*(?:\d+|\p{Lu}[\p{L}’']*)\s*$/u, "");
    }
    return base || valeur.trim();
  };

  const UNITES = [
    [/^s(?:ec|econde)?s?$/, 1], [/^min(?:ute)?s?$/, 60], [/^h(?:eure)?s?$/, 3600],
    [/^(?:jour|journee)s?$/, 86400], [/^semaines?$/, 604800], [/^mois$/, 2592000],
    [/^(?:an|annee)s?$/, 31536000],
  ];

  /** Clé de tri d’une durée : [rang, secondes]. Rang 0 mesurée, 1 courte/longue, 2 sans fin, 3 autre. */
  const cleDuree = (valeur) => {
    const t = plier(valeur);
    const m = t.match(/^(\d+(?:[.,]\d+)?|une?|quelques)\s+([a-z]+)/);
    if (m) {
      const nombre = /^\d/.test(m[1]) ? Number(m[1].replace(",", ".")) : m[1] === "quelques" ? 3 : 1;
      const unite = UNITES.find(([re]) => re.test(m[2]));
      if (unite) return [0, nombre * unite[1]];
    }
    if (/^court/.test(t)) return [1, 0];
    if (/^long/.test(t)) return [1, 1];
    if (/^(permanent|indefini|jusqu)/.test(t)) return [2, 0];
    return [3, 0];
  };

  const comparerDurees = (a, b) => a[0] - b[0] || a[1] - b[1];

  const initTable = (signal) => {
    const table = document.getElementById("table-sorts");
    if (!table || !table.tBodies[0] || table.dataset.sortsPret) return;
    table.dataset.sortsPret = "1";
    const tbody = table.tBodies[0];
    const entetes = Array.from(table.tHead ? table.tHead.rows[0].cells : []);
    const base = racine();

    // Lignes lues une fois, sans rien y écrire (les libellés des cartes viennent de la
    // page) ; l’ordre d’origine sert de dernier critère (tri stable).
    const lignes = Array.from(tbody.rows).filter((tr) => tr.cells.length >= 7).map((tr, rang) => {
      const c = tr.cells;
      const d = tr.dataset;
      const lienNom = c[0].querySelector("a");
      const min = Number.parseInt(d.min, 10) || 1;
      const max = Number.parseInt(d.max, 10) || min;
      const nom = c[0].textContent.trim();
      const collegeNom = c[1].textContent.trim();
      const classe = (d.classe || "").trim();
      const resistance = (d.resistance || "").trim();
      return {
        tr, rang, nom, collegeNom, min, max, classe, resistance,
        college: d.college || "",
        classes: classe ? classe.split(/\s+/) : [],
        resistanceBase: resistance ? resistanceDeBase(resistance) : "",
        duree: (d.duree || "").trim(),
        temps: (d.temps || "").trim(),
        long: d.long === "1",
        lienNom,
        brut: [nom, collegeNom, classe, d.duree, d.temps, resistance].join(" "),
        texte: null, // brut plié, fait à la première recherche de texte
        description: null,
      };
    });
    const total = lignes.length;

    // Valeurs présentes, pour les listes de choix.
    const colleges = new Map();
    const classes = new Map();
    const resistances = new Map();
    let sansClasse = 0;
    let sansResistance = 0;
    const compter = (m, k) => m.set(k, (m.get(k) || 0) + 1);
    for (const l of lignes) {
      if (!colleges.has(l.college)) colleges.set(l.college, { nom: l.collegeNom, n: 0 });
      colleges.get(l.college).n += 1;
      if (l.classes.length) new Set(l.classes).forEach((k) => compter(classes, k)); else sansClasse += 1;
      if (l.resistanceBase) compter(resistances, l.resistanceBase); else sansResistance += 1;
    }
    const trie = (m) => Array.from(m.keys()).sort(alphabetique);

    // Formulaire --------------------------------------------------------------------------
    const id = (s) => `sorts-${s}`;
    const champ = (nom, libelle, controle, classe = "") =>
      el("div", { class: `sorts-champ ${classe}`.trim() }, el("label", { for: id(nom) }, libelle), controle);
    const option = (valeur, texte) => el("option", { value: valeur }, texte);

    const texte = el("input", {
      type: "search", id: id("texte"), name: "texte", autocomplete: "off", spellcheck: "false",
      placeholder: "nom, collège, champ… (accents facultatifs)", enterkeyhint: "search",
      "aria-describedby": id("compte"), maxlength: "200",
    });
    const choixCollege = el("select", { id: id("college"), name: "college" }, option("", `Tous (${total})`));
    for (const [slug, { nom, n }] of Array.from(colleges).sort((a, b) => alphabetique(a[1].nom, b[1].nom))) {
      choixCollege.append(option(slug, `${nom} (${n})`));
    }
    const choixNiveau = (nom) => {
      const s = el("select", { id: id(nom), name: nom });
      ROMAINS.forEach((r, i) => s.append(option(String(i + 1), r)));
      return s;
    };
    const choixMin = choixNiveau("min");
    const choixMax = choixNiveau("max");
    choixMin.setAttribute("aria-label", "Niveau minimal");
    choixMax.setAttribute("aria-label", "Niveau maximal");
    const choixClasse = el("select", { id: id("classe"), name: "classe" }, option("", "Toutes"));
    for (const k of trie(classes)) choixClasse.append(option(k, `${k} (${classes.get(k)})`));
    if (sansClasse) choixClasse.append(option(AUCUN, `(sans classe) (${sansClasse})`));
    const choixResistance = el("select", { id: id("resistance"), name: "resistance" }, option("", "Toutes"));
    for (const k of trie(resistances)) choixResistance.append(option(k, `${k} (${resistances.get(k)})`));
    if (sansResistance) choixResistance.append(option(AUCUN, `(sans résistance) (${sansResistance})`));
    const caseLong = el("input", { type: "checkbox", id: id("long"), name: "long" });
    const caseDesc = el("input", { type: "checkbox", id: id("desc"), name: "desc" });
    const compte = el("p", { id: id("compte"), class: "sorts-compte", role: "status", "aria-live": "polite" });
    const note = el("p", { class: "sorts-note", hidden: true });
    const effacer = el("button", { type: "button", class: "md-button sorts-effacer" }, "Réinitialiser");

    const formulaire = el("form", { class: "sorts-filtres", role: "search", "aria-label": "Filtrer les sorts" },
      champ("texte", "Rechercher", texte, "sorts-champ--texte"),
      champ("college", "Collège", choixCollege, "sorts-champ--college"),
      el("fieldset", { class: "sorts-niveaux" },
        el("legend", {}, "Niveaux"),
        champ("min", "de", choixMin),
        champ("max", "à", choixMax)),
      champ("classe", "Classe", choixClasse),
      champ("resistance", "Résistance", choixResistance),
      el("div", { class: "sorts-cases" },
        el("label", { for: id("long") }, caseLong, " Temps long (rituel) seulement"),
        el("label", { for: id("desc") }, caseDesc, " Chercher aussi dans les descriptions")),
      el("div", { class: "sorts-barre" }, compte, effacer),
      note);
    const vide = el("p", { class: "sorts-vide", hidden: true },
      "Aucun sort ne correspond à ces filtres. ",
      el("button", { type: "button", class: "sorts-lien" }, "Tout réafficher"));

    const enveloppe = table.closest(".md-typeset__scrollwrap") || table;
    if (table.parentElement && table.parentElement.classList.contains("md-typeset__table")) {
      table.parentElement.classList.add("sorts-table");
    }
    enveloppe.classList.add("sorts-enveloppe");
    enveloppe.before(formulaire);
    enveloppe.after(vide);

    // En-têtes triables : un bouton dans chaque <th>.
    const boutons = entetes.map((th, i) => {
      const nom = th.textContent.trim();
      const b = el("button", { type: "button", class: "sorts-tri", "data-colonne": COLONNES[i] || "" },
        nom, el("span", { class: "sorts-tri__icone", "aria-hidden": "true" }));
      th.replaceChildren(b);
      th.setAttribute("scope", "col");
      return b;
    });

    // État -------------------------------------------------------------------------------
    const DEFAUT = { texte: "", college: "", min: 1, max: NIVEAU_MAX, classe: "", resistance: "",
      long: false, desc: false, tri: "", ordre: "asc" };
    let etat = { ...DEFAUT };
    const valeursDe = (select) => new Set(Array.from(select.options, (o) => o.value));

    const lireAdresse = () => {
      const p = new URLSearchParams(location.search);
      const e = { ...DEFAUT };
      const dans = (select, v) => (v !== null && valeursDe(select).has(v) ? v : "");
      e.texte = (p.get("texte") || "").slice(0, 200);
      e.college = dans(choixCollege, p.get("college"));
      e.classe = dans(choixClasse, p.get("classe"));
      e.resistance = dans(choixResistance, p.get("resistance"));
      const niveau = (v, d) => {
        const n = /^\d{1,2}$/.test(v || "") ? Number(v) : NaN;
        return n >= 1 && n <= NIVEAU_MAX ? n : d;
      };
      e.min = niveau(p.get("min"), 1);
      e.max = niveau(p.get("max"), NIVEAU_MAX);
      if (e.min > e.max) [e.min, e.max] = [e.max, e.min];
      e.long = p.get("long") === "1";
      e.desc = p.get("desc") === "1";
      e.tri = COLONNES.includes(p.get("tri")) ? p.get("tri") : "";
      e.ordre = p.get("ordre") === "desc" ? "desc" : "asc";
      return e;
    };

    const ecrireAdresse = () => {
      if (!table.isConnected) return; // la page a changé (navigation instantanée)
      const adresse = new URL(location.href);
      PARAMETRES.forEach((k) => adresse.searchParams.delete(k));
      const q = adresse.searchParams;
      if (etat.texte.trim()) q.set("texte", etat.texte);
      if (etat.college) q.set("college", etat.college);
      if (etat.min !== DEFAUT.min) q.set("min", String(etat.min));
      if (etat.max !== DEFAUT.max) q.set("max", String(etat.max));
      if (etat.classe) q.set("classe", etat.classe);
      if (etat.resistance) q.set("resistance", etat.resistance);
      if (etat.long) q.set("long", "1");
      if (etat.desc) q.set("desc", "1");
      if (etat.tri) { q.set("tri", etat.tri); if (etat.ordre === "desc") q.set("ordre", "desc"); }
      if (adresse.href !== location.href) history.replaceState(history.state, "", adresse.href);
    };

    const versFormulaire = () => {
      texte.value = etat.texte;
      choixCollege.value = etat.college;
      choixMin.value = String(etat.min);
      choixMax.value = String(etat.max);
      choixClasse.value = etat.classe;
      choixResistance.value = etat.resistance;
      caseLong.checked = etat.long;
      caseDesc.checked = etat.desc;
    };

    const depuisFormulaire = () => {
      etat = {
        ...etat,
        texte: texte.value,
        college: choixCollege.value,
        min: Number(choixMin.value),
        max: Number(choixMax.value),
        classe: choixClasse.value,
        resistance: choixResistance.value,
        long: caseLong.checked,
        desc: caseDesc.checked,
      };
    };

    // Filtre -----------------------------------------------------------------------------
    const retient = (l, mots) => {
      if (etat.college && l.college !== etat.college) return false;
      if (l.max < etat.min || l.min > etat.max) return false; // niveaux qui se recouvrent
      if (etat.classe === AUCUN ? l.classes.length : etat.classe && !l.classes.includes(etat.classe)) return false;
      if (etat.resistance === AUCUN ? l.resistanceBase : etat.resistance && l.resistanceBase !== etat.resistance) return false;
      if (etat.long && !l.long) return false;
      if (mots.length) {
        if (l.texte === null) l.texte = plier(l.brut);
        const botte = etat.desc && l.description ? `${l.texte} ${l.description}` : l.texte;
        return mots.every((m) => botte.includes(m));
      }
      return true;
    };

    const appliquer = () => {
      const mots = plier(etat.texte).split(" ").filter(Boolean);
      let n = 0;
      for (const l of lignes) {
        const garde = retient(l, mots);
        if (l.tr.hidden === garde) l.tr.hidden = !garde;
        if (garde) n += 1;
      }
      compte.textContent = `${n} ${n > 1 ? "sorts" : "sort"}`;
      compte.append(el("span", { class: "sorts-compte__total" }, ` sur ${total}`));
      table.dataset.visibles = String(n);
      vide.hidden = n > 0;
      enveloppe.hidden = n === 0;
      formulaire.classList.toggle("sorts-filtres--actif", JSON.stringify({ ...etat, tri: "", ordre: "asc" })
        !== JSON.stringify({ ...DEFAUT }));
      ecrireAdresse();
    };

    // Tri ---------------------------------------------------------------------------------
    const cles = {
      nom: (l) => l.nom,
      college: (l) => l.collegeNom,
      classe: (l) => l.classe,
      resistance: (l) => l.resistance,
    };
    const comparer = (colonne) => {
      if (colonne === "niveaux") return (a, b) => a.min - b.min || a.max - b.max;
      if (colonne === "duree" || colonne === "temps") {
        const memo = new Map(lignes.map((l) => [l, cleDuree(l[colonne])]));
        return (a, b) => comparerDurees(memo.get(a), memo.get(b)) || collator.compare(a[colonne], b[colonne]);
      }
      const cle = cles[colonne];
      return (a, b) => collator.compare(cle(a), cle(b));
    };
    const videPour = (colonne) => (l) => (colonne === "duree" || colonne === "temps" ? !l[colonne]
      : colonne in cles ? !cles[colonne](l) : false);

    // Tri dont les lignes suivent l’ordre dans la page ("" : celui de l’export, comme chargée).
    // Déplacer les 422 lignes les fait toutes recalculer et remettre en page : pas pour rien.
    let triEnPlace = "";
    const trier = () => {
      const voulu = etat.tri ? `${etat.tri} ${etat.ordre}` : "";
      if (voulu !== triEnPlace) {
        let ordre;
        if (!etat.tri) {
          ordre = [...lignes];
        } else {
          const cmp = comparer(etat.tri);
          const estVide = videPour(etat.tri);
          const sens = etat.ordre === "desc" ? -1 : 1;
          // Stable : à égalité, l’ordre de l’export ; les champs vides toujours en fin de liste.
          ordre = [...lignes].sort((a, b) => (estVide(a) - estVide(b)) || sens * cmp(a, b) || a.rang - b.rang);
        }
        const fragment = document.createDocumentFragment();
        ordre.forEach((l) => fragment.append(l.tr));
        tbody.append(fragment);
        triEnPlace = voulu;
      }
      entetes.forEach((th, i) => {
        const actif = COLONNES[i] === etat.tri;
        if (actif) th.setAttribute("aria-sort", etat.ordre === "desc" ? "descending" : "ascending");
        else th.removeAttribute("aria-sort");
        boutons[i].title = actif && etat.ordre === "asc" ? "Trier en ordre décroissant" : "Trier en ordre croissant";
      });
    };

    // Descriptions (facultatif) ------------------------------------------------------------
    let descriptionsPretes = false;
    const chargerDescriptions = () => {
      if (descriptionsPretes) return;
      note.hidden = false;
      note.textContent = "Chargement des descriptions…";
      chargerSorts().then((parUrl) => {
        if (!table.isConnected) return;
        for (const l of lignes) {
          const cle = l.lienNom ? cleDuLien(l.lienNom, base) : null;
          const sort = cle ? parUrl.get(cle) : null;
          if (!sort) continue;
          const champs = sort.fields && typeof sort.fields === "object" ? Object.values(sort.fields) : [];
          l.description = plier(`${champs.join(" ")} ${texteBrut(sort.description ?? "")}`);
        }
        descriptionsPretes = true;
        note.hidden = true;
        note.textContent = "";
        appliquer();
      }, () => {
        if (!table.isConnected) return;
        note.textContent = "Descriptions indisponibles (hors connexion ?) : recherche limitée au tableau.";
      });
    };

    // Événements (attachés aux éléments de cette page, détachés à la navigation suivante) ----
    const surChangement = (e) => {
      depuisFormulaire();
      if (e && e.target === choixMin && etat.min > etat.max) { etat.max = etat.min; choixMax.value = String(etat.max); }
      if (e && e.target === choixMax && etat.max < etat.min) { etat.min = etat.max; choixMin.value = String(etat.min); }
      if (etat.desc) chargerDescriptions();
      else { note.hidden = true; }
      appliquer();
    };
    formulaire.addEventListener("input", surChangement, { signal });
    formulaire.addEventListener("change", surChangement, { signal });
    formulaire.addEventListener("submit", (e) => { e.preventDefault(); texte.blur(); }, { signal });
    const toutEffacer = () => {
      etat = { ...DEFAUT };
      versFormulaire();
      note.hidden = true;
      trier();
      appliquer();
    };
    effacer.addEventListener("click", toutEffacer, { signal });
    vide.querySelector("button").addEventListener("click", () => { toutEffacer(); texte.focus(); }, { signal });
    boutons.forEach((b) => b.addEventListener("click", () => {
      const colonne = b.dataset.colonne;
      etat = { ...etat, ordre: etat.tri === colonne && etat.ordre === "asc" ? "desc" : "asc", tri: colonne };
      trier();
      ecrireAdresse();
    }, { signal }));

    etat = lireAdresse();
    versFormulaire();
    if (etat.desc) chargerDescriptions();
    trier();
    appliquer();
    table.dataset.sortsActif = "1"; // repère pour les tests : la page est prête
  };

  // ---------------------------------------------------------------------------------------
  // Démarrage : à chaque page (premier chargement et navigation instantanée de Material)
  // ---------------------------------------------------------------------------------------

  let controleur = null;
  const demarrer = () => {
    if (controleur) controleur.abort();
    controleur = new AbortController();
    apercu.fermer();
    initTable(controleur.signal);
  };

  // A task of its own for this page set-up: with the other scripts' set-ups, all run from
  // the same document$ emission, it made one long task that held the page's first taps.
  if (typeof window.document$ !== "undefined" && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => setTimeout(demarrer, 0));
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", demarrer, { once: true });
  } else {
    demarrer();
  }
})();
