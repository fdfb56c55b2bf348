/* The headline results of a calculator (the catalogue's `headline`), kept in view while its
 * form is edited. */

// The headline results (the catalogue's `headline`) stay in view while the form is edited:
// a line of them is kept at the bottom of the screen (CSS: sticky) from the first focus or
// change of a field, for as long as one of the results themselves is not whole on the screen.
const HEADLINE_SHOWN = new WeakMap(); // form → whether its headline results are on the screen
let headlines = null;

export function watchHeadlines() {
  if (headlines) headlines.disconnect(); // the previous page's forms (instant navigation)
  if (!("IntersectionObserver" in window)) return;
  // A result counts as on the screen when it is whole there: half a line cut by the bottom
  // of the screen is not read.
  headlines = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const form = entry.target.closest("form.calculateur");
        const seen = HEADLINE_SHOWN.get(form) || new Set();
        if (entry.isIntersecting && entry.intersectionRatio > 0.99) seen.add(entry.target);
        else seen.delete(entry.target);
        HEADLINE_SHOWN.set(form, seen);
        showSummary(form);
      }
    },
    { threshold: [0, 1] },
  );
}

function showSummary(form) {
  const summary = form.querySelector(".calculateur-resume");
  if (!summary) return;
  const all = form.querySelectorAll(".sortie-principale").length;
  const seen = (HEADLINE_SHOWN.get(form) || new Set()).size;
  summary.hidden = !form.dataset.edite || seen >= all;
}

// A field that takes the focus (a tap, the keyboard's « Suivant ») and ends under that line
// of results, or under the notices, is brought above them: the browser brings it into the
// screen, not out from under what the page keeps at its bottom. So is a roll's result once
// drawn (rules.js).
export function keepAboveTheBottom(form, field) {
  requestAnimationFrame(() => {
    let top = window.innerHeight;
    const summary = form.querySelector(".calculateur-resume");
    if (summary && !summary.hidden) top = Math.min(top, summary.getBoundingClientRect().top);
    const notices = document.querySelector(".regles-avis");
    const stack = notices && notices.getBoundingClientRect();
    if (stack && stack.height) top = Math.min(top, stack.top);
    const overlap = field.getBoundingClientRect().bottom + 8 - top;
    if (overlap > 0) window.scrollBy(0, overlap);
  });
}

export function followHeadlines(form) {
  const mark = () => {
    if (form.dataset.edite) return;
    form.dataset.edite = "1";
    showSummary(form);
  };
  // Only when the focus moves: typing in a field does not move it under anything. A button
  // (« Lancer », « ± ») does not show the line: shown as the finger is down, it would take
  // the finger's release, and the tap would be lost on a button near the bottom.
  form.addEventListener("focusin", (event) => {
    if (event.target.matches("input, select, textarea")) mark();
    if (event.target.matches("input, select, textarea, button")) keepAboveTheBottom(form, event.target);
  });
  form.addEventListener("input", mark);
  if (headlines) for (const output of form.querySelectorAll(".sortie-principale")) headlines.observe(output);
}
