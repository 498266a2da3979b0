/* loader.js: fetch what a lab needs only when it needs it. Scripts are plain <script src>
 * elements (they work from file://, where fetch() does not), each loaded once; a script
 * hands its data over with RAG.provide(name, value), which RAG.need(name) waits for.
 *
 * The build lists every file in <script type="application/json" id="rag-assets">:
 *   {"data": "assets/data.js?v=…", "labs": {"bm25": "assets/labs/bm25.js?v=…"}, "scripts": {"engine": …}}
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const scripts = new Map();   // url -> Promise
  const provided = new Map();  // name -> value
  const waiting = new Map();   // name -> [resolve]

  let manifest = null;
  RAG.assets = () => {
    if (manifest) return manifest;
    const node = document.getElementById("rag-assets");
    manifest = node ? JSON.parse(node.textContent) : { labs: {}, scripts: {} };
    return manifest;
  };

  /** Load a classic script once; resolves when it has run, rejects naming the file. */
  RAG.loadScript = (url) => {
    if (!scripts.has(url)) {
      scripts.set(url, new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = url;
        script.async = true;
        script.onload = () => resolve(url);
        script.onerror = () => reject(new Error(`${url.split("?")[0]} could not be loaded`));
        document.head.appendChild(script);
      }));
    }
    return scripts.get(url);
  };

  /** Called by a data script: RAG.provide("data", {...}). */
  RAG.provide = (name, value) => {
    provided.set(name, value);
    for (const resolve of waiting.get(name) || []) resolve(value);
    waiting.delete(name);
  };

  /** The value a script provides under `name`, once it has run. */
  RAG.provided = (name) => {
    if (provided.has(name)) return Promise.resolve(provided.get(name));
    return new Promise((resolve) => {
      if (!waiting.has(name)) waiting.set(name, []);
      waiting.get(name).push(resolve);
    });
  };

  /**
   * What a file does, loaded on first use (runtime/terms.js, samples.js, answers.js): the
   * document's events of `types` pass through keeps(event, started) (started: the file is on its
   * way), which says whether to keep one, and may hold it back at once (preventDefault) as the
   * file would. The first event kept loads the file (load(): a Promise of handle(event)); the
   * events kept meanwhile are then handed to handle in order, and every later one goes to it
   * directly. `captured`: the types handle listens to in the capture phase. Returns start(),
   * which loads the file now (a choice remembered from an earlier visit).
   * Example: RAG.onFirstUse("samples", {types: ["click"], keeps: (e) => Boolean(e.target.closest(".sample-bar")), load})
   */
  RAG.onFirstUse = (name, { types, captured = [], keeps, load }) => {
    const early = [];
    let loading = null;
    const phase = (type) => captured.includes(type);
    const start = () => loading || (loading = load().then((handle) => {
      for (const type of types) {
        document.removeEventListener(type, keep, phase(type));
        document.addEventListener(type, handle, phase(type));
      }
      early.splice(0).forEach(handle);
    }).catch((error) => console.error(`[RAG] ${name}:`, error)));
    function keep(event) {
      if (!keeps(event, loading !== null)) return;
      early.push(event);
      start();
    }
    for (const type of types) document.addEventListener(type, keep, phase(type));
    return start;
  };

  /** Load `url` and wait for the value it provides under `name`. */
  RAG.need = (name, url) => RAG.loadScript(url).then(() => {
    if (!provided.has(name)) throw new Error(`${url.split("?")[0]} did not provide "${name}"; rebuild the site`);
    return provided.get(name);
  });
})();
