/* The prompt view: one question of a corpus, the top n passages of its fused list, and the prompt
 * RAG.engine.buildPrompt assembles from them exactly as engine/prompt.py does (the tests compare
 * the two for every question and size), with its size in tokens where the build counted it; a
 * switch adds a hostile made-up source at the end, to show the escaping. Ranks that tie (fused
 * scores equal to 6 decimals) are written "2=" (RAG.kit).
 *
 * Input: {corpus (RAG.corpus), rules ([{text, reason}]: data.prompt.rules), sizes ([fewest, most]
 * passages sent), hostile ({id, title, date, text}), tokens ({tokenizer, plain: question -> n ->
 * count, hostile: the same with the hostile source}; a question not counted has none), prefix}.
 * Reads of the corpus: question(id) and its runs.hybrid, passage(id) (title, text, updated,
 * superseded, kind, acl: each optional but id, title and text), rightPassages.
 * State: {q, n, demo}: a question id, how many passages are sent, and whether the hostile
 * source is added. */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;

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

  const badges = (p, right) => h("span", { class: "badges" },
    p.updated ? h("span", { class: "badge" }, p.updated) : null,
    right ? h("span", { class: "badge badge-ok" }, "right passage") : null,
    p.superseded ? h("span", { class: "badge badge-superseded" }, "outdated") : null,
    p.kind === "forum" ? h("span", { class: "badge badge-forum" }, "forum post") : null,
    p.kind === "runbook" ? h("span", { class: "badge badge-runbook" }, "runbook") : null,
    (p.acl || []).includes("staff") ? h("span", { class: "badge badge-staff" }, "staff only") : null);

  const source = ({ passage: p, score, place }, props) => {
    const right = props.rights.includes(p.id);
    return kit.row({ id: p.id, place, title: p.title, bar: { max: props.top, value: score }, score: RAG.fixed(score, 4),
                     scoreTitle: "fused (RRF) score", more: badges(p, right), classes: [right && "is-answer"], attrs: { key: p.id, "data-pid": p.id } });
  };

  const hostile = (props) => kit.row({
    id: props.hostile.id, place: props.sources.length + 1, title: props.hostile.title, score: "\u2013",
    more: [h("span", { class: "badges" }, h("span", { class: "badge" }, props.hostile.date),
      h("span", { class: "badge badge-fail" }, "made up for the demo")),
    h("p", { class: "detail" }, "Not in the help center and not searched: a hostile text added to show the escaping.")],
    classes: ["is-demo"], attrs: { key: "hostile" } });

  /** "5 passages for “…”: the whole prompt is 490 tokens (o200k_base)." (no count for a question asked live) */
  const status = (props) => `${props.n} passages${props.hostile ? " and the hostile source" : ""} for \u201c${props.question}\u201d` +
    (props.tokens === undefined ? "." : `: the whole prompt is ${props.tokens} tokens (${props.tokenizer}).`);

  RAG.view("prompt", {
    accept(next, input) {
      const [low, high] = input.sizes;
      const n = Number(next.n);
      if (!input.corpus.question(next.q) || !Number.isInteger(n) || n < low || n > high) return null;
      return { q: next.q, n, demo: next.demo === true || next.demo === "true" || next.demo === "1" };
    },

    props(state, input) {
      const { corpus, tokens, hostile } = input;
      const question = corpus.question(state.q);
      const fused = question.runs.hybrid;
      const places = kit.placesOf(fused);
      const sources = fused.slice(0, state.n).map(([pid, score]) => ({ passage: corpus.passage(pid), score, place: places.get(pid) }));
      const sent = sources.map(({ passage: p }) => ({ id: p.id, title: p.title, date: p.updated || "", text: p.text }));
      if (state.demo) sent.push({ id: hostile.id, title: hostile.title, date: hostile.date, text: hostile.text });
      // The build counted the tokens of its own questions' prompts; a question asked live has none.
      const counted = (state.demo ? tokens.hostile : tokens.plain)[state.q];
      return {
        n: state.n, question: question.text, rights: corpus.rightPassages(question), sources, top: fused.length ? fused[0][1] : 0,
        hostile: state.demo ? hostile : null, rules: input.rules, tokenizer: tokens.tokenizer,
        tokens: counted ? counted[String(state.n)] : undefined,
        text: RAG.engine.buildPrompt(question.text, sent, input.rules.map((rule) => rule.text)),
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
            h("ol", { class: "results prompt-sources" }, props.sources.map((s) => source(s, props)),
              props.hostile ? hostile(props) : null))),
        h("h4", { class: "prompt-heading" }, "The prompt, exactly as sent"),
        h("pre", { class: "prompt-text", tabindex: "0", "aria-label": "The prompt text" }, h("code", null, promptNodes(props.text))),
      ];
    },

    summary: status,
  });
})();
