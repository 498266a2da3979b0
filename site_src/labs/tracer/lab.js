/* The tracer (lab.html draws its default): one tracer question through every stage, side by
 * side or one stage at a time. Everything shown is read from the data: the question's runs
 * (dense, BM25, fused, with scores), data.rerank (illustrative unless a real model was named),
 * data.tracers[i] (the passages its prompt carries, the illustrative answer, its claims and the
 * real results of check_citations and the output guardrail) and data.prompt_tokens.
 * State: {q, stage}: a tracer id (only tracer questions have an answer to trace) and "all" or
 * one stage key. */
(() => {
  const STAGES = [["dense", "Dense"], ["bm25", "BM25"], ["fused", "Fused"], ["rerank", "Rerank"],
                  ["prompt", "Prompt"], ["answer", "Answer"], ["check", "Check"]];
  const KEYS = STAGES.map(([key]) => key);
  const el = RAG.el;

  const tracerOf = (data, id) => data.tracers.find((t) => t.id === id) || null;
  const rankIn = (ranking, pid) => ranking.findIndex(([id]) => id === pid) + 1 || null;

  /* "Stage 3 of 7, Fused," or "All 7 stages", then the question. */
  function status(stage, tracer) {
    const at = KEYS.indexOf(stage);
    const which = at < 0 ? `All ${KEYS.length} stages` : `Stage ${at + 1} of ${KEYS.length}, ${STAGES[at][1]},`;
    return `${which} for \u201c${tracer.question}\u201d.`;
  }

  /* The answer's text with each [id] marker a link to that passage in the prompt stage, or
     marked as a citation of a passage the prompt did not carry. */
  function answerNodes(text, sent) {
    const nodes = [];
    let last = 0;
    for (const match of text.matchAll(/\[([^[\]]*)\]/g)) {
      const pid = match[1];
      nodes.push(text.slice(last, match.index), sent.includes(pid)
        ? el("a", { class: "trace-cite", href: `#tracer-src-${pid}`, dataset: { pid } }, `[${pid}]`)
        : el("mark", { class: "trace-cite is-unsent" }, `[${pid}]`));
      last = match.index + match[0].length;
    }
    nodes.push(text.slice(last));
    return nodes;
  }

  RAG.lab("tracer", {
    accept(next, ctx) {
      if (!tracerOf(ctx.data, next.q) || !ctx.question(next.q)) return null;
      const stage = next.stage === "all" || KEYS.includes(next.stage) ? next.stage : "all";
      return { q: next.q, stage };
    },

    setup(ctx) {
      for (const input of ctx.findAll('input[name="tracer-stage"]')) {
        ctx.on(input, "change", () => { if (input.checked) ctx.set({ stage: input.value }); });
      }
      for (const button of ctx.findAll("button[data-step]")) {
        ctx.on(button, "click", () => {
          const at = KEYS.indexOf(ctx.state.stage);
          const next = at < 0 ? (Number(button.dataset.step) > 0 ? 0 : -1) : at + Number(button.dataset.step);
          if (next >= 0 && next < KEYS.length) ctx.set({ stage: KEYS[next] });
        });
      }
      // A citation in the answer jumps to its passage in the prompt stage; the lab keeps its link.
      ctx.on(ctx.output, "click", (event) => {
        const cite = event.target.closest ? event.target.closest("a.trace-cite") : null;
        if (!cite) return;
        event.preventDefault();
        if (ctx.state.stage !== "all") ctx.set({ stage: "prompt" });
        const target = document.getElementById(`tracer-src-${cite.dataset.pid}`);
        if (target) {
          target.scrollIntoView({ block: "center" });
          target.focus({ preventScroll: true });
        }
      });
    },

    draw(ctx) {
      const { data, state } = ctx;
      const tracer = tracerOf(data, state.q);
      const runs = ctx.question(state.q).runs;
      const answer = tracer.answer;
      const sent = tracer.sent;
      const depth = ctx.own.depth;
      const fusedDepth = data.settings.fusion_depth;
      const rerank = data.rerank.by_question[state.q] || tracer.rerank;
      const illustrative = data.rerank.source === "illustrative";
      const passages = Object.fromEntries(data.passages.map((p) => [p.id, p]));
      // The prompt takes the fused list; the rerank stage says what a cut-off would keep.
      const cutoff = ctx.own.cutoff;
      const kept = rerank.filter(([, value]) => value >= cutoff).map(([pid]) => pid);
      const dropped = sent.filter((pid) => !kept.includes(pid));
      const codes = (ids) => ids.map((pid, i) => [i ? ", " : "", el("code", null, pid)]);

      const badges = (pid, dated = false) => {
        const p = passages[pid];
        const staff = p.acl.includes("staff");
        if (!(dated || pid === answer || p.superseded || p.kind === "forum" || staff)) return null;
        return el("span", { class: "badges" },
          dated ? el("span", { class: "badge" }, p.updated) : null,
          pid === answer ? el("span", { class: "badge badge-ok" }, "right passage") : null,
          p.superseded ? el("span", { class: "badge badge-superseded" }, "outdated") : null,
          p.kind === "forum" ? el("span", { class: "badge badge-forum" }, "forum post") : null,
          staff ? el("span", { class: "badge badge-staff" }, "staff only") : null);
      };
      const title = (pid, key = "section") => [el("code", null, pid), " ", el("span", { class: "title" }, passages[pid][key])];
      const row = (rank, [pid, value], top, digits, later = false) =>
        el("li", { class: ["result", pid === answer ? "is-answer" : "", later ? "is-later" : ""] },
          el("span", { class: "rank" }, String(rank)),
          el("span", { class: "pid" }, title(pid)),
          el("meter", { class: "score-bar", min: "0", max: String(top), value: String(value), "aria-hidden": "true" }),
          el("span", { class: "score" }, RAG.fixed(value, digits)),
          badges(pid));
      /* The top `depth` of a list; below them, the right passage where it ranked, or a note that
         the list does not hold it. */
      const ranked = (list, digits, top, missing) => {
        const at = rankIn(list, answer);
        return el("ol", { class: "results trace-list" },
          list.slice(0, depth).map((pair, i) => row(i + 1, pair, top, digits)),
          at > depth ? row(at, list[at - 1], top, digits, true) : null,
          at ? null : el("li", { class: "result is-answer is-later is-missing" },
            el("span", { class: "rank" }, "\u2013"),
            el("span", { class: "pid" }, title(answer)),
            el("span", { class: "score" }, "\u2013"),
            el("p", { class: "detail" }, missing)));
      };
      const head = (index, label, ...extra) => el("h4", null, el("span", { class: "trace-num" }, String(index)), ` ${label}`, extra);
      const note = (...children) => el("p", { class: "trace-note" }, children);
      const panel = (key) => ctx.find(`.trace-stage[data-stage="${key}"]`);

      RAG.replace(panel("dense"), head(1, "Dense search"),
        note(`Cosine similarity of the question's embedding to each passage's (${data.model.name}).`),
        ranked(runs.dense, 3, runs.dense[0][1], ""));
      RAG.replace(panel("bm25"), head(2, "BM25"),
        note("Keyword scores; only passages that share a word with the question are listed."),
        ranked(runs.bm25, 3, runs.bm25.length ? runs.bm25[0][1] : 0, "Not in BM25's list: it shares no word with the question."));
      RAG.replace(panel("fused"), head(3, "Fused (RRF)"),
        note(`Reciprocal rank fusion of each list's top ${fusedDepth}, k = ${data.settings.rrf_k}.`),
        ranked(runs.hybrid, 4, runs.hybrid[0][1], `Not in the fused list: neither retriever had it in its top ${fusedDepth}.`));
      RAG.replace(panel("rerank"),
        head(4, "Rerank", ...(illustrative ? [" ", el("span", { class: "badge badge-warn" }, "illustrative")] : [])),
        note(...(illustrative ? ["Scores written by hand to show what a cross-encoder typically does; no reranker ran."]
          : ["Scores of the cross-encoder ", el("code", null, String(data.rerank.model)), ` over the fused top ${data.rerank.depth}.`])),
        el("p", { class: "trace-note trace-cutoff" }, kept.length
          ? [`A cut-off at ${RAG.fixed(cutoff, 2)} keeps ${kept.length}: `, codes(kept), "."]
          : `A cut-off at ${RAG.fixed(cutoff, 2)} keeps none of them.`),
        ranked(rerank, 2, 1, "Not scored by the reranker."));
      RAG.replace(panel("prompt"), head(5, "Into the prompt"),
        note(`The fused top ${sent.length}, in that order, each tagged with its id, title and date: ` +
          `${data.prompt_tokens[state.q][String(sent.length)]} tokens (${data.tokens.tokenizer}) with the rules and the question. `,
          el("a", { class: "trace-open-prompt", href: `#lab-prompt?q=${state.q}&n=${sent.length}` }, "Open this prompt in the builder")),
        el("p", { class: "trace-note trace-which" },
          (illustrative
            ? "The prompt takes the fused list, not the rerank: the rerank scores are written by hand, so every prompt " +
              "on this page, and every citation check, is built from the real fused list."
            : "The prompt takes the fused list, not the rerank, so every prompt on this page is built the same way " +
              "with or without a reranker; a pipeline that reranks sends what passes its cut-off.") + " ",
          dropped.length
            ? [`The cut-off at ${RAG.fixed(cutoff, 2)} would have dropped ${dropped.length} of these ${sent.length}: `,
               codes(dropped), "."]
            : `All ${sent.length} pass the cut-off at ${RAG.fixed(cutoff, 2)}.`),
        el("ol", { class: "results trace-sent" }, sent.map((pid, i) =>
          el("li", { class: ["result", pid === answer ? "is-answer" : ""], id: `tracer-src-${pid}`, tabindex: "-1" },
            el("span", { class: "rank" }, String(i + 1)),
            el("span", { class: "pid" }, title(pid, "title")),
            el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(runs.hybrid.find(([id]) => id === pid)?.[1] ?? 0, 4)),
            badges(pid, true),
            el("p", { class: "snippet" }, passages[pid].text)))));
      RAG.replace(panel("answer"), head(6, "The answer"),
        el("div", { class: "illustrative trace-answer" }, el("p", null, answerNodes(tracer.answer_text, sent))));
      RAG.replace(panel("check"), head(7, "Citation check"),
        note("The claims the answer makes, each with the source it cites and its quote, checked by ",
          el("code", null, "check_citations"), " against the passages sent."),
        el("div", { class: "table-scroll" }, el("table", { class: "trace-claims" },
          el("thead", null, el("tr", null, ["Claim", "Cites", "Quote", "Check"].map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", null, tracer.claims.map((c) => el("tr", null,
            el("td", null, c.text),
            el("td", null, el("code", null, c.source)),
            el("td", null, `\u201c${c.quote}\u201d`),
            el("td", null, c.ok ? el("span", { class: "badge badge-ok" }, "pass")
              : [el("span", { class: "badge badge-fail" }, "fail"),
                 c.problems.map((problem) => [" ", el("span", { class: "checker-problem" }, problem)])])))))),
        el("p", { class: "trace-guardrail" }, "Output guardrail on the answer: " + (tracer.guardrail.length
          ? tracer.guardrail.join("; ") : "no links, e-mail addresses or requests for credentials found.")));

      // Which stages show, and the controls that move between them.
      const at = KEYS.indexOf(state.stage);
      const board = ctx.find(".trace-stages");
      board.classList.toggle("is-all", at < 0);
      board.classList.toggle("is-one", at >= 0);
      for (const key of KEYS) panel(key).hidden = at >= 0 && key !== state.stage;
      for (const input of ctx.findAll('input[name="tracer-stage"]')) input.checked = input.value === state.stage;
      ctx.find('button[data-step="-1"]').disabled = at <= 0;
      ctx.find('button[data-step="1"]').disabled = at === KEYS.length - 1;
      const said = status(state.stage, tracer);
      ctx.find(".lab-status").textContent = said;

      const sentAt = sent.indexOf(answer) + 1;
      const passed = tracer.claims.filter((c) => c.ok).length;
      RAG.replace(ctx.find(".trace-readout"), "Right passage ", el("code", null, answer),
        `: dense rank ${rankIn(runs.dense, answer) || "\u2013"}, BM25 rank ${rankIn(runs.bm25, answer) || "none (not in the list)"}, ` +
        `fused rank ${rankIn(runs.hybrid, answer) || "none"}, rerank ${rankIn(rerank, answer) || "none"}` +
        `${illustrative ? " (illustrative)" : ""}; ` +
        (sentAt ? `sent to the model at position ${sentAt} of ${sent.length}` : "not sent to the model") +
        `. Citations: ${passed} of ${tracer.claims.length} pass every check.`);
      return said;
    },
  });
})();
