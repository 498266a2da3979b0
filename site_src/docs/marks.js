/* marks.js: the reader's golden set: for each question, the chunks that answer it, kept by the
 * SHA-256 of each chunk's text (RAG.docs.marks). A mark outlives a change of chunking wherever its
 * text survives, and is "lost" under a setting none of whose chunks has that text. The sample
 * documents' answers are quotes (corpus/sample-docs/questions.yaml): a chunk of the quote's file
 * that contains a quote (white space collapsed) answers its question, whatever cut it. No window.
 *
 *   marks: {questionId: [hash, …]}
 *   RAG.docs.marks.fromQuotes(chunks, answers)  answers {questionId: {source: [quote]}} -> marks
 *   RAG.docs.marks.split(marks, chunks)         -> {present: marks, lost: marks}: which hashes a chunking has
 *   RAG.docs.marks.toggle(marks, questionId, hash) -> a new marks object with that mark added or taken away
 *
 * Example: RAG.docs.marks.split({q1: ["aa", "bb"]}, [{hash: "aa"}]) -> {present: {q1: ["aa"]}, lost: {q1: ["bb"]}}
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const collapse = (text) => RAG.engine.words(text).join(" ");

  function fromQuotes(chunks, answers) {
    const marks = {};
    for (const [question, bySource] of Object.entries(answers)) {
      const hashes = [];
      for (const chunk of chunks) {
        const quotes = bySource[chunk.source] || [];
        const text = collapse(chunk.text);
        if (quotes.some((quote) => text.includes(collapse(quote))) && !hashes.includes(chunk.hash)) hashes.push(chunk.hash);
      }
      marks[question] = hashes;
    }
    return marks;
  }

  function split(marks, chunks) {
    const known = new Set(chunks.map((c) => c.hash));
    const present = {};
    const lost = {};
    for (const [question, hashes] of Object.entries(marks)) {
      present[question] = hashes.filter((h) => known.has(h));
      lost[question] = hashes.filter((h) => !known.has(h));
    }
    return { present, lost };
  }

  function toggle(marks, question, hash) {
    const hashes = marks[question] || [];
    return { ...marks, [question]: hashes.includes(hash) ? hashes.filter((h) => h !== hash) : [...hashes, hash] };
  }

  docs.marks = { fromQuotes, split, toggle };
})();
