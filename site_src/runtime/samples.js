/* samples.js: the code samples' first moment. What their tabs and copy buttons do
 * (runtime/samples-ui.js) comes with the JavaScript twins in assets/samples.js, loaded the first
 * time a reader clicks in a sample's bar or moves between its tabs with the keys, and at once
 * for a reader who picked a language on an earlier visit. The events that come before it are
 * kept and handed to it in order (a key that moves between tabs is held back at once, as the
 * tabs would: RAG.onFirstUse). Without JavaScript the Python tab shows, and the copy button is hidden. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const LANGUAGE_KEY = "rag-explainer.sample-language";  // runtime/samples-ui.js writes it
  const TAB_KEYS = new Set(["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"]);

  function keeps(event) {
    if (!(event.target.closest && event.target.closest("figure.sample .sample-bar"))) return false;
    if (event.type === "keydown") {
      if (!(TAB_KEYS.has(event.key) && event.target.closest('[role="tab"]'))) return false;
      event.preventDefault();
    }
    return true;
  }

  RAG.setupSamples = () => {
    if (!document.querySelector("figure.sample")) return;
    const start = RAG.onFirstUse("samples", { types: ["click", "keydown"], keeps,
      load: () => RAG.need("samples", RAG.assets().samples).then(() => {
        RAG.restoreSampleLanguage();
        return RAG.onSampleEvent;
      }) });
    let saved = null;
    try { saved = window.localStorage.getItem(LANGUAGE_KEY); } catch (error) { /* private mode, file:// policies */ }
    if (saved) start();
  };
})();
