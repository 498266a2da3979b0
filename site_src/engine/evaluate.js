/* site_src/engine/evaluate.js: the twin of engine/evaluate.py (rank_of, recall_at_k,
   passages_found): where the right passages land, and recall@k.

   What differs: "not in the list" is null for Python's None, and a pair is an array [hits,
   questions] for Python's tuple. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** 1-based rank of `answerId` in `rankedIds`, or null when it is not there. */
  function rankOf(rankedIds, answerId) {
    const at = rankedIds.indexOf(answerId);
    return at < 0 ? null : at + 1;
  }

  /** [hits, questions]: how many ranks are 1..k, out of all. Example: recallAtK([1, 4, null], 3) -> [1, 3] */
  function recallAtK(ranks, k) {
    const hits = ranks.filter((rank) => rank !== null && rank !== undefined && rank <= k).length;
    return [hits, ranks.length];
  }

  /** [right passages in the top k, right passages]: one question's recall@k. */
  function passagesFound(rankedIds, rightIds, k) {
    const top = new Set(rankedIds.slice(0, k));
    return [rightIds.filter((pid) => top.has(pid)).length, rightIds.length];
  }

  Object.assign(E, { rankOf, recallAtK, passagesFound });
})();
