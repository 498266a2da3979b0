/* limits.js: how much "Try it on your documents" takes in, in one place (RAG.docs.LIMITS), and the
 * message that names a limit. A reader past a limit is told which, by how much, and what to do;
 * nothing of that reading is loaded (read-files.js, chunk-documents.js check them).
 *
 *   files        files in one reading (checked before any is read)
 *   fileBytes    bytes of one file (checked before it is read: File.size)
 *   textChars    characters of text, all files together (checked as the files are read)
 *   chunks       chunks of one chunker setting (checked when the documents are cut)
 *   pdfSeconds   seconds PDF.js may take over one file
 *
 * Example: RAG.docs.megabytes(20 * 1024 * 1024) -> "20.0 MB"
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  const MB = 1024 * 1024;
  docs.LIMITS = Object.freeze({ files: 200, fileBytes: 20 * MB, textChars: 5000000, chunks: 2000, pdfSeconds: 60 });

  /** A byte count as "1.4 MB" (MiB, one decimal) or "812 bytes". */
  docs.megabytes = (bytes) => (bytes < 1024 ? `${bytes.toLocaleString("en")} bytes` : `${(bytes / MB).toFixed(1)} MB`);

  /** The limits in force: LIMITS, with any of them replaced by `override` (a test, a bigger machine). */
  docs.limits = (override) => Object.freeze({ ...docs.LIMITS, ...(override || {}) });
})();
