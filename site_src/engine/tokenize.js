/* site_src/engine/tokenize.js: the twin of engine/tokenize.py (tokenize).

   Lower-case, then keep each run of letters or digits of any script: Python's [^\W_]+ is
   JavaScript's [\p{L}\p{N}]+ (a letter, or a digit of any kind: "2½", "10²" and "Ⅳ" are one term
   each). What differs: the Unicode version. Python 3.11 reads Unicode 14, the browser a later one,
   so a letter or digit assigned since (14,049 code points by Unicode 17) is a term here and a
   separator in Python. On every code point Unicode 14 assigns the two agree (tests/twins/). */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** Example: tokenize("QB-4021: File too large") -> ["qb", "4021", "file", "too", "large"] */
  function tokenize(text) {
    return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
  }

  Object.assign(E, { tokenize });
})();
