/* The BM25 view: BM25 over every passage of a corpus, run by the engine's JavaScript twin
 * (RAG.engine.BM25, tested equal to engine/bm25.py), for a question of the corpus or any text the
 * reader types, at the k1 and b of two sliders (the corpus's settings to start with). Each result
 * shows what every query term added, and, for a question with a dense ranking, where dense search
 * ranked it; two curves show the formula's term-frequency part for the settings shown, against a
 * term's count and against a passage's length, with the top passages marked on them. Ranks that
 * tie (scores equal to 6 decimals) are written "2=" (RAG.kit).
 *
 * Input: {corpus (RAG.corpus), sliders ({k1, b}: {min, max, step, digits}), depth (results
 * listed), countAxis (the count curve's last count), prefix (its element ids and its controls'
 * names: `${prefix}-text`, `${prefix}-reset`, `${prefix}-count-title`…)}.
 * Reads of the corpus: passages (id, text, title, section), indexAt(k1, b), questions.presets(),
 * question(id) and its runs.dense, rightPassages, settings.bm25.
 * State: {q, text, k1, b}: a question id and "" (its own text), or "" and the reader's text; the
 * settings. Text that is a question's, letter for letter but for case and spaces, is that
 * question; text typed in other case or spacing is kept as typed. A setting from a link is moved
 * to the slider's nearest stop (clamped to its ends); one that is not a number is the corpus's. */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const fold = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");
  const same = (a, b) => fold(a) === fold(b);

  /** The preset question whose text this is (but for case and spaces), or null. */
  function presetFor(corpus, text) {
    if (!fold(text)) return null;
    return corpus.questions.presets().find((q) => same(q.text, text)) || null;
  }

  const K1 = "k\u2081";
  const setting = (value, slider) => RAG.fixed(value, slider.digits);

  function status(props) {
    const { found, shown, n, rights, ranks, settings } = props;
    const at = (pid) => ` at BM25 rank ${ranks[pid].bm25 || "none"} and dense rank ${ranks[pid].dense || "none"}`;
    return [`${found} of ${n} passages share a term with the query; `,
      found ? `the best ${shown.length} below.` : "BM25 has nothing to rank.",
      rights.length === 1 ? [" The right passage, ", h("code", null, rights[0]), `, is${at(rights[0])}.`] : null,
      rights.length > 1 ? [" The right passages: ", rights.map((pid, i) => [i ? "; " : "", h("code", null, pid), at(pid)]), "."] : null,
      settings.isBuild ? null : ` Scored with ${K1} = ${settings.k1Text} and b = ${settings.bText}; the build\u2019s settings are ` +
        `${settings.buildK1} and ${settings.buildB}.`];
  }

  function termList(terms) {
    return h("ul", { class: "terms" }, terms.length ? terms.map((t) => h("li", { class: t.df ? null : "is-zero" },
      h("code", null, t.term), " ", t.df ? `in ${t.df} \u00b7 IDF ${RAG.fixed(t.idf, 3)}` : "in no passage"))
      : h("li", { class: "is-zero" }, "no terms: BM25 needs letters or digits"));
  }

  function result(r, n, top) {
    // data-score: the score to 12 significant digits, for tests to compare with Python's. Not
    // all 17: Math.log's last bit differs between JavaScript engines (Node 20's and Chromium
    // 156's disagree at k1 2.4, b 0.05), and the build's markup must be the browser's.
    return kit.row({
      id: r.id, place: r.place, title: `${r.title} \u203a ${r.section}`,
      // The bar's length as a share of the top score: a meter's value reads back clamped to its
      // max, so with a max that changed Preact could take a stale value for the new one.
      bar: { max: 1, value: Number(RAG.fixed(r.score / top, 3)) },
      score: RAG.fixed(r.score, 3),
      more: [r.isAnswer ? h("span", { class: "flag" }, "right passage") : null,
        h("ul", { class: "terms", "aria-label": "What each query term added" },
          r.shares.map((c) => h("li", null, h("code", null, c.term), ` +${RAG.fixed(c.score, 3)}`))),
        r.dense ? h("p", { class: "detail" }, r.dense.rank
          ? `dense search: rank ${r.dense.rank}, cosine ${RAG.fixed(r.dense.cosine, 3)}` : "dense search: not ranked") : null],
      classes: [r.isAnswer && "is-answer", n === 0 && "is-winner"],
      attrs: { "data-pid": r.id, "data-score": String(Number(r.score.toPrecision(12))) },
    });
  }

  /* ------------------------------------------------------------------ the two curves */

  // Each curve's drawing: a viewBox of 300 x 188, the plot inside these edges.
  const PLOT = { width: 300, height: 188, left: 34, right: 290, top: 18, bottom: 152 };
  // A coordinate to a tenth of a unit (plain rounding: only the view writes these numbers).
  const px = (v) => String(Math.round(v * 10) / 10);

  /** Round numbers from 0 to `max` for an axis, about `count` of them: steps of 1, 2 or 5 times a power of ten. */
  function ticks(max, count) {
    const rough = max / count;
    const power = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
    return Array.from({ length: Math.floor(max / step + 1e-9) + 1 }, (_, i) => Number((i * step).toFixed(6)));
  }

  function scales(xMax, yMax) {
    return { x: (v) => PLOT.left + (v / xMax) * (PLOT.right - PLOT.left), y: (v) => PLOT.bottom - (v / yMax) * (PLOT.bottom - PLOT.top) };
  }

  const line = (points, at) => points.map(([a, b], i) => `${i ? "L" : "M"}${px(at.x(a))} ${px(at.y(b))}`).join(" ");

  /** Grid, axes, tick labels and axis names of one curve. */
  function axes(at, xTicks, yTicks, xName) {
    return [
      yTicks.filter((v) => v > 0).map((v) => h("line", { class: "grid", x1: px(PLOT.left), x2: px(PLOT.right), y1: px(at.y(v)), y2: px(at.y(v)) })),
      yTicks.map((v) => h("text", { class: "value", x: px(PLOT.left - 6), y: px(at.y(v) + 4), "text-anchor": "end" }, String(v))),
      xTicks.map((v) => h("text", { class: "value", x: px(at.x(v)), y: px(PLOT.bottom + 16), "text-anchor": "middle" }, String(v))),
      h("path", { class: "axis", d: `M${px(PLOT.left)} ${px(PLOT.top - 8)}V${px(PLOT.bottom)}H${px(PLOT.right)}` }),
      h("text", { class: "label-muted", x: "0", y: "9" }, "share \u00f7 IDF"),
      h("text", { class: "label-muted", x: px((PLOT.left + PLOT.right) / 2), y: px(PLOT.height - 4), "text-anchor": "middle" }, xName),
    ];
  }

  function dot(x, y, top, title) {
    return h("circle", { class: top ? "bar-win" : "bar", cx: px(x), cy: px(y), r: top ? "5.5" : "3.5" }, h("title", null, title));
  }

  function countCurve(c, prefix) {
    const at = scales(c.countMax, c.yMax);
    const ceiling = c.k1 + 1;
    return h("svg", { class: "bm25-curve", viewBox: `0 0 ${PLOT.width} ${PLOT.height}`, role: "img",
      "aria-labelledby": `${prefix}-count-title`, "aria-describedby": `${prefix}-count-note` },
    h("title", { id: `${prefix}-count-title` }, `A term\u2019s share against its count, ${K1} = ${c.k1Text}`),
    axes(at, ticks(c.countMax, 5), ticks(c.yMax, 4), "times the term occurs in the passage"),
    h("line", { class: "edge edge-dashed", x1: px(PLOT.left), x2: px(PLOT.right), y1: px(at.y(ceiling)), y2: px(at.y(ceiling)) }),
    h("text", { class: "label-muted", x: px(PLOT.right), y: px(at.y(ceiling) - 5), "text-anchor": "end" },
      `${K1} + 1 = ${RAG.fixed(ceiling, c.k1Digits)}`),
    h("path", { class: "edge-accent", d: line(c.countPoints, at) }),
    c.counts.map((group) => dot(at.x(group.tf), at.y(group.weight), false, `${group.terms.join(", ")}: ${RAG.plural(group.tf, "time")}`)));
  }

  function lengthCurve(c, prefix) {
    const at = scales(c.lengthMax, c.yMax);
    return h("svg", { class: "bm25-curve", viewBox: `0 0 ${PLOT.width} ${PLOT.height}`, role: "img",
      "aria-labelledby": `${prefix}-length-title`, "aria-describedby": `${prefix}-length-note` },
    h("title", { id: `${prefix}-length-title` }, `One occurrence\u2019s share against the passage\u2019s length, b = ${c.bText}`),
    axes(at, ticks(c.lengthMax, 6), ticks(c.yMax, 4), "terms in the passage"),
    h("line", { class: "edge edge-dashed", x1: px(at.x(c.avgLen)), x2: px(at.x(c.avgLen)), y1: px(PLOT.top), y2: px(PLOT.bottom) }),
    // The average's name beside its line, on the side with room for it.
    at.x(c.avgLen) < PLOT.right - 80
      ? h("text", { class: "label-muted", x: px(at.x(c.avgLen) + 4), y: px(PLOT.top + 4) }, `average ${RAG.fixed(c.avgLen, 1)}`)
      : h("text", { class: "label-muted", x: px(at.x(c.avgLen) - 4), y: px(PLOT.top + 4), "text-anchor": "end" }, `average ${RAG.fixed(c.avgLen, 1)}`),
    h("path", { class: "edge-accent", d: line(c.lengthPoints, at) }),
    // The top passage last, drawn over the others.
    c.placed.slice().reverse().map((p) => dot(at.x(p.length), at.y(p.weight), p.rank === 1,
      `rank ${p.rank}, ${p.id}: ${p.length} terms`)));
  }

  function curves(c, prefix) {
    const w = (value) => RAG.fixed(value, 3);
    const top = c.placed.length ? c.placed[0].id : null;
    return h("figure", { class: "figure bm25-curves" },
      h("div", { class: "bm25-curve-pair" },
        h("div", { class: "bm25-curve-box" },
          h("p", { class: "bm25-curve-title" }, "Against the count"),
          countCurve(c, prefix),
          h("p", { class: "bm25-curve-note", id: `${prefix}-count-note` },
            `In a passage of average length (${RAG.fixed(c.avgLen, 1)} terms), a term found once adds ${w(c.once)} ` +
            `\u00d7 its IDF, twice ${w(c.twice)}, ${c.countMax} times ${w(c.most)}: never more than ${K1} + 1. `,
            top ? ["Dots: how often the query\u2019s terms occur in the top passage, ", h("code", null, top), ": ",
              c.counts.map((g) => g.terms.map((term) => `${term} \u00d7${g.tf}`)).flat().join(", "), "."]
              : "No passage shares a term with the query, so no dots.")),
        h("div", { class: "bm25-curve-box" },
          h("p", { class: "bm25-curve-title" }, "Against the length"),
          lengthCurve(c, prefix),
          h("p", { class: "bm25-curve-note", id: `${prefix}-length-note` },
            `One occurrence adds ${w(c.shortest.weight)} \u00d7 its IDF in the shortest passage (${c.shortest.length} terms), ` +
            `${w(c.once)} at the average length (dashed) and ${w(c.longest.weight)} in the longest (${c.longest.length} terms). `,
            top ? `Dots: the ${RAG.plural(c.placed.length, "passage")} listed below, the top one larger.`
              : "No passage shares a term with the query, so no dots."))),
      h("figcaption", null, `What a term adds to a passage\u2019s score, divided by its IDF (the formula\u2019s term-frequency part), ` +
        `at ${K1} = ${c.k1Text} and b = ${c.bText}` + (c.isBuild ? ", the build\u2019s settings." : `; the build\u2019s are ${c.buildK1} and ${c.buildB}.`)));
  }

  /** What the curves draw: the formula's term-frequency part from the twin (index.tfPart), at
   *  the corpus's real average length, with the top passages' real counts and lengths. */
  function curveProps(index, text, found, shown, input, settings) {
    const counts = new Map();
    if (found.length) {
      for (const c of index.explain(text, found[0].i)) {
        if (c.tf) counts.set(c.tf, [...(counts.get(c.tf) || []), c.term]);
      }
    }
    const countMax = Math.max(input.countAxis, ...counts.keys());
    const longest = Math.max(...index.lengths);
    const shortest = Math.min(...index.lengths);
    const lengthMax = Math.ceil(longest / 10) * 10;
    const avgLen = index.avgLen;
    // A term never found adds nothing (the engine's explain, too, leaves tfPart out when tf = 0;
    // with k1 = 0 it would be 0 / 0).
    const tf = (count, length) => (count ? index.tfPart(count, length) : 0);
    return {
      ...settings, avgLen, countMax, lengthMax, yMax: input.sliders.k1.max + 1, k1Digits: input.sliders.k1.digits,
      countPoints: Array.from({ length: countMax * 4 + 1 }, (_, i) => [i / 4, tf(i / 4, avgLen)]),
      lengthPoints: Array.from({ length: lengthMax }, (_, i) => [i + 1, tf(1, i + 1)]),
      counts: [...counts].sort((a, b) => a[0] - b[0]).map(([count, terms]) => ({ tf: count, terms, weight: tf(count, avgLen) })),
      placed: shown.map((r, n) => ({ rank: n + 1, id: r.id, length: index.lengths[r.i], weight: tf(1, index.lengths[r.i]) })),
      once: tf(1, avgLen), twice: tf(2, avgLen), most: tf(countMax, avgLen),
      shortest: { length: shortest, weight: tf(1, shortest) }, longest: { length: longest, weight: tf(1, longest) },
    };
  }

  RAG.view("bm25", {
    accept(next, input) {
      const { sliders, corpus } = input;
      const build = corpus.settings.bm25;
      const k1 = RAG.kit.onSlider(next.k1, sliders.k1, build.k1);
      const b = RAG.kit.onSlider(next.b, sliders.b, build.b);
      const text = typeof next.text === "string" ? next.text : "";
      const q = typeof next.q === "string" ? next.q : "";
      const question = q ? corpus.question(q) : null;
      // The reader typing, or text that is not the question's (a link that names text): the
      // text decides the question. (The picker clears the text itself: setup.)
      if (next.typed || (question && text && !same(text, question.text))) {
        const preset = presetFor(corpus, text);
        return { q: preset ? preset.id : "", text: preset && preset.text === text ? "" : text, k1, b };
      }
      if (q === "") return { q: "", text, k1, b };  // "your own words": the text stays, to edit
      if (!question) return null;
      return { q, text: text !== question.text ? text : "", k1, b };
    },

    props(state, input) {
      const { corpus, sliders } = input;
      const { passages } = corpus;
      const build = corpus.settings.bm25;
      const index = corpus.indexAt(state.k1, state.b);
      const question = state.q ? corpus.question(state.q) : null;
      const text = state.text || (question ? question.text : "");
      // Every passage that shares a term, best first; equal scores keep the corpus order.
      const scores = index.scores(text);
      const found = RAG.engine.bestFirst(scores).filter((i) => scores[i] > 0).map((i) => ({ i, score: scores[i] }));
      const places = kit.placesOf(found.map(({ i, score }) => [passages[i].id, score]));
      const dense = question && question.runs ? question.runs.dense : null;
      const rights = dense ? corpus.rightPassages(question) : [];
      const shown = found.slice(0, input.depth).map(({ i, score }) => {
        const p = passages[i];
        const rank = dense ? kit.rankOf(dense, p.id) : null;
        return { i, id: p.id, title: p.title, section: p.section, score, isAnswer: rights.includes(p.id), place: places.get(p.id),
                 shares: index.explain(text, i).filter((c) => c.score > 0),
                 dense: dense ? { rank, cosine: rank ? dense[rank - 1][1] : null } : null };
      });
      const settings = { isBuild: state.k1 === build.k1 && state.b === build.b,
                         k1Text: setting(state.k1, sliders.k1), bText: setting(state.b, sliders.b),
                         buildK1: setting(build.k1, sliders.k1), buildB: setting(build.b, sliders.b) };
      const foundIds = found.map(({ i }) => passages[i].id);
      return {
        prefix: input.prefix, n: passages.length, found: found.length, shown, settings, rights,
        terms: RAG.engine.uniqueTerms(text).map((term) => ({ term, df: index.docFreq(term), idf: index.idf(term) })),
        // A right passage's place in each list as the lists write it: "2", or "2=" in a tie.
        ranks: Object.fromEntries(rights.map((pid) => {
          const here = places.get(pid);
          const there = dense ? kit.placeOf(dense, pid) : null;
          return [pid, { bm25: here ? here.label : null, dense: there ? there.label : null }];
        })),
        curves: curveProps(index, text, found, shown, input, { ...settings, k1: state.k1 }),
      };
    },

    view(props) {
      const top = props.shown.length ? props.shown[0].score : 1;
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "query-terms" },
          h("p", { class: "query-terms-label" }, "Query terms, each with the number of passages that hold it and its IDF:"),
          termList(props.terms)),
        curves(props.curves, props.prefix),
        h("ol", { class: "results bm25-results" }, props.shown.map((r, n) => result(r, n, top))),
      ];
    },

    summary: (props) => kit.spoken(status(props)),

    setup(ctx) {
      const { prefix, corpus } = ctx.input;
      const box = ctx.find(`input[name="${prefix}-text"]`);
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
        const question = ctx.state.q ? corpus.question(ctx.state.q) : null;
        const text = ctx.state.text || (question ? question.text : "");
        if (box.value !== text) box.value = text;
      };
      new MutationObserver(showText).observe(ctx.output, { childList: true, subtree: true, characterData: true });
      ctx.on(window, "hashchange", showText);
      // Back to the corpus's settings (for the help center, engine/settings.py's, as the build's data carries them).
      ctx.on(ctx.find(`button[name="${prefix}-reset"]`), "click", () => ctx.set({ ...corpus.settings.bm25 }));
    },
  });
})();
