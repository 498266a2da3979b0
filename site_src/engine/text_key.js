/* site_src/engine/text_key.js: the twin of engine/text_key.py (text_key): FNV-1a (32 bits) of a
   text's UTF-16 code units, in base 36, the key under which the build ships a chunk's scores.

   A JavaScript string is its code units, so nothing is encoded here; Python encodes to UTF-16
   (a lone surrogate passed through as the unit it is) to see the same units. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** Example: textKey("a") -> "1r9wi7g" */
  function textKey(text) {
    let value = 0x811c9dc5;
    for (let i = 0; i < text.length; i += 1) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return value.toString(36);
  }

  Object.assign(E, { textKey });
})();
