/* Where questions land (lab.html draws a preset). The passages and the preset questions at the
 * places the build computed (PCA, builder/labs/map.py); a question asked live is placed here
 * through the same projection (own.mean, own.axes), its nearest passages being the live dense
 * ranking (full 384-number cosine). State: {q}: a preset question id, or "live". */
RAG.lab("map", {
  accept(next, ctx) {
    const question = ctx.question(next.q);
    return question && question.runs ? { q: next.q } : null;
  },

  setup(ctx) {
    // A question asked live appears in the picker (the runtime lists it); show it once asked.
    ctx.on(document, "rag:questions", (event) => { if (ctx.state.q === event.detail.id) ctx.set({}, { link: false }); });
  },

  draw(ctx) {
    const { data, own } = ctx;
    const question = ctx.question(ctx.state.q);
    const svg = RAG.svg;
    const el = RAG.el;
    const fixed = (x) => RAG.fixed(x, 1);
    const [width, height, pad] = own.size;
    const frame = own.frame;
    const xyOf = Object.fromEntries(data.passages.map((p, i) => [p.id, own.passages[i]]));
    const documentOf = (pid) => own.documents.indexOf(data.passages.find((p) => p.id === pid).document);

    let at = own.questions[question.id];
    const live = question.source === "live";
    if (live) {
      // The same projection as the build's: (vector - mean) . axes, then into the drawing's units.
      const plane = own.axes.map((axis) => axis.reduce((sum, a, d) => sum + a * (question.vector[d] - own.mean[d]), 0));
      const clamp = (v, low, high) => Math.min(high, Math.max(low, v));
      at = [clamp(pad + (plane[0] - frame[0]) / (frame[2] - frame[0]) * (width - 2 * pad), 0, width),
            clamp(height - pad - (plane[1] - frame[1]) / (frame[3] - frame[1]) * (height - 2 * pad), 0, height)]
        .map((v) => Math.round(v * 10) / 10);
    }
    const nearest = question.runs.dense.slice(0, own.nearest);
    const nearIds = nearest.map(([pid]) => pid);

    RAG.replace(ctx.find("g.map-links"), nearIds.map((pid) => svg("line", {
      class: "map-link", x1: fixed(at[0]), y1: fixed(at[1]), x2: fixed(xyOf[pid][0]), y2: fixed(xyOf[pid][1]) })));
    RAG.replace(ctx.find("g.map-passages"), data.passages.map((p) => svg("circle", {
      class: ["map-passage", `doc-${own.documents.indexOf(p.document)}`, nearIds.includes(p.id) ? "is-near" : ""],
      cx: fixed(xyOf[p.id][0]), cy: fixed(xyOf[p.id][1]), r: "5" }, svg("title", null, `${p.id} \u00b7 ${p.title}`))));
    RAG.replace(ctx.find("g.map-questions"),
      data.questions.filter((q) => q.id !== question.id).map((q) => {
        const [x, y] = own.questions[q.id];
        return svg("rect", { class: "map-question", x: fixed(x - 3), y: fixed(y - 3), width: "6", height: "6" });
      }),
      svg("rect", { class: "map-question is-shown", x: fixed(at[0] - 6), y: fixed(at[1] - 6), width: "12", height: "12" },
        svg("title", null, question.text)));
    RAG.replace(ctx.find("#map-desc"), `${data.passages.length} passages as dots coloured by document, ` +
      `${Object.keys(own.questions).length} questions as squares; the question shown, \u201c${question.text}\u201d, ` +
      `is joined to its ${own.nearest} nearest passages by cosine.`);

    const where = live ? "placed and ranked live in your browser" : "computed by the build";
    RAG.replace(ctx.find(".map-shown"), `\u201c${question.text}\u201d, ${where}`);
    RAG.replace(ctx.find("ol.map-nearest"), nearest.map(([pid, value], i) => el("li", {
      class: ["result", pid === question.answer ? "is-answer" : ""], dataset: { pid } },
      el("span", { class: "rank" }, String(i + 1)),
      el("span", { class: "pid" }, el("span", { class: ["map-swatch", `doc-${documentOf(pid)}`], "aria-hidden": "true" }),
        el("code", null, pid)),
      el("span", { class: "score" }, RAG.fixed(value, 3)))));
    return `\u201c${question.text}\u201d on the map; its nearest passage by cosine is ${nearIds[0]}.`;
  },
});
