/* hash.js: SHA-256, as hex, of bytes and of texts (RAG.docs.sha256, textHash, textHashes). A
 * chunk is known by the SHA-256 of its text's UTF-8 bytes: the vector store's key, a mark's, the
 * export's (Python: hashlib.sha256(text.encode("utf-8")).hexdigest()). A text is made well formed
 * first (a lone surrogate becomes U+FFFD, as TextEncoder writes it), so the two always agree.
 *
 * The browser's crypto.subtle where it has one (https, localhost, Node); else, on a page served
 * over plain http from another host, site_src/scripts/model-files.js's JavaScript SHA-256
 * (RAG.modelFiles.sha256), which must then be loaded first. No window: a page, a worker or Node.
 *
 * Example: await RAG.docs.textHash("abc") -> "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const encoder = new TextEncoder();
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (x) => x.toString(16).padStart(2, "0")).join("");

  /** The SHA-256 of `bytes` (an ArrayBuffer or a view), as 64 hex digits. */
  docs.sha256 = async (bytes) => {
    const subtle = globalThis.crypto && globalThis.crypto.subtle;
    if (subtle) return hex(await subtle.digest("SHA-256", bytes));
    if (RAG.modelFiles) return RAG.modelFiles.sha256(bytes instanceof ArrayBuffer ? bytes : bytes.slice().buffer);
    throw new Error("this page has no SHA-256 (no crypto.subtle over plain http): load assets/scripts/model-files.js first");
  };

  /** A text as its chunk key hashes it: lone surrogates replaced, as TextEncoder does. */
  docs.wellFormed = (text) => (String.prototype.toWellFormed ? text.toWellFormed() : new TextDecoder().decode(encoder.encode(text)));

  docs.textHash = (text) => docs.sha256(encoder.encode(text));

  /** Each text's hash, in order, in slices (`signal` stops it). */
  docs.textHashes = async (texts, signal) => {
    const slice = docs.slicer(signal);
    const found = [];
    for (const text of texts) {
      await slice();
      found.push(await docs.textHash(text));
    }
    return found;
  };
})();
