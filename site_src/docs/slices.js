/* slices.js: long loops cut into short slices so the page keeps responding (RAG.docs.slicer).
 * A loop calls `await slice()` between steps; it yields to the event loop (a macrotask, so input,
 * paint and other tasks run) once SLICE_MS have passed since the last yield, and throws an
 * AbortError as soon as `signal` is aborted. No window: it runs in a page, a worker or Node.
 *
 * Example: const slice = RAG.docs.slicer(signal); for (const file of files) { await slice(); read(file); }
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  const SLICE_MS = 8;  // well under a frame: a task of ours stays short whatever else the page does
  const now = () => (globalThis.performance ? globalThis.performance.now() : Date.now());
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  docs.cancelled = () => new DOMException("cancelled", "AbortError");

  docs.slicer = (signal) => {
    let started = now();
    return async () => {
      if (signal && signal.aborted) throw docs.cancelled();
      if (now() - started < SLICE_MS) return;
      await nextTask();
      if (signal && signal.aborted) throw docs.cancelled();
      started = now();
    };
  };
})();
