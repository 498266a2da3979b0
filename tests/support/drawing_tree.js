/* drawing_tree.js: a drawing as nested lists, [tag, "sorted attributes", ...children], text of
 * neighbouring text nodes joined; two drawings are the same markup when these are equal. A form
 * control's value is its property (the markup's value attribute is only where it starts); what
 * the runtime adds to reach a scroll box by keyboard (data-rag-scroller and its tabindex) is left
 * out. Used in Node by views_check.js and in Chromium by tests/labs/test_every_lab.py.
 * Written as a loop over siblings and attribute names: views_check.js walks thousands of drawings
 * in happy-dom, where spreading node.attributes and childNodes costs twice the walk. */
function drawingTree(node) {
  const type = node.nodeType;
  if (type === 3) return node.textContent;
  if (type !== 1) return null;
  const tag = node.tagName.toLowerCase();
  const control = tag === "input" || tag === "select" || tag === "textarea";
  const runtime = node.hasAttribute("data-rag-scroller");
  const attrs = [];
  for (const name of node.getAttributeNames()) {
    if ((control && name === "value") || name === "data-rag-scroller" || (runtime && name === "tabindex")) continue;
    attrs.push(`${name}=${node.getAttribute(name)}`);
  }
  if (control) attrs.push(`value=${node.value}`);
  const drawn = [tag, attrs.sort().join(" ")];
  let text = null;  // neighbouring text nodes, joined; an empty run is left out
  for (let child = node.firstChild; child; child = child.nextSibling) {
    const part = drawingTree(child);
    if (part === null) continue;
    if (typeof part === "string") {
      text = text === null ? part : text + part;
      continue;
    }
    if (text) drawn.push(text);
    text = null;
    drawn.push(part);
  }
  if (text) drawn.push(text);
  return drawn;
}

if (typeof module !== "undefined") module.exports = { drawingTree };
