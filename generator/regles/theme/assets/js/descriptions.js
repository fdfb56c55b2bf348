/* An entry's description, the export's Markdown, as nodes: paragraphs, « - » lists and
 * emphasis, never parsed as HTML. */
import { el } from "./page.js";

// ---------------------------------------------------------------------------------------
// Descriptions: the export's Markdown as nodes (paragraphs, « - » lists, emphasis)
// ---------------------------------------------------------------------------------------

const inlineNodes = (text) => {
  const nodes = [];
  const pattern = /\\(.)|\*\*(.+?)\*\*|(?<![\p{L}\p{N}\\])_(.+?)_(?![\p{L}\p{N}])|\*(.+?)\*/gu;
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) nodes.push(text.slice(at, m.index));
    if (m[1] !== undefined) nodes.push(m[1]);
    else if (m[2] !== undefined) nodes.push(el("strong", {}, ...inlineNodes(m[2])));
    else nodes.push(el("em", {}, ...inlineNodes(m[3] ?? m[4])));
    at = m.index + m[0].length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
};

export const descriptionNodes = (markdown) => {
  const blocks = [];
  for (const block of String(markdown || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines.every((l) => /^\s*-\s+/.test(l))) {
      blocks.push(el("ul", {}, ...lines.map((l) => el("li", {}, ...inlineNodes(l.replace(/^\s*-\s+/, "").trim())))));
    } else {
      blocks.push(el("p", {}, ...inlineNodes(lines.join(" ").trim())));
    }
  }
  return blocks;
};
