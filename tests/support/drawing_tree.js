/* drawing_tree.js: a drawing as nested lists, [tag, "sorted attributes", ...children], text of
 * neighbouring text nodes joined; two drawings are the same markup when these are equal. A form
 * control's value is its property (the markup's value attribute is only where it starts); what
 * the runtime adds to reach a scroll box by keyboard (data-rag-scroller and its tabindex) is left
 * out. Used in Node by views_check.js and in Chromium by tests/labs/test_every_lab.py. */
function drawingTree(node) {
  if (node.nodeType === 3) return node.textContent;
  if (node.nodeType !== 1) return null;
  const tag = node.tagName.toLowerCase();
  const control = ["input", "select", "textarea"].includes(tag);
  const runtime = node.hasAttribute("data-rag-scroller");
  const attrs = [...node.attributes]
    .filter((a) => !(control && a.name === "value") && a.name !== "data-rag-scroller" && !(runtime && a.name === "tabindex"))
    .map((a) => `${a.name}=${a.value}`);
  if (control) attrs.push(`value=${node.value}`);
  const children = [];
  for (const child of node.childNodes) {
    const drawn = drawingTree(child);
    if (drawn === null) continue;
    if (typeof drawn === "string" && typeof children[children.length - 1] === "string") children[children.length - 1] += drawn;
    else children.push(drawn);
  }
  return [tag, attrs.sort().join(" "), ...children.filter((c) => c !== "")];
}

if (typeof module !== "undefined") module.exports = { drawingTree };
