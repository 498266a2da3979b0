/* embedder.js: the page's side of the embedding model (RAG.embedder). It starts the model's
 * dedicated workers (site_src/scripts/embed-worker.js, one onnxruntime-web on one thread each),
 * has the first one fetch and check the model's files, and shares texts among the workers by
 * message. Nothing heavy runs on the page's thread: the downloads, the checksums, the tokenizer
 * and the model all run in the workers. This script is small and starts nothing by itself: the
 * workers and the model's code load when the reader asks for the model.
 *
 * It reads no global data: `info` is data.live (the files, their sizes and checksums; null when
 * the build shipped no model).
 *
 *   RAG.embedder.available(info)   -> "" or why the model cannot run here (file://, no WebAssembly, no Worker)
 *   RAG.embedder.open(info, {workers, onProgress, onPhase, signal}) -> Promise of a Pool of its own
 *   RAG.embedder.load(info, {…})   -> the page's Pool (one worker unless asked), opened once
 *   RAG.embedder.state             -> the page's: "idle", "downloading", "loading", "ready" or "failed"
 *   RAG.embedder.pool              -> the page's Pool once ready, else null
 *
 *   pool.embed(texts, {onProgress(done, total), signal, batchSize}) -> Promise of {vectors: [Float32Array], wordpieces: [n]}
 *   pool.countWordpieces(texts)  -> Promise of [n]: each text's length in wordpieces, uncut
 *   pool.passageVectors          -> Float32Array: data.live's passages.bin, checked (passages x dimensions)
 *   pool.timings                 -> {downloadMs, readyMs, cached, runtimeFrom, workers}
 *   pool.close()
 *
 * Example: (await RAG.embedder.load(info)).embed(["QB-4021"]) -> {vectors: [Float32Array(384)], wordpieces: [6]}
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  // Not a name onnxruntime-web gives its own workers ("ort-wasm-proxy-worker", "em-pthread…"),
  // which its module would take as an order to serve as one.
  const WORKER_NAME = "rag-embedder";
  const MAX_WORKERS = 4;
  const BATCH_SIZE = 16;
  const MIN_BATCH = 4;
  let jobs = 0;

  /**
   * The size of the next batch when `left` texts are still to take: half of each worker's share
   * of them, between MIN_BATCH and `batchSize` (the model costs about the same per text in a
   * batch of 4 as in one of 16), so the last batches are small and no worker waits long for
   * another's. One worker has no one to wait for: always `batchSize`.
   * Example: batchFrom(200, 16, 2) -> 16, batchFrom(20, 16, 2) -> 5, batchFrom(6, 16, 2) -> 4, batchFrom(20, 16, 1) -> 16
   */
  const batchFrom = (left, batchSize, workers) =>
    (workers === 1 ? batchSize : Math.min(batchSize, Math.max(MIN_BATCH, Math.ceil(left / (2 * workers)))));

  const absolute = (url) => new URL(url, document.baseURI).href;
  const cancelledError = () => new DOMException("cancelled", "AbortError");

  function available(info) {
    if (!info) return "this copy of the page was built without the live model (build.py --live-model off)";
    if (window.location.protocol === "file:") return "file";
    if (typeof WebAssembly !== "object") return "this browser has no WebAssembly";
    if (typeof Worker !== "function") return "this browser cannot run a script beside the page (no Web Workers)";
    return "";
  }

  /** One worker and its requests, each answered by progress messages, then done or failed. */
  class Channel {
    constructor(url) {
      this.pending = new Map();
      this.worker = new Worker(url, { name: WORKER_NAME });
      this.worker.onmessage = ({ data }) => this.receive(data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.close(new Error(`the model's worker stopped (${event.message || "its script could not run"})`));
      };
    }

    receive(message) {
      const request = this.pending.get(message.job);
      if (!request) return;
      if (message.type === "progress") return request.onProgress(message);
      this.pending.delete(message.job);
      request.settle();
      if (message.type === "done") request.resolve(message);
      else request.reject(message.cancelled ? cancelledError() : new Error(message.message));
    }

    /** Ask the worker to `type` (embed-worker.js lists the requests); `signal` cancels it. */
    request(type, fields, { onProgress = () => {}, signal } = {}) {
      const job = ++jobs;
      return new Promise((resolve, reject) => {
        if (signal && signal.aborted) return reject(cancelledError());
        const cancel = () => this.worker.postMessage({ type: "cancel", job });
        if (signal) signal.addEventListener("abort", cancel, { once: true });
        const settle = () => { if (signal) signal.removeEventListener("abort", cancel); };
        this.pending.set(job, { resolve, reject, onProgress, settle });
        this.worker.postMessage({ type, job, ...fields });
      });
    }

    close(error = cancelledError()) {
      this.worker.terminate();
      for (const request of this.pending.values()) { request.settle(); request.reject(error); }
      this.pending.clear();
    }
  }

  /** Loaded workers: texts in, unit vectors out, shared among the workers. */
  class Pool {
    constructor(channels, passageVectors, timings) {
      this.channels = channels;
      this.passageVectors = passageVectors;
      this.timings = timings;
    }

    /**
     * The texts' vectors, in their order. The texts, longest first (in wordpieces, as the model
     * reads them), are cut into batches as the workers take them, each worker taking the next as
     * soon as it is free; `signal` stops them all before their next batch. Longest first, and
     * batches that shrink towards the end, so the workers finish together (see `batchFrom`).
     */
    async embed(texts, { onProgress = () => {}, signal, batchSize = BATCH_SIZE } = {}) {
      if (signal && signal.aborted) throw cancelledError();
      const workers = this.channels.length;
      const lengths = texts.length > batchSize ? await this.lengths(texts, signal) : texts.map((text) => text.length);
      if (signal && signal.aborted) throw cancelledError();
      const order = texts.map((_, i) => i).sort((a, b) => (lengths[b] - lengths[a]) || (a - b));
      const vectors = new Array(texts.length);
      const wordpieces = new Array(texts.length);
      const stop = new AbortController();
      const abort = () => stop.abort();
      if (signal) signal.addEventListener("abort", abort, { once: true });
      let done = 0;
      let next = 0;
      const work = async (channel) => {
        while (next < order.length) {
          if (stop.signal.aborted) throw cancelledError();
          const batch = order.slice(next, next + batchFrom(order.length - next, batchSize, workers));
          next += batch.length;
          let counted = 0;
          const answer = await channel.request("embed", { texts: batch.map((i) => texts[i]), batchSize }, {
            signal: stop.signal,
            onProgress: (message) => { done += message.done - counted; counted = message.done; onProgress(done, texts.length); },
          });
          const size = answer.vectors.length / batch.length;
          batch.forEach((i, k) => { vectors[i] = answer.vectors.subarray(k * size, (k + 1) * size); wordpieces[i] = answer.wordpieces[k]; });
        }
      };
      try {
        await Promise.all(this.channels.map(work));
      } catch (error) {
        stop.abort();
        throw error;
      } finally {
        if (signal) signal.removeEventListener("abort", abort);
      }
      return { vectors, wordpieces };
    }

    /** Each text's length in wordpieces as the model reads it (cut at its window), the workers counting a slice each. */
    async lengths(texts, signal) {
      const share = Math.ceil(texts.length / this.channels.length);
      const parts = await Promise.all(this.channels.map((channel, w) => channel.request("count",
        { texts: texts.slice(w * share, (w + 1) * share), cut: true }, { signal })));
      return parts.flatMap((part) => part.wordpieces);
    }

    async countWordpieces(texts) {
      return (await this.channels[0].request("count", { texts })).wordpieces;
    }

    close() {
      this.channels.forEach((channel) => channel.close());
    }
  }

  /**
   * `workers` workers (1 to 4) with the model loaded. The first downloads and checks every file
   * (`onProgress(received, total)` bytes, then `onPhase("loading")`) and keeps them in Cache
   * Storage; the others read them there (and download them again where the browser keeps none).
   * `signal` stops every worker at once and nothing stays half loaded.
   */
  async function open(info, { workers = 1, onProgress = () => {}, onPhase = () => {}, signal } = {}) {
    const reason = available(info);
    if (reason) throw new Error(reason);
    const scripts = RAG.assets().scripts;
    const files = Object.fromEntries(Object.entries(info.files).map(([name, file]) => [name, { ...file, url: absolute(file.url) }]));
    const request = { scripts: [absolute(scripts.wordpiece), absolute(scripts["model-files"])], files,
                      maxWordpieces: info.max_wordpieces };
    const channels = [];
    const start = () => {
      channels.push(new Channel(absolute(scripts["embed-worker"])));
      return channels[channels.length - 1];
    };
    const stop = () => channels.forEach((channel) => channel.close());
    if (signal && signal.aborted) throw cancelledError();
    if (signal) signal.addEventListener("abort", stop, { once: true });
    const began = performance.now();
    let downloaded = began;
    try {
      const first = await start().request("load", { ...request, names: Object.keys(files), keep: ["passages"] }, {
        onProgress: (message) => {
          if (message.phase !== "loading") return onProgress(message.received, message.total);
          downloaded = performance.now();
          onPhase("loading");
        },
      });
      const ready = performance.now();
      const model = Object.keys(files).filter((name) => name !== "passages");
      await Promise.all(Array.from({ length: Math.min(MAX_WORKERS, Math.max(1, workers)) - 1 },
        () => start().request("load", { ...request, names: model, keep: [] })));
      return new Pool(channels, new Float32Array(first.kept.passages),
        { downloadMs: downloaded - began, readyMs: ready - downloaded, cached: first.cached, runtimeFrom: first.runtimeFrom,
          workers: channels.length });
    } catch (error) {
      stop();
      throw signal && signal.aborted ? cancelledError() : error;
    } finally {
      if (signal) signal.removeEventListener("abort", stop);
    }
  }

  let loading = null;
  const embedder = (RAG.embedder = { state: "idle", pool: null, available, open });

  /** The page's pool, opened once; its state in RAG.embedder.state. */
  embedder.load = (info, options = {}) => {
    if (loading) return loading;
    embedder.state = "downloading";
    loading = open(info, { ...options, onPhase: (phase) => { embedder.state = phase; if (options.onPhase) options.onPhase(phase); } });
    loading.then((pool) => {
      embedder.pool = pool;
      embedder.state = "ready";
    }, () => {
      loading = null;
      embedder.state = options.signal && options.signal.aborted ? "idle" : "failed";
    });
    return loading;
  };
})();
