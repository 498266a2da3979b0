/* live-search.js: a question searched in the browser through the build's stages (RAG.liveSearch):
 * dense search (the question's vector against the passages' vectors, cosine as a dot product of
 * unit vectors), BM25 and reciprocal rank fusion, with the engine's JavaScript twins (RAG.engine).
 * Every function takes what it searches as arguments, so the same code searches the help center
 * or any other corpus: the vectors come from whoever embedded them (the Ask lab passes the build's
 * passages.bin, checked by model-files.js; RAG.embedder embeds the question).
 *
 *   RAG.liveSearch.dense(queryVector, passageVectors, ids)  -> [[id, cosine]], every passage, best first
 *   RAG.liveSearch.bm25(text, passages, settings)           -> [[id, score]], those sharing a term, best first
 *   RAG.liveSearch.fused(dense, bm25, settings)             -> [[id, score]]: RRF of each list's top fusion_depth
 *   RAG.liveSearch.runs(text, queryVector, passageVectors, corpus) -> {dense, bm25, hybrid}
 * `passages` is [{id, text}], in the order of the vectors; `settings` is data.settings (bm25's k1
 * and b, fusion_depth, rrf_k); `corpus` is {passages, settings}; `passageVectors` a Float32Array
 * of passages x dimensions.
 *
 * Example: RAG.liveSearch.dense([1, 0], new Float32Array([0.6, 0.8, 1, 0]), ["a", "b"]) -> [["b", 1], ["a", 0.6]]
 */
(() => {
  "use strict";
  const RAG = globalThis.RAG;
  const indexes = new WeakMap();  // a passages array -> its BM25 index, built once

  // Ranking, tie-breaking and rounding are the engine's (site_src/engine/ranking.js, the twin of
  // engine/ranking.py), never this file's own.
  function dense(queryVector, passageVectors, ids) {
    const size = queryVector.length;
    if (passageVectors.length !== ids.length * size) {
      throw new Error(`the passages' vectors hold ${passageVectors.length / size} passages, the page's data ${ids.length}; rebuild the site`);
    }
    return RAG.engine.denseRanking(ids, passageVectors, queryVector);
  }

  function bm25(text, passages, settings) {
    if (!indexes.has(passages)) indexes.set(passages, new RAG.engine.BM25(passages.map((p) => p.text), settings.bm25.k1, settings.bm25.b));
    return RAG.engine.bm25Ranking(passages.map((p) => p.id), indexes.get(passages), text);
  }

  function fused(denseRun, bm25Run, settings) {
    return RAG.engine.hybridRanking(denseRun, bm25Run, settings.fusion_depth, settings.rrf_k);
  }

  function runs(text, queryVector, passageVectors, { passages, settings }) {
    const denseRun = dense(queryVector, passageVectors, passages.map((p) => p.id));
    const bm25Run = bm25(text, passages, settings);
    return { dense: denseRun, bm25: bm25Run, hybrid: fused(denseRun, bm25Run, settings) };
  }

  RAG.liveSearch = { dense, bm25, fused, runs };
})();
