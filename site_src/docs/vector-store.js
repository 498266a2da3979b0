/* vector-store.js: the chunks' vectors kept in the browser (RAG.docs.store), so a document is
 * never embedded twice: IndexedDB, keyed by (model fingerprint, SHA-256 of the chunk's text). A
 * reload finds them; another model (another fingerprint) does not; "Forget my documents" deletes
 * everything this page stored and says what. Where IndexedDB is missing or refused (a private
 * window, storage blocked), the vectors are kept in memory until the page closes, and the store
 * says so (`where`, `note`). Texts are never stored: only their hashes and vectors. No window: a
 * page or a worker (IndexedDB), or anywhere (memory).
 *
 *   RAG.docs.store.fingerprint(live)       -> "model:<sha256> vocab:<sha256> wordpieces:256" (live = data.live)
 *   RAG.docs.store.open({fingerprint, indexedDB}) -> Promise of a store:
 *     store.where                          "indexeddb" or "memory"; store.note: why memory ("" otherwise)
 *     store.get(texts)                     -> Promise of [Float32Array or null], in the texts' order
 *     store.put(pairs)                     [[text, Float32Array]] -> Promise of how many were kept
 *     store.forget()                       -> Promise of {vectors, bytes, models, where}: what was deleted
 *     store.close()
 *
 * Example: await (await RAG.docs.store.open({fingerprint: "f"})).get(["never seen"]) -> [null]
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const DATABASE = "rag-explainer-documents";
  const VECTORS = "vectors";
  const OPEN_SECONDS = 5;  // a browser that neither opens nor refuses (some private modes) gets memory

  const fingerprint = (live) => `model:${live.files.model.sha256} vocab:${live.files.vocab.sha256} wordpieces:${live.max_wordpieces}`;

  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const finished = (transaction) => new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("the transaction was aborted"));
  });

  function openDatabase(factory) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`IndexedDB did not open within ${OPEN_SECONDS} s`)), OPEN_SECONDS * 1000);
      let request;
      try {
        request = factory.open(DATABASE, 1);
      } catch (error) {
        clearTimeout(timer);
        return reject(error);
      }
      request.onupgradeneeded = () => request.result.createObjectStore(VECTORS, { keyPath: ["model", "hash"] });
      request.onsuccess = () => { clearTimeout(timer); resolve(request.result); };
      request.onerror = () => { clearTimeout(timer); reject(request.error || new Error("IndexedDB refused to open")); };
      request.onblocked = () => { clearTimeout(timer); reject(new Error("IndexedDB is held by another tab of this page")); };
    });
  }

  // Records read or written per transaction: one transaction over 2,000 vectors holds the page's
  // thread for a tenth of a second or more; a few hundred stay within a slice (slices.js).
  const GROUP = 200;
  const groups = (items) => Array.from({ length: Math.ceil(items.length / GROUP) }, (_, i) => items.slice(i * GROUP, (i + 1) * GROUP));

  const recordBytes = (record) => record.vector.byteLength + record.model.length + record.hash.length;

  class Store {
    constructor(model, factory, database, note) {
      this.model = model;
      this.factory = factory;
      this.database = database;
      this.memory = new Map();  // hash -> Float32Array, where IndexedDB is not to be had
      this.where = database ? "indexeddb" : "memory";
      this.note = note;
      this.reopen = false;
    }

    /** The database, opened again after forget() deleted it (lazily: forgetting leaves nothing behind). */
    async connection() {
      if (!this.database && this.reopen) {
        this.reopen = false;
        this.database = await openDatabase(this.factory).catch(() => null);
        if (!this.database) this.where = "memory";
      }
      return this.database;
    }

    async get(texts) {
      const hashes = await docs.textHashes(texts);
      if (!this.database) return hashes.map((hash) => this.memory.get(hash) || null);  // forgotten: nothing to open
      const found = [];
      const slice = docs.slicer();
      for (const group of groups(hashes)) {
        await slice();
        const table = this.database.transaction(VECTORS, "readonly").objectStore(VECTORS);
        const records = await Promise.all(group.map((hash) => done(table.get([this.model, hash]))));
        records.forEach((record, i) => found.push(record ? new Float32Array(record.vector) : this.memory.get(group[i]) || null));
      }
      return found;
    }

    async put(pairs) {
      const hashes = await docs.textHashes(pairs.map(([text]) => text));
      const records = pairs.map(([, vector], i) => ({ model: this.model, hash: hashes[i], vector: Float32Array.from(vector).buffer }));
      let kept = 0;  // records in IndexedDB; the rest go to memory
      if (await this.connection()) {
        const slice = docs.slicer();
        try {
          for (const group of groups(records)) {
            await slice();
            const transaction = this.database.transaction(VECTORS, "readwrite");
            const table = transaction.objectStore(VECTORS);
            for (const record of group) table.put(record);
            await finished(transaction);
            kept += group.length;
          }
        } catch (error) {
          this.note = `IndexedDB refused to keep more (${(error && error.message) || error}): the newest vectors are kept in memory until the page closes.`;
        }
      }
      records.slice(kept).forEach((record) => this.memory.set(record.hash, new Float32Array(record.vector)));
      return records.length;
    }

    /** Delete everything this page stored (every model's vectors, the database itself) and say what it was. */
    async forget() {
      let vectors = this.memory.size;
      let bytes = [...this.memory.values()].reduce((sum, v) => sum + v.byteLength + this.model.length + 64, 0);
      const models = new Set(this.memory.size ? [this.model] : []);
      this.memory.clear();
      if (this.database) {
        const transaction = this.database.transaction(VECTORS, "readonly");
        const cursor = transaction.objectStore(VECTORS).openCursor();
        await new Promise((resolve, reject) => {
          cursor.onerror = () => reject(cursor.error);
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) return resolve();
            vectors += 1;
            bytes += recordBytes(at.value);
            models.add(at.value.model);
            at.continue();
          };
        });
        this.database.close();
        this.database = null;
        await done(this.factory.deleteDatabase(DATABASE));
        this.reopen = true;  // made again only when the next documents' vectors are kept
      }
      return { vectors, bytes, models: models.size, where: this.where };
    }

    close() {
      if (this.database) this.database.close();
    }
  }

  async function open({ fingerprint: model, indexedDB: factory = globalThis.indexedDB } = {}) {
    if (!model) throw new TypeError("RAG.docs.store.open({fingerprint}): give the model's fingerprint (RAG.docs.store.fingerprint(data.live))");
    if (!factory) return new Store(model, null, null, "This browser offers no IndexedDB: the vectors are kept in memory until the page closes.");
    try {
      return new Store(model, factory, await openDatabase(factory), "");
    } catch (error) {
      return new Store(model, factory, null, `The browser refused IndexedDB (${(error && error.message) || error}; a private window?): ` +
        "the vectors are kept in memory until the page closes.");
    }
  }

  docs.store = { open, fingerprint, DATABASE };
})();
