/* The map view: a corpus's passages and questions on a plane, the question shown joined to its
 * nearest passages by the full cosine, listed beside (ties in the list written "2=", RAG.kit).
 *
 * Where the plane comes from:
 *   - the build's projection (input.places: site_src/labs/map/data.py, the projection that kept
 *     the most nearest neighbours), drawn as the build drew it. A question asked live is placed
 *     the way the build placed the presets: projected through the same plane (places.placement
 *     "projection", PCA) or at the cosine-weighted mean of its nearest passages' places
 *     ("neighbours"), both with the engine's twins of engine/projection.py;
 *   - or, for a corpus with vectors and no projection of the build's (a reader's documents), the
 *     plane of most variance, computed here (RAG.engine.principalAxes, project), fitted into the
 *     drawing as data.py fits it, with the share of the variance it keeps; every question with a
 *     vector projected onto it (one without, at the mean of its nearest passages' places).
 *
 * On the map: the right passages of the question ringed, the LABELLED nearest and the right
 * passages named beside their dots (each label at the first free spot around its dot, none on
 * another, inside the frame), and a tap or click names the nearest dot's passage under the map
 * (its title, document, cosine and rank): an SVG <title> shows only to a mouse that waits. By
 * keyboard the dots are one tab stop (first the nearest passage's): a dot that takes the focus
 * is named the same way, and the arrow keys move from dot to dot (RAG.kit.roveDots).
 *
 * Input: {corpus (RAG.corpus), nearest (passages joined and listed), dimensions (of the vectors;
 * the corpus's own when not given), places (the build's projection, optional), prefix}.
 * Reads of the corpus: passages (id, title, document), vectors (with no places), questions
 * (presets and live: text, vector, runs.dense), rightPassages.
 * State: {q}: a question id (a preset, or one asked live). Local: {picked}: the passage tapped or
 * focused; {stop}: the dot that holds the tab stop. */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const SIZE = [640, 440];  // the drawing, in SVG units, and its margin: data.py WIDTH, HEIGHT, PAD
  const PAD = 16;
  const HUES = 11;          // view.css colours eleven documents; more share them in turn
  const at1 = (v) => RAG.fixed(v, 1);
  const percent = (share) => `${RAG.fixed(share * 100, 1)}%`;
  const rounded = (v) => RAG.engine.roundTo(v, 1);  // the drawing's tenths, as data.py's round(v, 1)
  const LABELLED = 3;       // the nearest passages named on the map (the right passages always are)
  // A label's box, estimated for its largest font (map.css: 26 units in a narrow view, where the
  // drawing is shrunk most; 19 elsewhere): a monospace character's width, and a line's height.
  const LABEL = { char: 15.9, line: 27 };
  const SPOTS = [[12, 8, "start"], [-12, 8, "end"], [0, -12, "middle"], [0, 30, "middle"], [12, -12, "start"], [-12, -12, "end"],
    [12, 28, "start"], [-12, 28, "end"], [0, -38, "middle"], [0, 56, "middle"]];  // around a dot, in order of preference

  /** Labels for the dots named: each at the first spot around its dot whose box is inside the
   *  frame and clear of the labels placed before it and of every other dot (`dots`, with the
   *  question's square); else clear of the labels only; else the first spot inside the frame. */
  function placeLabels(named, [width, height], dots) {
    const placed = [];
    const obstacles = dots.map(([x, y]) => ({ left: x - 7, right: x + 7, top: y - 7, bottom: y + 7 }));
    return named.map(({ pid, xy: [x, y] }) => {
      const w = pid.length * LABEL.char;
      const boxAt = ([dx, dy, anchor]) => {
        const left = x + dx - (anchor === "end" ? w : anchor === "middle" ? w / 2 : 0);
        return { left, right: left + w, top: y + dy - LABEL.line + 5, bottom: y + dy + 5, x: x + dx, y: y + dy, anchor };
      };
      const inside = (b) => b.left >= 2 && b.right <= width - 2 && b.top >= 2 && b.bottom <= height - 2;
      const apart = (b, o) => b.right <= o.left || o.right <= b.left || b.bottom <= o.top || o.bottom <= b.top;
      const clear = (b) => placed.every((o) => apart(b, o));
      const open = (b) => obstacles.every((o) => apart(b, o) || (o.left + 7 === x && o.top + 7 === y));
      const boxes = SPOTS.map(boxAt);
      const box = boxes.find((b) => inside(b) && clear(b) && open(b)) || boxes.find((b) => inside(b) && clear(b)) ||
        boxes.find(inside) || boxes[0];
      placed.push(box);
      return { pid, x: box.x, y: box.y, anchor: box.anchor };
    });
  }

  /** data.py placed_by_neighbours: the engine's by_neighbours (RAG.engine.byNeighbours, its
   *  twin), so a preset asked live lands exactly where the build put it. */
  const byNeighbours = (nearest, xyOf) => RAG.engine.byNeighbours(nearest, xyOf).map(rounded);

  /** A linear projection (PCA, RAG.engine.project), then into the drawing's units. */
  function projected(vector, { mean, axes, frame }, [width, height]) {
    const plane = RAG.engine.project(vector, mean, axes);
    const clamp = (v, high) => Math.min(high, Math.max(0, v));
    return [rounded(clamp(frame[0] + frame[2] * plane[0], width)), rounded(clamp(frame[1] - frame[2] * plane[1], height))];
  }

  /** data.py fit: (x0, y0, scale) centring the points in the drawing at one scale, y growing down. */
  function fit(points) {
    const low = [0, 1].map((d) => Math.min(...points.map((p) => p[d])));
    const high = [0, 1].map((d) => Math.max(...points.map((p) => p[d])));
    const spread = [0, 1].map((d) => Math.max(high[d] - low[d], 1e-12));
    const scale = Math.min((SIZE[0] - 2 * PAD) / spread[0], (SIZE[1] - 2 * PAD) / spread[1]);
    const middle = [0, 1].map((d) => (low[d] + high[d]) / 2);
    return [SIZE[0] / 2 - scale * middle[0], SIZE[1] / 2 + scale * middle[1], scale];
  }

  /** The plane of most variance of a corpus's vectors, computed once per corpus: the passages'
   *  places, the projection for its questions, and the share of the variance each axis keeps. */
  const planes = new WeakMap();
  function planeOf(corpus) {
    if (!planes.has(corpus)) {
      const { mean, axes, share } = RAG.engine.principalAxes(corpus.vectors);
      const onPlane = corpus.vectors.map((vector) => RAG.engine.project(vector, mean, axes));
      const asked = corpus.questions.presets().filter((q) => q.vector).map((q) => RAG.engine.project(q.vector, mean, axes));
      const frame = fit([...onPlane, ...asked]);
      const xy = onPlane.map(([x, y]) => [rounded(frame[0] + frame[2] * x), rounded(frame[1] - frame[2] * y)]);
      planes.set(corpus, { projection: { mean, axes, frame }, share, xy });
    }
    return planes.get(corpus);
  }

  /** What the view places, whichever plane: {size, xyOf, placeOf(question), documents, caption parts}. */
  function plane(input) {
    const { corpus, places } = input;
    const documents = places ? places.documents : [...new Set(corpus.passages.map((p) => p.document))];
    if (places) {
      const xyOf = Object.fromEntries(corpus.passages.map((p, i) => [p.id, places.passages[i]]));
      const placeOf = (question, nearest) => {
        if (question.source !== "live") return places.questions[question.id];
        return places.placement === "projection" ? projected(question.vector, places.projection, places.size) : byNeighbours(nearest, xyOf);
      };
      return { size: places.size, xyOf, placeOf, documents, built: places };
    }
    const computed = planeOf(corpus);
    const xyOf = Object.fromEntries(corpus.passages.map((p, i) => [p.id, computed.xy[i]]));
    const placeOf = (question, nearest) => (question.vector ? projected(question.vector, computed.projection, SIZE)
      : byNeighbours(nearest, xyOf));
    return { size: SIZE, xyOf, placeOf, documents, share: computed.share };
  }

  function caption(props) {
    const { k, dimensions } = props;
    const end = " Far distances on the plane mean little; the ranks beside come from the full vectors.";
    if (props.share) {
      const [first, second] = props.share;
      return [`Drawn by PCA of the ${props.passages.length} passages' vectors: the plane keeps ${percent(first + second)} of ` +
        `their variance in ${dimensions} dimensions (${percent(first)} on its first axis, ${percent(second)} on its second). ` +
        "Each question is projected onto the same plane.", end];
    }
    const { names, method, kept, order, placement } = props.built;
    const others = order.filter((m) => m !== method).map((m) => `${names[m]} ${percent(kept[m])}`);
    const placed = placement === "neighbours"
      ? `${names[method]} places only the passages it was fitted on, so each question sits at the mean of the places ` +
        `of its ${k} nearest passages, each weighted by its cosine: near them by construction.`
      : "Each question is projected onto the same plane as the passages.";
    return [`Drawn by ${names[method]}: of each passage's ${k} nearest passages by cosine in all ${dimensions} ` +
      `dimensions, ${percent(kept[method])} are among its ${k} nearest on this plane (${others.join(", ")}). `,
    placed, end];
  }

  /** Under the map: the passage whose dot was tapped, or how to name one. */
  function picked(props) {
    const p = props.picked;
    if (!p) return h("p", { class: "map-picked is-empty js-only", "aria-live": "polite" }, "Tap or click a dot to name its passage.");
    const rank = p.place ? `rank ${p.place.label}` : "not ranked";
    return h("p", { class: "map-picked", "aria-live": "polite" },
      h("span", { class: ["map-swatch", `doc-${p.doc}`], "aria-hidden": "true" }), h("code", null, p.id), ` \u00b7 ${p.title}`,
      p.document ? ` (${p.document})` : "", `: cosine ${p.cosine === undefined ? "unknown" : RAG.fixed(p.cosine, 3)} with the question, ` +
      `${rank} by cosine` + (p.answer ? ", a right passage." : "."));
  }

  const drawnBy = (props) => (props.share ? "PCA" : props.built.names[props.built.method]);

  RAG.view("map", {
    accept(next, input) {
      const question = input.corpus.question(next.q);
      return question && question.runs && question.runs.dense ? { q: next.q } : null;
    },

    local: { picked: null, stop: null },

    props(state, input, local) {
      const { corpus } = input;
      const question = corpus.question(state.q);
      const on = plane(input);
      const live = question.source === "live";
      const nearest = question.runs.dense.slice(0, input.nearest);
      const places = kit.placesOf(question.runs.dense);
      const near = new Set(nearest.map(([pid]) => pid));
      const documentOf = Object.fromEntries(corpus.passages.map((p) => [p.id, on.documents.indexOf(p.document) % HUES]));
      const rights = corpus.rightPassages(question);
      const others = [...corpus.questions.presets(), ...corpus.questions.live()].filter((q) => q.id !== question.id && q.runs.dense);
      const named = [...new Set([...rights.filter((pid) => on.xyOf[pid]), ...nearest.slice(0, LABELLED).map(([pid]) => pid)])];
      const picked = local.picked && corpus.passage(local.picked) ? corpus.passage(local.picked) : null;
      const cosineOf = Object.fromEntries(question.runs.dense);
      return {
        rights, labels: placeLabels(named.map((pid) => ({ pid, xy: on.xyOf[pid] })), on.size,
          [...corpus.passages.map((p) => on.xyOf[p.id]), on.placeOf(question, nearest)]),
        picked: picked && { id: picked.id, title: picked.title, document: picked.document, doc: documentOf[picked.id],
          cosine: cosineOf[picked.id], place: places.get(picked.id), answer: rights.includes(picked.id) },
        stop: local.stop && on.xyOf[local.stop] ? local.stop : (nearest.length ? nearest[0][0] : null),
        prefix: input.prefix, size: on.size, at: on.placeOf(question, nearest), live, text: question.text, k: input.nearest,
        documents: on.documents, built: on.built, share: on.share,
        dimensions: input.dimensions || (corpus.vectors ? corpus.vectors[0].length : null),
        passages: corpus.passages.map((p) => ({ id: p.id, title: p.title, doc: documentOf[p.id], xy: on.xyOf[p.id], near: near.has(p.id),
                                               answer: rights.includes(p.id) })),
        // The build drew its own presets; a live question asked before is not among the squares.
        others: others.filter((q) => !on.built || q.source !== "live").map((q) => on.placeOf(q, q.runs.dense.slice(0, input.nearest))),
        nearest: nearest.map(([pid, value]) => ({ pid, value, doc: documentOf[pid], xy: on.xyOf[pid], answer: rights.includes(pid),
                                                  place: places.get(pid) })),
      };
    },

    view(props) {
      const [width, height] = props.size;
      const [x, y] = props.at;
      const id = (name) => `${props.prefix}-${name}`;
      return h("div", { class: "map-layout" },
        h("figure", { class: "map-figure" },
          h("svg", { class: "map", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-labelledby": `${id("title")} ${id("desc")}` },
            h("title", { id: id("title") }, `The passages and the questions on a plane (${drawnBy(props)})`),
            h("desc", { id: id("desc") }, `${props.passages.length} passages as dots coloured by document, ${props.others.length + 1} ` +
              `questions as squares; the question shown, \u201c${props.text}\u201d, is joined to its ${props.k} nearest passages by cosine.`),
            h("g", { class: "map-links" }, props.nearest.map((n) => h("line", {
              class: "map-link", x1: at1(x), y1: at1(y), x2: at1(n.xy[0]), y2: at1(n.xy[1]) }))),
            h("g", { class: "map-rings" }, props.passages.filter((p) => p.answer).map((p) => h("circle", {
              class: "map-answer-ring", "data-pid": p.id, cx: at1(p.xy[0]), cy: at1(p.xy[1]), r: "13" }))),
            h("g", { class: "map-passages", role: "list", "aria-label": "The passages, one dot each (arrow keys: the next)" },
              props.passages.map((p) => h("circle", {
                class: ["map-passage", `doc-${p.doc}`, p.near && "is-near", p.answer && "is-answer", props.picked && props.picked.id === p.id && "is-picked"],
                "data-pid": p.id, cx: at1(p.xy[0]), cy: at1(p.xy[1]), r: "6", role: "listitem", tabindex: p.id === props.stop ? "0" : undefined },
              h("title", null, `${p.id} \u00b7 ${p.title}`)))),
            h("g", { class: "map-questions" },
              props.others.map(([qx, qy]) => h("rect", { class: "map-question", x: at1(qx - 3.5), y: at1(qy - 3.5), width: "7", height: "7" })),
              h("rect", { class: "map-question is-shown", x: at1(x - 7), y: at1(y - 7), width: "14", height: "14" },
                h("title", null, props.text))),
            h("g", { class: "map-labels", "aria-hidden": "true" }, props.labels.map((l) => h("text", {
              class: ["map-label", props.rights.includes(l.pid) && "is-answer"], "data-pid": l.pid,
              x: at1(l.x), y: at1(l.y), "text-anchor": l.anchor }, l.pid)))),
          picked(props),
          h("figcaption", null, caption(props))),
        h("div", { class: "map-side" },
          h("p", { class: "map-shown" }, `\u201c${props.text}\u201d, ${props.live ? "placed and ranked live in your browser" : "computed by the build"}`),
          h("h4", { id: id("nearest-title") }, `Nearest by cosine, in ${props.dimensions} dimensions`),
          h("ol", { class: "results map-nearest", "aria-labelledby": id("nearest-title") }, props.nearest.map((n) => kit.row({
            id: n.pid, place: n.place, score: RAG.fixed(n.value, 3), classes: [n.answer && "is-answer"], attrs: { "data-pid": n.pid },
            name: [h("span", { class: ["map-swatch", `doc-${n.doc}`], "aria-hidden": "true" }), h("code", null, n.pid)] }))),
          h("p", { class: "map-key" }, h("span", { class: "map-ring-key", "aria-hidden": "true" }),
            props.rights.length === 1 ? "Ringed: the right passage" : "Ringed: the right passages"),
          h("ul", { class: "map-legend", "aria-label": "Documents" }, props.documents.map((name, i) => h("li", null,
            h("span", { class: ["map-swatch", `doc-${i % HUES}`], "aria-hidden": "true" }), name)))));
    },

    summary(props) {
      return `\u201c${props.text}\u201d on the map; its nearest passage by cosine is ${props.nearest[0].pid}.`;
    },

    setup(ctx) {
      // A tap or click on the map names the passage of the nearest dot (within a finger's width:
      // the dots are small on a phone).
      ctx.on(ctx.output, "click", (event) => {
        const svg = event.target.closest && event.target.closest("svg.map");
        if (!svg) return;
        const dot = kit.nearestDot(svg.querySelectorAll("circle.map-passage"), event);
        ctx.show({ picked: dot ? dot.dataset.pid : null });
      });
      RAG.kit.roveDots(ctx, "svg.map circle.map-passage", (dot) => {
        if (ctx.local.picked !== dot.dataset.pid || ctx.local.stop !== dot.dataset.pid) ctx.show({ picked: dot.dataset.pid, stop: dot.dataset.pid });
      });
      // A question asked again replaces the one asked before under the same id: redraw if shown.
      ctx.on(document, "rag:questions", (event) => { if (ctx.state.q === event.detail.id) ctx.set({}, { link: false }); });
    },
  });
})();
