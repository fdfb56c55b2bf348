/* Links to a calculator: the page's list of calculators (```calculateurs) and the skip link
 * « Aller au premier calculateur » (features/calculators/links.py) name a form by its id, as
 * may any link of the owner's. Followed, such a link opens the form if it is folded and
 * shows its first field. Followed from the keyboard (Enter: a click of detail 0), it puts
 * the focus in that field, so that the reader types at once; a tap or a mouse click puts it
 * on the form, the next Tab going to the field: on a phone, a focused field would open the
 * keyboard over the form.
 *
 * Followed here, not by the browser nor by Material's instant navigation: Material writes
 * the address, then has the browser follow the link a third of a second later, and the
 * browser then takes the focus away from everything (the target, a form, takes none); and
 * the first time, Material fetches the page again and replaces it, starting Python again.
 * The address is replaced, not pushed: Back leaves the page, as after Material's own
 * tracking of the section in view. */
import { folded, openWidget } from "./rules.js";

function formNamed(hash) {
  let id = "";
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return null; // a damaged address names nothing
  }
  const target = id && document.getElementById(id);
  return target && target.matches("form.calculateur") ? target : null;
}

// Its first value to type or choose (a control the build wrote, data-type), not a button
// before the fields (« Personnages… », rules.js).
function firstField(form) {
  return [...form.elements].find((field) => field.matches("[data-type]") && !field.disabled);
}

function focusForm(form) {
  if (!form.hasAttribute("tabindex")) {
    form.tabIndex = -1; // focusable from a script only, until it loses the focus
    form.addEventListener("focusout", () => form.removeAttribute("tabindex"), { once: true });
  }
  form.focus({ preventScroll: true });
}

document.addEventListener(
  "click",
  (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab…
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    // A search result: search.js closes the box first, then follows it (unfoldTarget opens
    // the form the address names).
    if (link && link.closest("[data-recherche]")) return;
    // A link to this page (main.html writes every address in full) that names a form.
    const here = link && link.origin === location.origin && link.pathname === location.pathname;
    const form = here && formNamed(link.hash);
    if (!form) return;
    event.preventDefault();
    event.stopPropagation(); // Material's instant navigation listens on the body
    history.replaceState(history.state, "", link.href);
    if (folded(form)) openWidget(form);
    form.scrollIntoView(); // as the browser would: the form's top under the header
    const field = firstField(form);
    if (field && event.detail === 0) field.focus({ preventScroll: true });
    else focusForm(form);
    if (field) field.scrollIntoView({ block: "nearest" });
  },
  true,
);
