/* lab-rerank.js: rerank, then cut off. The fused list's top candidates (data.runs[q].hybrid)
 * re-sorted by the rerank scores of data.rerank (a cross-encoder's, or hand-written and
 * labelled illustrative) and cut at the reader's threshold.
 * State: {q, t}: the question id and the threshold. */
(function () {
  "use strict";

  RAG.registerLab("rerank", function (lab, data) {
    var rerank = data.rerank;
    var view = data.retrieval_view.rerank;
    var illustrative = rerank.source === "illustrative";
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });
    var questions = {};
    data.questions.forEach(function (q) { questions[q.id] = q; });

    var select = lab.querySelector('select[name="rerank-question"]');
    var range = lab.querySelector('input[name="rerank-threshold"]');
    var shown = lab.querySelector('output[name="rerank-threshold-value"]');
    var status = lab.querySelector(".lab-status");
    var listIn = lab.querySelector("ol.rerank-in");
    var listOut = lab.querySelector("ol.rerank-out");

    var state = { q: select.value, t: Number(range.value) };

    function accept(next) {
      if (next.q && rerank.by_question[next.q]) state.q = next.q;
      var t = Number(next.t);
      if (next.t !== undefined && next.t !== "" && isFinite(t)) state.t = Math.min(view.max, Math.max(view.min, t));
    }

    function title(pid) { return RAG.el("span", { class: "title" }, passages[pid].section); }

    function render() {
      select.value = state.q;
      range.value = String(state.t);
      shown.textContent = RAG.fixed(state.t, 2);
      var answer = questions[state.q].answer;
      var candidates = data.runs[state.q].hybrid.slice(0, rerank.depth);
      var fusedIds = candidates.map(function (pair) { return pair[0]; });
      var scored = rerank.by_question[state.q].filter(function (pair) { return fusedIds.indexOf(pair[0]) >= 0; });
      var scoredIds = scored.map(function (pair) { return pair[0]; });

      RAG.replace(listIn, candidates.map(function (pair, i) {
        var isAnswer = pair[0] === answer;
        return RAG.el("li", { class: ["result", isAnswer ? "is-answer" : ""], dataset: { pid: pair[0] } },
          RAG.el("span", { class: "rank" }, String(i + 1)),
          RAG.el("span", { class: "pid" }, RAG.el("code", null, pair[0]), " ", title(pair[0])),
          RAG.el("span", { class: "score" }, RAG.fixed(pair[1], 5)),
          isAnswer ? RAG.el("span", { class: "flag" }, "right passage") : null);
      }));

      var kept = 0;
      var answerAt = null;
      var items = scored.map(function (pair, i) {
        var keep = pair[1] >= state.t;
        var isAnswer = pair[0] === answer;
        if (keep) {
          kept += 1;
          if (isAnswer) answerAt = i + 1;
        }
        return RAG.el("li", { class: ["result", isAnswer ? "is-answer" : "", keep && i === 0 ? "is-winner" : "",
                                      keep ? "" : "is-removed", keep ? "" : "is-cut"],
                               dataset: { pid: pair[0], score: String(pair[1]) } },
          RAG.el("span", { class: "rank" }, String(i + 1)),
          RAG.el("span", { class: "pid" }, RAG.el("code", null, pair[0]), " ", title(pair[0])),
          RAG.el("meter", { class: "score-bar", min: String(view.min), max: String(view.max), value: String(pair[1]),
                            "aria-hidden": "true" }),
          RAG.el("span", { class: "score" }, RAG.fixed(pair[1], view.digits)),
          RAG.el("span", { class: "flag" }, !keep ? "cut" : isAnswer ? "right passage" : "kept"),
          RAG.el("p", { class: "detail" }, "fused rank " + (fusedIds.indexOf(pair[0]) + 1)));
      });
      fusedIds.filter(function (pid) { return scoredIds.indexOf(pid) < 0; }).forEach(function (pid) {
        items.push(RAG.el("li", { class: ["result", "is-unscored", pid === answer ? "is-answer" : ""],
                                   dataset: { pid: pid } },
          RAG.el("span", { class: "rank" }, "\u2013"),
          RAG.el("span", { class: "pid" }, RAG.el("code", null, pid), " ", title(pid)),
          RAG.el("span", { class: "score" }, "\u2013"),
          RAG.el("span", { class: "flag" }, "no score written"),
          RAG.el("p", { class: "detail" }, "fused rank " + (fusedIds.indexOf(pid) + 1))));
      });
      RAG.replace(listOut, items);

      var fusedRank = fusedIds.indexOf(answer) + 1;
      var fate = answerAt && answerAt === fusedRank ? "stays at rank " + answerAt + "."
        : answerAt ? "moves from fused rank " + fusedRank + " to rank " + answerAt + "."
        : scoredIds.indexOf(answer) >= 0 ? "is cut."
        : fusedRank ? "has no score." : "is not among the candidates.";
      var head = "Kept " + kept + " of " + candidates.length + " candidates at threshold " + RAG.fixed(state.t, 2) +
        ". The right passage, ";
      RAG.replace(status, head, RAG.el("code", null, answer), ", " + fate);
      return head + answer + ", " + fate;
    }

    function change() {
      RAG.writeHashState("rerank", { q: state.q, t: RAG.fixed(state.t, 2) });
      RAG.announce(render());
    }

    select.addEventListener("change", function () { state.q = select.value; change(); });
    range.addEventListener("input", function () { state.t = Number(range.value); change(); });

    lab.addEventListener("rag:hashstate", function (event) { accept(event.detail || {}); render(); });
    accept(RAG.readHashState("rerank"));
    render();
  });
})();
