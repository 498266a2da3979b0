/* index-vectors.js: the vectors of a list of texts, embedding only those the store has not kept
 * (RAG.docs.vectorsFor). The rest are embedded by `embed` (the model's pool in its workers:
 * (texts, {onProgress, signal}) => pool.embed(texts, {onProgress, signal}).then((r) => r.vectors)),
 * then kept in the store. Importing an export puts its vectors in the store first, so nothing in
 * it is embedded again. No window: a page or a worker.
 *
 *   RAG.docs.vectorsFor(texts, {store, embed, onProgress(done, total), signal})
 *     -> Promise of {vectors: [Float32Array], embedded: n, reused: n}
 *
 * Example: (await RAG.docs.vectorsFor(["a", "a"], {store, embed})).embedded -> 1 (the same text once)
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  docs.vectorsFor = async (texts, { store, embed, onProgress = () => {}, signal } = {}) => {
    const kept = await store.get(texts);
    const missing = [...new Set(texts.filter((_, i) => !kept[i]))];
    let fresh = [];
    if (missing.length) {
      fresh = await embed(missing, { onProgress, signal });
      if (fresh.length !== missing.length) throw new Error(`the model returned ${fresh.length} vectors for ${missing.length} texts`);
      await store.put(missing.map((text, i) => [text, fresh[i]]));
    }
    const byText = new Map(missing.map((text, i) => [text, fresh[i]]));
    return { vectors: texts.map((text, i) => kept[i] || byText.get(text)), embedded: missing.length, reused: texts.length - texts.filter((_, i) => !kept[i]).length };
  };
})();
