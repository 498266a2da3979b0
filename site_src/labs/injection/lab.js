/* The prompt-injection demo (lab.html draws its default). The poisoned passage and the two
 * illustrative answers with their verdicts are the build's (engine/guardrail.py) and never
 * change; this script draws the editor, where RAG.engine.checkOutput, the JavaScript twin of
 * check_output, re-checks any answer with the build's own patterns and allowed hosts.
 * State: {base, text?}: the answer the editor starts from ("ignored" or "obeyed") and, once
 * the reader has edited it, the text in the box. */

{  // a block: the helper stays out of the page's global scope
  /** [[piece, kind or null]]: each finding's match cut out for highlighting, as
   *  builder/labs/injection.py marked() cuts it. */
  const markedPieces = (text, findings) => {
    const spans = [];
    for (const finding of findings) {
      let start = text.indexOf(finding.match);
      while (start >= 0) {
        const end = start + finding.match.length;
        if (spans.every(([from, to]) => end <= from || start >= to)) {
          spans.push([start, end, finding.kind]);
          break;
        }
        start = text.indexOf(finding.match, start + 1);
      }
    }
    spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const pieces = [];
    let at = 0;
    for (const [start, end, kind] of spans) {
      if (start > at) pieces.push([text.slice(at, start), null]);
      pieces.push([text.slice(start, end), kind]);
      at = end;
    }
    if (at < text.length) pieces.push([text.slice(at), null]);
    return pieces;
  };

  RAG.lab("injection", {
    accept(next, ctx) {
      if (!Object.hasOwn(ctx.own.answers, next.base)) return null;
      const answer = ctx.own.answers[next.base];
      // An unedited answer is just its base: the link stays short.
      const edited = typeof next.text === "string" && next.text !== answer.text;
      return edited ? { base: next.base, text: next.text } : { base: next.base };
    },

    setup(ctx) {
      if (!RAG.engine || !RAG.engine.checkOutput) throw new Error("the guardrail's JavaScript twin (engine.js) is missing");
      const textarea = ctx.find('textarea[name="injection-text"]');
      for (const radio of ctx.findAll('input[name="injection-base"]')) {
        // Another starting answer replaces whatever was typed.
        ctx.on(radio, "change", () => ctx.set({ base: radio.value, text: undefined }));
      }
      ctx.on(textarea, "input", () => ctx.set({ text: textarea.value }, { announce: "later" }));
    },

    draw(ctx) {
      const { state, own } = ctx;
      const text = state.text === undefined ? own.answers[state.base].text : state.text;
      const findings = RAG.engine.checkOutput(text, ctx.data.guardrail.patterns, ctx.data.guardrail.hosts);
      const n = findings.length;

      for (const radio of ctx.findAll('input[name="injection-base"]')) radio.checked = radio.value === state.base;
      const textarea = ctx.find('textarea[name="injection-text"]');
      if (textarea.value !== text) textarea.value = text;  // leave the caret where the reader types

      RAG.replace(ctx.find(".editor-verdict"),
        RAG.el("p", { class: "verdict" }, n
          ? [RAG.el("span", { class: "badge badge-fail" }, "blocked"), ` ${RAG.plural(n, "finding")}`]
          : [RAG.el("span", { class: "badge badge-ok" }, "passes"), " nothing to block"]),
        n ? RAG.el("ul", { class: "findings" }, findings.map((f) => RAG.el("li", null, f.text))) : null);
      RAG.replace(ctx.find(".editor-result .answer-text"), markedPieces(text, findings).map(([piece, kind]) =>
        kind ? RAG.el("mark", { class: `finding finding-${kind}`, title: own.labels[kind] }, piece) : piece));

      return n ? `The guardrail blocks this answer: ${findings.map((f) => f.text).join("; ")}.`
        : "The guardrail lets this answer pass: nothing to block.";
    },
  });
}
