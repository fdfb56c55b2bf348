/* A result tapped lands on its heading: Material's scroll lock released at the tap, its late
 * history writes kept off the entry they do not belong to, a result on the page being read
 * followed here rather than by instant navigation, and Back to where the reader was. */

/* Below 960 px, Material locks the page's scroll while the search covers it (body
 * [data-md-scrolllock], the reader's offset in body.style.top) and releases it 100 ms after
 * the box closes, scrolling back to that offset. A result's anchor followed before then (the
 * same page, or another that instant navigation brings in sooner) could not scroll the locked
 * page, and the release put the reader back where they were: the lock is released at the
 * tap, before the link is followed. Material's own release then finds nothing to undo. */
export function releaseScrollLock() {
  const body = document.body;
  if (!body.hasAttribute("data-md-scrolllock")) return;
  const offset = -parseInt(body.style.top, 10) || 0;
  body.removeAttribute("data-md-scrolllock");
  body.style.top = "";
  window.scrollTo(0, offset);
  // Instant navigation keeps the offset it last heard of (0, under the lock) in the history
  // entry it leaves: told now, before it takes the tap, Back returns to where the reader was.
  window.dispatchEvent(new Event("scroll"));
}

/* Material writes into the current history entry some time after the page last scrolled:
 * the offset (100 ms) and, with navigation.tracking, the section in view as the address's
 * fragment (250 ms). A navigation in between (a result tapped, Back) got the page left's
 * writes: Back to a page gave it the fragment of the section just left, or that page's
 * offset (then instant navigation scrolled there instead of to a result's anchor). Each
 * scroll notes which entry it happened in; a later write to another entry, made for a scroll
 * of the one left, is dropped (a write to another page's address, one that a scroll of this
 * entry made, or one of the site's own modules goes through). */
const entries = { current: 0, scrolled: 0 };
const nextEntry = () => { entries.current += 1; };
window.addEventListener("scroll", () => { entries.scrolled = entries.current; }, { capture: true, passive: true });
window.addEventListener("popstate", nextEntry);
window.addEventListener("hashchange", nextEntry);
const pushState = history.pushState.bind(history);
history.pushState = (...args) => {
  nextEntry();
  return pushState(...args);
};
const replaceState = history.replaceState.bind(history);
history.replaceState = (state, unused, url) => {
  // Material's writes bring a state of their own; the site's modules keep history.state.
  const material = state !== history.state;
  if (material && entries.scrolled !== entries.current && sameDocumentPath(url)) return undefined;
  return replaceState(state, unused, url);
};

/* Whether `url` (absent: this address) names this page, whatever its fragment. */
function sameDocumentPath(url) {
  if (url === undefined || url === null) return true;
  try {
    const next = new URL(url, location.href);
    return next.pathname === location.pathname && next.search === location.search;
  } catch {
    return false;
  }
}

/* A result on the page being read is followed here, not by Material's instant navigation:
 * left to it, the tap went through its fetch of the same page and its scroll restoration,
 * which could put the reader back where they were, or a calculator above, folded again,
 * pushed the heading down the screen. The browser follows the fragment (a new history entry,
 * the heading scrolled to under the header, a closed block that holds it opened), through
 * `rules.followFragment` (theme/main.html), which keeps the `popstate` Chromium fires for it
 * from instant navigation. The entry left keeps the reader's offset, marked, for Back to
 * return to it. */
export function landHere(link, event) {
  if (!link.hash || !sameDocumentPath(link.href)) return;
  event.preventDefault();
  event.stopPropagation(); // Material's instant navigation listens on the body
  // Past the guard above: the write is ours, made before the entry is left.
  replaceState({ x: window.scrollX, y: window.scrollY, leftForResult: true }, "");
  window.rules.followFragment(link.hash);
}

/* Back to the entry a result was tapped from: the reader's offset, whether or not instant
 * navigation (which scrolls only once it has brought a page in) takes the step too. */
window.addEventListener("popstate", (event) => {
  const state = event.state;
  if (state && state.leftForResult) window.scrollTo(state.x, state.y);
});
