/* site_src/engine/evaluate.js: the twin of engine/evaluate.py (rank_of, recall_at_k,
   passages_found, hit_place, hits_at_k, share_found): where the right passages land, and
   recall@k, ties counted as ties.

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

  /** [first, last, ids] for each run of equal scores, best first. */
  function tieGroups(ranking) {
    const groups = [];
    let start = 0;
    for (let end = 1; end <= ranking.length; end++) {
      if (end === ranking.length || ranking[end][1] !== ranking[start][1]) {
        groups.push([start + 1, end, ranking.slice(start, end).map(([pid]) => pid)]);
        start = end;
      }
    }
    return groups;
  }

  /** [best, worst]: where the first right passage lands whichever way ties go, or null. */
  function hitPlace(ranking, rightIds) {
    const right = new Set(rightIds);
    for (const [first, last, ids] of tieGroups(ranking)) {
      const inside = ids.filter((pid) => right.has(pid)).length;
      if (inside) return [first, last - inside + 1];
    }
    return null;
  }

  /** [sure hits, possible hits, questions] at k from each question's hit place (or null). */
  function hitsAtK(found, k) {
    const sure = found.filter((place) => place !== null && place !== undefined && place[1] <= k).length;
    const possible = found.filter((place) => place !== null && place !== undefined && place[0] <= k).length;
    return [sure, possible, found.length];
  }

  /** [right passages surely in the top k, right passages]: one question's recall@k. */
  function shareFound(ranking, rightIds, k) {
    const right = new Set(rightIds);
    let found = 0;
    for (const [first, last, ids] of tieGroups(ranking)) {
      if (first > k) break;
      const inside = ids.filter((pid) => right.has(pid)).length;
      found += last <= k ? inside : Math.max(0, inside - (last - k));
    }
    return [found, right.size];
  }

  Object.assign(E, { rankOf, recallAtK, passagesFound, hitPlace, hitsAtK, shareFound });
})();
