/* export.js: everything the reader made of their documents, as one JSON file, and that file read
 * back (RAG.docs.exportBundle, importBundle). The file holds the chunks (text, source, page,
 * headings, their hashes), the chunker setting that cut them, the vectors (optional: base64 of
 * little-endian float32), the questions (their vectors too) and their marks (chunk-text hashes, so
 * they outlive a new chunking wherever the text survives), the model's fingerprint and the page's
 * BM25 and RRF settings. site_src/docs/reproduce.py reproduces the rankings and recall from it;
 * pgvector-sql.js turns it into an SQL file. No window: a page, a worker or Node.
 *
 * Reading one back checks it, and refuses with the problem named (the field and what is wrong):
 * not JSON, another kind of file, another schema, a missing or mistyped field, a vector that is
 * not 384 numbers or not base64, a hash that is not its text's SHA-256 (edited by hand). One made
 * with another model is read, its vectors dropped: `dropped` says so and `toEmbed` lists the texts
 * to embed again.
 *
 *   RAG.docs.exportBundle({chunks, setting, vectors, questions, marks, fingerprint, settings, dimensions, denseTolerance})
 *     denseTolerance: how close two cosines tie in recall (data.live.cosine_tolerance; 0 by default)
 *     vectors: {hash: Float32Array} (optional); questions: [{id, text, vector?}]; settings: data.settings
 *     -> the bundle (an object; JSON.stringify it to save)
 *   RAG.docs.importBundle(text, {fingerprint, dimensions}) -> Promise of
 *     {bundle, chunks, setting, questions, marks, vectors: {hash: Float32Array}, questionVectors: {id: Float32Array},
 *      settings, dropped: "" | why, toEmbed: [text]}, or a rejection RAG.docs.ImportError naming the problem
 *
 * Example: RAG.docs.exportBundle({...}).schema -> 1
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const SCHEMA = 1;
  const KIND = "rag-explainer/documents";
  const HEX64 = /^[0-9a-f]{64}$/;

  class ImportError extends Error {
    constructor(message) {
      super(message);
      this.name = "ImportError";
    }
  }

  /* ------------------------------------------------------------ base64 of float32, little-endian */

  function vectorToBase64(vector) {
    const bytes = new Uint8Array(vector.length * 4);
    const view = new DataView(bytes.buffer);
    vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  /** The vector, or a string saying what is wrong with it. */
  function vectorFromBase64(text, dimensions) {
    if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4) return "is not base64";
    const binary = atob(text);
    if (binary.length % 4) return `is ${binary.length} bytes, not whole float32 numbers`;
    if (binary.length / 4 !== dimensions) return `holds ${binary.length / 4} numbers, not ${dimensions} (edited by hand?)`;
    const view = new DataView(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
    const vector = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) vector[i] = view.getFloat32(i * 4, true);
    if (!vector.every(Number.isFinite)) return "holds a number that is not finite";
    return vector;
  }

  /* ------------------------------------------------------------ export */

  function exportBundle({ chunks, setting, vectors = {}, questions = [], marks = {}, fingerprint, settings, dimensions = 384, model = "all-MiniLM-L6-v2",
                         denseTolerance = 0 }) {
    return {
      schema: SCHEMA,
      kind: KIND,
      model: { name: model, fingerprint, dimensions },
      settings: { bm25: { k1: settings.bm25.k1, b: settings.bm25.b }, rrf_k: settings.rrf_k, fusion_depth: settings.fusion_depth,
                  recall_ks: settings.recall_ks, dense_tolerance: denseTolerance },
      chunker: setting,
      chunks: chunks.map((c) => ({ id: c.id, hash: c.hash, text: c.text, source: c.source, page: c.page ?? null,
                                   last_page: c.lastPage ?? null, headings: c.headings,
                                   ...(vectors[c.hash] ? { vector: vectorToBase64(vectors[c.hash]) } : {}) })),
      questions: questions.map((q) => ({ id: q.id, text: q.text, marks: marks[q.id] || [],
                                         ...(q.vector ? { vector: vectorToBase64(q.vector) } : {}) })),
    };
  }

  /* ------------------------------------------------------------ import */

  const kindOf = (value) => (Array.isArray(value) ? "a list" : value === null ? "null" : typeof value);

  function need(value, where, type) {
    const ok = type === "list" ? Array.isArray(value) : type === "integer" ? Number.isInteger(value)
      : type === "object" ? value !== null && typeof value === "object" && !Array.isArray(value) : typeof value === type;
    const wanted = type === "list" ? "a list" : type === "integer" ? "a whole number" : "a " + type;
    if (!ok) throw new ImportError(`${where} should be ${wanted}, not ${kindOf(value)}`);
    return value;
  }

  async function importBundle(text, { fingerprint, dimensions = 384 } = {}) {
    let bundle;
    try {
      bundle = JSON.parse(text);
    } catch (error) {
      throw new ImportError(`this file is not JSON (${error.message}): it is damaged, or not an export of this page`);
    }
    need(bundle, "the file", "object");
    if (bundle.kind !== KIND) throw new ImportError(`this file is not an export of this page's documents (its kind is ${JSON.stringify(bundle.kind)}, not "${KIND}")`);
    if (bundle.schema !== SCHEMA) throw new ImportError(`this file has schema ${JSON.stringify(bundle.schema)}; this page reads schema ${SCHEMA}. Export it again from this page`);
    need(bundle.model, "model", "object");
    need(bundle.model.fingerprint, "model.fingerprint", "string");
    need(bundle.settings, "settings", "object");
    need(bundle.chunker, "chunker", "object");
    try {
      docs.checkSetting(bundle.chunker);
    } catch (error) {
      throw new ImportError(`chunker: ${error.message}`);
    }
    need(bundle.chunks, "chunks", "list");
    need(bundle.questions, "questions", "list");
    const sameModel = bundle.model.fingerprint === fingerprint && bundle.model.dimensions === dimensions;
    const chunks = [];
    const vectors = {};
    const ids = new Set();
    const hashes = await docs.textHashes(bundle.chunks.map((c, i) => need(need(c, `chunks[${i}]`, "object").text, `chunks[${i}].text`, "string")));
    bundle.chunks.forEach((c, i) => {
      const at = `chunks[${i}]`;
      need(c.id, `${at}.id`, "string");
      if (ids.has(c.id)) throw new ImportError(`${at}.id: "${c.id}" is there twice`);
      ids.add(c.id);
      need(c.source, `${at}.source`, "string");
      need(c.headings, `${at}.headings`, "list").forEach((h, j) => need(h, `${at}.headings[${j}]`, "string"));
      for (const field of ["page", "last_page"]) if (c[field] !== null) need(c[field], `${at}.${field}`, "integer");
      if (!HEX64.test(c.hash)) throw new ImportError(`${at}.hash should be 64 hex digits (a SHA-256), not ${JSON.stringify(c.hash)}`);
      if (c.hash !== hashes[i]) throw new ImportError(`${at}.hash is not the SHA-256 of ${at}.text: the text was changed after the export (edited by hand?). Export it again from this page`);
      if (c.vector !== undefined) {
        const vector = vectorFromBase64(c.vector, dimensions);
        if (typeof vector === "string") throw new ImportError(`${at}.vector ${vector}`);
        if (sameModel) vectors[c.hash] = vector;
      }
      chunks.push({ id: c.id, hash: c.hash, text: c.text, source: c.source, title: c.source, headings: c.headings, page: c.page, lastPage: c.last_page });
    });
    const questions = [];
    const questionVectors = {};
    const marks = {};
    bundle.questions.forEach((q, i) => {
      const at = `questions[${i}]`;
      need(q, at, "object");
      need(q.id, `${at}.id`, "string");
      need(q.text, `${at}.text`, "string");
      need(q.marks, `${at}.marks`, "list").forEach((m, j) => { if (!HEX64.test(m)) throw new ImportError(`${at}.marks[${j}] should be a chunk's SHA-256 (64 hex digits), not ${JSON.stringify(m)}`); });
      if (q.vector !== undefined) {
        const vector = vectorFromBase64(q.vector, dimensions);
        if (typeof vector === "string") throw new ImportError(`${at}.vector ${vector}`);
        if (sameModel) questionVectors[q.id] = vector;
      }
      questions.push({ id: q.id, text: q.text });
      marks[q.id] = q.marks.slice();
    });
    const carried = bundle.chunks.filter((c) => c.vector !== undefined).length + bundle.questions.filter((q) => q.vector !== undefined).length;
    const dropped = sameModel || !carried ? "" : `this file was made with another model (fingerprint ${bundle.model.fingerprint}, ${bundle.model.dimensions} dimensions; ` +
      `this page's is ${fingerprint}, ${dimensions}): its ${carried.toLocaleString("en")} vectors were dropped. Embed the chunks again to search them by meaning.`;
    const toEmbed = [...new Set([...chunks.filter((c) => !vectors[c.hash]).map((c) => c.text),
                                 ...questions.filter((q) => !questionVectors[q.id]).map((q) => q.text)])];
    return { bundle, chunks, setting: bundle.chunker, questions, marks, vectors, questionVectors, settings: bundle.settings, dropped, toEmbed };
  }

  Object.assign(docs, { exportBundle, importBundle, ImportError, vectorToBase64, EXPORT_SCHEMA: SCHEMA });
})();
