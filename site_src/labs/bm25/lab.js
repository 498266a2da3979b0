/* lab-bm25.js: the BM25 explorer. BM25 runs live in the browser (RAG.engine.BM25, the twin
 * of engine/bm25.py, tested equal) over every passage's text, on each keystroke. For preset
 * questions it also shows where dense search ranked each passage (from the build's runs).
 * State: {q, text}: a preset question id, or "" and the reader's own text. */
(function () {
  "use strict";

  RAG.registerLab("bm25", function (lab, data) {
    var engine = RAG.engine;
    var passages = data.passages;
    var index = new engine.BM25(passages.map(function (p) { return p.text; }),
      data.settings.bm25.k1, data.settings.bm25.b);
    var depth = Number(lab.dataset.depth);
    var questions = {};
    data.questions.forEach(function (q) {
      if (q.set === "golden" || q.set === "tracer") questions[q.id] = q;
    });

    var select = lab.querySelector('select[name="bm25-question"]');
    var input = lab.querySelector('input[name="bm25-text"]');
    var output = lab.querySelector(".lab-output");
    var status = output.querySelector(".lab-status");
    var termList = output.querySelector(".query-terms ul.terms");
    var list = output.querySelector("ol.bm25-results");

    var state = { q: select.value, text: input.value };

    function presetFor(text) {
      var wanted = text.trim().toLowerCase();
      var ids = Object.keys(questions);
      for (var i = 0; i < ids.length; i++) {
        if (questions[ids[i]].text.toLowerCase() === wanted) return ids[i];
      }
      return "";
    }

    /** BM25 over every passage: [{i, score}] best first, ties in corpus order, score > 0 only. */
    function search(text) {
      var scores = index.scores(text);
      var order = scores.map(function (s, i) { return { i: i, score: s }; });
      order.sort(function (a, b) { return (b.score - a.score) || (a.i - b.i); });
      return order.filter(function (r) { return r.score > 0; });
    }

    function denseDetail(q, pid) {
      var run = data.runs[q].dense;
      for (var i = 0; i < run.length; i++) {
        if (run[i][0] === pid) return "dense search: rank " + (i + 1) + ", cosine " + RAG.fixed(run[i][1], 3);
      }
      return "dense search: not ranked";
    }

    function rankIn(ranked, pid) {
      for (var i = 0; i < ranked.length; i++) if (ranked[i][0] === pid) return i + 1;
      return null;
    }

    function render() {
      select.value = state.q;
      if (input.value !== state.text) input.value = state.text;
      var preset = state.q ? questions[state.q] : null;
      var found = search(state.text);
      var shown = found.slice(0, depth);

      var terms = engine.uniqueTerms(state.text);
      RAG.replace(termList, terms.length ? terms.map(function (term) {
        var df = index.docFreq(term);
        return RAG.el("li", { class: df ? "" : "is-zero" }, RAG.el("code", null, term), " ",
          df ? "in " + df + " \u00b7 IDF " + RAG.fixed(index.idf(term), 3) : "in no passage");
      }) : RAG.el("li", { class: "is-zero" }, "no terms: BM25 needs letters or digits"));

      var summary = found.length + " of " + passages.length + " passages share a term with the query; " +
        (found.length ? "the best " + shown.length + " below." : "BM25 has nothing to rank.");
      if (preset && preset.answer) {
        var bm25Rank = null;
        found.forEach(function (r, n) { if (bm25Rank === null && passages[r.i].id === preset.answer) bm25Rank = n + 1; });
        summary += " The right passage, " + preset.answer + ", is at BM25 rank " + (bm25Rank || "none") +
          " and dense rank " + rankIn(data.runs[state.q].dense, preset.answer) + ".";
      }
      var code = preset && preset.answer ? preset.answer : null;
      RAG.replace(status, code ? [summary.slice(0, summary.indexOf(code)), RAG.el("code", null, code),
        summary.slice(summary.indexOf(code) + code.length)] : summary);

      var top = shown.length ? shown[0].score : 1;
      RAG.replace(list, shown.map(function (r, n) {
        var p = passages[r.i];
        var isAnswer = preset && p.id === preset.answer;
        var shares = index.explain(state.text, r.i).filter(function (c) { return c.score > 0; });
        return RAG.el("li", { class: ["result", isAnswer ? "is-answer" : "", n === 0 ? "is-winner" : ""],
                               dataset: { pid: p.id, score: String(r.score) } },
          RAG.el("span", { class: "rank" }, String(n + 1)),
          RAG.el("span", { class: "pid" }, RAG.el("code", null, p.id), " ",
            RAG.el("span", { class: "title" }, p.title + " \u203a " + p.section)),
          RAG.el("meter", { class: "score-bar", min: "0", max: String(top), value: String(r.score), "aria-hidden": "true" }),
          RAG.el("span", { class: "score" }, RAG.fixed(r.score, 3)),
          isAnswer ? RAG.el("span", { class: "flag" }, "right passage") : null,
          RAG.el("ul", { class: "terms", "aria-label": "What each query term added" }, shares.map(function (c) {
            return RAG.el("li", null, RAG.el("code", null, c.term), " +" + RAG.fixed(c.score, 3));
          })),
          preset ? RAG.el("p", { class: "detail" }, denseDetail(state.q, p.id)) : null);
      }));
      return summary;
    }

    var announceTimer = null;
    function change(announce) {
      RAG.writeHashState("bm25", state.q ? { q: state.q } : { text: state.text });
      var summary = render();
      if (announceTimer) window.clearTimeout(announceTimer);
      // While typing, say the result once the reader pauses, not on every key.
      announceTimer = window.setTimeout(function () { RAG.announce(summary); }, announce ? 0 : 700);
    }

    select.addEventListener("change", function () {
      state.q = select.value;
      if (state.q) state.text = questions[state.q].text;
      change(true);
    });
    input.addEventListener("input", function () {
      state.text = input.value;
      state.q = presetFor(state.text);
      change(false);
    });

    function accept(next) {
      if (next.q && questions[next.q]) {
        state.q = next.q;
        state.text = questions[next.q].text;
      } else if (typeof next.text === "string") {
        state.text = next.text;
        state.q = presetFor(next.text);
      }
    }
    lab.addEventListener("rag:hashstate", function (event) { accept(event.detail || {}); render(); });

    accept(RAG.readHashState("bm25"));
    render();
  });
})();
