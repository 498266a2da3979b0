/* scrollers.js: a box that scrolls sideways (a wide table, code, a formula, a diagram) must be
 * reachable by keyboard to be scrolled, so it gets tabindex="0" while it overflows. Boxes are
 * measured when they come near the viewport (a far-away section costs nothing at load) and
 * again after a resize. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const SCROLLERS = ".table-scroll, pre, .figure-scroll, figure.figure, .math-block, math[display=block]";

  function mark(box) {
    const overflows = box.scrollWidth > box.clientWidth + 1;
    if (overflows && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.dataset.ragScroller = "";
    } else if (!overflows && box.dataset.ragScroller !== undefined) {
      box.removeAttribute("tabindex");
      delete box.dataset.ragScroller;
    }
  }

  RAG.markScrollers = (root = document) => root.querySelectorAll(SCROLLERS).forEach(mark);

  RAG.setupScrollers = () => {
    const boxes = [...document.querySelectorAll(SCROLLERS)];
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) mark(entry.target);
    }, { rootMargin: "100% 0px 100% 0px" });
    boxes.forEach((box) => observer.observe(box));
    let timer = null;
    window.addEventListener("resize", () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => RAG.markScrollers(), 200);
    });
  };
})();
