/* lab-hybrid.js: the hybrid explorer. Dense top 8, BM25 top 8 and the fused list (the build's
 * data.runs) side by side; pointing at or focusing a passage marks it in every list. Each list
 * is one tab stop; the arrow keys move inside it (a roving tabindex).
 * State: {q}: the question id. */
(function () {
  "use strict";

  RAG.registerLab("hybrid", function (lab, data) {
    var depth = Number(lab.dataset.depth);
    var questions = {};
    data.questions.forEach(function (q) {
      if (q.set === "golden" || q.set === "tracer") questions[q.id] = q;
    });
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });

    var select = lab.querySelector('select[name="hybrid-question"]');
    var status = lab.querySelector(".lab-status");
    var lists = {};
    Array.prototype.forEach.call(lab.querySelectorAll(".lab-col[data-list]"), function (col) {
      lists[col.dataset.list] = col.querySelector("ol.results");
    });

    var state = { q: select.value };
    var linked = null;

    function rankIn(ranked, pid) {
      for (var i = 0; i < ranked.length; i++) if (ranked[i][0] === pid) return i + 1;
      return null;
    }

    function item(pid, place, value, digits, first, answer, detail) {
      return RAG.el("li", { class: ["result", pid === answer ? "is-answer" : "", first ? "is-winner" : ""],
                             dataset: { pid: pid }, tabindex: first ? "0" : "-1" },
        RAG.el("span", { class: "rank" }, String(place)),
        RAG.el("span", { class: "pid" }, RAG.el("code", null, pid), " ",
          RAG.el("span", { class: "title" }, passages[pid].section)),
        RAG.el("span", { class: "score" }, RAG.fixed(value, digits)),
        pid === answer ? RAG.el("span", { class: "flag" }, "right passage") : null,
        detail ? RAG.el("p", { class: "detail" }, detail) : null);
    }

    function render() {
      select.value = state.q;
      var run = data.runs[state.q];
      var answer = questions[state.q].answer;
      var dense = run.dense.slice(0, depth);
      var bm25 = run.bm25.slice(0, depth);
      var denseIds = dense.map(function (pair) { return pair[0]; });
      var bm25Ids = bm25.map(function (pair) { return pair[0]; });
      function fused(pid) { return "fused rank " + rankIn(run.hybrid, pid); }
      RAG.replace(lists.dense, dense.map(function (pair, i) {
        return item(pair[0], i + 1, pair[1], 3, i === 0, answer, fused(pair[0]));
      }));
      RAG.replace(lists.bm25, bm25.length ? bm25.map(function (pair, i) {
        return item(pair[0], i + 1, pair[1], 3, i === 0, answer, fused(pair[0]));
      }) : RAG.el("li", { class: "result is-muted empty-list" }, RAG.el("span", { class: "rank" }),
        RAG.el("span", { class: "pid" }, "No passage shares a term with the question."), RAG.el("span", { class: "score" })));
      RAG.replace(lists.hybrid, run.hybrid.slice(0, depth).map(function (pair, i) {
        var parts = [];
        if (denseIds.indexOf(pair[0]) >= 0) parts.push("dense " + (denseIds.indexOf(pair[0]) + 1));
        if (bm25Ids.indexOf(pair[0]) >= 0) parts.push("BM25 " + (bm25Ids.indexOf(pair[0]) + 1));
        return item(pair[0], i + 1, pair[1], 5, i === 0, answer, "from " + parts.join(" + "));
      }));
      var text = "The right passage, " + answer + ": dense rank " + (rankIn(run.dense, answer) || "none") +
        ", BM25 rank " + (rankIn(run.bm25, answer) || "none") + ", fused rank " + (rankIn(run.hybrid, answer) || "none") + ".";
      RAG.replace(status, "The right passage, ", RAG.el("code", null, answer), text.slice(("The right passage, " + answer).length));
      linked = null;
      return text;
    }

    /* Mark one passage in all three lists. */
    function link(pid) {
      if (pid === linked) return;
      linked = pid;
      Array.prototype.forEach.call(lab.querySelectorAll("ol.results li[data-pid]"), function (li) {
        li.classList.toggle("is-linked", pid !== null && li.dataset.pid === pid);
      });
      Object.keys(lists).forEach(function (name) {
        lists[name].parentNode.classList.toggle("is-missing", pid !== null && !lists[name].querySelector('li[data-pid="' + CSS.escape(pid) + '"]'));
      });
    }

    function itemOf(target) {
      return target && target.closest ? target.closest("ol.results li[data-pid]") : null;
    }

    var output = lab.querySelector(".lab-output");
    output.addEventListener("mouseover", function (event) { var li = itemOf(event.target); if (li) link(li.dataset.pid); });
    output.addEventListener("mouseleave", function () { if (!output.contains(document.activeElement)) link(null); });
    output.addEventListener("focusin", function (event) { var li = itemOf(event.target); if (li) link(li.dataset.pid); });
    output.addEventListener("focusout", function (event) { if (!output.contains(event.relatedTarget)) link(null); });
    output.addEventListener("keydown", function (event) {
      var li = itemOf(event.target);
      if (!li) return;
      var items = Array.prototype.slice.call(li.parentNode.querySelectorAll("li[data-pid]"));
      var at = items.indexOf(li);
      var next = null;
      if (event.key === "ArrowDown" || event.key === "ArrowRight") next = items[Math.min(at + 1, items.length - 1)];
      else if (event.key === "ArrowUp" || event.key === "ArrowLeft") next = items[Math.max(at - 1, 0)];
      else if (event.key === "Home") next = items[0];
      else if (event.key === "End") next = items[items.length - 1];
      if (!next) return;
      event.preventDefault();
      items.forEach(function (other) { other.tabIndex = other === next ? 0 : -1; });
      next.focus();
    });

    select.addEventListener("change", function () {
      state.q = select.value;
      RAG.writeHashState("hybrid", state);
      RAG.announce(render());
    });

    function accept(next) { if (next.q && questions[next.q]) state.q = next.q; }
    lab.addEventListener("rag:hashstate", function (event) { accept(event.detail || {}); render(); });
    accept(RAG.readHashState("hybrid"));
    render();
  });
})();
