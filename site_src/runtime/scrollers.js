/* scrollers.js: a box that scrolls sideways (a wide table, code, a formula, a diagram) must be
 * reachable by keyboard to be scrolled. The rule kept here: every such box is focusable, unless
 * it has been measured at the reader's width and found not to overflow.
 *
 * The build writes the boxes of the prose focusable (builder/page/scroll_boxes.py, so readers
 * without JavaScript have them too, and axe finds nothing at load); this file does the same at
 * once, without measuring, for the boxes a lab draws (data-rag-scroller), then measures each box
 * as it nears the screen and takes away the tab stop of one that scrolls nothing. Measuring only
 * near the screen keeps far sections skipped (content-visibility): measuring them would lay
 * them out. After a resize, boxes near the screen are measured again and the others are
 * focusable again until they are. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const SCROLLERS = ".table-scroll, pre, .figure-scroll, figure.figure, .math-block, math[display=block]";

  /** Boxes this file or the build may change: anything else's tabindex is its author's. */
  const ours = (box) => box.hasAttribute("data-rag-scroller") || box.hasAttribute("data-scroll-box");

  /** Focusable without measuring: the box may overflow, and nobody has looked yet. */
  function reachable(box) {
    if (box.hasAttribute("tabindex") || box.closest("template")) return;
    box.setAttribute("tabindex", "0");
    box.setAttribute("data-rag-scroller", "");
  }

  function measure(box) {
    if (!ours(box) && box.hasAttribute("tabindex")) return;
    if (box.scrollWidth > box.clientWidth + 1) reachable(box);
    else if (ours(box) && document.activeElement !== box) box.removeAttribute("tabindex");
  }

  RAG.markScrollers = (root = document) => root.querySelectorAll(SCROLLERS).forEach(measure);

  RAG.setupScrollers = () => {
    const near = new Set();
    const nearby = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          near.add(entry.target);
          measure(entry.target);
        } else {
          near.delete(entry.target);
        }
      }
    }, { rootMargin: "100% 0px 100% 0px" });
    const watch = (box) => {
      reachable(box);
      nearby.observe(box);
    };
    const boxesIn = (node) => (node.matches(SCROLLERS) ? [node] : []).concat([...node.querySelectorAll(SCROLLERS)]);

    const forget = (box) => {
      nearby.unobserve(box);
      near.delete(box);
    };

    document.querySelectorAll(SCROLLERS).forEach(watch);
    // A lab draws new boxes when the reader changes its state (and drops the old ones).
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) if (node.nodeType === Node.ELEMENT_NODE) boxesIn(node).forEach(forget);
        for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) boxesIn(node).forEach(watch);
      }
    }).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });

    let timer = null;
    window.addEventListener("resize", () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        for (const box of document.querySelectorAll(SCROLLERS)) {
          if (near.has(box)) measure(box);
          else if (ours(box)) reachable(box);
        }
      }, 200);
    });
  };
})();
