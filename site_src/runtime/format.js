/* format.js: numbers written exactly as the build writes them, so a redrawn figure is the
 * same text as the one in the HTML. */
(() => {
  "use strict";
  const RAG = window.RAG;

  /**
   * Format like Python's f"{x:.{digits}f}" (ties to even).
   * Example: RAG.fixed(0.125, 2) -> "0.12" (JavaScript's toFixed gives "0.13").
   */
  RAG.fixed = (x, digits = 3) => {
    if (!isFinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
    let text = x.toFixed(digits);
    // toFixed rounds exact halves away from zero; Python rounds them to even.
    const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
    const point = exact.indexOf(".");
    if (/^50*$/.test(exact.slice(point + 1 + digits))) {
      const down = (x < 0 ? "-" : "") + exact.slice(0, point + 1 + digits).replace(/\.$/, "");
      if (/[02468]$/.test(down)) text = down;
    }
    return text;
  };

  /** "1 chunk", "3 chunks". */
  RAG.plural = (n, word, many = word + "s") => `${n} ${n === 1 ? word : many}`;
})();
