/* lab-winners.js: who wins where. A table of the right passage's rank under dense search and
 * BM25 for every golden question (data.who_wins), sortable by any column and filterable to
 * paraphrases or to questions that share words with their passage.
 * State: {sort: id|dense|bm25|winner, dir: asc|desc, show: all|paraphrase|literal}. */
(function () {
  "use strict";

  var NOUNS = { all: "questions", paraphrase: "paraphrases", literal: "questions that share words with their passage" };
  var WINNER_NAMES = { dense: "dense", bm25: "BM25", tie: "tie" };
  var WINNER_ORDER = { dense: 0, bm25: 1, tie: 2 };
  var COLUMN_NAMES = { id: "question", dense: "dense rank", bm25: "BM25 rank", winner: "which ranks higher" };

  RAG.registerLab("winners", function (lab, data) {
    var rows = data.who_wins.rows;
    var counts = data.who_wins.counts;
    var table = lab.querySelector("table.winners-table");
    var tbody = table.querySelector("tbody");
    var status = lab.querySelector(".lab-status");
    var radios = Array.prototype.slice.call(lab.querySelectorAll('input[name="winners-show"]'));
    var headers = Array.prototype.slice.call(table.querySelectorAll("th[data-sort]"));

    var state = { sort: "id", dir: "asc", show: "all" };

    function accept(next) {
      if (next.sort && COLUMN_NAMES[next.sort]) state.sort = next.sort;
      if (next.dir === "asc" || next.dir === "desc") state.dir = next.dir;
      if (next.show && NOUNS[next.show]) state.show = next.show;
    }

    // Header buttons exist only with JS: without it the table is simply in golden-set order.
    headers.forEach(function (th) {
      var label = th.querySelector(".th-label");
      var button = RAG.el("button", { type: "button", class: "sort-button" }, label.textContent,
        RAG.el("span", { class: "sort-arrow", "aria-hidden": "true" }));
      th.replaceChild(button, label);
      button.addEventListener("click", function () {
        var column = th.dataset.sort;
        if (state.sort === column) state.dir = state.dir === "asc" ? "desc" : "asc";
        else { state.sort = column; state.dir = "asc"; }
        change();
      });
    });
    radios.forEach(function (radio) {
      radio.addEventListener("change", function () { if (radio.checked) { state.show = radio.value; change(); } });
    });

    function key(row) {
      if (state.sort === "dense") return row.dense === null ? Infinity : row.dense;
      if (state.sort === "bm25") return row.bm25 === null ? Infinity : row.bm25;
      if (state.sort === "winner") return WINNER_ORDER[row.winner];
      return 0; // "id": golden-set order, which the stable sort keeps
    }

    function visible() {
      var chosen = rows.filter(function (row) {
        return state.show === "all" || (state.show === "paraphrase") === row.paraphrase;
      });
      var sign = state.dir === "desc" ? -1 : 1;
      var order = chosen.map(function (row, i) { return { row: row, i: i }; });
      order.sort(function (a, b) { return sign * (key(a.row) - key(b.row)) || sign * (a.i - b.i); });
      return order.map(function (o) { return o.row; });
    }

    function rankCell(rank, wins) {
      return RAG.el("td", { class: ["num", wins ? "is-winner" : ""] }, rank === null ? "not found" : String(rank));
    }

    function render() {
      radios.forEach(function (r) { r.checked = r.value === state.show; });
      headers.forEach(function (th) {
        var active = th.dataset.sort === state.sort;
        if (active) th.setAttribute("aria-sort", state.dir === "asc" ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
        th.querySelector(".sort-arrow").textContent = active ? (state.dir === "asc" ? " \u25b2" : " \u25bc") : "";
      });
      RAG.replace(tbody, visible().map(function (row) {
        return RAG.el("tr", { class: "winner-" + row.winner, dataset: { qid: row.id } },
          RAG.el("th", { scope: "row" }, RAG.el("span", { class: "qid" }, row.id), " " + row.text,
            row.paraphrase ? [" ", RAG.el("span", { class: "badge badge-paraphrase" }, "paraphrase")] : null),
          rankCell(row.dense, row.winner === "dense"),
          rankCell(row.bm25, row.winner === "bm25"),
          RAG.el("td", null, WINNER_NAMES[row.winner]));
      }));
      var c = counts[state.show];
      status.textContent = c.total + " " + NOUNS[state.show] + ": dense search ranks the right passage higher on " +
        c.dense + ", BM25 on " + c.bm25 + ", and both give it the same rank on " + c.tie + " (" + c.both_first +
        " of them at rank 1).";
      return status.textContent + " Sorted by " + COLUMN_NAMES[state.sort] + ", " +
        (state.dir === "asc" ? "ascending" : "descending") + ".";
    }

    function change() {
      RAG.writeHashState("winners", state);
      RAG.announce(render());
    }

    lab.addEventListener("rag:hashstate", function (event) { accept(event.detail || {}); render(); });
    accept(RAG.readHashState("winners"));
    render();
  });
})();
