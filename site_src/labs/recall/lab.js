/* The recall table: recall@k of each retriever on the golden set (data.recall), a bar chart with
 * each figure's 95% interval (data.evaluation.wilson) and the golden questions each retriever
 * misses (data.evaluation.misses, with data.ranks), for the k the reader picks. The retrievers'
 * names and the chart's geometry are the lab's own data (data.py).
 * State: {k}: one of data.settings.recall_ks. */
(() => {
  const h = RAG.h;
  const pct = (hits, total) => `${RAG.fixed(100 * hits / total, 1)}%`;
  const whole = (x) => RAG.fixed(100 * x, 0);

  /** "BM25: 24 of 30 (80.0%, interval 63 to 90%)": the chart's description, and what is announced. */
  const described = (r) => `${r.name}: ${r.hits} of ${r.total} (${pct(r.hits, r.total)}, interval ${whole(r.lo)} to ${whole(r.hi)}%)`;

  function table(props) {
    return h("div", { class: "table-scroll" },
      h("table", { class: "recall-table" },
        h("caption", null, "Right passage in the top ", h("span", { class: "recall-k" }, String(props.k))),
        h("thead", null, h("tr", null,
          h("th", { scope: "col" }, "Retriever"), h("th", { scope: "col", class: "num" }, "Hits"),
          h("th", { scope: "col", class: "num" }, "Recall (= hit rate)"), h("th", { scope: "col", class: "num" }, "95% interval"))),
        h("tbody", null, props.rows.map((r) => h("tr", { "data-retriever": r.id },
          h("th", { scope: "row" }, r.name),
          h("td", { class: "num recall-found" }, `${r.hits} / ${r.total}`),
          h("td", { class: "num recall-pct" }, pct(r.hits, r.total)),
          h("td", { class: "num recall-interval" }, `${whole(r.lo)}\u2013${whole(r.hi)}%`))))));
  }

  function chart(props) {
    const { left, width, row, top } = props.chart;
    const height = top + props.rows.length * row + 8;
    const x = (share) => RAG.fixed(left + width * share, 1);
    return h("figure", { class: "figure recall-chart" },
      h("svg", { role: "img", "aria-labelledby": "recall-chart-title recall-chart-desc", viewBox: `0 0 ${left + width + 62} ${height}`,
                 class: "recall-bars" },
        h("title", { id: "recall-chart-title" }, `Recall@${props.k} by retriever, with 95% intervals`),
        h("desc", { id: "recall-chart-desc" }, props.rows.map(described).join("; ")),
        h("g", { class: "recall-axis" }, [0, 50, 100].map((tick) => [
          h("line", { class: "grid", x1: x(tick / 100), y1: top - 6, x2: x(tick / 100), y2: height - 4 }),
          h("text", { class: "label-muted", x: x(tick / 100), y: top - 12, "text-anchor": "middle" }, `${tick}%`)])),
        h("g", { class: "recall-rows" }, props.rows.map((r, i) => {
          const y = top + i * row;
          const [lo, hi] = [x(r.lo), x(r.hi)];
          return [
            h("text", { class: "label", x: left - 10, y: y + 17, "text-anchor": "end" }, r.short),
            h("rect", { class: ["bar", r.id === props.highlight && "bar-hit"], x: left, y: y + 4,
                        width: RAG.fixed(width * r.hits / r.total, 1), height: 18, rx: 3 }),
            h("line", { class: "interval", x1: lo, y1: y + 13, x2: hi, y2: y + 13 }),
            h("line", { class: "interval-cap", x1: lo, y1: y + 8, x2: lo, y2: y + 18 }),
            h("line", { class: "interval-cap", x1: hi, y1: y + 8, x2: hi, y2: y + 18 }),
            h("text", { class: "value", x: RAG.fixed(left + width + 8, 1), y: y + 17 }, pct(r.hits, r.total)),
          ];
        }))),
      h("figcaption", null, "Bars: recall@", h("span", { class: "recall-k" }, String(props.k)),
        ` (here also the hit rate). The thin line across each bar is its 95% interval (Wilson): with ${props.total} ` +
        "questions, the true recall could plausibly be anywhere on it."));
  }

  function misses(props) {
    return [
      h("h4", { class: "recall-misses-title" }, "Questions missed at k = ", h("span", { class: "recall-k" }, String(props.k))),
      h("div", { class: "lab-columns recall-misses" }, props.rows.map((r) => h("div", { class: "lab-col", "data-retriever": r.id },
        h("h5", { class: "lab-col-title" }, `${r.name} \u00b7 ${r.missed.length} missed`),
        r.missed.length
          ? h("ul", { class: "miss-list" }, r.missed.map((q) => h("li", null,
            h("span", { class: "miss-q" }, q.text), " ",
            h("span", { class: "miss-rank" }, q.rank ? `rank ${q.rank}` : "not retrieved"),
            q.paraphrase ? [" ", h("span", { class: "badge badge-warn" }, "paraphrase")] : null)))
          : h("p", { class: "miss-none" }, `None: every right passage is in the top ${props.k}.`)))),
    ];
  }

  RAG.lab("recall", {
    accept(next, input) {
      const k = Number(next.k);
      return input.data.settings.recall_ks.includes(k) ? { k } : null;
    },

    props(state, input) {
      const { data, own } = input;
      const key = String(state.k);
      const rows = own.retrievers.map((r) => {
        const [hits, total] = data.recall[r.id][key];
        const [lo, hi] = data.evaluation.wilson[r.id][key];
        const missed = data.evaluation.misses[r.id][key].map((qid) => {
          const question = input.question(qid);
          return { text: question.text, rank: data.ranks[qid][r.id], paraphrase: question.paraphrase };
        });
        return { id: r.id, name: r.name, short: r.short, hits, total, lo, hi, missed };
      });
      return { k: state.k, rows, total: rows[0].total, chart: own.chart, highlight: own.highlight };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, `Recall@${props.k} on ${props.total} golden questions.`),
        table(props),
        chart(props),
        misses(props),
      ];
    },

    summary(props) {
      return `Recall@${props.k}: ${props.rows.map(described).join("; ")}.`;
    },
  });
})();
