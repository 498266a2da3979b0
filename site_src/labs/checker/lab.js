/* The citation checker (lab.html draws its default). Every change runs RAG.engine.checkClaim
 * (the twin of engine/citations.py's check_claim, tested equal on a table of cases) against the
 * passages that answer's prompt carried (data.tracers[i].sent). Text the reader types is only
 * ever shown as text.
 * State: {q, c, text, source, quote}: a traced answer, the claim the reader started from, and
 * the claim's three fields once edited (absent while they are the claim's own). */
(() => {
  const FIELDS = ["text", "source", "quote"];
  const UNEDITED = { text: undefined, source: undefined, quote: undefined };
  const el = RAG.el;
  const words = (text) => text.split(/\s+/).filter(Boolean);

  /* engine.checkClaim's problems sorted into its three checks, as builder/labs/checker.py's by_check. */
  const byCheck = (problems) => ({
    source: problems.filter((p) => p.startsWith("unknown source id")),
    numbers: problems.filter((p) => p.startsWith("number ")),
    quote: problems.filter((p) => !p.startsWith("unknown source id") && !p.startsWith("number ")),
  });

  /* Where the quote sits in the passage, word by word, ignoring case and spacing (as quote_span). */
  const quoteSpan = (text, quote) => {
    if (!words(quote).length) return null;
    const pattern = words(quote).map((w) => w.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("\\s+");
    const match = new RegExp(pattern, "i").exec(text);
    return match ? [match.index, match.index + match[0].length] : null;
  };

  /* One check's row: pass, fail (with its problems) or not run (no such source to look in). */
  const checkRow = (name, problems, skipped, skippedText, passed) => {
    const bad = problems.length > 0;
    const [badge, word] = skipped ? ["badge-warn", "not run"] : bad ? ["badge-fail", "fail"] : ["badge-ok", "pass"];
    return el("li", { class: skipped ? "is-skipped" : bad ? "is-bad" : "is-ok" },
      el("span", { class: `badge ${badge}` }, word), " ", el("span", { class: "checker-check-name" }, name),
      skipped ? el("span", { class: "checker-detail" }, skippedText)
        : bad ? problems.map((p) => el("span", { class: "checker-problem" }, p))
        : el("span", { class: "checker-detail" }, passed));
  };

  RAG.lab("checker", {
    accept(next, ctx) {
      const tracer = ctx.data.tracers.find((t) => t.id === next.q);
      const c = Number(next.c);
      if (!tracer || !Number.isInteger(c) || c < 0 || c >= tracer.claims.length) return null;
      const claim = tracer.claims[c];
      const state = { q: tracer.id, c };
      for (const key of FIELDS) {
        if (typeof next[key] === "string" && next[key] !== claim[key]) state[key] = next[key];
      }
      return state;
    },

    setup(ctx) {
      const field = (key) => ctx.find(`[name="checker-${key}"]`);
      const tracerOf = () => ctx.data.tracers.find((t) => t.id === ctx.state.q);
      const current = (key) => ctx.state[key] ?? tracerOf().claims[ctx.state.c][key];

      ctx.on(field("q"), "change", () => ctx.set({ q: field("q").value, c: 0, ...UNEDITED }));
      ctx.on(field("c"), "change", () => ctx.set({ c: field("c").value, ...UNEDITED }));
      for (const key of FIELDS) {
        ctx.on(field(key), "input", () => ctx.set({ [key]: field(key).value }, { announce: "later" }));
      }
      const actions = {
        // The first passage of the fused list that did not make the cut: real, but never sent.
        unsent: () => {
          const sent = tracerOf().sent;
          const next = ctx.question(ctx.state.q).runs.hybrid.find(([pid]) => !sent.includes(pid));
          if (next) ctx.set({ source: next[0] });
        },
        number: () => ctx.set({ text: current("text").replace(/[0-9]+/, (digits) => String(Number(digits) + 1)) }),
        word: () => {
          const quote = words(current("quote"));
          quote.splice(Math.floor(quote.length / 2), 1);
          ctx.set({ quote: quote.join(" ") });
        },
        reset: () => ctx.set(UNEDITED),
      };
      for (const button of ctx.findAll("button[data-action]")) {
        ctx.on(button, "click", () => actions[button.dataset.action]());
      }
    },

    draw(ctx) {
      const { data, state } = ctx;
      const tracer = data.tracers.find((t) => t.id === state.q);
      const claim = tracer.claims[state.c];
      const [text, source, quote] = FIELDS.map((key) => state[key] ?? claim[key]);
      const passage = Object.fromEntries(data.passages.map((p) => [p.id, p]));
      const sent = tracer.sent;
      const result = RAG.engine.checkClaim({ text, source_id: source, quote },
        Object.fromEntries(sent.map((pid) => [pid, passage[pid].text])));
      const groups = byCheck(result.problems);
      const unknown = groups.source.length > 0;

      ctx.find('select[name="checker-q"]').value = state.q;
      RAG.replace(ctx.find('select[name="checker-c"]'), tracer.claims.map((other, i) =>
        el("option", { value: String(i), selected: i === state.c }, `${i + 1}. ${other.text}`)));
      ctx.find('select[name="checker-c"]').value = String(state.c);
      for (const [key, value] of [["text", text], ["source", source], ["quote", quote]]) {
        const input = ctx.find(`[name="checker-${key}"]`);
        if (input.value !== value) input.value = value;  // left alone while it holds what the reader typed
      }
      ctx.find('button[data-action="number"]').disabled = !/[0-9]/.test(text);
      ctx.find('button[data-action="word"]').disabled = words(quote).length < 2;

      const n = result.problems.length;
      const status = n ? `Fails: ${RAG.plural(n, "problem")}.` : "Passes every check.";
      ctx.find(".lab-status").textContent = status;
      RAG.replace(ctx.find(".checker-claim"),
        el("div", null, el("dt", null, "Claim"), el("dd", { class: "checker-claim-text" }, text)),
        el("div", null, el("dt", null, "Cites"), el("dd", null, el("code", { class: "checker-claim-source" }, source))),
        el("div", null, el("dt", null, "Quote"), el("dd", { class: "checker-claim-quote" }, quote)));
      RAG.replace(ctx.find(".checker-checks"),
        checkRow("The source was sent to the model", groups.source, false, null,
          [el("code", null, source), ` is one of the ${sent.length} passages sent.`]),
        checkRow("The quote is in that source", groups.quote, unknown,
          "Not checked: there is no such source to look in.", "Found, ignoring case and spacing."),
        checkRow("Every number in the claim is in the quote", groups.numbers, unknown,
          "Not checked: there is no such source.", "No number of the claim is missing from the quote."));

      ctx.find(".checker-sources").previousElementSibling.textContent = `The ${sent.length} passages sent with this answer`;
      const fused = Object.fromEntries(ctx.question(state.q).runs.hybrid);
      RAG.replace(ctx.find(".checker-sources"), sent.map((pid, i) => {
        const p = passage[pid];
        const cited = pid === source;
        const span = cited && !groups.quote.length ? quoteSpan(p.text, quote) : null;
        return el("li", { class: ["result", cited ? "is-winner" : ""] },
          el("span", { class: "rank" }, String(i + 1)),
          el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.title)),
          el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(fused[pid], 4)),
          el("span", { class: "badges" }, el("span", { class: "badge" }, p.updated),
            cited ? el("span", { class: "badge badge-warn" }, `cited${span ? " \u00b7 quote marked" : ""}`) : null),
          el("p", { class: "snippet" }, span ? [p.text.slice(0, span[0]), el("mark", null, p.text.slice(span[0], span[1])),
            p.text.slice(span[1])] : p.text));
      }));
      return n ? `${status} ${result.problems.join("; ")}.` : status;
    },
  });
})();
