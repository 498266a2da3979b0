/* terms.js: the glossary terms' first moment. At load each term in the prose (a.term,
 * href="#term-<slug>") is described by its glossary definition (dd#term-def-<slug>), so a screen
 * reader hears it at once. The popovers (runtime/glossary.js, assets/scripts/glossary.js) load
 * the first time a reader reaches a term: the pointer over it, the focus on it, a tap on it.
 * That event and those that follow before the file comes are kept and handed to it in order
 * (RAG.onFirstUse); a first tap on a term opens its definition rather than follow the link, so
 * it is held back at once. Without JavaScript a term is a link to its entry in the glossary. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const TERM = 'a.term[href^="#term-"]';
  const STARTS = new Set(["mouseover", "focusin", "pointerdown", "click"]);  // the events that load the file
  const TYPES = ["mouseover", "mouseout", "focusin", "focusout", "pointerdown", "click", "keydown"];
  const CAPTURED = ["pointerdown"];  // glossary.js listens to it in the capture phase

  RAG.setupTerms = () => {
    for (const link of document.querySelectorAll(TERM)) {
      const definition = `term-def-${link.getAttribute("href").slice("#term-".length)}`;
      if (document.getElementById(definition)) link.setAttribute("aria-describedby", definition);
    }
    let lastPointer = "mouse";
    RAG.onFirstUse("glossary", { types: TYPES, captured: CAPTURED,
      keeps(event, started) {
        if (event.type === "pointerdown") lastPointer = event.pointerType || "mouse";
        const term = event.target && event.target.closest ? event.target.closest(TERM) : null;
        if (!started && !(term && STARTS.has(event.type))) return false;
        if (event.type === "click" && term && (lastPointer === "touch" || lastPointer === "pen")) event.preventDefault();
        return true;
      },
      load: () => RAG.loadScript(RAG.assets().scripts.glossary).then(() => RAG.termPopups()) });
  };
})();
