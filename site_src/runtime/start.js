/* start.js: the runtime's start, last in assets/app.js. It marks the page as scripted (so the
 * stylesheet shows the labs' controls), wires the page-wide parts, then hands the labs to the
 * lab runtime, which starts each one only when the reader nears it. */
(() => {
  "use strict";
  const RAG = window.RAG;
  document.documentElement.classList.add("js");

  function start() {
    for (const [name, step] of [["reading path", RAG.setupReadingPath], ["contents", RAG.setupToc], ["glossary", RAG.setupTerms],
                                ["samples", RAG.setupSamples], ["scroll boxes", RAG.setupScrollers],
                                ["labs", RAG.startLabs]]) {
      try { step(); } catch (error) { console.error(`[RAG] ${name} failed:`, error); }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
