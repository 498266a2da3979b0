/* samples.js: the code samples' first moment. What their tabs and copy buttons do
 * (runtime/samples-ui.js) comes with the JavaScript twins in assets/samples.js, loaded the first
 * time a reader clicks in a sample's bar or moves between its tabs with the keys, and at once
 * for a reader who picked a language on an earlier visit. The events that come before it are
 * kept and handed to it in order (a key that moves between tabs is held back at once, as the
 * tabs would). Without JavaScript the Python tab shows, and the copy button is hidden. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const LANGUAGE_KEY = "rag-explainer.sample-language";  // runtime/samples-ui.js writes it
  const TAB_KEYS = new Set(["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"]);
  const TYPES = ["click", "keydown"];

  RAG.setupSamples = () => {
    if (!document.querySelector("figure.sample")) return;
    const early = [];  // events before the file came
    let loading = null;
    const load = () => loading || (loading = RAG.need("samples", RAG.assets().samples).then(() => {
      for (const type of TYPES) {
        document.removeEventListener(type, keep);
        document.addEventListener(type, RAG.onSampleEvent);
      }
      RAG.restoreSampleLanguage();
      early.splice(0).forEach(RAG.onSampleEvent);
    }).catch((error) => console.error("[RAG] samples:", error)));
    function keep(event) {
      if (!(event.target.closest && event.target.closest("figure.sample .sample-bar"))) return;
      if (event.type === "keydown") {
        if (!(TAB_KEYS.has(event.key) && event.target.closest('[role="tab"]'))) return;
        event.preventDefault();
      }
      early.push(event);
      load();
    }
    for (const type of TYPES) document.addEventListener(type, keep);
    let saved = null;
    try { saved = window.localStorage.getItem(LANGUAGE_KEY); } catch (error) { /* private mode, file:// policies */ }
    if (saved) load();
  };
})();
