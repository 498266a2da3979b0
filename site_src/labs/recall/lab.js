/* The recall table: the hit rate at k of each retriever on the golden set, a bar chart with each
 * figure's 95% interval, the figures per group of questions, and the golden questions each
 * retriever misses, for the k the reader picks. Every figure is computed here from the corpus's
 * runs with the engine's twins: each question's run as its reader gets it (RAG.engine.asReader),
 * where its first right passage lands whichever way ties go (hitPlace), the sure and possible
 * hits at k (hitsAtK: "36–37" when a tie straddles k), the Wilson interval of the sure hits. A
 * test holds them to the build's (data.recall, data.recall_by_group, data.evaluation). The
 * retrievers' names, the groups and the chart's geometry are the lab's own data (data.py).
 * State: {k}: one of data.settings.recall_ks. */
(() => {
  const h = RAG.h;
  const pct = (hits, total) => `${RAG.fixed(100 * hits / total, 1)}%`;
  const whole = (x) => RAG.fixed(100 * x, 0);
  /** "36", or "36–37" when ties at k leave it open (builder/search.py hits_text). */
  const hitsText = (r) => (r.withTies === r.hits ? String(r.hits) : `${r.hits}\u2013${r.withTies}`);
  const pctText = (r) => (r.withTies === r.hits ? pct(r.hits, r.total) : `${pct(r.hits, r.total)}\u2013${pct(r.withTies, r.total)}`);

  /** "BM25: 24 of 30 (80.0%, interval 63 to 90%)": the chart's description, and what is announced. */
  const described = (r) => `${r.name}: ${hitsText(r)} of ${r.total} (${pctText(r)}, interval ${whole(r.lo)} to ${whole(r.hi)}%)`;

  /** Each golden question's place of its first right passage, per retriever, as its reader gets the lists. */
  function placesOf(input) {
    const { data, own } = input;
    const acl = Object.fromEntries(data.passages.map((p) => [p.id, p.acl]));
    const { fusion_depth: depth, rrf_k: k } = data.settings;
    return data.questions.filter((q) => q.set === "golden").map((q) => {
      const run = RAG.engine.asReader(input.question(q.id).runs, acl, own.readers[q.reader], depth, k);
      const places = Object.fromEntries(own.retrievers.map((r) => [r.id, RAG.engine.hitPlace(run[r.id], q.answers)]));
      return { q: input.question(q.id), places };
    });
  }
  const found = new WeakMap();  // the lab's input -> every question's places, computed once
  const placesFor = (input) => {
    if (!found.has(input)) found.set(input, placesOf(input));
    return found.get(input);
  };
  const placeText = (place) => (!place ? "not retrieved" : place[0] === place[1] ? `rank ${place[0]}` : `rank ${place[0]} or ${place[1]} (a tie)`);

  function table(props) {
    return h("div", { class: "table-scroll" },
      h("table", { class: "recall-table" },
        h("caption", null, "A right passage in the top ", h("span", { class: "recall-k" }, String(props.k))),
        h("thead", null, h("tr", null,
          h("th", { scope: "col" }, "Retriever"), h("th", { scope: "col", class: "num" }, "Found"),
          h("th", { scope: "col", class: "num" }, "Hit rate"), h("th", { scope: "col", class: "num" }, "95% interval"))),
        h("tbody", null, props.rows.map((r) => h("tr", { "data-retriever": r.id },
          h("th", { scope: "row" }, r.name),
          h("td", { class: "num recall-found" }, `${hitsText(r)} / ${r.total}`),
          h("td", { class: "num recall-pct" }, pctText(r)),
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
      h("figcaption", null, "Bars: the hit rate at ", h("span", { class: "recall-k" }, String(props.k)),
        ` (the sure hits; a tie that straddles k is no sure hit). The thin line across each bar is its 95% interval ` +
        `(Wilson): with ${props.total} questions, the true rate could plausibly be anywhere on it.`));
  }

  /** The hit rate per group of questions: where each retriever wins depends on how the question is asked. */
  function groups(props) {
    return h("div", { class: "table-scroll" },
      h("table", { class: "recall-groups" },
        h("caption", null, "The same figure for each group of questions, at k = ", h("span", { class: "recall-k" }, String(props.k))),
        h("thead", null, h("tr", null, h("th", { scope: "col" }, "Questions"),
          props.rows.map((r) => h("th", { scope: "col", class: "num" }, r.short)))),
        h("tbody", null, props.groups.map((g) => h("tr", { "data-group": g.id },
          h("th", { scope: "row" }, `${g.name} (${g.total})`),
          g.cells.map((c) => h("td", { class: ["num", c.best && "is-winner"], "data-retriever": c.id },
            `${hitsText(c)} / ${c.total}`)))))));
  }

  function misses(props) {
    return [
      h("h4", { class: "recall-misses-title" }, "Questions missed at k = ", h("span", { class: "recall-k" }, String(props.k))),
      h("div", { class: "lab-columns recall-misses" }, props.rows.map((r) => h("div", { class: "lab-col", "data-retriever": r.id },
        h("h5", { class: "lab-col-title" }, `${r.name} \u00b7 ${r.missed.length} missed`),
        r.missed.length
          ? h("ul", { class: "miss-list" }, r.missed.map((q) => h("li", null,
            h("span", { class: "miss-q" }, q.text), " ",
            h("span", { class: "miss-rank" }, placeText(q.place)),
            q.group !== "words" ? [" ", h("span", { class: `badge badge-${q.group}` }, q.group)] : null)))
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
      const all = placesFor(input);
      const count = (members, id) => {
        const [hits, withTies, total] = RAG.engine.hitsAtK(members.map((m) => m.places[id]), state.k);
        return { hits, withTies, total };
      };
      const rows = own.retrievers.map((r) => {
        const figures = count(all, r.id);
        const [lo, hi] = RAG.engine.wilson(figures.hits, figures.total, own.z);
        const missed = all.filter((m) => !(m.places[r.id] && m.places[r.id][1] <= state.k))
          .map((m) => ({ text: m.q.text, place: m.places[r.id], group: m.q.group }));
        return { id: r.id, name: r.name, short: r.short, ...figures, lo, hi, missed };
      });
      const byGroup = own.groups.map((g) => {
        const members = all.filter((m) => m.q.group === g.id);
        const cells = own.retrievers.map((r) => ({ id: r.id, ...count(members, r.id) }));
        const top = Math.max(...cells.map((c) => c.hits));
        return { ...g, total: members.length, cells: cells.map((c) => ({ ...c, best: c.hits === top })) };
      });
      return { k: state.k, rows, groups: byGroup, total: rows[0].total, chart: own.chart, highlight: own.highlight };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, `The hit rate at ${props.k} on ${props.total} golden questions, each asked as its reader.`),
        table(props),
        chart(props),
        groups(props),
        misses(props),
      ];
    },

    summary(props) {
      return `Hit rate at ${props.k}: ${props.rows.map(described).join("; ")}.`;
    },
  });
})();
