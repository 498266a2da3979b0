/* pgvector-sql.js: an export as an SQL file for Postgres with pgvector, for when the documents
 * outgrow a browser (RAG.docs.toSql): the extension, a table of chunks with their vectors
 * (vector(384)), an HNSW index for cosine distance, the questions with their marks, and the query
 * that ranks chunks for a question (ORDER BY embedding <=> $1 LIMIT 5: cosine distance, so
 * 1 - distance is the page's cosine). Run it with psql (psql -v ON_ERROR_STOP=1 -f documents.sql);
 * tests/docs/test_pgvector_sql.py loads it into PGlite with pgvector and finds the engine's top 5.
 * Every chunk needs its vector. No window.
 *
 *   RAG.docs.toSql(bundle) -> the SQL text (bundle: RAG.docs.exportBundle's, with vectors)
 *
 * Example: RAG.docs.toSql(bundle).includes("USING hnsw (embedding vector_cosine_ops)") -> true
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  const quoted = (text) => "'" + String(text).replace(/'/g, "''") + "'";
  const orNull = (value) => (value === null || value === undefined ? "NULL" : String(value));
  const textArray = (items) => (items.length ? "ARRAY[" + items.map(quoted).join(", ") + "]" : "ARRAY[]::text[]");

  /** A base64 float32 vector as pgvector's literal: each float32's shortest decimal reads back as itself. */
  function literal(base64, dimensions) {
    const binary = atob(base64);
    const view = new DataView(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
    return "'[" + Array.from({ length: dimensions }, (_, i) => view.getFloat32(i * 4, true)).join(",") + "]'";
  }

  function toSql(bundle) {
    const dimensions = bundle.model.dimensions;
    const missing = bundle.chunks.filter((c) => !c.vector).length;
    if (missing) throw new Error(`${missing} of the ${bundle.chunks.length} chunks have no vector yet: embed them first`);
    const sources = new Set(bundle.chunks.map((c) => c.source)).size;
    const rows = bundle.chunks.map((c) => `  (${[quoted(c.id), quoted(c.hash), quoted(c.source), orNull(c.page), orNull(c.last_page),
      textArray(c.headings), quoted(c.text), literal(c.vector, dimensions)].join(", ")})`);
    const questions = bundle.questions.map((q) => `  (${[quoted(q.id), quoted(q.text), q.vector ? literal(q.vector, dimensions) : "NULL",
      textArray(q.marks)].join(", ")})`);
    return [
      `-- 'Try it on your documents': ${bundle.chunks.length} chunks of ${sources} documents, cut by ${JSON.stringify(bundle.chunker)},`,
      `-- embedded by ${bundle.model.name} (${dimensions} dimensions; model ${bundle.model.fingerprint}).`,
      "-- Load into Postgres with pgvector 0.5 or later (for HNSW):  psql -v ON_ERROR_STOP=1 -f documents.sql",
      "BEGIN;",
      "CREATE EXTENSION IF NOT EXISTS vector;",
      "CREATE TABLE rag_chunks (",
      "  id text PRIMARY KEY,",
      "  hash char(64) NOT NULL,        -- SHA-256 of text (UTF-8): what a mark names",
      "  source text NOT NULL,          -- the document",
      "  page integer,                  -- the PDF page it starts on (NULL outside PDFs)",
      "  last_page integer,",
      "  headings text[] NOT NULL,      -- the headings above it",
      "  text text NOT NULL,",
      `  embedding vector(${dimensions}) NOT NULL`,
      ");",
      "INSERT INTO rag_chunks (id, hash, source, page, last_page, headings, text, embedding) VALUES",
      rows.join(",\n") + ";",
      "CREATE INDEX rag_chunks_embedding ON rag_chunks USING hnsw (embedding vector_cosine_ops);",
      "CREATE TABLE rag_questions (",
      "  id text PRIMARY KEY,",
      "  text text NOT NULL,",
      `  embedding vector(${dimensions}),`,
      "  marks text[] NOT NULL          -- the hashes of the chunks that answer it",
      ");",
      ...(questions.length ? ["INSERT INTO rag_questions (id, text, embedding, marks) VALUES", questions.join(",\n") + ";"] : []),
      "COMMIT;",
      "",
      "-- The query that ranks the chunks for a question's vector $1 (cosine distance; 1 - distance is the cosine):",
      `PREPARE rag_nearest(vector(${dimensions})) AS`,
      "  SELECT id, source, page, 1 - (embedding <=> $1) AS cosine FROM rag_chunks ORDER BY embedding <=> $1 LIMIT 5;",
      "-- e.g. EXECUTE rag_nearest('[0.0123,-0.0456,...]');  (a question's 384 numbers; EXECUTE takes no subquery)",
      "-- Every question's top 5 at once:",
      "--   SELECT q.id, c.id, c.cosine FROM rag_questions q CROSS JOIN LATERAL",
      "--     (SELECT id, 1 - (embedding <=> q.embedding) AS cosine FROM rag_chunks ORDER BY embedding <=> q.embedding LIMIT 5) c;",
      "",
    ].join("\n");
  }

  docs.toSql = toSql;
})();
