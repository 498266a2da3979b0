/* toc.js: the table of contents. A rail at the left on wide screens, a bar that opens on
 * narrow ones (the HTML has it closed, as a phone shows it, so nothing moves when this runs);
 * the link of the section being read is marked aria-current="true". */
(() => {
  "use strict";
  const RAG = window.RAG;
  const WIDE_QUERY = "(min-width: 64rem)";

  RAG.setupToc = () => {
    const toc = document.querySelector("nav.toc");
    if (!toc) return;
    const details = toc.querySelector("details");
    const summary = details && details.querySelector("summary");
    const currentLabel = toc.querySelector(".toc-current");
    const wide = window.matchMedia(WIDE_QUERY);

    const entries = [];
    for (const link of toc.querySelectorAll('a[href^="#"]')) {
      const id = RAG.hash.parse(link.getAttribute("href")).id;
      const target = id && document.getElementById(id);
      if (target) entries.push({ link, target });
    }
    if (!entries.length) return;

    if (details) {
      const fit = () => {
        details.open = wide.matches;
        // On a wide screen the summary is only a heading: keep it out of the tab order.
        if (summary) summary.tabIndex = wide.matches ? -1 : 0;
      };
      fit();
      wide.addEventListener("change", fit);
      details.addEventListener("toggle", () => { if (wide.matches && !details.open) details.open = true; });
      toc.addEventListener("click", (event) => {
        if (!wide.matches && event.target.closest("a")) details.open = false;
      });
      toc.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && !wide.matches && details.open) {
          details.open = false;
          if (summary) summary.focus();
        }
      });
    }

    const label = (link) => [...link.childNodes].map((node) => node.textContent).join(" ").replace(/\s+/g, " ").trim();

    let current = null;
    function update() {
      const line = window.innerHeight * 0.3;
      let found = null;
      for (const entry of entries) {
        if (entry.target.getBoundingClientRect().top <= line) found = entry;
      }
      const scroller = document.scrollingElement || document.documentElement;
      if (scroller.scrollTop > 0 && scroller.scrollTop + window.innerHeight >= scroller.scrollHeight - 2) {
        found = entries[entries.length - 1];
      }
      if (found === current) return;
      if (current) current.link.removeAttribute("aria-current");
      current = found;
      if (currentLabel) currentLabel.textContent = current ? label(current.link) : "";
      if (!current) return;
      current.link.setAttribute("aria-current", "true");
      // Keep the marked link in view inside the rail, without scrolling the page.
      if (wide.matches && toc.scrollHeight > toc.clientHeight) {
        const linkBox = current.link.getBoundingClientRect();
        const tocBox = toc.getBoundingClientRect();
        if (linkBox.top < tocBox.top + 40 || linkBox.bottom > tocBox.bottom - 40) {
          toc.scrollTop += linkBox.top - tocBox.top - toc.clientHeight / 3;
        }
      }
    }

    let pending = false;
    const schedule = () => {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(() => { pending = false; update(); });
    };
    // The root is the top 30% of the viewport: a section entering or leaving it is the moment
    // the current section can change. Scrolling (once a frame) catches the end of the page,
    // where the last, short section never reaches that line.
    const observer = new IntersectionObserver(schedule, { rootMargin: "0px 0px -70% 0px", threshold: [0, 1] });
    entries.forEach((entry) => observer.observe(entry.target));
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    schedule();
  };
})();
