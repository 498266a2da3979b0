// BM25 from scratch (with Lucene's IDF), on the four tiny passages of the worked example.
const K1 = 1.2, B = 0.75;

function tokenize(text) {
  // Lower-case, keep runs of letters and digits: "QB-4021" -> ["qb", "4021"].
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
}

function bm25Scores(query, texts) {
  const docs = texts.map(tokenize);
  const n = docs.length;
  const avgLen = docs.reduce((sum, doc) => sum + doc.length, 0) / n;
  const terms = [...new Set(tokenize(query))]; // each query term once
  const idf = new Map();
  for (const term of terms) {
    const having = docs.filter((doc) => doc.includes(term)).length;
    idf.set(term, Math.log(1 + (n - having + 0.5) / (having + 0.5)));
  }
  const results = docs.map((doc) => {
    const shares = []; // [term, its share of the score]
    for (const term of terms) {
      const f = doc.filter((t) => t === term).length;
      if (f) {
        const norm = K1 * (1 - B + B * doc.length / avgLen);
        shares.push([term, idf.get(term) * f * (K1 + 1) / (f + norm)]);
      }
    }
    return [shares.reduce((sum, [, share]) => sum + share, 0), shares];
  });
  return { terms, idf, avgLen, results };
}

const passages = {
  a: "QB-4021 means the file is over the upload limit of your plan.",
  b: "QB-4290 means an app sent too many requests.",
  c: "You can attach files to any note.",
  d: "Notes sync to every device you sign in on.",
};
const query = "QB-4021 file limit";

const { terms, idf, avgLen, results } = bm25Scores(query, Object.values(passages));
console.log(`query '${query}' -> terms ${terms.join(", ")}`);
console.log(`${Object.keys(passages).length} passages, average length ${avgLen.toFixed(2)} terms`);
console.log();
console.log("term    idf");
for (const term of terms) console.log(`${term.padEnd(6)} ${idf.get(term).toFixed(3)}`);
console.log();
const ranked = Object.keys(passages).map((pid, i) => [pid, results[i]])
  .sort((x, y) => y[1][0] - x[1][0]);
for (const [pid, [score, shares]] of ranked) {
  const parts = shares.map(([term, share]) => `${term} ${share.toFixed(3)}`).join(" + ");
  console.log(`${pid}  ${score.toFixed(3)}  ${parts ? "= " + parts : "(shares no term with the query)"}`);
}
