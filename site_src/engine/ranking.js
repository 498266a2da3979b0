/* site_src/engine/ranking.js: the twin of engine/ranking.py (round_score, best_first, ranked,
   dense_ranking, bm25_ranking, hybrid_ranking, places, rank_label) and of Python's round(x, digits) (roundTo), which
   every other twin that keeps a rounded figure calls. Uses fusion.js.

   roundTo is Python's round: the decimal nearest the double's exact value, an exact half to the
   even digit, read back as the nearest double. toFixed finds the nearest decimal exactly but
   sends an exact half away from zero, so an exact half is looked for in the double's exact
   expansion and sent to the even digit instead. (Math.round(x * 1e6) / 1e6 is not it: x * 1e6
   is itself rounded, which moves values near a half to the wrong side.)

   What differs: denseRanking takes the passages' vectors as one flat array, row after row (as
   the page ships them), and adds each dot product's terms in order in double precision; numpy's
   matmul adds in its own order (in float32 when the vectors are float32), so the two are equal
   where the sums are exact, which the harness's fixtures make them, and the live model's check
   (builder/live_model.py) measures how far apart they are on real vectors. hybridRanking takes
   the fusion depth and k from the caller (data.settings). */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  const SCORE_DIGITS = 6;

  /** Python's round(x, digits). Example: roundTo(0.0078125, 6) -> 0.007812 (an exact half: to even) */
  function roundTo(x, digits) {
    // A zero keeps its sign; a double this large is a whole number (and toFixed writes an exponent).
    if (x === 0 || !Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
    let text = x.toFixed(digits);
    // An exact half makes x * 2 * 10**digits an odd whole number, computed exactly below 2**53;
    // when that product is not whole, x is no half and toFixed's nearest decimal is Python's.
    const twice = x * 2 * Number(`1e${digits}`);
    if (Math.abs(twice) < 2 ** 53 && !Number.isInteger(twice)) return Number(text);
    // An exact half has digits + 1 decimals; 60 more are ample to tell it from its neighbours.
    const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
    const point = exact.indexOf(".");
    if (/^50*$/.test(exact.slice(point + 1 + digits))) {
      const down = (x < 0 ? "-" : "") + exact.slice(0, point + 1 + digits).replace(/\.$/, "");
      if (/[02468]$/.test(down)) text = down;
    }
    return Number(text);
  }

  /** A score as the build keeps it: roundTo(x, 6). */
  function roundScore(x) {
    return roundTo(x, SCORE_DIGITS);
  }

  /** The indexes of `scores`, highest first; equal scores keep their order.
   *  Example: bestFirst([0.2, 0.9, 0.2, 0.5]) -> [1, 3, 0, 2] */
  function bestFirst(scores) {
    return Array.from(scores, (_, i) => i).sort((i, j) => (scores[j] - scores[i]) || (i - j));
  }

  /** [[id, rounded score]] best first; equal scores keep corpus order. */
  function ranked(ids, scores) {
    return bestFirst(scores).map((i) => [ids[i], roundScore(scores[i])]);
  }

  /** By cosine: each passage's vector (row p of the flat `passageVectors`) dotted with the query's. */
  function denseRanking(ids, passageVectors, queryVector) {
    const size = queryVector.length;
    if (passageVectors.length !== ids.length * size) {
      throw new RangeError(`denseRanking: ${passageVectors.length} numbers are not ${ids.length} vectors of ${size}`);
    }
    const scores = ids.map((_, p) => {
      let dot = 0;
      for (let d = 0; d < size; d++) dot += passageVectors[p * size + d] * queryVector[d];
      return dot;
    });
    return ranked(ids, scores);
  }

  /** By BM25 (`index` an E.BM25 over the passages' texts): only the passages sharing a term. */
  function bm25Ranking(ids, index, query) {
    return ranked(ids, index.scores(query)).filter(([, score]) => score > 0);
  }

  /** The top `depth` of each list fused by RRF with constant `k`, scores rounded. */
  function hybridRanking(dense, bm25, depth, k) {
    if (typeof depth !== "number") throw new TypeError("hybridRanking(dense, bm25, depth, k): give depth from data.settings.fusion_depth");
    const top = (list) => list.slice(0, depth).map(([id]) => id);
    return E.rrf([top(dense), top(bm25)], k).map(([id, score]) => [id, roundScore(score)]);
  }

  /** Each item's place in a ranked [[id, score]] list, [first, last]: the ranks its tie spans;
   *  with a tolerance, an item within it of the one above shares that one's place (a chain: any
   *  two items within it of each other share a place).
   *  Example: places([["a", .9], ["b", .5], ["c", .5]]) -> [[1, 1], [2, 3], [2, 3]] */
  function places(ranking, tolerance = 0) {
    const found = [];
    let start = 0;
    for (let end = 1; end <= ranking.length; end++) {
      if (end === ranking.length || Math.abs(ranking[end][1] - ranking[end - 1][1]) > tolerance) {
        for (let i = start; i < end; i++) found.push([start + 1, end]);
        start = end;
      }
    }
    return found;
  }

  /** "2" for a place of its own, "2=" for one it shares. */
  const rankLabel = ([first, last]) => (last > first ? `${first}=` : String(first));

  Object.assign(E, { roundTo, roundScore, bestFirst, ranked, denseRanking, bm25Ranking, hybridRanking, places, rankLabel });
})();
