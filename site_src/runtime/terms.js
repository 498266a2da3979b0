/* terms.js: the glossary terms' first moment. At load each term in the prose (a.term,
 * href="#term-<slug>") is described by its glossary definition (dd#term-def-<slug>), so a screen
 * reader hears it at once. The popovers (runtime/glossary.js, assets/scripts/glossary.js) load
 * the first time a reader reaches a term: the pointer over it, the focus on it, a tap on it.
 * That event and those that follow before the file comes are kept and handed to it in order; a
 * first tap on a term opens its definition rather than follow the link, so it is held back at
 * once. Without JavaScript a term is a link to its entry in the glossary. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const TERM = 'a.term[href^="#term-"]';
  const STARTS = new Set(["mouseover", "focusin", "pointerdown", "click"]);  // the events that load the file
  const TYPES = ["mouseover", "mouseout", "focusin", "focusout", "pointerdown", "click", "keydown"];
  const CAPTURED = new Set(["pointerdown"]);  // glossary.js listens to it in the capture phase

  RAG.setupTerms = () => {
    for (const link of document.querySelectorAll(TERM)) {
      const definition = `term-def-${link.getAttribute("href").slice("#term-".length)}`;
      if (document.getElementById(definition)) link.setAttribute("aria-describedby", definition);
    }
    const early = [];  // events before the file came
    let loading = null;
    let lastPointer = "mouse";
    const load = () => loading || (loading = RAG.loadScript(RAG.assets().scripts.glossary).then(() => {
      const handle = RAG.termPopups();
      for (const type of TYPES) {
        document.removeEventListener(type, keep, CAPTURED.has(type));
        document.addEventListener(type, handle, CAPTURED.has(type));
      }
      early.splice(0).forEach(handle);
    }).catch((error) => console.error("[RAG] glossary:", error)));
    function keep(event) {
      if (event.type === "pointerdown") lastPointer = event.pointerType || "mouse";
      const term = event.target && event.target.closest ? event.target.closest(TERM) : null;
      if (!loading && !(term && STARTS.has(event.type))) return;
      if (event.type === "click" && term && (lastPointer === "touch" || lastPointer === "pen")) event.preventDefault();
      early.push(event);
      load();
    }
    for (const type of TYPES) document.addEventListener(type, keep, CAPTURED.has(type));
  };
})();
