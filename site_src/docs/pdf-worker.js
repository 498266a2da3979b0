/* pdf-worker.js: PDF.js's worker (pdfjs-dist's pdf.worker.min.mjs), run from bytes that were
 * checked. A classic dedicated worker from the site's own address (worker-src 'self'); read-pdf.js
 * starts it and hands it to PDF.js as its port. Its first message, from read-pdf.js, names the
 * module and its size and SHA-256 (from RAG.docs.FILES) and model-files.js's address; the worker
 * fetches the module, checks it (RAG.modelFiles.fetchChecked: size and SHA-256, one retry), and
 * imports a blob: URL of exactly those bytes (RAG.modelFiles.importChecked). On import the module
 * takes over this worker's messages (PDF.js's WorkerMessageHandler.initializeFromPort(self)); then
 * this script answers {ragPdfWorker: {ready: true, from: "blob" | "url"}} ("url": a host whose
 * policy header refuses blob: modules in workers; the checked address is then imported again,
 * unchecked, and says so), or {ragPdfWorker: {failed: message}}, and PDF.js is never run.
 * Nothing is cached (Cache Storage is the model's).
 *
 * Example: post {ragPdfWorker: {module: {url, bytes, sha256}, modelFiles: url}} -> {ragPdfWorker: {ready: true, from: "blob"}}
 */
"use strict";

self.addEventListener("message", async function configure(event) {
  const request = event.data && event.data.ragPdfWorker;
  if (!request) return;
  self.removeEventListener("message", configure);
  try {
    importScripts(request.modelFiles);
    const { fetchChecked, importChecked } = self.RAG.modelFiles;
    const { buffer } = await fetchChecked(request.module, { onBytes: () => {}, cache: null });
    const { from } = await importChecked(buffer, request.module.url);
    if (!self.pdfjsWorker) throw new Error("PDF.js's worker module ran but did not start");
    self.postMessage({ ragPdfWorker: { ready: true, from } });
  } catch (error) {
    self.postMessage({ ragPdfWorker: { failed: String((error && error.message) || error) } });
  }
});
