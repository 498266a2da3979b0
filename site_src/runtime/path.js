/* path.js: the reading path. On "the essentials" every deep dive (details.deep-dive, written open
 * by the build: builder/page/asides.py) is closed, and the reader opens the ones they want; on
 * "everything" they are open. The choice is remembered (localStorage) and applied while the page
 * is parsed, each deep dive closed as it arrives and before it is painted, so nothing moves. A
 * deep dive holding the target of the link the page opened on stays open. Without JavaScript,
 * and in print, every deep dive is open. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const KEY = "rag-reading-path";
  const PATHS = ["essentials", "everything"];
  const root = document.documentElement;

  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (error) { return null; }  // storage may be off
  }
  let path = PATHS.includes(remembered()) ? remembered() : "essentials";
  root.dataset.path = path;

  const linked = () => {
    const { id } = RAG.hash.parse(window.location.hash);
    return id ? document.getElementById(id) : null;
  };
  const fit = (dive) => {
    const target = linked();
    dive.open = path === "everything" || Boolean(target && dive.contains(target));
  };

  if (path === "essentials" && window.MutationObserver) {
    const arriving = new MutationObserver((records) => {
      for (const record of records) {
        // The parser adds elements one at a time, each before its children: a deep dive is
        // itself an added node (no subtree to search, no selector to match, over ~9,000 nodes).
        for (const node of record.addedNodes) {
          if (node.tagName === "DETAILS" && node.classList.contains("deep-dive")) fit(node);
        }
      }
    });
    arriving.observe(root, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", () => arriving.disconnect(), { once: true });
  }

  RAG.readingPath = () => path;

  /** Switch the path: every deep dive follows, the choice is remembered and said. */
  RAG.setReadingPath = (next) => {
    if (!PATHS.includes(next)) return;
    path = next;
    root.dataset.path = path;
    try { window.localStorage.setItem(KEY, path); } catch (error) { /* not remembered, still applied */ }
    document.querySelectorAll("details.deep-dive").forEach(fit);
    for (const input of document.querySelectorAll('input[name="reading-path"]')) input.checked = input.value === path;
    RAG.announce(path === "essentials" ? "The essentials: deep dives are closed." : "Everything: deep dives are open.");
  };

  RAG.setupReadingPath = () => {
    for (const input of document.querySelectorAll('input[name="reading-path"]')) {
      input.checked = input.value === path;
      input.addEventListener("change", () => { if (input.checked) RAG.setReadingPath(input.value); });
    }
  };
})();
