/* live.js: the build's embedding model in the reader's browser, on request. Downloads the files
 * the build lists in data.live (the ONNX model, onnxruntime-web's module and wasm, the vocabulary,
 * the passages' vectors) with progress and a way to cancel, keeps them in the browser's cache where
 * it allows, checks each file's size and SHA-256 before using it (a damaged file is fetched
 * again once, then refused), and runs the model with onnxruntime-web on one thread.
 *
 * A typed question then goes through the same stages as the build's: dense search (mean-pooled,
 * normalised, cosine with the build's passage vectors), BM25, reciprocal rank fusion.
 *
 * It reads no global data: the caller hands it what it needs, from the build's data as its lab's
 * input holds it. `info` is data.live (the files, their sizes and checksums; null when the build
 * shipped no model); `corpus` is {passages, settings} (data.passages, in the order of the vectors
 * file, and data.settings: bm25's k1 and b, fusion_depth, rrf_k).
 *
 *   RAG.live.available(info)      -> "" or why the model cannot run here (file://, no WebAssembly…)
 *   RAG.live.load(info, {onProgress, signal}) -> Promise, once: downloaded, checked, ready
 *   RAG.live.search(text, corpus) -> Promise of {text, vector, wordpieces, runs: {dense, bm25, hybrid}}
 *   RAG.live.bm25Only(text, corpus) -> [[id, score]]: BM25 alone, before (or without) the model
 *   RAG.live.countWordpieces(text), RAG.live.embed(text)
 *   RAG.live.state        -> "idle", "downloading", "loading", "ready" or "failed"
 *   RAG.live.timings      -> {downloadMs, readyMs, cached} once loaded
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const CACHE = "rag-explainer-live-model-v1";
  const DOWNLOADS = ["model", "wasm", "vocab", "passages"];  // fetched and checked here; the runtime module, by the browser

  const live = (RAG.live = { state: "idle", timings: null });
  let loading = null;
  let session = null;
  let tokenizer = null;      // cuts at the model's window, as the model reads
  let counter = null;        // does not cut: for counting a whole prompt
  let passageVectors = null;
  const indexes = new WeakMap();  // corpus.passages -> its BM25 index, built once

  live.available = (info) => {
    if (!info) return "this copy of the page was built without the live model (build.py --live-model off)";
    if (window.location.protocol === "file:") return "file";
    if (typeof WebAssembly !== "object") return "this browser has no WebAssembly";
    return "";
  };

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

  async function sha256(buffer) {
    if (window.crypto && crypto.subtle) {
      const digest = await crypto.subtle.digest("SHA-256", buffer);
      return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
    }
    return sha256Fallback(new Uint8Array(buffer));
  }
  live.sha256 = sha256;

  /** Why `buffer` is not the file the build wrote, or "" when it is. */
  async function damage(buffer, file) {
    if (buffer.byteLength !== file.bytes) return `${buffer.byteLength.toLocaleString("en")} bytes, not ${file.bytes.toLocaleString("en")}`;
    if ((await sha256(buffer)) !== file.sha256) return "its SHA-256 is not the one the build wrote";
    return "";
  }

  /* ------------------------------------------------------------ downloads */

  async function download(file, signal, onBytes) {
    const response = await fetch(file.url, { signal, cache: "no-cache" });
    if (!response.ok) throw new Error(`${file.url.split("?")[0]}: the server answered ${response.status}`);
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
      return window.caches ? await caches.open(CACHE) : null;
    } catch (error) {
      return null;  // private mode, or storage refused
    }
  }

  /**
   * One file, checked: from the browser's cache when a good copy is there, else downloaded, and
   * downloaded once more when what arrived is damaged. `onBytes(n)` hears of every n bytes.
   */
  async function fetchChecked(file, { signal, onBytes, cache }) {
    const name = file.url.split("?")[0];
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
    throw new Error(`${name} arrived damaged twice (${problem}); it was not used. Reload the page to try again.`);
  }

  const base64OfHex = (hex) => btoa(String.fromCharCode(...hex.match(/../g).map((pair) => parseInt(pair, 16))));

  /** Preload an ES module, which the browser runs only if its SHA-256 is `integrity`'s. */
  const preloadModule = (url, integrity) => new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = url;
    link.integrity = integrity;
    link.onload = () => resolve(true);
    link.onerror = () => resolve(false);
    document.head.appendChild(link);
  });

  /**
   * onnxruntime-web's module, checked by the browser itself against the build's SHA-256 (a module
   * cannot be run from bytes a script has checked: the page's policy allows scripts from this site
   * only). A damaged copy is fetched once more under another address, then refused.
   */
  async function importChecked(file, onBytes) {
    const integrity = `sha256-${base64OfHex(file.sha256)}`;
    for (const url of [file.url, `${file.url}&again`]) {
      const absolute = new URL(url, document.baseURI).href;
      if (await preloadModule(absolute, integrity)) {
        onBytes(file.bytes);
        return import(absolute);
      }
    }
    throw new Error(`${file.url.split("?")[0]} arrived damaged twice (its SHA-256 is not the one the build wrote); ` +
      "it was not used. Reload the page to try again.");
  }

  /* ------------------------------------------------------------ the model */

  live.load = (info, { onProgress = () => {}, signal } = {}) => {
    if (loading) return loading;
    const reason = live.available(info);
    if (reason) return Promise.reject(new Error(reason));
    const total = info.download_bytes;
    let received = 0;
    const began = performance.now();
    // One file failing stops the others: nothing downloads, or reports progress, after a failure.
    const stop = new AbortController();
    if (signal) signal.addEventListener("abort", () => stop.abort(), { once: true });
    live.state = "downloading";
    loading = (async () => {
      const cache = await openCache();
      const onBytes = (n) => { if (!stop.signal.aborted) { received += n; onProgress(received, total); } };
      const [model, wasm, vocab, passages] = await Promise.all(
        DOWNLOADS.map((name) => fetchChecked(info.files[name], { signal: stop.signal, onBytes, cache })));
      const ort = await importChecked(info.files.runtime, onBytes);
      const downloaded = performance.now();
      live.state = "loading";
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.proxy = false;
      ort.env.wasm.wasmBinary = wasm.buffer;
      live.ort = ort;
      session = await ort.InferenceSession.create(new Uint8Array(model.buffer), { executionProviders: ["wasm"] });
      const words = new TextDecoder().decode(vocab.buffer);
      tokenizer = new RAG.WordPiece(words, info.max_wordpieces);
      counter = new RAG.WordPiece(words, Infinity);
      passageVectors = new Float32Array(passages.buffer);
      live.timings = { downloadMs: downloaded - began, readyMs: performance.now() - downloaded,
                       cached: [model, wasm, vocab, passages].every((file) => file.cached) };
      live.state = "ready";
    })();
    loading.catch(() => {
      stop.abort();
      loading = null;
      live.state = signal && signal.aborted ? "idle" : "failed";
    });
    return loading;
  };

  /** The question's vector: the model's token vectors, averaged and scaled to unit length. */
  live.embed = async (text) => {
    const ids = tokenizer.encode(text);
    const n = ids.length;
    const tensor = (values) => new live.ort.Tensor("int64", BigInt64Array.from(values, BigInt), [1, n]);
    const output = await session.run({ input_ids: tensor(ids), attention_mask: tensor(ids.map(() => 1)),
                                       token_type_ids: tensor(ids.map(() => 0)) });
    const hidden = output.last_hidden_state.data;
    const size = hidden.length / n;
    const vector = new Float64Array(size);
    for (let t = 0; t < n; t++) for (let d = 0; d < size; d++) vector[d] += hidden[t * size + d];
    let norm = 0;
    for (let d = 0; d < size; d++) { vector[d] /= n; norm += vector[d] * vector[d]; }
    norm = Math.max(Math.sqrt(norm), 1e-12);
    return { vector: Float32Array.from(vector, (x) => x / norm), wordpieces: n };
  };

  /** BM25 over the corpus's passages: [[id, score]] of those sharing a term, best first (ranked
   *  and rounded by the engine's twin of engine/ranking.py, as the build ranks). */
  function bm25Ranking(text, { passages, settings }) {
    if (!indexes.has(passages)) indexes.set(passages, new RAG.engine.BM25(passages.map((p) => p.text), settings.bm25.k1, settings.bm25.b));
    return RAG.engine.bm25Ranking(passages.map((p) => p.id), indexes.get(passages), text);
  }

  /** A question through the build's stages, computed here: dense, BM25, their fusion. */
  live.search = async (text, corpus) => {
    const { passages, settings } = corpus;
    const { vector, wordpieces } = await live.embed(text);
    const size = vector.length;
    if (passageVectors.length !== passages.length * size) {
      throw new Error(`the passages' vectors hold ${passageVectors.length / size} passages, the page's data ${passages.length}; rebuild the site`);
    }
    const dense = RAG.engine.denseRanking(passages.map((p) => p.id), passageVectors, vector);
    const sparse = bm25Ranking(text, corpus);
    const hybrid = RAG.engine.hybridRanking(dense, sparse, settings.fusion_depth, settings.rrf_k);
    return { text, vector, wordpieces, runs: { dense, bm25: sparse, hybrid } };
  };

  /** How many wordpieces `text` is in the model's tokenizer, uncut. */
  live.countWordpieces = (text) => counter.encode(text).length;

  /** BM25 alone, for a typed question before the model is loaded (a pure function of its arguments). */
  live.bm25Only = (text, corpus) => bm25Ranking(text, corpus);
})();
