/* index-bm25.js: the engine's BM25 index (RAG.engine.BM25) over many chunks, built in slices so
 * the page keeps responding (RAG.docs.bm25). Over 2,000 chunks one constructor call holds the
 * main thread for a quarter of a second; here the engine's own constructor indexes a few chunks
 * at a time, and the engine's BM25#extend appends each part to the whole, between yields
 * (slices.js): the postings, lengths and average length are those of one call over all the
 * texts, so the scores are the engine's (tests/docs/test_index_bm25.py; extend's twin in
 * engine/bm25.py, tests/twins/). No window: a page, a worker or Node.
 *
 *   RAG.docs.bm25(texts, {k1, b, signal}) -> Promise of a RAG.engine.BM25 over the texts
 *
 * Example: (await RAG.docs.bm25(["qb 4021 file limit", "qb"], {k1: 1.2, b: 0.75})).scores("QB-4021") -> [0.7029…, 0.2416…]
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  // Characters given to one constructor call: tokenizing ~20,000 characters takes a few
  // milliseconds on a slow phone's core, well inside a slice.
  const PART_CHARS = 20000;

  /** The texts cut into runs of whole texts of about PART_CHARS characters each (one text may be longer). */
  const parts = (texts) => {
    const found = [];
    let start = 0;
    let chars = 0;
    texts.forEach((text, i) => {
      chars += text.length;
      if (chars >= PART_CHARS || i === texts.length - 1) {
        found.push([start, i + 1]);
        start = i + 1;
        chars = 0;
      }
    });
    return found;
  };

  docs.bm25 = async (texts, { k1, b, signal } = {}) => {
    const E = RAG.engine;
    const whole = new E.BM25([], k1, b);
    const slice = docs.slicer(signal);
    for (const [start, end] of parts(texts)) {
      await slice();
      whole.extend(new E.BM25(texts.slice(start, end), k1, b));
    }
    return whole;
  };
})();
