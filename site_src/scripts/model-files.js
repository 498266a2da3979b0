/* model-files.js: the live model's files, fetched and checked. Runs in the embedder's worker
 * (site_src/scripts/embed-worker.js loads it with importScripts) and works in a page as well: it
 * reads only globalThis (fetch, caches, crypto): no window, no document.
 *
 * Each file the build lists in data.live.files ({url, bytes, sha256}) is taken from the browser's
 * Cache Storage when a good copy is there, else downloaded with progress and a signal to cancel;
 * its size and SHA-256 are checked before it is used (crypto.subtle where the page is a secure
 * context, the JavaScript SHA-256 below where it is not: plain http from another host). A damaged
 * file is downloaded once more, then refused with a message; a good one is kept in Cache Storage.
 *
 * onnxruntime-web's ES module is checked the same way and then run from exactly the bytes that
 * were checked (importChecked: a blob: URL of them). A policy sent with the worker's own response
 * can refuse blob: modules; the module is then imported from its address instead, and says so.
 *
 *   RAG.modelFiles.fetchAll(files, names, {signal, onBytes}) -> Promise of {buffers: {name: ArrayBuffer}, cached}
 *   RAG.modelFiles.importChecked(bytes, url)                 -> Promise of {module, from: "blob" | "url"}
 *   RAG.modelFiles.sha256(buffer), RAG.modelFiles.damage(buffer, file)
 *
 * Example: RAG.modelFiles.sha256(new TextEncoder().encode("abc")) -> Promise of "ba7816bf…f20015ad"
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const CACHE = "rag-explainer-live-model-v1";

  /* ------------------------------------------------------------ checking */

  // SHA-256 for pages served over plain http from another host, where crypto.subtle is missing.
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2]);

  function sha256Fallback(bytes) {
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const length = bytes.length;
    const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length << 3) >>> 0);
    const w = new Uint32Array(64);
    const rotate = (x, n) => (x >>> n) | (x << (32 - n));
    for (let block = 0; block < padded.length; block += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
  }

  /** The SHA-256 of `buffer` as hex: the browser's where it offers one, else the one above. */
  async function sha256(buffer) {
    const subtle = globalThis.crypto && globalThis.crypto.subtle;
    if (subtle) {
      const digest = await subtle.digest("SHA-256", buffer);
      return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
    }
    return sha256Fallback(new Uint8Array(buffer));
  }

  /** Why `buffer` is not the file the build wrote, or "" when it is. */
  async function damage(buffer, file) {
    if (buffer.byteLength !== file.bytes) return `${buffer.byteLength.toLocaleString("en")} bytes, not ${file.bytes.toLocaleString("en")}`;
    if ((await sha256(buffer)) !== file.sha256) return "its SHA-256 is not the one the build wrote";
    return "";
  }

  const nameOf = (file) => file.url.split("?")[0].split("/").pop();

  /* ------------------------------------------------------------ downloads */

  async function download(file, signal, onBytes) {
    const response = await fetch(file.url, { signal, cache: "no-cache" });
    if (!response.ok) throw new Error(`${nameOf(file)}: the server answered ${response.status}`);
    if (!response.body) {
      const buffer = await response.arrayBuffer();
      onBytes(buffer.byteLength);
      return buffer;
    }
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onBytes(value.byteLength);
    }
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.byteLength; }
    return bytes.buffer;
  }

  async function openCache() {
    try {
      return globalThis.caches ? await globalThis.caches.open(CACHE) : null;
    } catch (error) {
      return null;  // private mode, or storage refused
    }
  }

  /**
   * One file, checked: from the browser's cache when a good copy is there, else downloaded, and
   * downloaded once more when what arrived is damaged. `onBytes(n)` hears of every n bytes.
   */
  async function fetchChecked(file, { signal, onBytes, cache }) {
    if (cache) {
      const hit = await cache.match(file.url);
      if (hit) {
        const buffer = await hit.arrayBuffer();
        if (!(await damage(buffer, file))) {
          onBytes(file.bytes);
          return { buffer, cached: true };
        }
        await cache.delete(file.url);  // a damaged copy: never used, fetched again below
      }
    }
    let problem = "";
    for (let attempt = 1; attempt <= 2; attempt++) {
      let counted = 0;
      const buffer = await download(file, signal, (n) => { counted += n; onBytes(n); });
      problem = await damage(buffer, file);
      if (!problem) {
        if (cache) await cache.put(file.url, new Response(buffer)).catch(() => {});
        return { buffer, cached: false };
      }
      onBytes(-counted);  // the progress goes back for the second try
    }
    throw new Error(`${nameOf(file)} arrived damaged twice (${problem}); it was not used. Reload the page to try again.`);
  }

  /**
   * The files `names` of `files`, all checked, side by side. One failing stops the others: nothing
   * downloads, or reports progress, after a failure. `cached`: every one came from Cache Storage.
   */
  async function fetchAll(files, names, { signal, onBytes = () => {} } = {}) {
    const stop = new AbortController();
    const abort = () => stop.abort();
    if (signal) signal.addEventListener("abort", abort, { once: true });
    const cache = await openCache();
    const counted = (n) => { if (!stop.signal.aborted) onBytes(n); };
    try {
      const found = await Promise.all(names.map((name) => fetchChecked(files[name], { signal: stop.signal, onBytes: counted, cache })));
      return { buffers: Object.fromEntries(names.map((name, i) => [name, found[i].buffer])), cached: found.every((f) => f.cached) };
    } catch (error) {
      stop.abort();
      throw error;
    } finally {
      if (signal) signal.removeEventListener("abort", abort);
    }
  }

  /* ------------------------------------------------------------ running a checked module */

  let blobModules = null;  // Promise of whether this context may import a blob: module

  /** Whether a blob: module may run here: a page's or a worker's policy (script-src without blob:) can refuse it. */
  function blobModulesAllowed() {
    if (!blobModules) {
      const url = URL.createObjectURL(new Blob(["export default 1;"], { type: "text/javascript" }));
      blobModules = import(url).then(() => true, () => false).finally(() => URL.revokeObjectURL(url));
    }
    return blobModules;
  }

  /**
   * Run an ES module from the bytes that were checked: import() a blob: URL of them, so what runs
   * is exactly what was hashed. A dedicated worker loaded from this site's address does not take
   * the page's <meta> policy (its policy is its own response's: CSP 3, and Chromium does so), so
   * static hosts allow this. A host that sends a Content-Security-Policy header with every file refuses
   * blob: modules in the worker too; the module is then imported from `url`, the address it was
   * checked from, and {from: "url"} says the browser fetched it again unchecked.
   */
  async function importChecked(bytes, url) {
    if (await blobModulesAllowed()) {
      const blob = URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
      try {
        return { module: await import(blob), from: "blob" };
      } finally {
        URL.revokeObjectURL(blob);
      }
    }
    return { module: await import(url), from: "url" };
  }

  RAG.modelFiles = { CACHE, sha256, damage, fetchChecked, fetchAll, importChecked };
})();
