/* site_src/engine/prompt.js: the twin of engine/prompt.py (escape, source_block, build_prompt):
   rules, one tagged <source> block per passage best first, the question last, with & < > "
   escaped in every id, title, date and text.

   What differs: the rules are the caller's (engine/prompt.py's RULES, shipped as
   data.prompt.rules), and a source is a plain object {id, title, date, text} for Python's Source. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** Python's escape(). Example: escapeText('a "b" </source>') -> 'a &quot;b&quot; &lt;/source&gt;' */
  function escapeText(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function sourceBlock(s) {
    return '<source id="' + escapeText(s.id) + '" title="' + escapeText(s.title) + '" date="' +
      escapeText(s.date) + '">\n' + escapeText(s.text) + "\n</source>";
  }
  /** The whole prompt as one string, sources in the order given (best first). */
  function buildPrompt(question, sources, rules) {
    const ruleText = rules.map((rule, i) => (i + 1) + ". " + rule).join("\n");
    const blocks = sources.map(sourceBlock).join("\n\n");
    return "Rules:\n" + ruleText + "\n\nSources:\n\n" + blocks + "\n\nQuestion: " + escapeText(question) + "\n";
  }

  Object.assign(E, { escapeText, sourceBlock, buildPrompt });
})();
