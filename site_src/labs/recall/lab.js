/* The recall table: the hit rate at k of each retriever on the golden set, a curve of it for
 * k = 1 to 10 (one line per retriever, its Wilson 95% interval a band around it, the k picked
 * marked), the figures per group of questions, and the golden questions each retriever misses,
 * for the k the reader picks. Every figure is computed here from the corpus's
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

  /** Labels at the lines' right ends, each at its line's height, pushed apart to `gap` units
   *  (downwards in the order of their heights) so that none sits on another. */
  function spaced(ys, gap) {
    const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
    for (let j = 1; j < order.length; j++) order[j].y = Math.max(order[j].y, order[j - 1].y + gap);
    const placed = [];
    for (const { y, i } of order) placed[i] = y;
    return placed;
  }

  /** The curve: each retriever's sure hits at k = 1..10 (a line), its Wilson interval (a band),
   *  a ring where ties straddle k (the rate if every tie went the right way), the k picked marked. */
  function chart(props) {
    const { left, width, top, height, bottom, right } = props.chart;
    const ks = props.curve.ks;
    const floor = props.curve.floor;
    const x = (k) => left + (width * (k - ks[0])) / (ks[ks.length - 1] - ks[0]);
    const y = (share) => top + height * (1 - (share - floor) / (1 - floor));
    const at = (v) => RAG.fixed(v, 1);
    const ticks = [];
    for (let t = floor; t <= 1 + 1e-9; t += 0.1) ticks.push(Math.round(t * 10) / 10);
    const lastY = props.curve.lines.map((line) => y(line.points[line.points.length - 1].hits / line.points[0].total));
    const labelY = spaced(lastY, 17);
    return h("figure", { class: "figure recall-chart" },
      h("svg", { role: "img", "aria-labelledby": "recall-chart-title recall-chart-desc", class: "recall-curve",
                 viewBox: `0 0 ${left + width + right} ${top + height + bottom}` },
        h("title", { id: "recall-chart-title" }, `Recall@k for k = ${ks[0]} to ${ks[ks.length - 1]} by retriever, with 95% intervals; k = ${props.k} marked`),
        h("desc", { id: "recall-chart-desc" }, props.rows.map(described).join("; ")),
        h("g", { class: "recall-axis" },
          ticks.map((t) => [
            h("line", { class: "grid", x1: left, y1: at(y(t)), x2: left + width, y2: at(y(t)) }),
            h("text", { class: "label-muted recall-tick-y", x: left - 6, y: at(y(t) + 4), "text-anchor": "end", "data-share": RAG.fixed(t, 1) },
              `${whole(t)}%`)]),
          ks.map((k) => h("text", { class: "label-muted recall-tick-k", x: at(x(k)), y: top + height + 18, "text-anchor": "middle" }, String(k))),
          h("text", { class: "label recall-axis-title", x: at(left + width / 2), y: top + height + 40, "text-anchor": "middle" }, "k (the top k results)")),
        h("g", { class: "recall-bands" }, props.curve.lines.map((line) => h("path", {
          class: ["recall-band", `recall-${line.id}`], "data-retriever": line.id,
          d: "M" + line.points.map((p) => `${at(x(p.k))} ${at(y(p.hi))}`).join("L") + "L" +
            [...line.points].reverse().map((p) => `${at(x(p.k))} ${at(y(p.lo))}`).join("L") + "z" }))),
        h("line", { class: "recall-k-line", x1: at(x(props.k)), y1: top - 4, x2: at(x(props.k)), y2: top + height }),
        h("text", { class: "label recall-k-label", x: at(x(props.k)), y: top - 8, "text-anchor": "middle" }, `k = ${props.k}`),
        h("g", { class: "recall-lines" }, props.curve.lines.map((line, i) => h("g", { class: ["recall-line", `recall-${line.id}`,
          line.id === props.highlight && "is-highlight"], "data-retriever": line.id },
          h("polyline", { points: line.points.map((p) => `${at(x(p.k))},${at(y(p.hits / p.total))}`).join(" ") }),
          line.points.filter((p) => p.withTies > p.hits).map((p) => [
            h("line", { class: "recall-tie", x1: at(x(p.k)), y1: at(y(p.hits / p.total)), x2: at(x(p.k)), y2: at(y(p.withTies / p.total)) }),
            h("circle", { class: "recall-tie-ring", "data-k": String(p.k), cx: at(x(p.k)), cy: at(y(p.withTies / p.total)), r: "3.5" })]),
          line.points.map((p) => h("circle", { class: "recall-point", "data-k": String(p.k), cx: at(x(p.k)), cy: at(y(p.hits / p.total)),
            r: p.k === props.k ? "4.5" : "3" })),
          h("text", { class: "label recall-line-label", x: left + width + 10, y: at(labelY[i] + 4) },
            line.short))))),
      h("figcaption", null, `Lines: the share of the ${props.total} golden questions with a right passage surely in the top k ` +
        "(a tie that straddles k counts as a miss); a ring above a point: the share if every such tie went the right way. " +
        `Bands: each point's 95% interval (Wilson): where the true rate plausibly lies. The axis starts at ${whole(floor)}%.`));
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

  /** Each retriever's hits at every k of the curve, with their Wilson interval, and where the
   *  axis starts: the tenth at or below the lowest interval. Computed once per input. */
  const curves = new WeakMap();
  function curveOf(all, own) {
    if (!curves.has(all)) {
      const lines = own.retrievers.map((r) => ({ id: r.id, short: r.short, points: own.curve_ks.map((k) => {
        const [hits, withTies, total] = RAG.engine.hitsAtK(all.map((m) => m.places[r.id]), k);
        const [lo, hi] = RAG.engine.wilson(hits, total, own.z);
        return { k, hits, withTies, total, lo, hi };
      }) }));
      const lowest = Math.min(...lines.flatMap((line) => line.points.map((p) => p.lo)));
      curves.set(all, { ks: own.curve_ks, lines, floor: Math.floor(lowest * 10) / 10 });
    }
    return curves.get(all);
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
      return { k: state.k, rows, groups: byGroup, total: rows[0].total, chart: own.chart, highlight: own.highlight,
               curve: curveOf(all, own) };
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
