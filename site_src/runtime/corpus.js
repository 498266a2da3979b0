/* corpus.js: a corpus as every view reads it (RAG.corpus), whoever made it: the help center of
 * the build's data, or any chunks handed over (a reader's documents, a test's made-up corpus).
 * It holds its passages, a lookup by id and a BM25 index, each built once; its settings; and its
 * own questions: the presets (with the runs the build computed for them) and the questions asked
 * live (searched here, with the engine's twins, when they come without runs).
 *
 *   RAG.corpus.fromData(data)        the build's data: data.passages, questions, runs, settings
 *   RAG.corpus.fromChunks(chunks, {settings, vectors, questions, denseTolerance, index})
 *                                    chunks [{id, text, title, section?, document?, ...}]; vectors,
 *                                    one array per chunk in their order, for dense search (optional);
 *                                    questions [{id, text, vector?, answers?}], searched here; index,
 *                                    their BM25 at the settings' k1 and b, built already (optional:
 *                                    RAG.docs.bm25 builds it in slices, where one call would be long)
 *   RAG.corpus.page(data)            the page's corpus: fromData, once per data; a question asked
 *                                    live is told to the page ("rag:questions" on document)
 *
 *   corpus.passages, ids, passage(id), has(id), settings, vectors (null without them)
 *   corpus.index                     BM25 (RAG.engine.BM25) at the settings' k1 and b, built once
 *   corpus.indexAt(k1, b)            the index at other settings (the last one asked is kept)
 *   corpus.search(text, vector)      {dense, bm25, hybrid}: dense and fused only with a vector
 *   corpus.questions                 {get(id), add(question), live(), presets()}
 *   corpus.question(id)              a preset or a question asked live, with its runs; or null
 *   corpus.rightPassages(question)   the ids of the passages that answer it ([] when none is known)
 *
 * The BM25 index and the searches need the engine's twins (assets/scripts/engine.js): a view
 * that reads them names "engine" in its lab's SCRIPTS.
 *
 * Example: RAG.corpus.fromChunks([{id: "a", text: "Refunds within 14 days", title: "Refunds"}],
 *            {settings}).search("refund days", null).bm25 -> [["a", 0.287682]]
 */
(() => {
  "use strict";
  const RAG = window.RAG;

  /** The ids of the passages that answer a question: its `answers`, or its one `answer`. */
  const rightPassages = (question) => {
    if (!question) return [];
    if (Array.isArray(question.answers)) return question.answers;
    return question.answer ? [question.answer] : [];
  };

  /** The vectors end to end in one Float64Array (set() copies each at once: flat() over 2,000 would take a tenth of a second). */
  const flatten = (vectors) => {
    const size = vectors.length ? vectors[0].length : 0;
    const flat = new Float64Array(vectors.length * size);
    vectors.forEach((vector, i) => flat.set(vector, i * size));
    return flat;
  };

  function makeCorpus({ passages, settings, vectors, presets, announce, denseTolerance = 0, index: built = null }) {
    const byId = new Map(passages.map((p) => [p.id, p]));
    const ids = passages.map((p) => p.id);
    const flat = vectors ? flatten(vectors) : null;
    if (built && (built.nDocs !== passages.length || built.k1 !== settings.bm25.k1 || built.b !== settings.bm25.b)) {
      throw new RangeError(`RAG.corpus: the index given holds ${built.nDocs} texts at k1 ${built.k1}, b ${built.b}; ` +
        `the corpus has ${passages.length} at k1 ${settings.bm25.k1}, b ${settings.bm25.b}: build it over these chunks at the settings' k1 and b`);
    }
    let index = built;
    let other = null;  // {k1, b, index}: the last index asked for at other settings
    const live = new Map();

    const corpus = {
      passages, ids, settings, vectors: vectors || null,
      // how close two cosines may be and still be told apart (0: the build's own vectors)
      denseTolerance,
      passage: (id) => byId.get(id) || null,
      has: (id) => byId.has(id),
      get index() {
        if (!index) index = new RAG.engine.BM25(passages.map((p) => p.text), settings.bm25.k1, settings.bm25.b);
        return index;
      },
      indexAt(k1, b) {
        if (k1 === settings.bm25.k1 && b === settings.bm25.b) return corpus.index;
        if (!other || other.k1 !== k1 || other.b !== b) {
          other = { k1, b, index: new RAG.engine.BM25(passages.map((p) => p.text), k1, b) };
        }
        return other.index;
      },
      search(text, vector) {
        const E = RAG.engine;
        const bm25 = E.bm25Ranking(ids, corpus.index, text);
        const dense = vector && flat ? E.denseRanking(ids, flat, vector) : null;
        return { dense, bm25, hybrid: dense ? E.hybridRanking(dense, bm25, settings.fusion_depth, settings.rrf_k) : null };
      },
      questions: {
        get(id) {
          if (live.has(id)) return live.get(id);
          return presets.get(id) || null;
        },
        /** A question asked live (its runs given, or searched here); asked again, it replaces the one before. */
        add(question) {
          const runs = question.runs || corpus.search(question.text, question.vector);
          live.set(question.id, { ...question, source: "live", runs });
          if (announce && typeof document !== "undefined") {
            document.dispatchEvent(new CustomEvent("rag:questions", { detail: { id: question.id } }));
          }
          return live.get(question.id);
        },
        live: () => [...live.values()],
        presets: () => [...presets.values()],
      },
      question: (id) => corpus.questions.get(id),
      rightPassages,
    };
    for (const [id, question] of presets) {
      if (!question.runs) presets.set(id, { ...question, runs: corpus.search(question.text, question.vector) });
    }
    return corpus;
  }

  /** The build's data as a corpus: its passages, settings, and presets with the build's runs. */
  function fromData(data, { announce = false } = {}) {
    const presets = new Map(data.questions.filter((q) => data.runs[q.id])
      .map((q) => [q.id, { ...q, source: "build", runs: data.runs[q.id] }]));
    return makeCorpus({ passages: data.passages, settings: data.settings, presets, announce });
  }

  /** Chunks as a corpus: [{id, text, title, section?, document?}], a chunk's section and document
   *  its title unless given; each question searched here (dense with its vector, when both it and
   *  the chunks have one). */
  function fromChunks(chunks, { settings, vectors = null, questions = [], denseTolerance = 0, index = null } = {}) {
    if (!settings || !settings.bm25) throw new TypeError("RAG.corpus.fromChunks(chunks, {settings}): give the settings (data.settings)");
    if (vectors && vectors.length !== chunks.length) {
      throw new RangeError(`RAG.corpus.fromChunks: ${vectors.length} vectors for ${chunks.length} chunks`);
    }
    const passages = chunks.map((chunk) => ({ ...chunk, section: chunk.section ?? chunk.title, document: chunk.document ?? chunk.title }));
    const presets = new Map(questions.map((q) => [q.id, { ...q, set: q.set || "made", source: "chunks" }]));
    return makeCorpus({ passages, settings, vectors, presets, denseTolerance, index });
  }

  const pages = new WeakMap();
  /** The page's own corpus, made once per data; the labs share it, and its live questions. */
  function page(data) {
    if (!pages.has(data)) pages.set(data, fromData(data, { announce: true }));
    return pages.get(data);
  }

  RAG.corpus = { fromData, fromChunks, page, rightPassages };
})();
