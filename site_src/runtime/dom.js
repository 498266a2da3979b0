/* dom.js: building nodes from data without ever parsing markup. Every lab draws with these:
 * text is always a text node, so a passage that says "<script>" shows those characters.
 *
 *   RAG.el("li", {class: ["result", "is-answer"]}, RAG.el("code", null, id), " ", score)
 *   RAG.svg("rect", {class: "bar", width: 40, height: 8})
 *   RAG.replace(list, items)          swap a node's children
 */
(() => {
  "use strict";
  const RAG = (window.RAG = window.RAG || {});

  const PROPERTIES = new Set(["value", "checked", "selected", "disabled", "indeterminate"]);

  function appendChildren(node, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false || child === true) continue;
      if (Array.isArray(child)) appendChildren(node, child);
      else if (child instanceof Node) node.appendChild(child);
      else node.appendChild(document.createTextNode(String(child)));
    }
  }

  function setAttributes(node, attrs) {
    if (!attrs) return;
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) {
        if (PROPERTIES.has(key) && key in node) node[key] = false;
      } else if (key === "class") {
        node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value));
      } else if (key === "dataset") {
        for (const [name, item] of Object.entries(value)) node.dataset[name] = String(item);
      } else if (key === "style") {
        // CSSOM, not the style attribute: the page's CSP forbids inline style attributes.
        for (const [name, item] of Object.entries(value)) {
          if (name.startsWith("--")) node.style.setProperty(name, String(item));
          else node.style[name] = String(item);
        }
      } else if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2).toLowerCase(), value);
      } else if (PROPERTIES.has(key) && key in node) {
        node[key] = value;
        if (value === true) node.setAttribute(key, "");
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }

  RAG.el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    setAttributes(node, attrs);
    appendChildren(node, children);
    return node;
  };

  RAG.svg = (tag, attrs, ...children) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    setAttributes(node, attrs);
    appendChildren(node, children);
    return node;
  };

  RAG.replace = (node, ...children) => {
    node.replaceChildren();
    appendChildren(node, children);
    return node;
  };

  /** Say something to screen readers (polite): "Copied", "12 results". */
  RAG.announce = (message) => {
    let region = document.getElementById("rag-status");
    if (!region) {
      region = RAG.el("div", { id: "rag-status", class: "visually-hidden", "aria-live": "polite", role: "status" });
      document.body.appendChild(region);
    }
    region.textContent = "";
    window.setTimeout(() => { region.textContent = message; }, 30);
  };
})();
