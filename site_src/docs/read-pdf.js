/* read-pdf.js: a PDF's text, page by page, through PDF.js (RAG.docs.readPdf). Each page with text
 * is one block {level: 0, text, page}, its number kept so a chunk can say where it came from. A
 * page without text (a scan) is named in a note; a file with no text at all, a password, a file
 * cut short (no %%EOF near its end) or one PDF.js cannot parse is refused as a whole: nothing of
 * it is kept. A page only (PDF.js's API runs on the page; its parser in pdf-worker.js).
 *
 * PDF.js is asked to do as little as possible: the bytes are handed over (no fetching, no range
 * requests, no streaming), no fonts are installed, nothing is rendered (no renderer worker), XFA
 * forms and scripting are off, and its worker fetches nothing itself (no CMaps, standard fonts or
 * wasm decoders: text is read from each font's own encoding and ToUnicode map; a font that needs
 * a predefined CJK CMap reads poorly). isEvalSupported: false is passed, though PDF.js 6.5 no
 * longer compiles anything (tests/docs/test_vendor_files.py: no eval or new Function in it).
 *
 *   RAG.docs.readPdf(bytes, {signal, seconds}) -> Promise of {blocks, pages, emptyPages}, or a RAG.docs.Refusal
 *
 * Example: (await RAG.docs.readPdf(bytes)).blocks[0] -> {level: 0, text: "Restoring a single file …", page: 1}
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  let worker = null;  // Promise of {port, pdfWorker, from}: one for the page, made at the first PDF

  const absolute = (url) => new URL(url, globalThis.document.baseURI).href;
  const ascii = new TextDecoder("latin1");

  /** The worker, its module fetched and checked, before PDF.js sends it anything. */
  function startWorker(pdfjs) {
    if (worker) return worker;
    worker = new Promise((resolve, reject) => {
      const files = docs.FILES;
      const port = new Worker(absolute(files.pdfWorkerScript), { name: "rag-pdf" });
      const fail = (message) => { port.terminate(); reject(new docs.Refusal(`could not be read: PDF.js's worker did not start (${message}). Reload the page to try again.`)); };
      port.addEventListener("error", (event) => { event.preventDefault(); fail(event.message || "its script could not run"); });
      port.addEventListener("message", function answer(event) {
        const reply = event.data && event.data.ragPdfWorker;
        if (!reply) return;
        port.removeEventListener("message", answer);
        if (reply.failed) return fail(reply.failed);
        const pdfWorker = new pdfjs.PDFWorker({ port, verbosity: pdfjs.VerbosityLevel.ERRORS });
        resolve({ port, pdfWorker, from: reply.from });
      });
      port.postMessage({ ragPdfWorker: { module: { ...files.pdfWorker, url: absolute(files.pdfWorker.url) }, modelFiles: absolute(files.modelFiles) } });
    });
    worker.catch(() => { worker = null; });
    return worker;
  }

  /** A PDF ends with %%EOF (after its last cross-reference section); one cut short does not. */
  const endsWell = (bytes) => ascii.decode(bytes.subarray(Math.max(0, bytes.length - 2048))).includes("%%EOF");

  /** A page's text: PDF.js's text items in order, a line break where a line ends, collapsed. */
  function pageText(content) {
    const parts = [];
    for (const item of content.items) {
      if (typeof item.str !== "string") continue;
      parts.push(item.str);
      if (item.hasEOL) parts.push("\n");
    }
    return RAG.engine.words(parts.join("")).join(" ");
  }

  function refusalFor(error) {
    if (error instanceof docs.Refusal || (error && error.name === "AbortError")) return error;
    const name = (error && error.name) || "";
    if (name === "PasswordException") {
      return new docs.Refusal("is protected by a password, so PDF.js cannot read its text. Save a copy without the password (open it, then print to PDF) and choose that.");
    }
    if (name === "InvalidPDFException") {
      return new docs.Refusal("is damaged: PDF.js finds no PDF structure in it. Open it in a PDF reader and save it again, or choose another copy.");
    }
    return new docs.Refusal(`could not be read by PDF.js (${(error && error.message) || error}): it may be damaged. Open it in a PDF reader and save it again.`);
  }

  /** A promise that fails after `seconds` (and its timer, to clear once the race is over). */
  function deadline(seconds) {
    let timer = null;
    const promise = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new docs.Refusal(
        `took PDF.js more than ${seconds} s; nothing of it was kept. Split it into smaller PDFs and try again.`)), seconds * 1000);
    });
    return { promise, clear: () => clearTimeout(timer) };
  }

  async function readPdf(bytes, { signal, seconds = docs.LIMITS.pdfSeconds } = {}) {
    if (!endsWell(bytes)) {
      throw new docs.Refusal("is cut short: a PDF ends with %%EOF and this one does not (damaged, or not fully downloaded). Download it again and choose the new copy.");
    }
    const pdfjs = await docs.vendor.pdfjs();
    const { pdfWorker } = await startWorker(pdfjs);
    if (signal && signal.aborted) throw docs.cancelled();
    const task = pdfjs.getDocument({
      data: bytes.slice(), worker: pdfWorker, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
      useWorkerFetch: false, disableWorkerRendering: true, enableXfa: false, disableAutoFetch: true, disableStream: true,
      disableRange: true, verbosity: pdfjs.VerbosityLevel.ERRORS,
    });
    const stop = () => task.destroy();
    if (signal) signal.addEventListener("abort", stop, { once: true });
    const read = (async () => {
      const pdf = await task.promise;
      const blocks = [];
      const emptyPages = [];
      for (let number = 1; number <= pdf.numPages; number++) {
        if (signal && signal.aborted) throw docs.cancelled();
        const page = await pdf.getPage(number);
        const text = pageText(await page.getTextContent());
        page.cleanup();
        if (text) blocks.push({ level: 0, text, page: number });
        else emptyPages.push(number);
      }
      return { blocks, pages: pdf.numPages, emptyPages };
    })();
    const limit = deadline(seconds);
    try {
      const found = await Promise.race([read, limit.promise]);
      if (!found.blocks.length) {
        const pages = found.pages === 1 ? "its one page holds no text" : `none of its ${found.pages} pages holds any text`;
        throw new docs.Refusal(`has no text layer: ${pages} (a scan, or pictures of text). Run it through OCR (OCRmyPDF, or your scanner's software) and choose the result.`);
      }
      return found;
    } catch (error) {
      if (signal && signal.aborted) throw docs.cancelled();
      throw refusalFor(error);
    } finally {
      limit.clear();
      if (signal) signal.removeEventListener("abort", stop);
      read.catch(() => {});
      await task.destroy().catch(() => {});
    }
  }

  docs.readPdf = readPdf;
  docs.pdfWorkerStarted = () => (worker ? worker.then((w) => w.from, () => "") : Promise.resolve(""));
})();
