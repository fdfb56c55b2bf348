/* Tables wider than the screen: the content tables (in Material's scrolling container,
 * .md-typeset__scrollwrap) and the calculators' result tables (.sortie-table's dd).
 *
 * While one is cut (it scrolls sideways), it is a named region that the keyboard reaches
 * (Tab, then the arrow keys scroll it), and data-defile says on which sides there is more
 * to see ("debut", "fin", or both): tables.css fades the table out on those edges. A table
 * that fits is left as it was: no tab stop that scrolls nothing. Measured again when its
 * size or the screen's changes (a result table refilled, a folded form opened, a phone
 * turned), and its edges at each scroll. */
import { onEachPage } from "./page.js";

const AREAS = ".md-typeset .md-typeset__scrollwrap, .md-typeset .calculateur .sortie-table > dd";
const HEADINGS = "h1, h2, h3, h4, h5, h6";
// Set on the areas this script made focusable, so that it only ever takes back its own.
const MARK = "data-defilant";

let sizes = null;

function headingText(heading) {
  // Without Material's permalink (¶).
  return [...heading.childNodes]
    .filter((node) => !(node instanceof Element && node.matches(".headerlink")))
    .map((node) => node.textContent)
    .join("")
    .trim();
}

// The table's own name: its caption, the result's label (the dd's dt), or else the heading
// of its section: the nearest heading before it in the page.
function nameOf(area) {
  const table = area.querySelector("table");
  const caption = table && table.caption ? table.caption.textContent.trim() : "";
  if (caption) return caption;
  const term = area.previousElementSibling;
  if (area.matches("dd") && term && term.matches("dt")) return term.textContent.trim();
  for (let node = area; node && !node.matches(".md-content"); node = node.parentElement) {
    for (let before = node.previousElementSibling; before; before = before.previousElementSibling) {
      if (before.matches(HEADINGS)) return headingText(before);
      const inside = before.querySelectorAll(HEADINGS);
      if (inside.length) return headingText(inside[inside.length - 1]);
    }
  }
  return "";
}

function edges(area) {
  const start = Math.abs(area.scrollLeft) > 1;
  const end = Math.abs(area.scrollLeft) + area.clientWidth < area.scrollWidth - 1;
  const sides = [start && "debut", end && "fin"].filter(Boolean).join(" ");
  if (sides) area.setAttribute("data-defile", sides);
  else area.removeAttribute("data-defile");
}

function measure(area) {
  const cut = area.scrollWidth > area.clientWidth + 1;
  if (cut && !area.hasAttribute(MARK) && !area.hasAttribute("tabindex")) {
    const name = nameOf(area);
    area.setAttribute(MARK, "");
    area.setAttribute("tabindex", "0");
    area.setAttribute("role", "region");
    area.setAttribute("aria-label", name ? `Tableau défilant : ${name}` : "Tableau défilant");
  } else if (!cut && area.hasAttribute(MARK)) {
    for (const attribute of [MARK, "tabindex", "role", "aria-label"]) area.removeAttribute(attribute);
  }
  edges(area);
}

function setupAreas() {
  if (sizes) sizes.disconnect(); // the previous page's tables (instant navigation)
  const areas = document.querySelectorAll(AREAS);
  if (!areas.length || !("ResizeObserver" in window)) return;
  const owners = new Map();
  sizes = new ResizeObserver((entries) => {
    const changed = new Set(entries.map((entry) => owners.get(entry.target)));
    changed.forEach(measure);
  });
  for (const area of areas) {
    // The area's own width (the screen's) and its content's (rows refilled, columns added).
    owners.set(area, area);
    sizes.observe(area);
    if (area.firstElementChild) {
      owners.set(area.firstElementChild, area);
      sizes.observe(area.firstElementChild);
    }
    area.addEventListener("scroll", () => edges(area), { passive: true });
  }
}

onEachPage(setupAreas);
