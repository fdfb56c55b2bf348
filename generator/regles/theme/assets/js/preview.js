/* Previews over links: a bubble that shows what a link leads to, on hover, on keyboard
 * focus, or at the first tap (the second tap follows the link).
 *
 * One bubble for the whole site (div#entry-preview, styled by entry-table.css); each kind of link
 * registers its source with `addPreview`: the links it covers (a CSS selector), how to read
 * its data (a promise of a Map from a link's key to a record, loaded once), and how to show
 * a record. entries.js registers the entries, glossary.js the glossary entries.
 *
 * The texts come from the site's data files: they enter the page through text nodes only.
 */
import { el, siteRoot } from "./page.js";

/** A link's key in the site's data files (« sorts/acoustique/#blast-sonore »), or null: its
 * path inside the site and its anchor. */
export const linkKey = (link, base = siteRoot()) => {
  let address;
  try { address = new URL(link.getAttribute("href") || "", location.href); } catch { return null; }
  if (address.origin !== base.origin || !address.hash || address.hash === "#") return null;
  if (!address.pathname.startsWith(base.pathname)) return null;
  let path = address.pathname.slice(base.pathname.length).replace(/(^|\/)index\.html$/, "$1");
  let anchor = address.hash;
  try { path = decodeURI(path); anchor = decodeURIComponent(anchor); } catch { /* as it is */ }
  return path + anchor;
};

/** The « Ouvrir … » link at the foot of a bubble. */
export const openLink = (href, label) =>
  el("p", { class: "entry-preview__actions" },
    el("a", { class: "entry-preview__open", href, tabindex: "-1" }, label));

const sources = [];

/** Register a kind of link. `source`: { triggers: CSS selector of its links, load(key): a
 * promise of Map(key → record) that holds the link's key, content(record, href): the bubble's nodes, unavailable(href):
 * the nodes shown when the data cannot be read (offline, never downloaded) }. */
export function addPreview(source) {
  sources.push(source);
}

const sourceOf = (target) => sources.find((s) => target.matches(s.triggers)) || null;
const triggerOf = (node) => {
  if (!(node instanceof Element)) return null;
  for (const source of sources) {
    const found = node.closest(source.triggers);
    if (found) return found;
  }
  return null;
};

export const preview = (() => {
  let bubble = null;
  let link = null; // the link whose bubble is shown (or being opened)
  let tapOpened = null; // the link opened by a first tap: the second one follows it
  let showTimer = 0;
  let hideTimer = 0;
  let token = 0;
  let mouseX = null;
  let mouseY = null;
  let dismissed = null; // the link whose bubble Escape closed: not opened again at once

  const create = () => {
    if (bubble && bubble.isConnected) return bubble;
    bubble = el("div", { id: "entry-preview", class: "entry-preview", role: "tooltip", hidden: true });
    bubble.addEventListener("pointerenter", () => clearTimeout(hideTimer));
    bubble.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse") hideSoon();
    });
    document.body.append(bubble);
    return bubble;
  };

  const place = () => {
    if (!bubble || !link || !link.isConnected) return;
    const rects = Array.from(link.getClientRects());
    let r = rects[0] || link.getBoundingClientRect();
    if (mouseY !== null && rects.length > 1) {
      r = rects.find((x) => mouseY >= x.top && mouseY <= x.bottom
        && (mouseX === null || (mouseX >= x.left && mouseX <= x.right))) || r;
    }
    const margin = 8;
    const viewWidth = document.documentElement.clientWidth;
    const viewHeight = window.innerHeight;
    bubble.style.left = "0px";
    bubble.style.top = "0px";
    const w = bubble.offsetWidth;
    const h = bubble.offsetHeight;
    let x = Math.min(Math.max(r.left, margin), Math.max(margin, viewWidth - w - margin));
    let y = r.bottom + 6;
    const above = r.top - 6 - h;
    if (y + h > viewHeight - margin && above >= margin) y = above;
    bubble.classList.toggle("entry-preview--above", y === above);
    x += window.scrollX;
    y += window.scrollY;
    bubble.style.left = `${Math.round(x)}px`;
    bubble.style.top = `${Math.round(y)}px`;
  };

  const close = () => {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    token += 1;
    if (link) {
      if (link.getAttribute("aria-describedby") === "entry-preview") link.removeAttribute("aria-describedby");
      link.removeAttribute("data-apercu-ouvert");
    }
    link = null;
    tapOpened = null;
    if (bubble) { bubble.hidden = true; bubble.replaceChildren(); }
  };

  const show = (target, { tap = false } = {}) => {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    if (link === target && bubble && !bubble.hidden) { if (tap) tapOpened = target; return; }
    const source = sourceOf(target);
    const key = source ? linkKey(target) : null;
    if (!key) return;
    close();
    link = target;
    const mine = ++token;
    const b = create();
    const open = (nodes) => {
      if (mine !== token || !target.isConnected) return;
      b.replaceChildren(...nodes);
      b.hidden = false;
      if (!target.hasAttribute("aria-describedby")) target.setAttribute("aria-describedby", "entry-preview");
      target.setAttribute("data-apercu-ouvert", "");
      if (tap) tapOpened = target;
      place();
    };
    let ready = false;
    // A « Chargement… » only if reading the data takes a while.
    const waiting = setTimeout(() => {
      if (!ready) open([el("p", { class: "entry-preview__state" }, "Chargement…")]);
    }, 150);
    source.load(key).then(
      (byKey) => {
        ready = true;
        clearTimeout(waiting);
        const record = byKey.get(key);
        if (!record) { if (mine === token) close(); return; }
        open(source.content(record, target.getAttribute("href")));
      },
      () => {
        ready = true;
        clearTimeout(waiting);
        open(source.unavailable(target.getAttribute("href")));
      },
    );
  };

  const hideSoon = () => {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    hideTimer = setTimeout(close, 250);
  };

  let lastTouch = 0;
  let lastPointer = "mouse";

  // Delegated listeners, set once for the whole life of the tab.
  document.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType || "mouse";
    lastTouch = Date.now();
    if (bubble && !bubble.hidden && !bubble.contains(e.target) && triggerOf(e.target) !== link) close();
  }, true);

  document.addEventListener("pointerover", (e) => {
    if (e.pointerType !== "mouse") return;
    const target = triggerOf(e.target);
    if (!target) return;
    mouseX = e.clientX;
    mouseY = e.clientY;
    if (dismissed === target) return;
    if (target === link) { clearTimeout(hideTimer); return; }
    const source = sourceOf(target);
    if (source) source.load(linkKey(target)).catch(() => {}); // read ahead during the delay
    clearTimeout(showTimer);
    showTimer = setTimeout(() => show(target), 200);
  });

  document.addEventListener("pointerout", (e) => {
    if (e.pointerType !== "mouse") return;
    const target = triggerOf(e.target);
    if (!target || (e.relatedTarget instanceof Node && target.contains(e.relatedTarget))) return;
    if (dismissed === target) dismissed = null;
    if (target === link) hideSoon();
    else clearTimeout(showTimer);
  });

  document.addEventListener("focusin", (e) => {
    const target = triggerOf(e.target);
    if (!target) return;
    if (Date.now() - lastTouch < 600) return; // focus given by a click or a tap
    dismissed = null;
    mouseY = null;
    mouseX = null;
    show(target);
  });

  document.addEventListener("focusout", (e) => {
    const target = triggerOf(e.target);
    if (!target || target !== link) return;
    if (e.relatedTarget instanceof Node && bubble && bubble.contains(e.relatedTarget)) return;
    if (dismissed === target) dismissed = null;
    if (Date.now() - lastTouch < 600 && lastPointer !== "mouse") return;
    hideSoon();
  });

  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !bubble || bubble.hidden) return;
    dismissed = link;
    close();
  });

  // On touch: the first tap shows the preview, the second follows the link. Capture phase on
  // document: Material's instant navigation (on body) does not see the first one.
  document.addEventListener("click", (e) => {
    // « Ouvrir »: the link goes its way, the bubble closes afterwards (same page included).
    if (bubble && e.target instanceof Node && bubble.contains(e.target)) {
      setTimeout(close, 0);
      return;
    }
    const target = triggerOf(e.target);
    if (!target || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const tap = lastPointer !== "mouse" && Date.now() - lastTouch < 1500;
    if (!tap) { close(); return; }
    if (tapOpened === target && bubble && !bubble.hidden) { close(); return; } // second tap
    if (!linkKey(target)) return;
    e.preventDefault();
    e.stopPropagation();
    show(target, { tap: true });
  }, true);

  window.addEventListener("resize", () => { if (bubble && !bubble.hidden) place(); });

  return { close };
})();
