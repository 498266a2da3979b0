/* The BM25 explorer: BM25 over every passage, run by the engine's JavaScript twin
 * (RAG.engine.BM25, tested equal to engine/bm25.py) with the build's k1 and b, for a question
 * from the picker or any text the reader types. Each result shows what every query term added,
 * and, for a question the build searched, where dense search ranked it.
 * State: {q, text}: a question id and "" (its own text), or "" and the reader's text. Text that
 * is a question's, letter for letter but for case and spaces, is that question; text typed in
 * other case or spacing is kept as typed. */
(() => {
  const h = RAG.h;
  const fold = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");
  const same = (a, b) => fold(a) === fold(b);

  /** The preset question whose text this is (but for case and spaces), or null. */
  function presetFor(input, text) {
    if (!fold(text)) return null;
    return input.data.questions.find((q) => input.data.runs[q.id] && same(q.text, text)) || null;
  }

  /** The index the view searches, built once per list of passages and settings. */
  let built = { passages: null, k1: null, b: null, index: null };
  function indexOf(passages, k1, b) {
    if (built.passages !== passages || built.k1 !== k1 || built.b !== b) {
      built = { passages, k1, b, index: new RAG.engine.BM25(passages.map((p) => p.text), k1, b) };
    }
    return built.index;
  }

  function status(props) {
    const { found, shown, n, answer, ranks } = props;
    return [`${found} of ${n} passages share a term with the query; `,
      found ? `the best ${shown.length} below.` : "BM25 has nothing to rank.",
      answer ? [" The right passage, ", h("code", null, answer),
        `, is at BM25 rank ${ranks.bm25 || "none"} and dense rank ${ranks.dense || "none"}.`] : null];
  }

  function termList(terms) {
    return h("ul", { class: "terms" }, terms.length ? terms.map((t) => h("li", { class: t.df ? null : "is-zero" },
      h("code", null, t.term), " ", t.df ? `in ${t.df} \u00b7 IDF ${RAG.fixed(t.idf, 3)}` : "in no passage"))
      : h("li", { class: "is-zero" }, "no terms: BM25 needs letters or digits"));
  }

  function result(r, n, top) {
    return h("li", { class: ["result", r.isAnswer && "is-answer", n === 0 && "is-winner"], "data-pid": r.id },
      h("span", { class: "rank" }, String(n + 1)),
      h("span", { class: "pid" }, h("code", null, r.id), " ", h("span", { class: "title" }, `${r.title} \u203a ${r.section}`)),
      // The bar's length as a share of the top score: a meter's value reads back clamped to its
      // max, so with a max that changed Preact could take a stale value for the new one.
      h("meter", { class: "score-bar", min: 0, max: 1, value: Number(RAG.fixed(r.score / top, 3)), "aria-hidden": "true" }),
      h("span", { class: "score" }, RAG.fixed(r.score, 3)),
      r.isAnswer ? h("span", { class: "flag" }, "right passage") : null,
      h("ul", { class: "terms", "aria-label": "What each query term added" },
        r.shares.map((c) => h("li", null, h("code", null, c.term), ` +${RAG.fixed(c.score, 3)}`))),
      r.dense ? h("p", { class: "detail" }, r.dense.rank
        ? `dense search: rank ${r.dense.rank}, cosine ${RAG.fixed(r.dense.cosine, 3)}` : "dense search: not ranked") : null);
  }

  RAG.lab("bm25", {
    accept(next, input) {
      const text = typeof next.text === "string" ? next.text : "";
      const q = typeof next.q === "string" ? next.q : "";
      const question = q ? input.question(q) : null;
      // The reader typing, or text that is not the question's (a link that names text): the
      // text decides the question. (The picker clears the text itself: setup.)
      if (next.typed || (question && text && !same(text, question.text))) {
        const preset = presetFor(input, text);
        return { q: preset ? preset.id : "", text: preset && preset.text === text ? "" : text };
      }
      if (q === "") return { q: "", text };  // "your own words": the text stays, to edit
      if (!question) return null;
      return { q, text: text !== question.text ? text : "" };
    },

    props(state, input) {
      const { passages } = input.data;
      const index = indexOf(passages, input.data.settings.bm25.k1, input.data.settings.bm25.b);
      const question = state.q ? input.question(state.q) : null;
      const text = state.text || (question ? question.text : "");
      // Every passage that shares a term, best first; equal scores keep the corpus order.
      const found = index.scores(text).map((score, i) => ({ i, score })).filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i);
      const dense = question && question.runs ? question.runs.dense : null;
      const denseRank = (pid) => dense.findIndex(([id]) => id === pid) + 1;
      const answer = question ? question.answer : null;
      const shown = found.slice(0, input.own.depth).map(({ i, score }) => {
        const p = passages[i];
        const rank = dense ? denseRank(p.id) : 0;
        return { id: p.id, title: p.title, section: p.section, score, isAnswer: p.id === answer,
                 shares: index.explain(text, i).filter((c) => c.score > 0),
                 dense: dense ? { rank, cosine: rank ? dense[rank - 1][1] : null } : null };
      });
      return {
        n: passages.length, found: found.length, shown,
        terms: RAG.engine.uniqueTerms(text).map((term) => ({ term, df: index.docFreq(term), idf: index.idf(term) })),
        answer: answer && dense ? answer : null,
        ranks: answer && dense ? { bm25: found.findIndex((r) => passages[r.i].id === answer) + 1, dense: denseRank(answer) } : null,
      };
    },

    view(props) {
      const top = props.shown.length ? props.shown[0].score : 1;
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "query-terms" },
          h("p", { class: "query-terms-label" }, "Query terms, each with the number of passages that hold it and its IDF:"),
          termList(props.terms)),
        h("ol", { class: "results bm25-results" }, props.shown.map((r, n) => result(r, n, top))),
      ];
    },

    summary(props) {
      return status(props).flat(2).map((part) => (part === null ? "" : typeof part === "string" ? part : props.answer)).join("");
    },

    setup(ctx) {
      const box = ctx.find('input[name="bm25-text"]');
      const picker = ctx.find('select[data-picker="question"]');
      ctx.on(box, "input", () => ctx.set({ text: box.value, typed: true }, { announce: "later" }));
      // A question picked replaces the typed text; "your own words" keeps the text shown, to
      // edit. (The runtime's own handler then sets the same state again, which changes nothing.)
      ctx.on(picker, "change", () => {
        ctx.set(picker.value ? { q: picker.value, text: "" } : { q: "", text: box.value });
      });
      // The box shows the state's text (the typed text, or the question's) after every redraw:
      // a question picked, a link followed, the lab started from a link.
      const showText = () => {
        const question = ctx.state.q ? ctx.input.question(ctx.state.q) : null;
        const text = ctx.state.text || (question ? question.text : "");
        if (box.value !== text) box.value = text;
      };
      new MutationObserver(showText).observe(ctx.output, { childList: true, subtree: true, characterData: true });
      ctx.on(window, "hashchange", showText);
    },
  });
})();
