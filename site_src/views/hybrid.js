/* The hybrid view: for one question of a corpus, each retriever's top `depth`, the list reciprocal
 * rank fusion makes of them with the constant k, and a slope chart joining each passage's three
 * places (dense | fused | BM25). The fused list is computed here, by the engine's JavaScript twin
 * (RAG.engine.rrf, proven equal to engine/fusion.py), from the question's dense and BM25
 * rankings, which the corpus holds in full; so a slider redraws it for any k and depth, and at the
 * corpus's settings it is the build's list. Ranks that tie (scores equal to 6 decimals) are
 * written "2=" (RAG.kit).
 * Pointing at, focusing or tapping a passage marks it in the chart and every list and names its
 * ranks. The chart and each list are one tab stop each; the arrow keys move inside.
 *
 * Input: {corpus (RAG.corpus: its questions, passages, settings.rrf_k and fusion_depth), sliders
 * ({k, depth}: {min, max, step}), prefix (its element ids: `${prefix}-fused-title`…)}.
 * Reads of the corpus: question(id) and its runs.dense and runs.bm25, rightPassages, ids,
 * passage(id).section, settings.
 * State: {q, k, depth}: a question id (a preset, or one asked live), RRF's constant and how deep
 * each list goes into the fusion. Local: the passage pointed at, and the passage each tab stop is on. */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const LISTS = [["dense", "Dense \u00b7 cosine", 3], ["bm25", "BM25 \u00b7 score", 3], ["hybrid", "Fused \u00b7 RRF", 5]];
  const ids = (ranking) => ranking.map(([pid]) => pid);

  // The chart's geometry. Across: where each column stands, in percent of the chart's width, so
  // it fits any screen with its text at its own size. Down: pixels, one row per fused rank,
  // then a row where passages outside a list's top `depth` go ("out").
  const X = { dense: "9%", fusedLeft: "25%", fusedWidth: "50%", fusedRight: "75%", bm25: "91%", gap: "16%" };
  const TOP = 32;   // the column titles
  const ROW = 24;
  const rowY = (rank) => TOP + (rank - 1) * ROW + ROW / 2;

  /** A score as the build keeps it (engine/ranking.py round_score: 6 decimals), so the lists show
   *  the build's digits at the page's settings; the row's <data value> holds the engine's exact float. */
  const stored = (score) => RAG.engine.roundScore(score);

  /** Where the fused list's passage came from: "from dense 2 + BM25 1", the positions RRF
   *  read. A position inside a tie is the corpus's order, not the retriever's, and says so:
   *  "BM25 2 (tied for 1st)". */
  function sourcesOf(props, pid) {
    const parts = [["dense", props.lists.dense], ["BM25", props.lists.bm25]]
      .map(([name, list]) => [name, list.find((item) => item.pid === pid)]).filter(([, item]) => item)
      .map(([name, item]) => `${name} ${kit.rankOf(props.top[name === "dense" ? "dense" : "bm25"], pid)}` +
        (item.place && item.place.last > item.place.first ? ` (tied for ${item.place.first})` : ""));
    return `from ${parts.join(" + ")}`;
  }

  /* ----------------------------------------------------------- the lists */

  function tabStop(props, list, pid, first) {
    const stop = props.stops[list];
    const held = stop && props.lists[list].some(({ pid: other }) => other === stop);
    return (held ? pid === stop : first) ? "0" : "-1";
  }

  function row(props, list, { pid, score, title, place }, index, digits) {
    const fused = list === "hybrid";
    const right = props.rights.includes(pid);
    return kit.row({
      id: pid, place, title,
      score: fused ? h("data", { class: "score", value: String(score) }, RAG.fixed(stored(score), digits)) : RAG.fixed(score, digits),
      more: [right ? h("span", { class: "flag" }, "right passage") : null,
        h("p", { class: "detail" }, fused ? sourcesOf(props, pid) : `fused rank ${props.fusedPlaces.get(pid) ? props.fusedPlaces.get(pid).label : "none"}`)],
      classes: [right && "is-answer", index === 0 && "is-winner", pid === props.linked && "is-linked"],
      attrs: { "data-pid": pid, tabindex: tabStop(props, list, pid, index === 0) },
    });
  }

  function lists(props) {
    return h("div", { class: "lab-columns hybrid-columns" }, LISTS.map(([list, title, digits]) => {
      const missing = props.linked && !props.lists[list].some(({ pid }) => pid === props.linked);
      const id = `${props.prefix}-${list === "hybrid" ? "fused" : list}-title`;
      return h("div", { class: ["lab-col", missing && "is-missing"], "data-list": list },
        h("h4", { id }, title),
        h("ol", { class: "results", "aria-labelledby": id },
          props.lists[list].length ? props.lists[list].map((item, i) => row(props, list, item, i, digits))
            : kit.emptyRow("No passage shares a term with the question.")));
    }));
  }

  /* ----------------------------------------------------------- the chart */

  /** The chart's passages (the fused list), each with its ranks (dense, BM25: null when not in
   *  that list's top `depth`), its fused place (ties shown) and the row it stands on in each
   *  column ("out" when not there). They are drawn in the corpus's order, whatever their ranks:
   *  a passage keeps its element while it moves, so the browser can glide it to its new places. */
  function chartPassages(props) {
    const y = (rank) => (rank ? rowY(rank) : props.chart.outY);
    return props.passageIds.filter((pid) => props.fusedIds.includes(pid)).map((pid) => {
      const fused = kit.rankOf(props.fusedIds, pid);
      const dense = kit.rankOf(props.top.dense, pid);
      const bm25 = kit.rankOf(props.top.bm25, pid);
      const marks = [props.rights.includes(pid) && "is-answer", pid === props.linked && "is-linked"];
      return { pid, fused, place: props.fusedPlaces.get(pid), dense, bm25, marks,
               yFused: y(fused), yDense: y(dense), yBm25: y(bm25) };
    });
  }

  const where = (name, rank, depth) => (rank ? `${name} ${rank}` : `${name}: not in its top ${depth}`);

  /** The line from a passage's dense place to its fused one (left), or from there to BM25 (right). */
  function line(at, side) {
    const out = side === "left" ? !at.dense : !at.bm25;
    const d = side === "left" ? `M0 ${at.yDense}L100 ${at.yFused}` : `M0 ${at.yFused}L100 ${at.yBm25}`;
    return h("path", { key: at.pid, class: ["slope-line", ...at.marks, out && "is-out"], "data-pid": at.pid, d });
  }

  function dot(at, column) {
    const rank = column === "dense" ? at.dense : at.bm25;
    return h("circle", { key: `${column}-${at.pid}`, class: ["slope-dot", ...at.marks, !rank && "is-out"], "data-pid": at.pid,
                         cx: X[column], r: "4", transform: `translate(0 ${column === "dense" ? at.yDense : at.yBm25})` });
  }

  function node(props, at) {
    const answer = props.rights.includes(at.pid);
    const tie = at.place.tied.length ? ` (${kit.tieText(at.place)})` : "";
    const label = `${at.pid}${answer ? " (right passage)" : ""}: fused ${at.place.label}${tie}, ` +
      `${where("dense", at.dense, props.depth)}, ${where("BM25", at.bm25, props.depth)}`;
    return h("g", {
      key: at.pid, class: ["slope-node", ...at.marks, at.fused === 1 && "is-winner"], transform: `translate(0 ${at.yFused})`,
      "data-pid": at.pid, "data-rank": String(at.fused), role: "listitem", "aria-label": label,
      "aria-posinset": String(at.fused), "aria-setsize": String(props.fusedIds.length),
      tabindex: at.pid === props.chart.stop ? "0" : "-1" },
    h("rect", { x: X.fusedLeft, y: "-10", width: X.fusedWidth, height: "20", rx: "3" }),
    h("text", { class: "slope-rank", x: X.fusedLeft, dx: "24" }, at.place.label),
    h("text", { class: "slope-id", x: X.fusedLeft, dx: "29" }, at.pid),
    h("text", { class: "slope-score", x: X.fusedRight, dx: "-7" },
      RAG.fixed(stored(props.fused[at.fused - 1][1]), 5)));
  }

  function chart(props) {
    const { chart: c } = props;
    const passages = chartPassages(props);
    // Each side column's ranks, then "out" (right-aligned left of the dense dots, left-aligned
    // right of BM25's: hybrid.css).
    const numbers = (column, count, dx) => h("g", { class: `slope-numbers-${column}` },
      Array.from({ length: count }, (_, i) => h("text", { x: X[column], dx, y: String(rowY(i + 1)) }, String(i + 1))),
      h("text", { class: "slope-out", x: X[column], dx, y: String(c.outY) }, "out"));
    const lines = (x, side) => h("svg", { class: "slope-lines", x, width: X.gap, height: String(c.height),
      viewBox: `0 0 100 ${c.height}`, preserveAspectRatio: "none" }, passages.map((at) => line(at, side)));
    return h("figure", { class: "hybrid-slope", "data-list": "chart" },
      h("svg", { class: ["slope", props.linked && "has-linked"], width: "100%", height: String(c.height), role: "group",
                 "aria-label": `Slope chart: each passage's dense, fused and BM25 ranks, k = ${props.k}, top ${props.depth} of each list` },
      h("g", { class: "slope-heads", "aria-hidden": "true" },
        h("text", { x: X.dense, y: "12" }, "Dense"),
        h("text", { x: "50%", y: "12" }, "Fused \u00b7 RRF"),
        h("text", { x: X.bm25, y: "12" }, "BM25")),
      h("g", { class: "slope-numbers", "aria-hidden": "true" },
        numbers("dense", props.top.dense.length, "-8"), numbers("bm25", props.top.bm25.length, "8")),
      h("g", { "aria-hidden": "true" }, lines(X.dense, "left"), lines(X.fusedRight, "right"),
        passages.map((at) => dot(at, "dense")), passages.map((at) => dot(at, "bm25"))),
      h("g", { class: "slope-nodes", role: "list", "aria-label": "The fused list" }, passages.map((at) => node(props, at)))),
      h("figcaption", { class: "hybrid-legend" },
        `Each passage's place in the three lists, joined by lines; the right passage's lines are green. A dashed line ends at ` +
        `\u201cout\u201d: that list's top ${props.depth} does not hold the passage, so it gives it no vote.`));
  }

  /* ----------------------------------------------------------- words */

  function status(props) {
    const { rights, ranks, firsts } = props;
    if (!rights.length) {
      // A question with no known right passage (asked live): say what each list put first.
      return [`${props.live ? "Asked live, so no" : "No"} right passage is known: dense puts ${firsts.dense} first, ` +
        `BM25 ${firsts.bm25}, fusion ${firsts.hybrid}.`];
    }
    const rankText = (pid) => `: dense rank ${ranks[pid].dense || "none"}, BM25 rank ${ranks[pid].bm25 || "none"}, ` +
      `fused rank ${ranks[pid].hybrid || "none"}`;
    return [rights.length > 1 ? "The right passages: " : "The right passage, ",
      rights.map((pid, i) => [i ? "; " : "", h("code", null, pid), rankText(pid)]), "."];
  }

  function settingsLine(props) {
    const { k, depth, page } = props;
    const own = k === page.k && depth === page.depth;
    return h("p", { class: "hybrid-settings" }, `RRF with k = ${k} over each list's top ${depth}`,
      own ? ": the page's settings." : `; the page's own are k = ${page.k} and the top ${page.depth}. `,
      own ? null : h("button", { type: "button", class: "btn hybrid-reset js-only" }, "Back to the page's settings"));
  }

  function readout(props) {
    const pid = props.linked;
    if (!pid) return "Point at or tap a passage to see its three ranks.";
    const rankIn = (name, list) => {
      const rank = kit.rankOf(props.full[list], pid);
      if (!rank) return `${name} none`;
      return rank > props.depth ? `${name} ${rank} (below the top ${props.depth}: no vote)` : `${name} ${rank}`;
    };
    return [h("code", null, pid), `: ${rankIn("dense", "dense")}, ${rankIn("BM25", "bm25")}, ` +
      `fused ${kit.rankOf(props.fusedIds, pid) || "none"}.`];
  }

  RAG.view("hybrid", {
    local: { linked: null, stops: {} },

    accept(next, input) {
      if (!input.corpus.question(next.q)) return null;
      const { sliders, corpus: { settings } } = input;
      return { q: next.q, k: kit.onSlider(next.k, sliders.k, settings.rrf_k),
               depth: kit.onSlider(next.depth, sliders.depth, settings.fusion_depth) };
    },

    props(state, input, local) {
      const { k, depth } = state;
      const { corpus } = input;
      const question = corpus.question(state.q);
      const { runs } = question;
      const top = { dense: ids(runs.dense.slice(0, depth)), bm25: ids(runs.bm25.slice(0, depth)) };
      const fused = RAG.engine.rrf([top.dense, top.bm25], k);
      const fusedIds = ids(fused);
      const fusedPlaces = kit.placesOf(fused);
      const rowsOf = (ranking, places) => ranking.slice(0, depth).map(([pid, score]) =>
        ({ pid, score, title: corpus.passage(pid).section, place: places.get(pid) }));
      const lists = { dense: rowsOf(runs.dense, kit.placesOf(runs.dense, corpus.denseTolerance || 0)), bm25: rowsOf(runs.bm25, kit.placesOf(runs.bm25)),
                      hybrid: rowsOf(fused, fusedPlaces) };
      const full = { dense: ids(runs.dense), bm25: ids(runs.bm25) };
      const rights = corpus.rightPassages(question);
      const first = (ranking) => (ranking.length ? ranking[0][0] : "nothing");
      const rows = Math.max(fused.length, 1);
      const outY = TOP + rows * ROW + 12;
      const stop = local.stops.chart && fusedIds.includes(local.stops.chart) ? local.stops.chart : fusedIds[0];
      return {
        prefix: input.prefix, rights, live: question.source === "live", k, depth,
        page: { k: corpus.settings.rrf_k, depth: corpus.settings.fusion_depth },
        lists, top, full, fused, fusedIds, fusedPlaces, linked: local.linked, stops: local.stops,
        // A right passage's place in each list as the lists write it: "2", or "2=" in a tie.
        ranks: Object.fromEntries(rights.map((pid) => {
          const label = (ranking) => { const place = kit.placeOf(ranking, pid); return place ? place.label : null; };
          return [pid, { dense: label(runs.dense), bm25: label(runs.bm25), hybrid: label(fused) }];
        })),
        firsts: { dense: first(runs.dense), bm25: first(runs.bm25), hybrid: first(fused) },
        passageIds: corpus.ids,
        chart: { outY, height: outY + 14, stop },
      };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        settingsLine(props),
        h("p", { class: "hybrid-readout js-only", "aria-live": "polite" }, readout(props)),
        chart(props),
        lists(props),
      ];
    },

    summary: (props) => `k = ${props.k}, top ${props.depth}. ${kit.spoken(status(props))}`,

    setup(ctx) {
      const output = ctx.output;
      // A passage the reader can point at: a row of a list, or the chart's node, dots and lines.
      const pointed = (target) => (target && target.closest ? target.closest("[data-pid]") : null);
      const point = (pid) => { if (pid !== ctx.local.linked) ctx.show({ linked: pid }); };
      ctx.on(output, "mouseover", (event) => { const item = pointed(event.target); if (item) point(item.dataset.pid); });
      ctx.on(output, "mouseleave", () => { if (!output.contains(document.activeElement)) point(null); });
      ctx.on(output, "focusin", (event) => { const item = pointed(event.target); if (item) point(item.dataset.pid); });
      ctx.on(output, "focusout", (event) => { if (!output.contains(event.relatedTarget)) point(null); });
      ctx.on(output, "keydown", (event) => {
        const item = pointed(event.target);
        if (!item || !item.hasAttribute("tabindex")) return;
        const box = item.closest("[data-list]");
        // In a list, the rows' order; in the chart, the fused ranks (its nodes stand in the corpus's order).
        const items = [...box.querySelectorAll("[data-pid][tabindex]")]
          .sort((a, b) => Number(a.dataset.rank || 0) - Number(b.dataset.rank || 0));
        const at = items.indexOf(item);
        const next = { ArrowDown: items[at + 1], ArrowRight: items[at + 1], ArrowUp: items[at - 1], ArrowLeft: items[at - 1],
                       Home: items[0], End: items[items.length - 1] }[event.key];
        if (!next) return;
        event.preventDefault();
        ctx.show({ stops: { ...ctx.local.stops, [box.dataset.list]: next.dataset.pid } });
        next.focus();
      });
      ctx.on(output, "click", (event) => {
        if (!event.target.closest || !event.target.closest("button.hybrid-reset")) return;
        const { settings } = ctx.input.corpus;
        ctx.set({ k: settings.rrf_k, depth: settings.fusion_depth });
        const slider = ctx.find('input[data-key="k"]');
        if (slider) slider.focus();  // the button is gone with the change; the reader lands on the first slider
      });
    },
  });
})();
