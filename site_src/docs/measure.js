/* measure.js: recall on the reader's golden set (RAG.docs.measure): for each retriever and k,
 * how many questions find a marked chunk in the top k (a hit), the share of their marks found
 * (recall, for questions with several marks), the Wilson interval of the hits, and, for each pair
 * of retrievers, the exact sign test of the questions they split and roughly how many questions it
 * would take to see a difference of that size. Ties are the engine's: chunks whose scores are
 * equal to 6 decimals share a place (RAG.engine.places), or, in a list given a tolerance
 * (`tolerances`, per retriever: the browser model's cosines, data.live.cosine_tolerance, as the
 * hybrid view draws them), any two scores within it of each other; so a tie that straddles
 * k is a hit for some of the ranks it spans and a miss for others; every figure is then a range,
 * low (the tie counted as a miss) to high (as a hit). Proven equal to engine/evaluate.py and
 * engine/significance.py by tests/docs/test_measure.py. No window: a page, a worker or Node.
 *
 * Counts use the engine's twins: recallAtK over each question's rank (the last rank of the best
 * marked chunk's place for low, its first for high), passagesFound over each question's marks,
 * wilson (z = Z_95, engine/significance.py's), signTest.
 *
 * How many questions: two retrievers split d = wins + losses of the n questions (one hits, the
 * other misses, for sure); the better one wins a share p = wins / d of them. At D split questions
 * in the same share (round(D·p) wins, half up), the two-sided sign test gives P = 2·Σ_{i ≤ losses}
 * C(D, i) / 2^D; the answer is the smallest D with P <= 0.05 (exactly: 40·Σ <= 2^D, in integers),
 * and the questions that takes, ceil(D·n / d), if the share of split questions stays d / n. None
 * when d is 0 or wins = losses; "more than" past MAX_SPLIT split questions.
 *
 *   RAG.docs.measure({chunks, runs, marks, ks, retrievers, tolerances}) -> {questions, lost, perQuestion, recall, pairs}
 *     chunks [{id, hash}]; runs {questionId: {dense: [[id, score]], bm25, hybrid}}; marks {questionId: [hash]};
 *     tolerances {retriever: how close two scores tie} (optional: {dense: 5e-4}; 0 for a retriever not named)
 *   RAG.docs.questionsNeeded(wins, losses, questions) -> {split, questions, p} or {more: MAX_SPLIT} or null
 *   RAG.docs.compareSettings([{label, setting, chunks, runs}], marks, options) -> [{label, setting, lost, measured}]
 *   RAG.docs.pairInWords(pair) -> what a pair of `measure`'s says, as the lab writes it
 *
 * Example: RAG.docs.questionsNeeded(4, 1, 10) -> {split: 12, questions: 24, p: 0.038574}
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const E = () => RAG.engine;

  const Z_95 = 1.959964;  // engine/significance.py Z_95
  const MAX_SPLIT = 10000;
  const RETRIEVERS = ["dense", "bm25", "hybrid"];
  const KS = [1, 3, 5];

  /** The smallest D (split questions) at which the same share of wins passes the sign test at 0.05. */
  function questionsNeeded(wins, losses, questions) {
    const W = Math.max(wins, losses);
    const L = Math.min(wins, losses);
    const T = W + L;
    if (T === 0 || W === L) return null;
    const bw = BigInt(W);
    const bt = BigInt(T);
    // C = C(D, l), S = Σ_{i <= l} C(D, i), P = 2^D, kept exactly while D grows by one and l by 0 or 1.
    let l = 0;
    let C = 1n;
    let S = 1n;
    let P = 1n;
    for (let D = 1; D <= MAX_SPLIT; D++) {
      const d = BigInt(D);
      const w = Number((2n * d * bw + bt) / (2n * bt));  // round(D · W / T), half up
      const next = D - w;
      S = 2n * S - C;                                  // Σ_{i <= l} C(D, i)
      C = (C * d) / (d - BigInt(l));                   // C(D, l)
      if (next === l + 1) {
        C = (C * (d - BigInt(l))) / BigInt(l + 1);     // C(D, l + 1)
        S += C;
        l += 1;
      }
      P *= 2n;
      if (40n * S <= P) {
        return { split: D, questions: Math.floor((D * questions + T - 1) / T), p: E().signTest(w, next) };
      }
    }
    return { more: MAX_SPLIT };
  }

  /** Per chunk position, its hash and its place; each marked hash's best place (first and last rank). */
  function bestPlaces(ranking, hashOf, marked, tolerance) {
    const places = E().places(ranking, tolerance);
    const best = new Map();
    ranking.forEach(([id], i) => {
      const hash = hashOf.get(id);
      if (!marked.has(hash)) return;
      const seen = best.get(hash);
      if (!seen || places[i][0] < seen[0]) best.set(hash, places[i]);
    });
    return best;
  }

  /** The ids of a ranking's chunks whose places end at or before k (sure), or start there (possible). */
  function topIds(ranking, k, edge, tolerance) {
    const places = E().places(ranking, tolerance);
    return ranking.filter((_, i) => places[i][edge] <= k).map(([id]) => id);
  }

  function measure({ chunks, runs, marks, ks = KS, retrievers = RETRIEVERS, tolerances = {} }) {
    const hashOf = new Map(chunks.map((c) => [c.id, c.hash]));
    const { present, lost } = docs.marks.split(marks, chunks);
    const questions = Object.keys(marks).filter((q) => present[q].length && runs[q]);
    const perQuestion = {};
    const recall = {};
    for (const retriever of retrievers) {
      perQuestion[retriever] = {};
      recall[retriever] = {};
      const tolerance = tolerances[retriever] || 0;
      const low = {};
      const high = {};
      for (const q of questions) {
        const ranking = runs[q][retriever];
        const marked = new Set(present[q]);
        const best = [...bestPlaces(ranking, hashOf, marked, tolerance).values()];
        const rankLow = best.length ? Math.min(...best.map((p) => p[1])) : null;
        const rankHigh = best.length ? Math.min(...best.map((p) => p[0])) : null;
        const found = {};
        for (const k of ks) {
          const hashesIn = (edge) => topIds(ranking, k, edge, tolerance).map((id) => hashOf.get(id));
          const sure = hashesIn(1);
          const maybe = hashesIn(0);
          found[k] = [E().passagesFound(sure, present[q], sure.length)[0], E().passagesFound(maybe, present[q], maybe.length)[0]];
        }
        perQuestion[retriever][q] = { rank: [rankLow, rankHigh], marks: present[q].length, found };
        low[q] = rankLow;
        high[q] = rankHigh;
      }
      for (const k of ks) {
        const n = questions.length;
        const hits = [E().recallAtK(questions.map((q) => low[q]), k)[0],
                      E().recallAtK(questions.map((q) => high[q]), k)[0]];
        const share = (edge) => (n ? questions.reduce((sum, q) => sum + perQuestion[retriever][q].found[k][edge] / present[q].length, 0) / n : 0);
        recall[retriever][k] = { n, hits, hitRate: hits.map((h) => (n ? h / n : 0)), wilson: hits.map((h) => E().wilson(h, n, Z_95)),
                                 recall: [share(0), share(1)] };
      }
    }
    const pairs = [];
    for (let a = 0; a < retrievers.length; a++) {
      for (let b = a + 1; b < retrievers.length; b++) {
        for (const k of ks) {
          const [A, B] = [retrievers[a], retrievers[b]];
          const sure = (r, q) => { const [lo] = perQuestion[r][q].rank; return lo !== null && lo <= k; };
          const never = (r, q) => { const [, hi] = perQuestion[r][q].rank; return hi === null || hi > k; };
          const wins = questions.filter((q) => sure(A, q) && never(B, q)).length;
          const losses = questions.filter((q) => sure(B, q) && never(A, q)).length;
          const undecided = questions.filter((q) => !(sure(A, q) || never(A, q)) || !(sure(B, q) || never(B, q))).length;
          pairs.push({ a: A, b: B, k, wins, losses, undecided, p: E().signTest(wins, losses), needed: questionsNeeded(wins, losses, questions.length) });
        }
      }
    }
    return { questions, lost, perQuestion, recall, pairs };
  }

  const NAMES = { bm25: "BM25", dense: "dense", hybrid: "hybrid" };
  const questionCount = (n) => `${n.toLocaleString("en")} question${n === 1 ? "" : "s"}`;

  /**
   * A pair of retrievers in words: the questions one finds in the top k and the other misses, the
   * sign test over them, and how many questions a difference of that size would take.
   * Example: RAG.docs.pairInWords({a: "bm25", b: "hybrid", k: 5, wins: 0, losses: 1, p: 1, needed: {questions: 36}})
   *   -> "At k = 5, BM25 and hybrid disagree on 1 question: hybrid alone finds 1, BM25 alone 0 (sign test
   *       p = 1.000). To see a difference of that size at p ≤ 0.05 would take about 36 questions."
   */
  function pairInWords(pair) {
    const [a, b] = [NAMES[pair.a] || pair.a, NAMES[pair.b] || pair.b];
    const split = pair.wins + pair.losses;
    if (!split) return `At k = ${pair.k}, ${a} and ${b} find the same questions: there is no difference to test.`;
    const [first, firstFinds, second, secondFinds] = pair.losses > pair.wins
      ? [b, pair.losses, a, pair.wins] : [a, pair.wins, b, pair.losses];
    const said = `At k = ${pair.k}, ${a} and ${b} disagree on ${questionCount(split)}: ` +
      (pair.wins === pair.losses ? `each finds ${firstFinds} the other misses`
        : `${first} alone finds ${firstFinds}, ${second} alone ${secondFinds}`) +
      ` (sign test p = ${pair.p.toFixed(3)}).`;
    if (!pair.needed) return `${said} With as many found either way, there is no difference to test.`;
    if (pair.needed.more) return `${said} A difference this small would take more than ${questionCount(pair.needed.more)} they disagree on to show.`;
    return `${said} To see a difference of that size at p \u2264 0.05 would take about ${questionCount(pair.needed.questions)}.`;
  }

  function compareSettings(tried, marks, options = {}) {
    return tried.map(({ label, setting, chunks, runs }) => ({
      label: label || docs.settingLabel(setting), setting, lost: docs.marks.split(marks, chunks).lost,
      measured: measure({ ...options, chunks, runs, marks }),
    }));
  }

  Object.assign(docs, { measure, questionsNeeded, compareSettings, pairInWords, Z_95, MAX_SPLIT });
})();
