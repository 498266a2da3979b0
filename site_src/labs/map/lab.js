/* Where questions land: the passages and the preset questions where the build drew them (the
 * projection that kept the most nearest neighbours, site_src/labs/map/data.py), the question
 * shown joined to its nearest passages by the full 384-number cosine, listed beside. A question
 * asked live is placed here the way the build placed the presets: projected through the same
 * plane (own.placement "projection", PCA) or at the cosine-weighted mean of its nearest passages'
 * places ("neighbours"), both with the engine's twins of engine/projection.py. State: {q}: a
 * preset question id, or "live". */
(() => {
  const h = RAG.h;
  const at1 = (v) => RAG.fixed(v, 1);
  const percent = (share) => `${RAG.fixed(share * 100, 1)}%`;
  const rounded = (v) => RAG.engine.roundTo(v, 1);  // the drawing's tenths, as data.py's round(v, 1)

  /** data.py placed_by_neighbours: the engine's by_neighbours (RAG.engine.byNeighbours, its
   *  twin), so a preset asked live lands exactly where the build put it. */
  const byNeighbours = (nearest, xyOf) => RAG.engine.byNeighbours(nearest, xyOf).map(rounded);

  /** The build's linear projection (PCA, RAG.engine.project), then into the drawing's units. */
  function projected(vector, { mean, axes, frame }, [width, height]) {
    const plane = RAG.engine.project(vector, mean, axes);
    const clamp = (v, high) => Math.min(high, Math.max(0, v));
    return [rounded(clamp(frame[0] + frame[2] * plane[0], width)), rounded(clamp(frame[1] - frame[2] * plane[1], height))];
  }

  function caption(props) {
    const { names, method, kept, order, k, dimensions } = props;
    const others = order.filter((m) => m !== method).map((m) => `${names[m]} ${percent(kept[m])}`);
    const placed = props.placement === "neighbours"
      ? `${names[method]} places only the passages it was fitted on, so each question sits at the mean of the places ` +
        `of its ${k} nearest passages, each weighted by its cosine: near them by construction.`
      : "Each question is projected onto the same plane as the passages.";
    return [`Drawn by ${names[method]}: of each passage's ${k} nearest passages by cosine in all ${dimensions} ` +
      `dimensions, ${percent(kept[method])} are among its ${k} nearest on this plane (${others.join(", ")}). `,
    placed, " Far distances on the plane mean little; the ranks beside come from the full vectors."];
  }

  RAG.lab("map", {
    accept(next, input) {
      const question = input.question(next.q);
      return question && question.runs ? { q: next.q } : null;
    },

    props(state, input) {
      const { own, data } = input;
      const question = input.question(state.q);
      const xyOf = Object.fromEntries(data.passages.map((p, i) => [p.id, own.passages[i]]));
      const live = question.source === "live";
      const nearest = question.runs.dense.slice(0, own.nearest);
      let at = own.questions[question.id];
      if (live) at = own.placement === "projection" ? projected(question.vector, own.projection, own.size) : byNeighbours(nearest, xyOf);
      const near = new Set(nearest.map(([pid]) => pid));
      const documentOf = Object.fromEntries(data.passages.map((p) => [p.id, own.documents.indexOf(p.document)]));
      return {
        size: own.size, at, live, text: question.text, k: own.nearest, documents: own.documents,
        names: own.names, method: own.method, kept: own.kept, order: own.order, placement: own.placement,
        dimensions: data.model.dimensions,
        passages: data.passages.map((p) => ({ id: p.id, title: p.title, doc: documentOf[p.id], xy: xyOf[p.id], near: near.has(p.id) })),
        others: data.questions.filter((q) => q.id !== question.id).map((q) => own.questions[q.id]),
        nearest: nearest.map(([pid, value]) => ({ pid, value, doc: documentOf[pid], xy: xyOf[pid], answer: pid === question.answer })),
      };
    },

    view(props) {
      const [width, height] = props.size;
      const [x, y] = props.at;
      return h("div", { class: "map-layout" },
        h("figure", { class: "map-figure" },
          h("svg", { class: "map", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "map-title map-desc" },
            h("title", { id: "map-title" }, `The passages and the questions on a plane (${props.names[props.method]})`),
            h("desc", { id: "map-desc" }, `${props.passages.length} passages as dots coloured by document, ${props.others.length + 1} ` +
              `questions as squares; the question shown, \u201c${props.text}\u201d, is joined to its ${props.k} nearest passages by cosine.`),
            h("g", { class: "map-links" }, props.nearest.map((n) => h("line", {
              class: "map-link", x1: at1(x), y1: at1(y), x2: at1(n.xy[0]), y2: at1(n.xy[1]) }))),
            h("g", { class: "map-passages" }, props.passages.map((p) => h("circle", {
              class: ["map-passage", `doc-${p.doc}`, p.near && "is-near"], cx: at1(p.xy[0]), cy: at1(p.xy[1]), r: "6" },
            h("title", null, `${p.id} \u00b7 ${p.title}`)))),
            h("g", { class: "map-questions" },
              props.others.map(([qx, qy]) => h("rect", { class: "map-question", x: at1(qx - 3.5), y: at1(qy - 3.5), width: "7", height: "7" })),
              h("rect", { class: "map-question is-shown", x: at1(x - 7), y: at1(y - 7), width: "14", height: "14" },
                h("title", null, props.text)))),
          h("figcaption", null, caption(props))),
        h("div", { class: "map-side" },
          h("p", { class: "map-shown" }, `\u201c${props.text}\u201d, ${props.live ? "placed and ranked live in your browser" : "computed by the build"}`),
          h("h4", { id: "map-nearest-title" }, `Nearest by cosine, in ${props.dimensions} dimensions`),
          h("ol", { class: "results map-nearest", "aria-labelledby": "map-nearest-title" }, props.nearest.map((n, i) => h("li", {
            class: ["result", n.answer && "is-answer"], "data-pid": n.pid },
          h("span", { class: "rank" }, String(i + 1)),
          h("span", { class: "pid" }, h("span", { class: ["map-swatch", `doc-${n.doc}`], "aria-hidden": "true" }), h("code", null, n.pid)),
          h("span", { class: "score" }, RAG.fixed(n.value, 3))))),
          h("ul", { class: "map-legend", "aria-label": "Documents" }, props.documents.map((name, i) => h("li", null,
            h("span", { class: ["map-swatch", `doc-${i}`], "aria-hidden": "true" }), name)))));
    },

    summary(props) {
      return `\u201c${props.text}\u201d on the map; its nearest passage by cosine is ${props.nearest[0].pid}.`;
    },

    setup(ctx) {
      // A question asked again replaces the one asked before under the same id: redraw if shown.
      ctx.on(document, "rag:questions", (event) => { if (ctx.state.q === event.detail.id) ctx.set({}, { link: false }); });
    },
  });
})();
