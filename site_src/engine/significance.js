/* site_src/engine/significance.js: the twin of engine/significance.py (wilson, sign_test): the
   Wilson interval of a proportion and the exact two-sided sign test, each rounded to 6 decimals
   as Python's round() does (ranking.js roundTo, which this file uses).

   What differs: z has no default here (engine/significance.py's Z_95 is 1.959964). The sign
   test's sum of binomial coefficients is an exact BigInt, divided by 2**n rounding once to the
   nearest double (ties to even), as Python divides one int by another; so the two agree bit for
   bit for any n (2,000 and beyond), where a sum of doubles or of logarithms would drift.
   wilson's arithmetic is Python's, step for step, exact for totals below 2**26. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** [low, high]: where the true proportion plausibly lies when `hits` of `total` were found. */
  function wilson(hits, total, z) {
    if (typeof z !== "number") throw new TypeError("wilson(hits, total, z): give z (1.959964 for 95%)");
    if (total === 0) return [0, 1];
    const p = hits / total;
    const denominator = 1 + z * z / total;
    const centre = (p + z * z / (2 * total)) / denominator;
    const half = z * Math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator;
    return [E.roundTo(Math.max(0, centre - half), 6), E.roundTo(Math.min(1, centre + half), 6)];
  }

  /** The double nearest integer / 2**power (a BigInt over a power of two), an exact half to even. */
  function overPowerOfTwo(integer, power) {
    if (integer === 0n) return 0;
    // Keep the top 64 bits, the last of them set if anything below was cut (round to odd): 64 bits
    // and that sticky one round to 53 exactly as the whole integer would.
    const shift = Math.max(0, integer.toString(2).length - 64);
    let top = integer >> BigInt(shift);
    if ((top << BigInt(shift)) !== integer) top |= 1n;
    let value = Number(top);
    let exponent = shift - power;
    for (; exponent < -1000; exponent += 1000) value *= 2 ** -1000;  // exact while the value stays a normal double
    return value * 2 ** exponent;
  }

  /** Two-sided exact sign test. Example: signTest(6, 1) -> 0.125 (= 2 * (1 + 7) / 2**7) */
  function signTest(wins, losses) {
    const n = wins + losses;
    if (n === 0) return 1;
    let term = 1n;  // C(n, 0)
    let sum = 1n;
    for (let i = 0; i < Math.min(wins, losses); i++) {
      term = (term * BigInt(n - i)) / BigInt(i + 1);  // C(n, i + 1), exactly
      sum += term;
    }
    return E.roundTo(Math.min(1, 2 * overPowerOfTwo(sum, n)), 6);
  }

  Object.assign(E, { wilson, signTest });
})();
