/* embed-worker.js: the embedding model in a dedicated Web Worker (a classic one), off the page's
 * thread. The page's client (site_src/scripts/embedder.js) starts it and talks to it by messages;
 * one onnxruntime-web on one thread per worker (numThreads 1, no proxy worker), so the page needs
 * no cross-origin isolation, and a client may start several workers to share a long list.
 *
 * Every request carries a job number; the worker answers it with any number of
 * {type: "progress", job, ...} and then one {type: "done", job, ...} or {type: "failed", job, message}.
 *
 *   {type: "load", job, scripts, files, names, keep, maxWordpieces}
 *       importScripts(scripts) (wordpiece.js, model-files.js), then the files `names` of `files`
 *       fetched and checked (progress: {received, total} bytes, then {phase: "loading"}), the
 *       runtime module run from its checked bytes, the wasm binary handed over as bytes, the
 *       session created. done: {cached, runtimeFrom: "blob" | "url", kept: {name: ArrayBuffer}}
 *       (the files named in `keep`, transferred: the passages' vectors for the page's search).
 *   {type: "embed", job, texts, batchSize}
 *       each text cut at maxWordpieces wordpieces, the texts in batches of similar length, each
 *       batch padded and run once, mean-pooled under the attention mask, scaled to unit length.
 *       Where the time goes (onnxruntime-web's profiler, one thread, 16 texts of 100 wordpieces):
 *       MatMul 88%, BiasGelu 5%, LayerNormalization 2%. The half-precision weights' Casts are
 *       folded when the session is created: the fp32 file costs the same per text (114 against
 *       109 ms of CPU), and so does any batch size from 1 to 32 (112-121 ms).
 *       progress: {done, total} texts after each batch. done: {vectors: Float32Array (texts x
 *       dimensions, in the texts' order), wordpieces: Int32Array, both transferred, and timings:
 *       {tokenizeMs, padMs, runMs, poolMs, pauseMs}, the worker's own clock}. Measured on 200 chunks
 *       of ~100 wordpieces: the session's runs are all but 1% of it (tokenizing 200 texts ~50 ms,
 *       pooling ~70 ms, padding under 10 ms); what the page can still save is padding, by batching
 *       texts of the same length in wordpieces (site_src/scripts/embedder.js).
 *   {type: "count", job, texts, cut} done: {wordpieces: [n]}: each text's length, uncut (or, with
 *                                 cut, at most maxWordpieces: what the model reads of it).
 *   {type: "cancel", job}         the job stops before its next batch (or its downloads) and
 *                                 fails with {cancelled: true}.
 *
 * Example: post {type: "embed", job: 2, texts: ["QB-4021"], batchSize: 8}
 *          -> {type: "progress", job: 2, done: 1, total: 1}, {type: "done", job: 2, vectors: Float32Array(384), wordpieces: [6]}
 */
"use strict";

const model = { ort: null, session: null, tokenizer: null, counter: null };
const cancelled = new Set();                 // jobs asked to stop
const downloads = new Map();                 // job -> AbortController of its downloads

const post = (message, transfer = []) => self.postMessage(message, transfer);

class Cancelled extends Error {}

/** Let messages that arrived meanwhile (a cancel) be read before the next batch. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/* ------------------------------------------------------------ load */

async function load({ job, scripts, files, names, keep, maxWordpieces }) {
  importScripts(...scripts);
  const { fetchAll, importChecked } = self.RAG.modelFiles;
  const controller = new AbortController();
  downloads.set(job, controller);
  const total = names.reduce((sum, name) => sum + files[name].bytes, 0);
  let received = 0;
  const { buffers, cached } = await fetchAll(files, names, {
    signal: controller.signal,
    onBytes: (n) => { received += n; post({ type: "progress", job, received, total }); },
  });
  downloads.delete(job);
  if (cancelled.has(job)) throw new Cancelled();
  post({ type: "progress", job, phase: "loading" });
  const { module: ort, from } = await importChecked(buffers.runtime, files.runtime.url);
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmBinary = buffers.wasm;
  model.ort = ort;
  model.session = await ort.InferenceSession.create(new Uint8Array(buffers.model), { executionProviders: ["wasm"] });
  const words = new TextDecoder().decode(buffers.vocab);
  model.tokenizer = new self.RAG.WordPiece(words, maxWordpieces);
  model.counter = new self.RAG.WordPiece(words, Infinity);
  const kept = Object.fromEntries(keep.map((name) => [name, buffers[name]]));
  return [{ cached, runtimeFrom: from, kept }, Object.values(kept)];
}

/* ------------------------------------------------------------ embed */

/** One batch's inputs: each text's ids padded with [PAD] (id 0) to the longest, its mask 1 then 0. */
function padded(batch) {
  const width = Math.max(...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(batch.length * width);
  const mask = new BigInt64Array(batch.length * width);
  batch.forEach((row, b) => row.forEach((id, t) => { ids[b * width + t] = BigInt(id); mask[b * width + t] = 1n; }));
  return { ids, mask, width };
}

/** sentence-transformers' pooling: the mean of each text's token vectors where its mask is 1, at unit length. */
function pooled(hidden, mask, rows, width, size) {
  const vectors = [];
  for (let b = 0; b < rows; b++) {
    const vector = new Float64Array(size);
    let tokens = 0;
    for (let t = 0; t < width; t++) {
      if (!mask[b * width + t]) continue;  // padding: not part of the text
      tokens += 1;
      const at = (b * width + t) * size;
      for (let d = 0; d < size; d++) vector[d] += hidden[at + d];
    }
    let norm = 0;
    for (let d = 0; d < size; d++) { vector[d] /= tokens; norm += vector[d] * vector[d]; }
    norm = Math.max(Math.sqrt(norm), 1e-12);
    vectors.push(Float32Array.from(vector, (x) => x / norm));
  }
  return vectors;
}

/** The vectors of one batch of token ids: one run of the session. */
async function embedBatch(batch, timings) {
  const { ort, session } = model;
  let t = performance.now();
  const { ids, mask, width } = padded(batch);
  const shape = [batch.length, width];
  timings.padMs += performance.now() - t;
  t = performance.now();
  const output = await session.run({ input_ids: new ort.Tensor("int64", ids, shape), attention_mask: new ort.Tensor("int64", mask, shape),
                                     token_type_ids: new ort.Tensor("int64", new BigInt64Array(ids.length), shape) });
  timings.runMs += performance.now() - t;
  t = performance.now();
  const hidden = output.last_hidden_state;
  const size = hidden.dims[2];
  const vectors = pooled(hidden.data, mask, batch.length, width, size);
  hidden.dispose();
  timings.poolMs += performance.now() - t;
  return { vectors, size };
}

async function embed({ job, texts, batchSize }) {
  const timings = { tokenizeMs: 0, padMs: 0, runMs: 0, poolMs: 0, pauseMs: 0 };
  let t = performance.now();
  const encoded = texts.map((text) => model.tokenizer.encode(String(text)));
  timings.tokenizeMs = performance.now() - t;
  // Similar lengths together, so a batch pads little; the answer keeps the texts' order.
  const order = encoded.map((_, i) => i).sort((a, b) => (encoded[a].length - encoded[b].length) || (a - b));
  let out = null;
  let size = 0;
  for (let start = 0; start < order.length; start += batchSize) {
    if (cancelled.has(job)) throw new Cancelled();
    const chosen = order.slice(start, start + batchSize);
    const found = await embedBatch(chosen.map((i) => encoded[i]), timings);
    size = found.size;
    if (!out) out = new Float32Array(texts.length * size);
    chosen.forEach((i, k) => out.set(found.vectors[k], i * size));
    post({ type: "progress", job, done: Math.min(start + batchSize, order.length), total: order.length });
    t = performance.now();
    await pause();
    timings.pauseMs += performance.now() - t;
  }
  const wordpieces = Int32Array.from(encoded, (ids) => ids.length);
  const vectors = out || new Float32Array(0);
  return [{ vectors, wordpieces, timings }, [vectors.buffer, wordpieces.buffer]];
}

/* ------------------------------------------------------------ messages */

const handlers = {
  load,
  embed,
  count: async ({ texts, cut }) => [{ wordpieces: texts.map((text) => (cut ? model.tokenizer : model.counter).encode(String(text)).length) }, []],
};

self.onmessage = async ({ data: message }) => {
  const { type, job } = message;
  if (type === "cancel") {
    cancelled.add(job);
    if (downloads.has(job)) downloads.get(job).abort();
    return;
  }
  try {
    if (!handlers[type]) throw new Error(`embed-worker.js: no request "${type}" (use load, embed, count or cancel)`);
    if (type !== "load" && !model.session) throw new Error("embed-worker.js: the model is not loaded yet (send load first)");
    const [answer, transfer] = await handlers[type](message);
    post({ type: "done", job, ...answer }, transfer);
  } catch (error) {
    const stopped = error instanceof Cancelled || cancelled.has(job);
    post({ type: "failed", job, cancelled: stopped, message: stopped ? "cancelled" : String(error && error.message || error) });
  } finally {
    cancelled.delete(job);
    downloads.delete(job);
  }
};
