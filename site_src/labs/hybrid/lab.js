/* The hybrid explorer (lab.html draws its default). Each retriever's top results and the fused
 * list, side by side; pointing at, focusing or tapping a passage marks it in every list and
 * names its three ranks. Each list is one tab stop; the arrow keys move inside it.
 * State: {q}: a question id (preset or live). */
RAG.lab("hybrid", {
  accept(next, ctx) {
    return ctx.question(next.q) ? { q: next.q } : null;
  },

  setup(ctx) {
    const output = ctx.output;
    const readout = ctx.find(".hybrid-readout");
    const itemOf = (target) => (target && target.closest ? target.closest("ol.results li[data-pid]") : null);
    ctx.readoutDefault = readout.textContent;

    /* Mark one passage in all three lists and say where it stands in each. */
    ctx.link = (pid) => {
      if (pid === ctx.linked) return;
      ctx.linked = pid;
      for (const li of output.querySelectorAll("ol.results li[data-pid]")) {
        li.classList.toggle("is-linked", pid !== null && li.dataset.pid === pid);
      }
      const ranks = {};
      for (const col of output.querySelectorAll(".lab-col[data-list]")) {
        const item = pid === null ? null : col.querySelector(`li[data-pid="${CSS.escape(pid)}"]`);
        col.classList.toggle("is-missing", pid !== null && !item);
        ranks[col.dataset.list] = item ? item.querySelector(".rank").textContent : "none";
      }
      RAG.replace(readout, pid === null ? ctx.readoutDefault : [RAG.el("code", null, pid),
        `: dense ${ranks.dense}, BM25 ${ranks.bm25}, fused ${ranks.hybrid} (of the top ${ctx.data.settings.hybrid_depth} each).`]);
    };

    ctx.on(output, "mouseover", (event) => { const li = itemOf(event.target); if (li) ctx.link(li.dataset.pid); });
    ctx.on(output, "mouseleave", () => { if (!output.contains(document.activeElement)) ctx.link(null); });
    ctx.on(output, "focusin", (event) => { const li = itemOf(event.target); if (li) ctx.link(li.dataset.pid); });
    ctx.on(output, "focusout", (event) => { if (!output.contains(event.relatedTarget)) ctx.link(null); });
    ctx.on(output, "keydown", (event) => {
      const li = itemOf(event.target);
      if (!li) return;
      const items = [...li.parentNode.querySelectorAll("li[data-pid]")];
      const at = items.indexOf(li);
      const next = { ArrowDown: items[at + 1], ArrowRight: items[at + 1], ArrowUp: items[at - 1], ArrowLeft: items[at - 1],
                     Home: items[0], End: items[items.length - 1] }[event.key];
      if (!next) return;
      event.preventDefault();
      items.forEach((other) => { other.tabIndex = other === next ? 0 : -1; });
      next.focus();
    });
  },

  draw(ctx) {
    const { data } = ctx;
    const depth = data.settings.hybrid_depth;
    const question = ctx.question(ctx.state.q);
    const answer = question.answer;
    const runs = question.runs;
    const section = Object.fromEntries(data.passages.map((p) => [p.id, p.section]));
    const ids = (ranking) => ranking.map(([pid]) => pid);
    const dense = runs.dense.slice(0, depth);
    const bm25 = runs.bm25.slice(0, depth);
    const denseIds = ids(dense);
    const bm25Ids = ids(bm25);
    const fusedIds = ids(runs.hybrid);
    const rankIn = (ranking, pid) => (pid ? ids(ranking).indexOf(pid) + 1 || null : null);

    const item = ([pid, value], index, digits, detail) => RAG.el("li", {
      class: ["result", pid === answer ? "is-answer" : "", index === 0 ? "is-winner" : ""],
      dataset: { pid }, tabindex: index === 0 ? "0" : "-1" },
      RAG.el("span", { class: "rank" }, String(index + 1)),
      RAG.el("span", { class: "pid" }, RAG.el("code", null, pid), " ", RAG.el("span", { class: "title" }, section[pid])),
      RAG.el("span", { class: "score" }, RAG.fixed(value, digits)),
      pid === answer ? RAG.el("span", { class: "flag" }, "right passage") : null,
      RAG.el("p", { class: "detail" }, detail));
    const lists = Object.fromEntries(ctx.findAll(".lab-col[data-list]").map((col) => [col.dataset.list, col.querySelector("ol.results")]));
    const fusedRank = (pair) => `fused rank ${fusedIds.indexOf(pair[0]) + 1}`;

    RAG.replace(lists.dense, dense.map((pair, i) => item(pair, i, 3, fusedRank(pair))));
    RAG.replace(lists.bm25, bm25.length ? bm25.map((pair, i) => item(pair, i, 3, fusedRank(pair)))
      : RAG.el("li", { class: "result is-muted empty-list" }, RAG.el("span", { class: "rank" }),
        RAG.el("span", { class: "pid" }, "No passage shares a term with the question."), RAG.el("span", { class: "score" })));
    RAG.replace(lists.hybrid, runs.hybrid.slice(0, depth).map((pair, i) => {
      const parts = [];
      if (denseIds.includes(pair[0])) parts.push(`dense ${denseIds.indexOf(pair[0]) + 1}`);
      if (bm25Ids.includes(pair[0])) parts.push(`BM25 ${bm25Ids.indexOf(pair[0]) + 1}`);
      return item(pair, i, 5, `from ${parts.join(" + ")}`);
    }));

    ctx.linked = undefined;
    ctx.link(null);
    if (!answer) {
      // A question asked live has no known right passage: say what each list put first.
      const first = (ranking) => (ranking.length ? ranking[0][0] : "nothing");
      const status = `Asked live, so no right passage is known: dense puts ${first(runs.dense)} first, ` +
        `BM25 ${first(runs.bm25)}, fusion ${first(runs.hybrid)}.`;
      RAG.replace(ctx.find(".lab-status"), status);
      return status;
    }
    const where = `: dense rank ${rankIn(runs.dense, answer) || "none"}, BM25 rank ${rankIn(runs.bm25, answer) || "none"}, ` +
      `fused rank ${rankIn(runs.hybrid, answer) || "none"}.`;
    RAG.replace(ctx.find(".lab-status"), "The right passage, ", RAG.el("code", null, answer), where);
    return `The right passage, ${answer}${where}`;
  },
});
