/* lab-recall.js: recall@k by retriever for the k the reader picks.
 *
 * Replays data.recall (hits, questions), data.measure.wilson (95% intervals) and
 * data.measure.misses (which golden questions each retriever misses), drawing the same
 * table, chart and lists the build rendered for the default k.
 */
(function () {
  "use strict";

  var NAMES = { bm25: "BM25", dense: "Dense", hybrid: "Hybrid (RRF)" };
  var ORDER = ["bm25", "dense", "hybrid"];
  var CHART = { left: 76, width: 240, row: 34, top: 26 };
  var SHORT = { bm25: "BM25", dense: "Dense", hybrid: "Hybrid" };

  RAG.registerLab("recall", function (lab, data) {
    var el = RAG.el;
    var m = data.measure;
    var ks = data.settings.recall_ks.map(String);
    var questions = {};
    data.questions.forEach(function (q) { questions[q.id] = q; });
    var state = { k: String(lab.dataset.k) };

    function pct(hits) { return RAG.fixed(100 * hits[0] / hits[1], 1) + "%"; }
    function whole(x) { return RAG.fixed(100 * x, 0); }

    var status = lab.querySelector(".lab-status");
    var inputs = lab.querySelectorAll('input[name="recall-k"]');
    var desc = lab.querySelector("#recall-chart-desc");
    var title = lab.querySelector("#recall-chart-title");
    var rowsGroup = lab.querySelector(".recall-rows");
    var missBox = lab.querySelector(".recall-misses");

    function chartRows(k) {
      var parts = [];
      ORDER.forEach(function (name, i) {
        var hits = data.recall[name][k];
        var interval = m.wilson[name][k];
        var y = CHART.top + i * CHART.row;
        parts.push(RAG.svg("text", { class: "label", x: CHART.left - 10, y: y + 17, "text-anchor": "end" }, SHORT[name]));
        parts.push(RAG.svg("rect", { class: name === "hybrid" ? "bar bar-hit" : "bar", x: CHART.left, y: y + 4,
          width: RAG.fixed(CHART.width * hits[0] / hits[1], 1), height: 18, rx: 3 }));
        var lo = RAG.fixed(CHART.left + CHART.width * interval[0], 1);
        var hi = RAG.fixed(CHART.left + CHART.width * interval[1], 1);
        parts.push(RAG.svg("line", { class: "interval", x1: lo, y1: y + 13, x2: hi, y2: y + 13 }));
        parts.push(RAG.svg("line", { class: "interval-cap", x1: lo, y1: y + 8, x2: lo, y2: y + 18 }));
        parts.push(RAG.svg("line", { class: "interval-cap", x1: hi, y1: y + 8, x2: hi, y2: y + 18 }));
        parts.push(RAG.svg("text", { class: "value", x: RAG.fixed(CHART.left + CHART.width + 8, 1), y: y + 17 }, pct(hits)));
      });
      return parts;
    }

    function missColumn(name, k) {
      var missed = m.misses[name][k];
      var body;
      if (missed.length) {
        body = el("ul", { class: "miss-list" }, missed.map(function (qid) {
          var rank = data.ranks[qid][name];
          return el("li", null,
            el("span", { class: "miss-q" }, questions[qid].text), " ",
            el("span", { class: "miss-rank" }, rank ? "rank " + rank : "not retrieved"),
            questions[qid].paraphrase ? [" ", el("span", { class: "badge badge-warn" }, "paraphrase")] : null);
        }));
      } else {
        body = el("p", { class: "miss-none" }, "None: every right passage is in the top " + k + ".");
      }
      return el("div", { class: "lab-col", dataset: { retriever: name } },
        el("h5", { class: "lab-col-title" }, NAMES[name] + " \u00b7 " + missed.length + " missed"), body);
    }

    function render() {
      var k = state.k;
      Array.prototype.forEach.call(inputs, function (input) { input.checked = input.value === k; });
      status.textContent = "Recall@" + k + " on " + data.recall.hybrid[k][1] + " golden questions.";
      Array.prototype.forEach.call(lab.querySelectorAll(".recall-k"), function (span) { span.textContent = k; });
      ORDER.forEach(function (name) {
        var row = lab.querySelector('.recall-table tr[data-retriever="' + name + '"]');
        var hits = data.recall[name][k];
        var interval = m.wilson[name][k];
        row.querySelector(".recall-found").textContent = hits[0] + " / " + hits[1];
        row.querySelector(".recall-pct").textContent = pct(hits);
        row.querySelector(".recall-interval").textContent = whole(interval[0]) + "\u2013" + whole(interval[1]) + "%";
      });
      title.textContent = "Recall@" + k + " by retriever, with 95% intervals";
      desc.textContent = ORDER.map(function (name) {
        var hits = data.recall[name][k];
        var interval = m.wilson[name][k];
        return NAMES[name] + ": " + hits[0] + " of " + hits[1] + " (" + pct(hits) + ", interval " +
          whole(interval[0]) + " to " + whole(interval[1]) + "%)";
      }).join("; ");
      RAG.replace(rowsGroup, chartRows(k));
      RAG.replace(missBox, ORDER.map(function (name) { return missColumn(name, k); }));
    }

    Array.prototype.forEach.call(inputs, function (input) {
      input.addEventListener("change", function () {
        state.k = input.value;
        RAG.writeHashState("recall", state);
        render();
      });
    });
    lab.addEventListener("rag:hashstate", function (event) {
      if (ks.indexOf(event.detail.k) >= 0) state.k = event.detail.k;
      render();
    });

    var saved = RAG.readHashState("recall");
    if (ks.indexOf(saved.k) >= 0) state.k = saved.k;
    render();
  });
})();
