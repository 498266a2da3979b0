/* read-files.js: the reader's files read as documents (RAG.docs.read), each whole or refused with
 * a reason, never half loaded. A file is known by its bytes first (sniff.js): text (Markdown,
 * HTML, plain text: UTF-8 only, decode-text.js) is read by the engine (RAG.engine.readDocument:
 * HTML and Markdown's raw HTML as text only, nothing run or fetched); a PDF through PDF.js
 * (read-pdf.js); a DOCX through mammoth, then the engine's HTML reader (read-docx.js). A file whose
 * bytes were already read (same SHA-256) is read once and named as a duplicate. Files are read one
 * after another in slices (slices.js), so the page keeps responding. Past a limit (limits.js): one
 * file too large is refused alone, before it is read; too many files, or too much text in all,
 * stops the reading and nothing of it is kept.
 *
 *   RAG.docs.read(files, {onProgress({done, total, source}), signal, limits}) -> Promise of
 *     {documents, refused: [{source, reason}], duplicates: [{source, sameAs}], notes: [{source, note}], stopped: ""}
 *     or, past a limit, {documents: [], refused: [], duplicates: [], notes: [], stopped: "what, and what to do"}
 *   a document: {source, kind, title, blocks: [{level, text, page?}], text, bytes, sha256, pages?}
 *   files: File objects (a drop, an <input type=file>), or {name, text} (pasted text), in any mix.
 *   Cancelled (signal): rejects with an AbortError and keeps nothing.
 *
 * Example: (await RAG.docs.read([{name: "a.md", text: "# Hi\nThere."}])).documents[0].blocks
 *          -> [{level: 1, text: "Hi"}, {level: 0, text: "There."}]
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const encoder = new TextEncoder();

  const nameOf = (file) => file.webkitRelativePath || file.name || "pasted text";
  const count = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
  const nothing = (stopped) => ({ documents: [], refused: [], duplicates: [], notes: [], stopped });

  /** Names made unique: a second "notes.md" from another drop becomes "notes.md (2)". */
  function uniqueNames(files) {
    const seen = new Map();
    return files.map((file) => {
      const name = nameOf(file);
      const times = (seen.get(name) || 0) + 1;
      seen.set(name, times);
      return times === 1 ? name : `${name} (${times})`;
    });
  }

  async function bytesOf(file) {
    if (typeof file.text === "string" && !file.arrayBuffer) return encoder.encode(docs.wellFormed(file.text));
    return new Uint8Array(await file.arrayBuffer());
  }
  const sizeOf = (file) => (typeof file.size === "number" ? file.size : encoder.encode(file.text || "").length);

  /** One file as {document} or {refused}; a duplicate as {duplicateOf}. */
  async function readOne(file, source, limits, seen, signal) {
    const size = sizeOf(file);
    if (size === 0) return { refused: "is empty (0 bytes): there is nothing in it to read." };
    if (size > limits.fileBytes) {
      return { refused: `is ${docs.megabytes(size)}, more than the ${docs.megabytes(limits.fileBytes)} one file may have here; it was not read. Split it, or keep the part you need.` };
    }
    const bytes = await bytesOf(file);
    const sha256 = await docs.sha256(bytes);
    if (seen.has(sha256)) return { duplicateOf: seen.get(sha256) };
    seen.set(sha256, source);
    const pasted = typeof file.text === "string" && !file.arrayBuffer;
    const found = pasted ? { kind: "text" } : docs.sniff(bytes, source);
    if (found.refused) return found;
    let document;
    let note = "";
    if (found.kind === "pdf") {
      const pdf = await docs.readPdf(bytes, { signal, seconds: limits.pdfSeconds });
      document = { source, kind: "pdf", title: source, blocks: pdf.blocks, pages: pdf.pages };
      if (pdf.emptyPages.length) note = `${count(pdf.emptyPages.length, "page")} without text (${pdf.emptyPages.join(", ")}: scanned?) left out`;
    } else if (found.kind === "docx") {
      document = { ...RAG.engine.readDocument(source, await docs.readDocx(bytes), "html"), kind: "docx" };
    } else {
      const decoded = pasted ? { text: docs.wellFormed(file.text) } : docs.decodeText(bytes);
      if (decoded.refused) return decoded;
      if (!decoded.text.trim()) return { refused: "holds only white space: there is nothing in it to read." };
      document = RAG.engine.readDocument(source, decoded.text, RAG.engine.documentKind(source));
    }
    if (!document.blocks.length) {
      return { refused: document.kind === "html" || document.kind === "docx"
        ? "has no text to read: only markup (scripts, styles and tags are left out, never run)."
        : "has no text to read." };
    }
    const text = document.blocks.map((b) => b.text).join("\n");
    return { document: { ...document, text, bytes: size, sha256 }, note };
  }

  docs.read = async (files, { onProgress = () => {}, signal, limits: override } = {}) => {
    const limits = docs.limits(override);
    const list = Array.from(files);
    if (list.length > limits.files) {
      return nothing(`${count(list.length, "file")} is more than the ${limits.files.toLocaleString("en")} one reading takes, so none was read. ` +
        `Choose at most ${limits.files.toLocaleString("en")} (the ones your questions are about), or join small files into one.`);
    }
    const sources = uniqueNames(list);
    const slice = docs.slicer(signal);
    const result = nothing("");
    const seen = new Map();  // SHA-256 of the bytes -> the source read
    let characters = 0;
    for (let i = 0; i < list.length; i++) {
      await slice();
      onProgress({ done: i, total: list.length, source: sources[i] });
      let outcome;
      try {
        outcome = await readOne(list[i], sources[i], limits, seen, signal);
      } catch (error) {
        if (error && error.name === "AbortError") throw error;
        outcome = { refused: error instanceof docs.Refusal ? error.message : `could not be read (${(error && error.message) || error}).` };
      }
      if (signal && signal.aborted) throw docs.cancelled();
      if (outcome.duplicateOf) result.duplicates.push({ source: sources[i], sameAs: outcome.duplicateOf });
      else if (outcome.refused) result.refused.push({ source: sources[i], reason: outcome.refused });
      else {
        characters += outcome.document.text.length;
        if (characters > limits.textChars) {
          return nothing(`These files hold more than ${limits.textChars.toLocaleString("en")} characters of text (the limit was passed at ${sources[i]}), ` +
            "so none was kept: this page keeps everything in the browser's memory. Choose fewer or smaller files.");
        }
        result.documents.push(outcome.document);
        if (outcome.note) result.notes.push({ source: sources[i], note: outcome.note });
      }
    }
    onProgress({ done: list.length, total: list.length, source: "" });
    return result;
  };
})();
