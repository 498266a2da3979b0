/* refusal.js: the error a reader of one file throws when it will not read that file
 * (RAG.docs.Refusal). Its message says what the file is or what went wrong, and what to do; the
 * file's name is added by read-files.js, which reports it beside the files that were read. No
 * window: a page, a worker or Node.
 *
 * Example: throw new RAG.docs.Refusal("is protected by a password; …")
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  class Refusal extends Error {
    constructor(message) {
      super(message);
      this.name = "Refusal";
    }
  }
  docs.Refusal = Refusal;
})();
