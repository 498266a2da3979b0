/* site_src/engine/fusion.js: the twin of engine/fusion.py (rrf), reciprocal rank fusion.

   What differs: k has no default here; the caller gives it from the build's data
   (data.settings.rrf_k). A fused pair is an array [id, score] for Python's tuple. As in Python,
   each id's terms are added smallest first and equal scores keep the order ids were first seen,
   so the two agree bit for bit. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** Example: rrf([["a", "b"], ["b", "c"]], 60) -> [["b", 1/62 + 1/61], ["a", 1/61], ["c", 1/62]] */
  function rrf(rankedLists, k) {
    if (typeof k !== "number") throw new TypeError("rrf(lists, k): give k from data.settings.rrf_k");
    const terms = new Map();
    for (const ranked of rankedLists) {
      ranked.forEach((id, i) => {
        if (!terms.has(id)) terms.set(id, []);
        terms.get(id).push(1 / (k + i + 1));
      });
    }
    const fused = Array.from(terms, ([id, parts]) => [id, parts.slice().sort((a, b) => a - b).reduce((a, x) => a + x, 0)]);
    return fused.map((pair, i) => [pair, i]).sort((x, y) => (y[0][1] - x[0][1]) || (x[1] - y[1])).map((x) => x[0]);
  }

  Object.assign(E, { rrf });
})();
