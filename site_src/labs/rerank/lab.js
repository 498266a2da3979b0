/* Rerank, then cut off (lab.html draws its default). The fused list's top candidates re-sorted
 * by the rerank scores of data.rerank (a cross-encoder's, or hand-written and labelled
 * illustrative) and cut at the reader's threshold.
 * State: {q, t}: a question with rerank scores, and the threshold (null: the control's default). */
RAG.lab("rerank", {
  accept(next, ctx) {
    const { rerank } = ctx.data;
    const control = ctx.own.control;
    if (!rerank.by_question[next.q] || !ctx.question(next.q)) return null;
    const asked = next.t === null || next.t === undefined || next.t === "" ? NaN : Number(next.t);
    if (!isFinite(asked)) return { q: next.q, t: control.threshold };
    // Onto the control's steps, as the range input would put it.
    const steps = Math.round((Math.min(control.max, Math.max(control.min, asked)) - control.min) / control.step);
    return { q: next.q, t: Number((control.min + steps * control.step).toFixed(6)) };
  },

  setup(ctx) {
    const range = ctx.find('input[name="rerank-threshold"]');
    ctx.on(range, "input", () => ctx.set({ t: range.value }, { announce: "later" }));  // said once the reader stops dragging
  },

  draw(ctx) {
    const { data, state } = ctx;
    const { rerank } = data;
    const control = ctx.own.control;
    const answer = ctx.question(state.q).answer;
    const section = Object.fromEntries(data.passages.map((p) => [p.id, p.section]));
    const candidates = ctx.question(state.q).runs.hybrid.slice(0, rerank.depth);
    const fusedIds = candidates.map(([pid]) => pid);
    const scored = rerank.by_question[state.q].filter(([pid]) => fusedIds.includes(pid));
    const scoredIds = scored.map(([pid]) => pid);
    const fusedRank = (pid) => `fused rank ${fusedIds.indexOf(pid) + 1}`;
    const name = (pid) => RAG.el("span", { class: "pid" }, RAG.el("code", null, pid), " ",
      RAG.el("span", { class: "title" }, section[pid]));
    const threshold = RAG.fixed(state.t, 2);

    ctx.find('input[name="rerank-threshold"]').value = String(state.t);
    ctx.find('output[name="rerank-threshold-value"]').textContent = threshold;

    RAG.replace(ctx.find("ol.rerank-in"), candidates.map(([pid, value], i) => RAG.el("li", {
      class: ["result", pid === answer ? "is-answer" : ""], dataset: { pid } },
      RAG.el("span", { class: "rank" }, String(i + 1)),
      name(pid),
      RAG.el("span", { class: "score" }, RAG.fixed(value, 5)),
      pid === answer ? RAG.el("span", { class: "flag" }, "right passage") : null)));

    const kept = scored.filter(([, value]) => value >= state.t).map(([pid]) => pid);
    RAG.replace(ctx.find("ol.rerank-out"), scored.map(([pid, value], i) => {
      const keep = value >= state.t;
      return RAG.el("li", {
        class: ["result", pid === answer ? "is-answer" : "", keep && i === 0 ? "is-winner" : "",
                keep ? "" : "is-removed", keep ? "" : "is-cut"], dataset: { pid } },
        RAG.el("span", { class: "rank" }, String(i + 1)),
        name(pid),
        RAG.el("meter", { class: "score-bar", min: String(control.min), max: String(control.max), value: String(value),
                          "aria-hidden": "true" }),
        RAG.el("span", { class: "score" }, RAG.fixed(value, control.digits)),
        RAG.el("span", { class: "flag" }, !keep ? "cut" : pid === answer ? "right passage" : "kept"),
        RAG.el("p", { class: "detail" }, fusedRank(pid)));
    }), fusedIds.filter((pid) => !scoredIds.includes(pid)).map((pid) => RAG.el("li", {
      class: ["result", "is-unscored", pid === answer ? "is-answer" : ""], dataset: { pid } },
      RAG.el("span", { class: "rank" }, "\u2013"),
      name(pid),
      RAG.el("span", { class: "score" }, "\u2013"),
      RAG.el("span", { class: "flag" }, "no score written"),
      RAG.el("p", { class: "detail" }, fusedRank(pid)))));

    const was = fusedIds.indexOf(answer) + 1;
    const at = kept.includes(answer) ? scoredIds.indexOf(answer) + 1 : 0;
    const fate = at && at === was ? `stays at rank ${at}.`
      : at ? `moves from fused rank ${was} to rank ${at}.`
      : scoredIds.includes(answer) ? "is cut."
      : was ? "has no score." : "is not among the candidates.";
    const head = `Kept ${kept.length} of ${candidates.length} candidates at threshold ${threshold}. The right passage, `;
    RAG.replace(ctx.find(".lab-status"), head, RAG.el("code", null, answer), `, ${fate}`);
    return `${head}${answer}, ${fate}`;
  },
});
