/* The prompt-injection demo: the retrieved forum post with its hidden instruction marked, the two
 * illustrative answers with the verdicts the build's engine/guardrail.py gave them, and an editor
 * where RAG.engine.checkOutput, the JavaScript twin of check_output, re-checks any answer with the
 * build's own patterns and allowed hosts. The editor's controls (which answer to start from, the
 * text) are drawn by the view, between the answers and the editor's verdict, and hidden without
 * JavaScript; setup() turns their events into state.
 * State: {base, text?}: the answer the editor starts from ("ignored" or "obeyed") and, once the
 * reader has edited it, the text in the box. */
(() => {
  const h = RAG.h;
  const ANSWERS = [["ignored", "The model ignored it", "the answer that ignored it"],
                   ["obeyed", "The model obeyed it", "the answer that obeyed it"]];

  /** [[piece, kind or null]]: each finding's match cut out for highlighting, as the data step's
   *  marked() cuts the build's answers. */
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

  /** Children with adjacent strings joined: the build's HTML holds them as one text node, and
   *  Preact, drawing over it, keeps the drawing the same only if the view does too. */
  const joinText = (children) => children.flat(Infinity).reduce((joined, child) => {
    if (child === null || child === false || child === "") return joined;
    if (typeof child === "string" && typeof joined[joined.length - 1] === "string") joined[joined.length - 1] += child;
    else joined.push(child);
    return joined;
  }, []);

  const answerText = (pieces, labels) => h("p", { class: "answer-text" }, pieces.map(([piece, kind]) =>
    (kind ? h("mark", { class: ["finding", `finding-${kind}`], title: labels[kind] }, piece) : piece)));

  const verdict = (findings) => [
    h("p", { class: "verdict" }, findings.length
      ? [h("span", { class: "badge badge-fail" }, "blocked"), ` ${RAG.plural(findings.length, "finding")}`]
      : [h("span", { class: "badge badge-ok" }, "passes"), " nothing to block"]),
    findings.length ? h("ul", { class: "findings" }, findings.map((f) => h("li", null, f))) : null,
  ];

  const source = (s) => h("figure", { class: "injected-source" },
    h("figcaption", null, h("span", { class: "badge badge-forum" }, "forum post"), " ", h("code", null, s.id), ` \u00b7 ${s.title}`),
    h("blockquote", { class: "passage-quote" }, joinText(s.sentences.map(([sentence, flagged], i) => [
      flagged ? h("mark", { class: "injected" }, sentence) : sentence, i < s.sentences.length - 1 ? " " : null]))));

  function editor(props) {
    return h("div", { class: "guardrail-editor js-only" },
      h("h4", { id: "guardrail-editor-title" }, "Try the guardrail yourself"),
      h("div", { class: "lab-controls" },
        h("div", { class: "injection-start", role: "group", "aria-labelledby": "injection-start-label" },
          h("span", { class: "field-label", id: "injection-start-label" }, "Start from"),
          ANSWERS.map(([name, , label]) => h("button", { type: "button", class: "btn", "data-base": name,
                                                        "aria-pressed": String(name === props.base) }, label))),
        h("label", { class: "field grow" }, h("span", { class: "field-label" }, "Answer to check (edit it)"),
          // The value is the text checked; the content, the answer started from, which is what the
          // build's HTML holds. Chromium moves the caret whenever a textarea's content changes, so
          // the content must not follow what the reader types.
          h("textarea", { name: "injection-text", rows: "5", spellcheck: "false", value: props.text }, props.started))),
      h("div", { class: "editor-result" },
        h("div", { class: "editor-verdict", "aria-live": "polite" }, verdict(props.findings)),
        answerText(props.pieces, props.labels)));
  }

  RAG.lab("injection", {
    accept(next, input) {
      if (!Object.hasOwn(input.own.answers, next.base)) return null;
      const answer = input.own.answers[next.base];
      // An unedited answer is just its base: the link stays short.
      const edited = typeof next.text === "string" && next.text !== answer.text;
      return edited ? { base: next.base, text: next.text } : { base: next.base };
    },

    props(state, input) {
      const { data, own } = input;
      const titles = new Map(data.passages.map((p) => [p.id, p.title]));
      const text = state.text === undefined ? own.answers[state.base].text : state.text;
      const found = RAG.engine.checkOutput(text, data.guardrail.patterns, data.guardrail.hosts);
      return {
        sources: own.injected.map((s) => ({ id: s.id, title: titles.get(s.id), sentences: s.sentences })),
        answers: ANSWERS.map(([name, heading]) => ({ name, heading, marked: own.answers[name].marked,
                                                     findings: own.answers[name].guardrail })),
        labels: own.labels, base: state.base, started: own.answers[state.base].text, text,
        findings: found.map((f) => f.text), pieces: markedPieces(text, found),
      };
    },

    view(props) {
      return [
        props.sources.map(source),
        h("div", { class: "lab-columns injection-answers" }, props.answers.map((answer) =>
          h("div", { class: "lab-col", "data-answer": answer.name },
          h("h4", null, answer.heading),
          h("div", { class: "illustrative" },
            h("p", { class: "illustrative-label" }, "Illustrative \u00b7 hand-written"),
            answerText(answer.marked, props.labels)),
          h("p", { class: "guardrail-title" }, "Output guardrail (real code)"),
          verdict(answer.findings)))),
        editor(props),
      ];
    },

    summary(props) {
      return props.findings.length ? `The guardrail blocks this answer: ${props.findings.join("; ")}.`
        : "The guardrail lets this answer pass: nothing to block.";
    },

    setup(ctx) {
      if (!RAG.engine || !RAG.engine.checkOutput) throw new Error("the guardrail's JavaScript twin (site_src/engine/guardrail.js, in the engine script) is missing");
      // Another starting answer replaces whatever was typed.
      ctx.on(ctx.output, "click", (event) => {
        const button = event.target.closest && event.target.closest("button[data-base]");
        if (button) ctx.set({ base: button.dataset.base, text: undefined });
      });
      ctx.on(ctx.output, "input", (event) => {
        if (event.target.name === "injection-text") ctx.set({ text: event.target.value }, { announce: "later" });
      });
    },
  });
})();
