/* hors-ligne — the site as an installed, offline application.
 *
 * - registers the service worker (sw.js at the site root, found from <meta name="regles-racine">,
 *   so that it also works under a GitHub Pages project path), once per page load;
 * - shows the offline status in the footer, and the first download's progress in a corner;
 * - offers a waiting new version (« Nouvelle version disponible — Recharger »): the worker only
 *   takes over when the reader asks, then the page reloads, so a page never mixes two deploys;
 * - the install button and state of the « Installer l’application » page.
 *
 * Material's instant navigation swaps the page content without running this script again: the
 * page parts are (re)attached on every document$ emission; the worker is registered once.
 * The state is also on <html data-hors-ligne="…"> (for the CSS and the tests).
 */
(function () {
  "use strict";

  const meta = document.querySelector('meta[name="regles-racine"]');
  const racine = new URL(meta ? meta.content : "./", location.href);
  // 404.html gets a site-absolute base ("/regles/" + "/"): one slash is enough.
  racine.pathname = racine.pathname.replace(/\/{2,}/g, "/");
  const CLE = racine.pathname + ".hors-ligne."; // localStorage, one site per path
  const MINUTE = 60 * 1000;

  const etat = {
    // attente | indisponible | developpement | telechargement | pret | incomplet | echec
    phase: "attente",
    pourcentage: null, // first download, or repair
    majPourcentage: null, // download of a new version
    version: null, // of the active worker
    nouvelleVersion: false, // a new worker is waiting
    bandeauFerme: false,
    telechargementVu: false, // this page saw the first download: confirm its end in the corner
  };
  let enregistrement = null;
  let rechargementDemande = false;
  let derniereVerification = Date.now();
  let invitation = null; // the deferred beforeinstallprompt event
  let installee = false;
  let masquerPuce = null;

  function pourcent(octets, total) {
    return total > 0 ? Math.min(100, Math.floor((100 * octets) / total)) : 100;
  }

  // Texts ------------------------------------------------------------------------------------

  function texteEtat() {
    switch (etat.phase) {
      case "telechargement":
        return etat.pourcentage === null
          ? "Téléchargement pour l’usage hors ligne…"
          : `Téléchargement pour l’usage hors ligne : ${etat.pourcentage} %`;
      case "pret":
        if (etat.majPourcentage !== null) {
          return `Disponible hors ligne · mise à jour : ${etat.majPourcentage} %`;
        }
        return navigator.onLine ? "Disponible hors ligne" : "Disponible hors ligne · sans connexion";
      case "incomplet":
        return etat.pourcentage === null
          ? "Hors ligne incomplet : fichiers à télécharger"
          : `Hors ligne incomplet : téléchargement ${etat.pourcentage} %`;
      case "echec":
        return "Téléchargement hors ligne interrompu : il reprendra avec la connexion";
      case "indisponible":
        return "Lecture hors ligne non prise en charge par ce navigateur";
      case "developpement":
        return "Hors ligne désactivé pendant « mkdocs serve »";
      default:
        return "";
    }
  }

  function enCours() {
    if (etat.phase === "telechargement" || etat.phase === "incomplet") return etat.pourcentage;
    if (etat.phase === "pret") return etat.majPourcentage;
    return null;
  }

  // Rendering --------------------------------------------------------------------------------

  function element(tag, classe, attributs) {
    const el = document.createElement(tag);
    if (classe) el.className = classe;
    for (const [nom, valeur] of Object.entries(attributs || {})) el.setAttribute(nom, valeur);
    return el;
  }

  function barre(classe) {
    const progression = element("progress", classe, { max: "100" });
    progression.setAttribute("aria-hidden", "true");
    return progression;
  }

  // Progress arrives several times a second during the first download: only what changed is
  // written, as every write makes the browser restyle (and the <html> attributes, the page).
  function attribut(element, nom, valeur) {
    if (valeur === null) {
      if (nom in element.dataset) delete element.dataset[nom];
    } else if (element.dataset[nom] !== valeur) {
      element.dataset[nom] = valeur;
    }
  }

  function remplir(conteneur, texte, valeur) {
    attribut(conteneur, "phase", etat.phase);
    const libelle = conteneur.querySelector("[data-texte]");
    if (libelle.textContent !== texte) libelle.textContent = texte;
    const progression = conteneur.querySelector("progress");
    const masquee = valeur === null || valeur === undefined;
    if (progression.hidden !== masquee) progression.hidden = masquee;
    if (!masquee) {
      if (progression.value !== valeur) progression.value = valeur;
    } else if (progression.hasAttribute("value")) {
      progression.removeAttribute("value");
    }
  }

  // In the footer, replaced by each instant navigation: rebuilt when missing.
  function etatPiedDePage() {
    const hote = document.querySelector(".md-footer-meta__inner");
    if (!hote) return;
    let bloc = hote.querySelector(".hors-ligne-etat");
    if (!bloc) {
      bloc = element("div", "hors-ligne-etat");
      bloc.append(element("span", "hors-ligne-etat__texte", { "data-texte": "" }));
      bloc.append(barre("hors-ligne-etat__barre"));
      hote.append(bloc);
    }
    const texte = texteEtat();
    bloc.hidden = texte === "";
    remplir(bloc, texte, enCours());
  }

  // In a corner, outside the swapped content: during the first download, then a confirmation.
  let puce = null;
  let annonce = null;
  let dernierPalier = null;

  function etatCoin() {
    if (!puce) {
      puce = element("div", "hors-ligne-puce");
      puce.setAttribute("aria-hidden", "true"); // the live region below speaks for it
      puce.append(element("span", "hors-ligne-puce__texte", { "data-texte": "" }));
      puce.append(barre("hors-ligne-puce__barre"));
      puce.hidden = true;
      annonce = element("div", "hors-ligne-annonce", { role: "status", "aria-live": "polite" });
      document.body.append(puce, annonce);
    }
    if (etat.phase === "telechargement") {
      etat.telechargementVu = true;
      clearTimeout(masquerPuce);
      masquerPuce = null;
      puce.hidden = false;
      remplir(puce, texteEtat(), etat.pourcentage);
    } else if (etat.phase === "pret" && etat.telechargementVu) {
      if (!puce.hidden && masquerPuce === null) {
        remplir(puce, "Disponible hors ligne", null);
        masquerPuce = setTimeout(() => {
          puce.hidden = true;
          etat.telechargementVu = false;
          rendre();
        }, 6000);
      }
    } else {
      puce.hidden = true;
    }
    // Screen readers hear the milestones, not every percent.
    const palier =
      etat.phase === "telechargement"
        ? `telechargement-${Math.floor((etat.pourcentage || 0) / 25)}`
        : etat.phase;
    if (palier !== dernierPalier && (etat.telechargementVu || etat.phase === "echec")) {
      annonce.textContent = etat.phase === "pret" ? "Disponible hors ligne" : texteEtat();
    }
    dernierPalier = palier;
  }

  let bandeau = null;

  function bandeauMiseAJour() {
    const montrer = etat.nouvelleVersion && !etat.bandeauFerme;
    if (!bandeau && !montrer) return;
    if (!bandeau) {
      bandeau = element("div", "hors-ligne-maj", { role: "status" });
      const texte = element("span", "hors-ligne-maj__texte");
      texte.textContent = "Nouvelle version disponible";
      const tiret = element("span", "hors-ligne-maj__tiret", { "aria-hidden": "true" });
      tiret.textContent = " — ";
      const recharger = element("button", "hors-ligne-maj__recharger", { type: "button" });
      recharger.textContent = "Recharger";
      recharger.addEventListener("click", passerALaNouvelleVersion);
      const fermer = element("button", "hors-ligne-maj__fermer", {
        type: "button",
        title: "Plus tard",
        "aria-label": "Plus tard",
      });
      fermer.textContent = "×";
      fermer.addEventListener("click", () => {
        etat.bandeauFerme = true;
        rendre();
      });
      bandeau.append(texte, tiret, recharger, fermer);
      document.body.append(bandeau);
    }
    bandeau.hidden = !montrer;
  }

  function rendre() {
    const racineDocument = document.documentElement;
    attribut(racineDocument, "horsLigne", etat.phase);
    attribut(racineDocument, "horsLigneMaj", etat.nouvelleVersion ? "" : null);
    etatPiedDePage();
    etatCoin();
    bandeauMiseAJour();
    const coin = (puce && !puce.hidden) || (bandeau && !bandeau.hidden);
    attribut(racineDocument, "horsLigneCoin", coin ? "" : null);
    rendreInstallation();
  }

  // Progress messages: at most one rendering per frame.
  let renduPrevu = false;
  function rendreBientot() {
    if (renduPrevu) return;
    renduPrevu = true;
    requestAnimationFrame(() => {
      renduPrevu = false;
      rendre();
    });
  }

  // Service worker ---------------------------------------------------------------------------

  function demander(travailleur, message) {
    return new Promise((resolve, reject) => {
      const canal = new MessageChannel();
      const delai = setTimeout(() => reject(new Error("sans réponse")), 10000);
      canal.port1.onmessage = (event) => {
        clearTimeout(delai);
        resolve(event.data);
      };
      travailleur.postMessage(message, [canal.port2]);
    });
  }

  async function verifier() {
    const actif = enregistrement && enregistrement.active;
    if (!actif) return;
    try {
      const reponse = await demander(actif, { type: "ETAT" });
      etat.version = reponse.version;
      etat.phase = reponse.complet ? "pret" : "incomplet";
      if (reponse.complet) {
        etat.pourcentage = null;
        persister();
      }
    } catch (erreur) {
      // An older worker, or a busy one: the state stays as it is.
    }
    rendre();
  }

  // Ask the browser not to evict the ~20 MB when space runs short (silent in Chrome, a
  // question in Firefox: asked at most once a week).
  async function persister() {
    if (!navigator.storage || !navigator.storage.persist) return;
    try {
      if (await navigator.storage.persisted()) return;
      const derniere = Number(localStorage.getItem(CLE + "persistance") || 0);
      if (Date.now() - derniere < 7 * 24 * 60 * MINUTE) return;
      localStorage.setItem(CLE + "persistance", String(Date.now()));
      await navigator.storage.persist();
    } catch (erreur) {
      // Storage API refused (private mode…): the cache still works, only evictable.
    }
  }

  let attenteVue = null;

  function nouvelleVersionPrete() {
    const attente = enregistrement && enregistrement.waiting;
    etat.nouvelleVersion = Boolean(attente && enregistrement.active);
    if (attente && attente !== attenteVue) etat.bandeauFerme = false; // yet another version
    attenteVue = attente;
    etat.majPourcentage = null;
    rendre();
  }

  function suivreInstallation(travailleur) {
    const miseAJour = Boolean(enregistrement.active);
    if (!miseAJour) {
      etat.phase = "telechargement";
      rendre();
    }
    travailleur.addEventListener("statechange", () => {
      if (travailleur.state === "installed" && miseAJour) {
        nouvelleVersionPrete();
      } else if (travailleur.state === "activated" && !miseAJour) {
        verifier();
      } else if (travailleur.state === "redundant") {
        if (!miseAJour && etat.phase === "telechargement") etat.phase = "echec";
        etat.majPourcentage = null;
        nouvelleVersionPrete();
      }
    });
  }

  function suivre(registration) {
    if (!registration) {
      // Some environments stub the API out (automation that blocks workers…).
      etat.phase = "indisponible";
      rendre();
      return;
    }
    enregistrement = registration;
    registration.addEventListener("updatefound", () => {
      if (registration.installing) suivreInstallation(registration.installing);
    });
    if (registration.installing) suivreInstallation(registration.installing);
    if (registration.waiting) nouvelleVersionPrete();
    if (registration.active) verifier();
  }

  function recevoir(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "PROGRESSION") {
      const valeur =
        typeof message.avancement === "number"
          ? Math.min(100, Math.floor(100 * message.avancement))
          : pourcent(message.octets, message.total);
      const actif = enregistrement && enregistrement.active;
      if (!actif) {
        if (etat.phase !== "pret") {
          etat.phase = "telechargement";
          etat.pourcentage = valeur;
        }
      } else if (message.version === etat.version) {
        if (message.reparation) {
          etat.phase = "incomplet";
          etat.pourcentage = valeur;
        }
      } else {
        etat.majPourcentage = valeur < 100 ? valeur : null;
      }
      rendreBientot();
    } else if (message.type === "PRET" || message.type === "ACTIVE") {
      verifier();
    }
  }

  // The worker's progress, to every page of the site (BroadcastChannel).
  let diffusion = null;

  function ouvrirCanal() {
    if (diffusion || typeof BroadcastChannel !== "function") return;
    diffusion = new BroadcastChannel("regles-hors-ligne:" + racine.href);
    diffusion.onmessage = (event) => recevoir(event.data);
  }

  function fermerCanal() {
    if (diffusion) diffusion.close();
    diffusion = null;
  }

  function passerALaNouvelleVersion() {
    const attente = enregistrement && enregistrement.waiting;
    if (!attente) {
      location.reload();
      return;
    }
    rechargementDemande = true;
    attente.addEventListener("statechange", () => {
      if (attente.state === "activated") recharger();
    });
    attente.postMessage({ type: "SKIP_WAITING" });
  }

  let recharge = false;
  function recharger() {
    if (recharge) return;
    recharge = true;
    location.reload();
  }

  function chercherMiseAJour(forcer) {
    if (!enregistrement || !navigator.onLine) return;
    if (!forcer && Date.now() - derniereVerification < 10 * MINUTE) return;
    derniereVerification = Date.now();
    enregistrement.update().catch(() => {});
  }

  function enregistrer() {
    navigator.serviceWorker
      .register(new URL("sw.js", racine).href, { scope: racine.href })
      .then(suivre, () => {
        // Without network, an interruption; otherwise refused (blocked, private mode…).
        etat.phase = navigator.onLine ? "indisponible" : "echec";
        rendre();
      });
  }

  function demarrer() {
    if (!navigator.serviceWorker || !window.isSecureContext) {
      etat.phase = "indisponible";
      return;
    }
    // `mkdocs serve` injects live reload into the pages: files change under the worker's feet
    // and would no longer match their hashes. No worker there, and none left behind.
    // (Found by its script element: a Content-Security-Policy may keep it from running.)
    const rechargementAuto = Array.from(document.scripts).some(
      (script) => !script.src && script.textContent.includes("livereload("),
    );
    if (rechargementAuto || typeof window.livereload === "function") {
      etat.phase = "developpement";
      navigator.serviceWorker.getRegistrations().then((liste) => {
        for (const r of liste) if (r.scope === racine.href) r.unregister();
      });
      return;
    }
    ouvrirCanal();
    // The channel is closed while the page is hidden: a message arriving while the page waits
    // in the browser's back/forward cache would evict it (the download sends several a
    // second), and the Back button would reload it. Back on screen, the page asks again.
    window.addEventListener("pagehide", fermerCanal);
    window.addEventListener("pageshow", (event) => {
      if (!event.persisted) return;
      ouvrirCanal();
      verifier();
    });
    // A new version took over: in the tab that asked, and in every other tab that was
    // running the previous one, reload so that no page goes on with the old files. The first
    // install (no previous worker) takes the page without reloading it.
    let controleur = navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      const precedent = controleur;
      controleur = navigator.serviceWorker.controller;
      if (rechargementDemande || precedent) recharger();
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") chercherMiseAJour(false);
    });
    window.addEventListener("online", () => {
      if (adresseDeSecours) {
        // The « online » event often comes before the connection really works: a moment.
        const adresse = adresseDeSecours;
        setTimeout(() => {
          if (adresse === adresseDeSecours && navigator.onLine) location.assign(adresse);
        }, 1500);
        return;
      }
      if (etat.phase === "echec" || etat.phase === "indisponible") enregistrer();
      else if (etat.phase === "incomplet") verifier();
      chercherMiseAJour(true);
      rendre();
    });
    window.addEventListener("offline", rendre);
    // The download (some 20 MB) waits until the page has loaded, been painted, and the
    // browser is idle: sooner, it competes with the page's own set-up for the network and the
    // processor (begun at the first paint, it made the page's scripts' tasks longer, and
    // Lighthouse's total blocking time higher). A page opened hidden paints nothing: its
    // download waits until it is shown.
    apresLeChargement(() =>
      requestAnimationFrame(() => setTimeout(() => quandInoccupe(enregistrer), 0)),
    );
  }

  function apresLeChargement(action) {
    if (document.readyState === "complete") action();
    else window.addEventListener("load", action, { once: true });
  }

  // When the browser has nothing else to do, or after two seconds at the latest.
  function quandInoccupe(action) {
    if (window.requestIdleCallback) requestIdleCallback(action, { timeout: 2000 });
    else setTimeout(action, 0);
  }

  // Installation -----------------------------------------------------------------------------

  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // our button, on the install page, rather than the browser's bar
    invitation = event;
    rendreInstallation();
  });
  window.addEventListener("appinstalled", () => {
    installee = true;
    invitation = null;
    rendreInstallation();
  });

  function autonome() {
    return (
      window.matchMedia("(display-mode: standalone)").matches ||
      window.matchMedia("(display-mode: window-controls-overlay)").matches ||
      navigator.standalone === true
    );
  }

  function appareilIOS() {
    const ua = navigator.userAgent;
    return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  }

  function texteInstallation() {
    if (autonome()) return "Vous utilisez l’application installée.";
    if (installee) return "Application installée : vous la trouverez avec vos autres applications.";
    if (invitation) return "Votre navigateur peut installer l’application en un clic.";
    if (appareilIOS()) {
      return "Sur iPhone et iPad, l’installation se fait dans Safari, par le bouton de partage : voir ci-dessous.";
    }
    return "Votre navigateur ne propose pas l’installation en un clic : suivez les instructions ci-dessous pour votre appareil.";
  }

  function rendreInstallation() {
    const bouton = document.querySelector(".installer-bouton");
    const texte = document.querySelector(".installer-etat");
    if (bouton) {
      if (!bouton.dataset.horsLigne) {
        bouton.dataset.horsLigne = "";
        bouton.addEventListener("click", installer);
      }
      bouton.hidden = !invitation || autonome();
    }
    if (texte) texte.textContent = texteInstallation();
  }

  async function installer() {
    if (!invitation) return;
    const proposition = invitation;
    invitation = null;
    proposition.prompt();
    try {
      const choix = await proposition.userChoice;
      if (choix.outcome === "accepted") installee = true;
    } catch (erreur) {
      // The prompt was closed without answer.
    }
    rendreInstallation();
  }

  // Offline page: the address that could not be reached, to try again ------------------------

  let adresseDeSecours = null; // the address to go back to when the network returns

  function pageDeSecours() {
    adresseDeSecours = null;
    const lien = document.querySelector(".hors-ligne-reessayer");
    const depuis = new URLSearchParams(location.search).get("depuis");
    if (!lien || !depuis) return;
    let cible;
    try {
      cible = new URL(depuis);
    } catch (erreur) {
      return;
    }
    // Only an address of this site: the parameter must not send the reader elsewhere.
    if (cible.origin !== racine.origin || !cible.pathname.startsWith(racine.pathname)) return;
    lien.href = cible.href;
    adresseDeSecours = cible.href;
    const adresse = document.querySelector(".hors-ligne-adresse");
    let chemin = cible.pathname.slice(racine.pathname.length) || "/";
    try {
      chemin = decodeURI(chemin);
    } catch (erreur) {
      // Shown as it came.
    }
    if (adresse) adresse.textContent = chemin;
    const bloc = lien.closest(".hors-ligne-depuis");
    if (bloc) bloc.hidden = false;
  }

  // Start ------------------------------------------------------------------------------------

  let demarre = false;
  function surChaquePage() {
    if (!demarre) {
      demarre = true;
      demarrer();
    } else {
      chercherMiseAJour(false);
    }
    pageDeSecours();
    rendre();
  }

  // A task of its own for this page set-up: with the other scripts' set-ups, all run from
  // the same document$ emission, it made one long task that held the page's first taps.
  if (typeof document$ !== "undefined" && document$ && typeof document$.subscribe === "function") {
    document$.subscribe(() => setTimeout(surChaquePage, 0));
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", surChaquePage);
  } else {
    surChaquePage();
  }
})();
