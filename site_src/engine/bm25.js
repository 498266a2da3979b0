/* site_src/engine/bm25.js: the twin of engine/bm25.py (unique_terms, BM25 with extend, doc_freq,
   idf, tf_part, scores and explain), Lucene's BM25 over an inverted index, the same arithmetic in the
   same order. Uses tokenize.js.

   What differs: k1 and b have no defaults here; the caller gives them from the build's data
   (data.settings.bm25, whose one home is engine/settings.py). explain() returns plain objects
   {term, idf, tf, tfPart, score} for Python's TermContribution. Math.log may differ from C's log
   in the last bit (JavaScript engines differ among themselves too), so scores are equal to 1e-12,
   not always bit for bit. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** The query's terms, each once, in the order they first appear. */
  function uniqueTerms(query) {
    return Array.from(new Set(E.tokenize(query)));
  }

  /** Example: new BM25(["qb 4021 file limit", "qb"], 1.2, 0.75).scores("QB-4021") -> [0.7029…, 0.2416…] */
  function BM25(texts, k1, b) {
    if (typeof k1 !== "number" || typeof b !== "number") throw new TypeError("BM25(texts, k1, b): give k1 and b from data.settings.bm25");
    this.k1 = k1;
    this.b = b;
    this.lengths = [];
    this.postings = new Map();  // term -> [[text index, term frequency]], in text order
    texts.forEach((text, index) => {
      const terms = E.tokenize(text);
      this.lengths.push(terms.length);
      const counts = new Map();
      for (const term of terms) counts.set(term, (counts.get(term) || 0) + 1);
      for (const [term, count] of counts) {
        if (!this.postings.has(term)) this.postings.set(term, []);
        this.postings.get(term).push([index, count]);
      }
    });
    this.nDocs = texts.length;
    this.avgLen = this.nDocs ? this.lengths.reduce((a, n) => a + n, 0) / this.nDocs : 0;
  }
  /** Append the texts `other` indexes (they follow this index's) to this index, which is then
   * the one a single call over all the texts builds; returns this index.
   * Example: new BM25(["qb 4021 file limit"], 1.2, 0.75).extend(new BM25(["qb"], 1.2, 0.75)).scores("QB-4021") -> [0.7029…, 0.2416…] */
  BM25.prototype.extend = function (other) {
    if (other.k1 !== this.k1 || other.b !== this.b) {
      throw new RangeError(`BM25.extend: k1 and b differ (${other.k1}, ${other.b} against ${this.k1}, ${this.b})`);
    }
    for (const [term, postings] of other.postings) {
      let into = this.postings.get(term);
      if (!into) this.postings.set(term, (into = []));
      for (const [index, count] of postings) into.push([index + this.nDocs, count]);
    }
    for (const length of other.lengths) this.lengths.push(length);
    this.nDocs = this.lengths.length;
    this.avgLen = this.nDocs ? this.lengths.reduce((a, n) => a + n, 0) / this.nDocs : 0;
    return this;
  };
  BM25.prototype.docFreq = function (term) {
    return (this.postings.get(term) || []).length;
  };
  BM25.prototype.idf = function (term) {
    const n = this.docFreq(term);
    return Math.log(1 + (this.nDocs - n + 0.5) / (n + 0.5));
  };
  BM25.prototype.tfPart = function (tf, length) {
    const norm = this.k1 * (1 - this.b + this.b * length / this.avgLen);
    return tf * (this.k1 + 1) / (tf + norm);
  };
  /** One score per text, in text order; 0 where no query term occurs. */
  BM25.prototype.scores = function (query) {
    const totals = new Array(this.nDocs).fill(0);
    for (const term of uniqueTerms(query)) {
      const idf = this.idf(term);
      for (const [index, tf] of this.postings.get(term) || []) {
        totals[index] += idf * this.tfPart(tf, this.lengths[index]);
      }
    }
    return totals;
  };
  /** How each distinct query term adds to the score of text `index` (0 where absent). */
  BM25.prototype.explain = function (query, index) {
    return uniqueTerms(query).map((term) => {
      const hit = (this.postings.get(term) || []).find((p) => p[0] === index);
      const tf = hit ? hit[1] : 0;
      const idf = this.idf(term);
      const tfPart = tf ? this.tfPart(tf, this.lengths[index]) : 0;
      return { term, idf, tf, tfPart, score: idf * tfPart };
    });
  };

  Object.assign(E, { uniqueTerms, BM25 });
})();
