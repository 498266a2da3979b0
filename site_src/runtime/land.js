/* land.js: a shared link lands at once, and stays. The runtime is in the page's head, so this
 * runs before the body is read: it watches the document being parsed and scrolls to the link's
 * target (#section, #lab-x, or #lab-x?state, which names no element the browser could find) the
 * moment the target exists, long before the rest of the page has arrived.
 *
 * Sections far from the screen are not laid out until the reader nears them (content-visibility
 * in layout.css), so a section above the target may take its real height once it is drawn. Until
 * the reader (or anything else) scrolls, the target is put back in place whenever the page changes
 * height, in the same frame, before anything is painted. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const { id } = RAG.hash.parse(window.location.hash);
  if (!id || !window.MutationObserver) return;
  const KEEP_MS = 8000;  // how long after the page's load the target is kept in place
  let pinned = true;
  let placedAt = null;  // where this script last put the page

  let controlsShown = false;

  function land() {
    const target = document.getElementById(id);
    if (!target) return false;
    // A lab's controls go in before anything is painted below them, so its output does not move
    // down when the lab starts a moment later.
    if (!controlsShown && target.matches("section.lab")) controlsShown = RAG.showControls(target);
    const top = target.getBoundingClientRect().top;
    const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
    if (Math.abs(top - margin) > 1) target.scrollIntoView({ block: "start", behavior: "instant" });
    placedAt = window.scrollY;
    return true;
  }

  const parsing = new MutationObserver(() => {
    if (!land() || !controlsShown && document.getElementById(id).matches("section.lab")) return;
    parsing.disconnect();
    performance.mark("rag:landed");  // for the benchmark: when the reader was put at the target
    if (window.ResizeObserver) {
      const sizes = new ResizeObserver(() => { if (pinned) land(); });
      sizes.observe(document.documentElement);
      const release = () => { pinned = false; sizes.disconnect(); };
      for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) {
        window.addEventListener(type, release, { once: true, passive: true, capture: true });
      }
      // Any scroll this script did not make (the reader's, a script's) ends the pin.
      window.addEventListener("scroll", () => { if (pinned && Math.abs(window.scrollY - placedAt) > 2) release(); },
        { passive: true });
      window.addEventListener("load", () => window.setTimeout(release, KEEP_MS), { once: true });
    }
  });
  parsing.observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => { if (land()) parsing.disconnect(); }, { once: true });
})();
