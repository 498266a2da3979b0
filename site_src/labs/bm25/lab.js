/* The BM25 explorer (lab.html draws its default). BM25 runs live in the browser over every
 * passage (RAG.engine.BM25, the twin of engine/bm25.py, tested equal, with the build's k1 and
 * b), for a question from the picker or any text the reader types; each result shows what every
 * query term added, and for a question the build searched, where dense search ranked it.
 * State: {q, text}: a question id and "" (its own text), or "" and the reader's text. Text that
 * is a question's, letter for letter but for case and spaces, is that question; text typed in
 * other case or spacing is kept as typed. */
RAG.lab("bm25", {
  accept(next, ctx) {
    const text = typeof next.text === "string" ? next.text : "";
    const q = typeof next.q === "string" ? next.q : "";
    // Typing (typed: true) or a link that names only text: the text decides the question.
    if (next.typed || (text !== ctx.state.text && q === ctx.state.q)) {
      const preset = ctx.bm25.presetFor(text);
      return { q: preset ? preset.id : "", text: preset && preset.text === text ? "" : text };
    }
    if (q === "") {
      // The picker's "your own words": the text of the question left stays, to edit.
      const left = ctx.state.q ? ctx.question(ctx.state.q) : null;
      return { q: "", text: text || (left ? left.text : "") };
    }
    const question = ctx.question(q);
    if (!question) return null;
    return { q, text: ctx.bm25.same(text, question.text) && text !== question.text ? text : "" };
  },

  setup(ctx) {
    const { passages, settings } = ctx.data;
    const index = new RAG.engine.BM25(passages.map((p) => p.text), settings.bm25.k1, settings.bm25.b);
    const fold = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");
    const presets = ctx.data.questions.filter((q) => ctx.question(q.id));
    ctx.bm25 = {
      index,
      same: (a, b) => fold(a) === fold(b),
      presetFor: (text) => (fold(text) ? presets.find((q) => fold(q.text) === fold(text)) || null : null),
    };
    const input = ctx.find('input[name="bm25-text"]');
    ctx.on(input, "input", () => ctx.set({ text: input.value, typed: true }, { announce: "later" }));
  },

  draw(ctx) {
    const { passages } = ctx.data;
    const { index } = ctx.bm25;
    const depth = ctx.own.depth;
    const question = ctx.state.q ? ctx.question(ctx.state.q) : null;
    const text = ctx.state.text || (question ? question.text : "");
    const input = ctx.find('input[name="bm25-text"]');
    if (input.value !== text) input.value = text;

    // Every passage that shares a term, best first; equal scores keep the corpus order.
    const scores = index.scores(text);
    const found = scores.map((score, i) => ({ i, score })).filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i);
    const shown = found.slice(0, depth);
    ctx.results = found.map((r) => [passages[r.i].id, r.score]);  // the whole ranking, scores unrounded

    const terms = RAG.engine.uniqueTerms(text);
    RAG.replace(ctx.find(".query-terms ul.terms"), terms.length ? terms.map((term) => {
      const df = index.docFreq(term);
      return RAG.el("li", { class: df ? null : "is-zero" }, RAG.el("code", null, term), " ",
        df ? `in ${df} \u00b7 IDF ${RAG.fixed(index.idf(term), 3)}` : "in no passage");
    }) : RAG.el("li", { class: "is-zero" }, "no terms: BM25 needs letters or digits"));

    const dense = question && question.runs ? question.runs.dense.map(([pid]) => pid) : null;
    const answer = question ? question.answer : null;
    const where = [];
    if (answer && dense) {
      const bm25Rank = ctx.results.findIndex(([pid]) => pid === answer) + 1;
      const denseRank = dense.indexOf(answer) + 1;
      where.push(" The right passage, ", RAG.el("code", null, answer),
        `, is at BM25 rank ${bm25Rank || "none"} and dense rank ${denseRank || "none"}.`);
    }
    const status = ctx.find(".lab-status");
    RAG.replace(status, `${found.length} of ${passages.length} passages share a term with the query; `,
      found.length ? `the best ${shown.length} below.` : "BM25 has nothing to rank.", where);

    const top = shown.length ? shown[0].score : 1;
    RAG.replace(ctx.find("ol.bm25-results"), shown.map((r, n) => {
      const p = passages[r.i];
      const isAnswer = p.id === answer;
      const rank = dense ? dense.indexOf(p.id) : -1;
      return RAG.el("li", { class: ["result", isAnswer ? "is-answer" : "", n === 0 ? "is-winner" : ""], dataset: { pid: p.id } },
        RAG.el("span", { class: "rank" }, String(n + 1)),
        RAG.el("span", { class: "pid" }, RAG.el("code", null, p.id), " ", RAG.el("span", { class: "title" }, `${p.title} \u203a ${p.section}`)),
        RAG.el("meter", { class: "score-bar", min: "0", max: RAG.fixed(top, 3), value: RAG.fixed(r.score, 3), "aria-hidden": "true" }),
        RAG.el("span", { class: "score" }, RAG.fixed(r.score, 3)),
        isAnswer ? RAG.el("span", { class: "flag" }, "right passage") : null,
        RAG.el("ul", { class: "terms", "aria-label": "What each query term added" },
          index.explain(text, r.i).filter((c) => c.score > 0).map((c) => RAG.el("li", null, RAG.el("code", null, c.term), ` +${RAG.fixed(c.score, 3)}`))),
        dense ? RAG.el("p", { class: "detail" }, rank >= 0
          ? `dense search: rank ${rank + 1}, cosine ${RAG.fixed(question.runs.dense[rank][1], 3)}` : "dense search: not ranked") : null);
    }));
    return status.textContent;
  },
});
