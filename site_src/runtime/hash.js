/* hash.js: a lab's state in the address bar, so every state has a link to share.
 *
 *   #lab-chunking?setting=fixed-12&q=q1   <->   {setting: "fixed-12", q: "q1"} of the lab "chunking"
 *
 * Values are strings in the link; a lab's accept() turns them into its state, or refuses them.
 * Writing uses history.replaceState: moving a slider adds no history entry.
 */
(() => {
  "use strict";
  const RAG = window.RAG;

  /** {id, query}: "#lab-bm25?q=g01" -> {id: "lab-bm25", query: "q=g01"}; query is null without "?". */
  function parse(hash) {
    const raw = (hash || "").replace(/^#/, "");
    const cut = raw.indexOf("?");
    let id = cut < 0 ? raw : raw.slice(0, cut);
    try { id = decodeURIComponent(id); } catch (error) { /* keep it raw */ }
    return { id, query: cut < 0 ? null : raw.slice(cut + 1) };
  }

  /** The lab a link points at ("bm25" for #lab-bm25 or #lab-bm25?q=…), or null. */
  function labOf(hash) {
    const { id } = parse(hash);
    return id.startsWith("lab-") ? id.slice(4) : null;
  }

  /** {key: "value"} from the current link when it names this lab's state; {} otherwise. */
  function read(labName) {
    const { id, query } = parse(window.location.hash);
    const state = {};
    if (id !== "lab-" + labName || !query) return state;
    new URLSearchParams(query).forEach((value, key) => { state[key] = value; });
    return state;
  }

  function write(labName, state) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(state || {})) {
      if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
    }
    const query = params.toString();
    const hash = `#lab-${labName}${query ? "?" + query : ""}`;
    if (window.location.hash === hash) return hash;
    try {
      window.history.replaceState(window.history.state, "", hash);
    } catch (error) {
      // Some browsers refuse replaceState on file:// URLs; the state just isn't shareable there.
    }
    return hash;
  }

  RAG.hash = { parse, labOf, read, write };
})();
