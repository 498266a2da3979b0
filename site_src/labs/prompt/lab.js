/* The prompt builder: one question, the top n passages of its fused list, and the prompt
 * RAG.engine.buildPrompt assembles from them exactly as engine/prompt.py does (the tests compare
 * the two for every question and size). The rules are data.prompt.rules; the token counts were
 * computed by the build: data.prompt_tokens, and own.hostile_tokens with the made-up hostile
 * source added (a question asked live has none).
 * State: {q, n, demo}: a question id, how many passages are sent, and whether the hostile
 * source is added. */
(() => {
  const h = RAG.h;

  /** One line of the sources with each escape sequence (&amp; &lt; &gt; &quot;) in a mark. */
  const escapesMarked = (line) => {
    const [first, ...rest] = line.split("&");
    return [first, ...rest.map((part) => {
      const cut = part.indexOf(";");
      return cut < 0 ? `&${part}` : [h("mark", { class: "prompt-escaped" }, `&${part.slice(0, cut + 1)}`), part.slice(cut + 1)];
    })];
  };

  /** The prompt's text as nodes, the same characters: headings, rules and source tags marked. */
  const promptNodes = (text) => {
    const lines = text.split("\n");
    let part = "head";
    return lines.map((line, i) => {
      if (line === "Rules:") part = "rules";
      else if (line === "Sources:") part = "sources";
      const content = part === "sources" ? escapesMarked(line) : line;
      const end = i < lines.length - 1 ? "\n" : null;
      if (line === "Rules:" || line === "Sources:" || line.startsWith("Question: ")) {
        return [h("span", { class: "prompt-head" }, content), end];
      }
      if (part === "rules" && line) return [h("span", { class: "prompt-rule-line" }, content), end];
      if (line.startsWith("<source ") || line === "</source>") return [h("span", { class: "prompt-tag" }, content), end];
      return [content, end];
    });
  };

  const badges = (p, answer) => h("span", { class: "badges" },
    h("span", { class: "badge" }, p.updated),
    p.id === answer ? h("span", { class: "badge badge-ok" }, "right passage") : null,
    p.superseded ? h("span", { class: "badge badge-superseded" }, "outdated") : null,
    p.kind === "forum" ? h("span", { class: "badge badge-forum" }, "forum post") : null,
    p.kind === "runbook" ? h("span", { class: "badge badge-runbook" }, "runbook") : null,
    p.acl.includes("staff") ? h("span", { class: "badge badge-staff" }, "staff only") : null);

  const source = ({ passage: p, score }, i, props) => h("li", { class: ["result", p.id === props.answer && "is-answer"], key: p.id },
    h("span", { class: "rank" }, String(i + 1)),
    h("span", { class: "pid" }, h("code", null, p.id), " ", h("span", { class: "title" }, p.title)),
    h("meter", { class: "score-bar", min: "0", max: String(props.top), value: String(score), "aria-hidden": "true" }),
    h("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(score, 4)),
    badges(p, props.answer));

  const hostile = (props) => h("li", { class: "result is-demo", key: "hostile" },
    h("span", { class: "rank" }, String(props.sources.length + 1)),
    h("span", { class: "pid" }, h("code", null, props.hostile.id), " ", h("span", { class: "title" }, props.hostile.title)),
    h("span", { class: "score" }, "\u2013"),
    h("span", { class: "badges" }, h("span", { class: "badge" }, props.hostile.date),
      h("span", { class: "badge badge-fail" }, "made up for the demo")),
    h("p", { class: "detail" }, "Not in the help center and not searched: a hostile text added to show the escaping."));

  /** "5 passages for “…”: the whole prompt is 490 tokens (o200k_base)." (no count for a question asked live) */
  const status = (props) => `${props.n} passages${props.hostile ? " and the hostile source" : ""} for \u201c${props.question}\u201d` +
    (props.tokens === undefined ? "." : `: the whole prompt is ${props.tokens} tokens (${props.tokenizer}).`);

  RAG.lab("prompt", {
    accept(next, input) {
      const [low, high] = input.own.sizes;
      const n = Number(next.n);
      if (!input.question(next.q) || !Number.isInteger(n) || n < low || n > high) return null;
      return { q: next.q, n, demo: next.demo === true || next.demo === "true" || next.demo === "1" };
    },

    props(state, input) {
      const { data, own } = input;
      const question = input.question(state.q);
      const fused = question.runs.hybrid;
      const byId = new Map(data.passages.map((p) => [p.id, p]));
      const sources = fused.slice(0, state.n).map(([pid, score]) => ({ passage: byId.get(pid), score }));
      const sent = sources.map(({ passage: p }) => ({ id: p.id, title: p.title, date: p.updated, text: p.text }));
      if (state.demo) sent.push({ id: own.hostile.id, title: own.hostile.title, date: own.hostile.date, text: own.hostile.text });
      // The build counted the tokens of its own questions' prompts; a question asked live has none.
      const counted = (state.demo ? own.hostile_tokens : data.prompt_tokens)[state.q];
      return {
        n: state.n, question: question.text, answer: question.answer, sources, top: fused.length ? fused[0][1] : 0,
        hostile: state.demo ? own.hostile : null, rules: data.prompt.rules, tokenizer: data.tokens.tokenizer,
        tokens: counted ? counted[String(state.n)] : undefined,
        text: RAG.engine.buildPrompt(question.text, sent, data.prompt.rules.map((rule) => rule.text)),
      };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "lab-columns prompt-parts" },
          h("div", { class: "lab-col" },
            h("h4", null, "The rules, and why each is there"),
            h("ol", { class: "prompt-rules" }, props.rules.map((rule) => h("li", null,
              h("span", { class: "prompt-rule-text" }, rule.text), " ",
              h("span", { class: "prompt-rule-why" }, h("strong", null, "Why:"), " ", rule.reason))))),
          h("div", { class: "lab-col" },
            h("h4", null, "Sources, best first"),
            h("ol", { class: "results prompt-sources" }, props.sources.map((s, i) => source(s, i, props)),
              props.hostile ? hostile(props) : null))),
        h("h4", { class: "prompt-heading" }, "The prompt, exactly as sent"),
        h("pre", { class: "prompt-text", tabindex: "0", "aria-label": "The prompt text" }, h("code", null, promptNodes(props.text))),
      ];
    },

    summary: status,
  });
})();
