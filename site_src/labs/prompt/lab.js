/* The prompt builder (lab.html draws its default). The sources are the top n of the question's
 * fused list, each with the title, date and text of data.passages; the rules are
 * data.prompt.rules. RAG.engine.buildPrompt assembles the text exactly as engine/prompt.py
 * does (tests/labs/test_prompt.py compares them for every question and size). Token counts
 * were computed by the build: data.prompt_tokens, and own.hostile_tokens with the made-up
 * hostile source added.
 * State: {q, n, demo}: a question id, how many passages are sent, and whether the hostile
 * source is added. */
(() => {
  /* The prompt's text as nodes: the parts marked (headings, rules, source tags) and, in the
     sources, each escape sequence (&amp; &lt; &gt; &quot;) in a <mark>; the same characters. */
  const promptNodes = (text) => {
    const marked = (line) => {
      const [first, ...rest] = line.split("&");
      return [first, ...rest.map((part) => {
        const cut = part.indexOf(";");
        return cut < 0 ? `&${part}` : [RAG.el("mark", { class: "prompt-escaped" }, `&${part.slice(0, cut + 1)}`), part.slice(cut + 1)];
      })];
    };
    const lines = text.split("\n");
    let part = "head";
    return lines.map((line, i) => {
      if (line === "Rules:") part = "rules";
      else if (line === "Sources:") part = "sources";
      const content = part === "sources" ? marked(line) : line;
      const end = i < lines.length - 1 ? "\n" : null;
      if (line === "Rules:" || line === "Sources:" || line.startsWith("Question: ")) {
        return [RAG.el("span", { class: "prompt-head" }, content), end];
      }
      if (part === "rules" && line) return [RAG.el("span", { class: "prompt-rule-line" }, content), end];
      if (line.startsWith("<source ") || line === "</source>") return [RAG.el("span", { class: "prompt-tag" }, content), end];
      return [content, end];
    });
  };

  RAG.lab("prompt", {
    accept(next, ctx) {
      const [low, high] = ctx.own.sizes;
      const n = Number(next.n);
      if (!ctx.question(next.q) || !Number.isInteger(n) || n < low || n > high) return null;
      return { q: next.q, n, demo: next.demo === true || next.demo === "true" || next.demo === "1" };
    },

    setup(ctx) {
      for (const input of ctx.findAll('input[name="prompt-n"]')) {
        ctx.on(input, "change", () => { if (input.checked) ctx.set({ n: input.value }); });
      }
      const demo = ctx.find('input[name="prompt-demo"]');
      ctx.on(demo, "change", () => ctx.set({ demo: demo.checked }));
    },

    draw(ctx) {
      const { data, own, state } = ctx;
      const el = RAG.el;
      const question = ctx.question(state.q);
      const fused = question.runs.hybrid;
      const passage = Object.fromEntries(data.passages.map((p) => [p.id, p]));
      const hostile = own.hostile;
      const top = fused.slice(0, state.n);

      const badges = (p) => el("span", { class: "badges" },
        el("span", { class: "badge" }, p.updated),
        p.id === question.answer ? el("span", { class: "badge badge-ok" }, "right passage") : null,
        p.superseded ? el("span", { class: "badge badge-superseded" }, "outdated") : null,
        p.kind === "forum" ? el("span", { class: "badge badge-forum" }, "forum post") : null,
        p.kind === "runbook" ? el("span", { class: "badge badge-runbook" }, "runbook") : null,
        p.acl.includes("staff") ? el("span", { class: "badge badge-staff" }, "staff only") : null);
      RAG.replace(ctx.find(".prompt-sources"), top.map(([pid, value], i) => el("li", {
        class: ["result", pid === question.answer ? "is-answer" : ""] },
        el("span", { class: "rank" }, String(i + 1)),
        el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, passage[pid].title)),
        el("meter", { class: "score-bar", min: "0", max: String(fused[0][1]), value: String(value), "aria-hidden": "true" }),
        el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(value, 4)),
        badges(passage[pid]))),
      state.demo ? el("li", { class: "result is-demo" },
        el("span", { class: "rank" }, String(top.length + 1)),
        el("span", { class: "pid" }, el("code", null, hostile.id), " ", el("span", { class: "title" }, hostile.title)),
        el("span", { class: "score" }, "\u2013"),
        el("span", { class: "badges" }, el("span", { class: "badge" }, hostile.date),
          el("span", { class: "badge badge-fail" }, "made up for the demo")),
        el("p", { class: "detail" }, "Not in the help center and not searched: a hostile text added to show the escaping."))
        : null);

      const sources = top.map(([pid]) => passage[pid]).map((p) => ({ id: p.id, title: p.title, date: p.updated, text: p.text }));
      if (state.demo) sources.push({ id: hostile.id, title: hostile.title, date: hostile.date, text: hostile.text });
      const text = RAG.engine.buildPrompt(question.text, sources, data.prompt.rules.map((rule) => rule.text));
      RAG.replace(ctx.find(".prompt-text code"), promptNodes(text));

      for (const input of ctx.findAll('input[name="prompt-n"]')) input.checked = Number(input.value) === state.n;
      ctx.find('input[name="prompt-demo"]').checked = state.demo;
      // The build counted the tokens of its own questions' prompts; a question asked live has none.
      const counted = ((state.demo ? own.hostile_tokens : data.prompt_tokens)[state.q] || {})[String(state.n)];
      const size = counted === undefined ? "." : `: the whole prompt is ${counted} tokens (${data.tokens.tokenizer}).`;
      const status = `${state.n} passages${state.demo ? " and the hostile source" : ""} for \u201c${question.text}\u201d${size}`;
      ctx.find(".lab-status").textContent = status;
      return status;
    },
  });
})();
