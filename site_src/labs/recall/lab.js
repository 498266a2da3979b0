/* The recall table (lab.html draws its default): recall@k of each retriever on the golden set
 * (data.recall), a bar chart with each figure's 95% interval (data.evaluation.wilson) and the
 * golden questions each retriever misses (data.evaluation.misses, with data.ranks), for the
 * k the reader picks. The retrievers' names and the chart's geometry are the lab's own data
 * (builder/labs/recall.py).
 * State: {k}: one of data.settings.recall_ks. */
RAG.lab("recall", {
  accept(next, ctx) {
    const k = Number(next.k);
    return ctx.data.settings.recall_ks.includes(k) ? { k } : null;
  },

  setup(ctx) {
    for (const input of ctx.findAll('input[name="recall-k"]')) {
      ctx.on(input, "change", () => ctx.set({ k: input.value }));
    }
  },

  draw(ctx) {
    const { data, own } = ctx;
    const { chart, retrievers } = own;
    const key = String(ctx.state.k);
    const k = ctx.state.k;
    const hitsOf = (r) => data.recall[r.id][key];
    const intervalOf = (r) => data.evaluation.wilson[r.id][key];
    const pct = ([hits, total]) => `${RAG.fixed(100 * hits / total, 1)}%`;
    const whole = (x) => RAG.fixed(100 * x, 0);
    const total = hitsOf(retrievers[0])[1];

    for (const input of ctx.findAll('input[name="recall-k"]')) input.checked = Number(input.value) === k;
    ctx.find(".lab-status").textContent = `Recall@${k} on ${total} golden questions.`;
    for (const span of ctx.findAll(".recall-k")) span.textContent = String(k);

    RAG.replace(ctx.find(".recall-table tbody"), retrievers.map((r) => {
      const hits = hitsOf(r);
      const [lo, hi] = intervalOf(r);
      return RAG.el("tr", { dataset: { retriever: r.id } },
        RAG.el("th", { scope: "row" }, r.name),
        RAG.el("td", { class: "num recall-found" }, `${hits[0]} / ${hits[1]}`),
        RAG.el("td", { class: "num recall-pct" }, pct(hits)),
        RAG.el("td", { class: "num recall-interval" }, `${whole(lo)}\u2013${whole(hi)}%`));
    }));

    ctx.find("#recall-chart-title").textContent = `Recall@${k} by retriever, with 95% intervals`;
    const described = retrievers.map((r) => {
      const hits = hitsOf(r);
      const [lo, hi] = intervalOf(r);
      return `${r.name}: ${hits[0]} of ${hits[1]} (${pct(hits)}, interval ${whole(lo)} to ${whole(hi)}%)`;
    });
    ctx.find("#recall-chart-desc").textContent = described.join("; ");
    RAG.replace(ctx.find(".recall-rows"), retrievers.map((r, i) => {
      const hits = hitsOf(r);
      const y = chart.top + i * chart.row;
      const [lo, hi] = intervalOf(r).map((x) => RAG.fixed(chart.left + chart.width * x, 1));
      return [
        RAG.svg("text", { class: "label", x: chart.left - 10, y: y + 17, "text-anchor": "end" }, r.short),
        RAG.svg("rect", { class: ["bar", r.id === own.highlight ? "bar-hit" : ""], x: chart.left, y: y + 4,
          width: RAG.fixed(chart.width * hits[0] / hits[1], 1), height: 18, rx: 3 }),
        RAG.svg("line", { class: "interval", x1: lo, y1: y + 13, x2: hi, y2: y + 13 }),
        RAG.svg("line", { class: "interval-cap", x1: lo, y1: y + 8, x2: lo, y2: y + 18 }),
        RAG.svg("line", { class: "interval-cap", x1: hi, y1: y + 8, x2: hi, y2: y + 18 }),
        RAG.svg("text", { class: "value", x: RAG.fixed(chart.left + chart.width + 8, 1), y: y + 17 }, pct(hits)),
      ];
    }));

    RAG.replace(ctx.find(".recall-misses"), retrievers.map((r) => {
      const missed = data.evaluation.misses[r.id][key];
      const body = missed.length
        ? RAG.el("ul", { class: "miss-list" }, missed.map((qid) => {
          const question = ctx.question(qid);
          const rank = data.ranks[qid][r.id];
          return RAG.el("li", null,
            RAG.el("span", { class: "miss-q" }, question.text), " ",
            RAG.el("span", { class: "miss-rank" }, rank ? `rank ${rank}` : "not retrieved"),
            question.paraphrase ? [" ", RAG.el("span", { class: "badge badge-warn" }, "paraphrase")] : null);
        }))
        : RAG.el("p", { class: "miss-none" }, `None: every right passage is in the top ${k}.`);
      return RAG.el("div", { class: "lab-col", dataset: { retriever: r.id } },
        RAG.el("h5", { class: "lab-col-title" }, `${r.name} \u00b7 ${missed.length} missed`), body);
    }));

    return `Recall@${k}: ${described.join("; ")}.`;
  },
});
