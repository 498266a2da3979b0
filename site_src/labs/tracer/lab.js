/* lab-tracer.js: one tracer question through every stage.
 *
 * State: {q, stage}: a tracer id of data.tracers and "all" or one stage key. Everything shown
 * is read from the data: data.runs[q] (dense, BM25, fused, with scores), data.rerank (the
 * illustrative rerank unless a real model was named), data.answer.tracer_checks[q].sent (the
 * passages the prompt carries), data.prompt_tokens, and data.tracers[i] (the illustrative
 * answer, its claims and the real results of check_citations and the output guardrail).
 */
(function () {
  "use strict";

  var STAGES = [["dense", "Dense"], ["bm25", "BM25"], ["fused", "Fused"], ["rerank", "Rerank"],
                ["prompt", "Prompt"], ["answer", "Answer"], ["check", "Check"]];
  var KEYS = STAGES.map(function (s) { return s[0]; });

  RAG.registerLab("tracer", function (lab, data) {
    var el = RAG.el;
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });
    var tracers = {};
    data.tracers.forEach(function (t) { tracers[t.id] = t; });
    var depth = data.answer.trace_depth;
    var illustrative = data.rerank.source === "illustrative";

    var select = lab.querySelector('select[name="tracer-q"]');
    var stageInputs = lab.querySelectorAll('input[name="tracer-stage"]');
    var prevButton = lab.querySelector('button[data-step="-1"]');
    var nextButton = lab.querySelector('button[data-step="1"]');
    var status = lab.querySelector(".lab-status");
    var board = lab.querySelector(".trace-stages");
    var panels = {};
    Array.prototype.forEach.call(lab.querySelectorAll(".trace-stage"), function (panel) { panels[panel.dataset.stage] = panel; });
    var readout = lab.querySelector(".trace-readout");

    var state = { q: data.tracers[0].id, stage: "all" };

    function apply(values) {
      if (values.q && tracers[values.q]) state.q = values.q;
      if (values.stage && (values.stage === "all" || KEYS.indexOf(values.stage) >= 0)) state.stage = values.stage;
    }

    function rerankOf(q) {
      return data.rerank.by_question[q] || tracers[q].rerank;
    }

    function badges(pid, answer, dated) {
      var p = passages[pid];
      var staff = p.acl.indexOf("staff") >= 0;
      if (!(dated || pid === answer || p.superseded || p.kind === "forum" || staff)) return null;
      return el("span", { class: "badges" },
        dated ? el("span", { class: "badge" }, p.updated) : null,
        pid === answer ? el("span", { class: "badge badge-ok" }, "right passage") : null,
        p.superseded ? el("span", { class: "badge badge-superseded" }, "outdated") : null,
        p.kind === "forum" ? el("span", { class: "badge badge-forum" }, "forum post") : null,
        staff ? el("span", { class: "badge badge-staff" }, "staff only") : null);
    }

    function row(rank, pid, value, top, digits, answer, later) {
      return el("li", { class: ["result", pid === answer ? "is-answer" : "", later ? "is-later" : ""] },
        el("span", { class: "rank" }, String(rank)),
        el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, passages[pid].section)),
        el("meter", { class: "score-bar", min: "0", max: String(top), value: String(value), "aria-hidden": "true" }),
        el("span", { class: "score" }, RAG.fixed(value, digits)),
        badges(pid, answer));
    }

    function ranked(list, digits, top, answer, missing) {
      var rows = list.slice(0, depth).map(function (pair, i) { return row(i + 1, pair[0], pair[1], top, digits, answer); });
      var at = -1;
      for (var i = 0; i < list.length; i++) if (list[i][0] === answer) { at = i; break; }
      if (at >= depth) rows.push(row(at + 1, answer, list[at][1], top, digits, answer, true));
      else if (at < 0) {
        rows.push(el("li", { class: "result is-answer is-later is-missing" },
          el("span", { class: "rank" }, "\u2013"),
          el("span", { class: "pid" }, el("code", null, answer), " ", el("span", { class: "title" }, passages[answer].section)),
          el("span", { class: "score" }, "\u2013"),
          el("p", { class: "detail" }, missing)));
      }
      return el("ol", { class: "results trace-list" }, rows);
    }

    function fusedScore(q, pid) {
      var list = data.runs[q].hybrid;
      for (var i = 0; i < list.length; i++) if (list[i][0] === pid) return list[i][1];
      return 0;
    }

    function stageHead(index, label, extra) {
      return el("h4", null, el("span", { class: "trace-num" }, String(index)), " " + label, extra || null);
    }

    function note(children) {
      return el("p", { class: "trace-note" }, children);
    }

    function answerNodes(text, sent) {
      var nodes = [];
      var pattern = /\[([^\[\]]*)\]/g;
      var last = 0;
      var match;
      while ((match = pattern.exec(text)) !== null) {
        nodes.push(text.slice(last, match.index));
        var pid = match[1];
        if (sent.indexOf(pid) >= 0) {
          nodes.push(el("a", { class: "trace-cite", href: "#tracer-src-" + pid, dataset: { pid: pid } }, "[" + pid + "]"));
        } else {
          nodes.push(el("mark", { class: "trace-cite is-unsent" }, "[" + pid + "]"));
        }
        last = match.index + match[0].length;
      }
      nodes.push(text.slice(last));
      return nodes;
    }

    function drawPanels(t) {
      var q = t.id;
      var runs = data.runs[q];
      var answer = t.answer;
      var sent = data.answer.tracer_checks[q].sent;
      var rr = rerankOf(q);
      var depthFused = data.settings.hybrid_depth;

      RAG.replace(panels.dense, stageHead(1, "Dense search"),
        note("Cosine similarity of the question\u2019s embedding to each passage\u2019s (" + data.model.name + ")."),
        ranked(runs.dense, 3, runs.dense[0][1], answer, ""));
      RAG.replace(panels.bm25, stageHead(2, "BM25"),
        note("Keyword scores; only passages that share a word with the question are listed."),
        ranked(runs.bm25, 3, runs.bm25[0][1], answer, "Not in BM25\u2019s list: it shares no word with the question."));
      RAG.replace(panels.fused, stageHead(3, "Fused (RRF)"),
        note("Reciprocal rank fusion of each list\u2019s top " + depthFused + ", k = " + data.settings.rrf_k + "."),
        ranked(runs.hybrid, 4, runs.hybrid[0][1], answer,
          "Not in the fused list: neither retriever had it in its top " + depthFused + "."));
      RAG.replace(panels.rerank,
        stageHead(4, "Rerank", illustrative ? [" ", el("span", { class: "badge badge-warn" }, "illustrative")] : null),
        note(illustrative ? "Scores written by hand to show what a cross-encoder typically does; no reranker ran."
          : ["Scores of the cross-encoder ", el("code", null, String(data.rerank.model)), " over the fused top " + data.rerank.depth + "."]),
        ranked(rr, 2, 1, answer, "Not scored by the reranker."));
      RAG.replace(panels.prompt, stageHead(5, "Into the prompt"),
        note(["The fused top " + sent.length + ", in that order, each tagged with its id, title and date: " +
          data.prompt_tokens[q][String(sent.length)] + " tokens (" + data.tokens.tokenizer + ") with the rules and the question. ",
          el("a", { class: "trace-open-prompt", href: "#lab-prompt?q=" + encodeURIComponent(q) + "&n=" + sent.length },
            "Open this prompt in the builder")]),
        el("ol", { class: "results trace-sent" }, sent.map(function (pid, i) {
          var p = passages[pid];
          return el("li", { class: ["result", pid === answer ? "is-answer" : ""], id: "tracer-src-" + pid, tabindex: "-1" },
            el("span", { class: "rank" }, String(i + 1)),
            el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.title)),
            el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(fusedScore(q, pid), 4)),
            badges(pid, answer, true),
            el("p", { class: "snippet" }, p.text));
        })));
      RAG.replace(panels.answer, stageHead(6, "The answer"),
        el("div", { class: "illustrative trace-answer" }, el("p", null, answerNodes(t.answer_text, sent))));
      RAG.replace(panels.check, stageHead(7, "Citation check"),
        note(["The claims the answer makes, each with the source it cites and its quote, checked by ",
          el("code", null, "check_citations"), " against the passages sent."]),
        el("div", { class: "table-scroll" }, el("table", { class: "trace-claims" },
          el("thead", null, el("tr", null, ["Claim", "Cites", "Quote", "Check"].map(function (h) {
            return el("th", { scope: "col" }, h);
          }))),
          el("tbody", null, t.claims.map(function (c) {
            return el("tr", null,
              el("td", null, c.text), el("td", null, el("code", null, c.source)),
              el("td", null, "\u201c" + c.quote + "\u201d"),
              el("td", null, c.ok ? el("span", { class: "badge badge-ok" }, "pass")
                : [el("span", { class: "badge badge-fail" }, "fail")].concat(c.problems.map(function (p) {
                  return [" ", el("span", { class: "checker-problem" }, p)];
                }))));
          })))),
        el("p", { class: "trace-guardrail" }, "Output guardrail on the answer: " + (t.guardrail.length
          ? t.guardrail.join("; ") : "no links, e-mail addresses or requests for credentials found.")));

      var rrAt = null;
      for (var i = 0; i < rr.length; i++) if (rr[i][0] === answer) { rrAt = i + 1; break; }
      var sentAt = sent.indexOf(answer) + 1;
      var rankOf = function (list) {
        for (var j = 0; j < list.length; j++) if (list[j][0] === answer) return j + 1;
        return null;
      };
      var passed = t.claims.filter(function (c) { return c.ok; }).length;
      RAG.replace(readout, "Right passage ", el("code", null, answer), ": dense rank " + (rankOf(runs.dense) || "\u2013") +
        ", BM25 rank " + (rankOf(runs.bm25) || "none (not in the list)") + ", fused rank " + (rankOf(runs.hybrid) || "none") +
        ", rerank " + (rrAt || "none") + (illustrative ? " (illustrative)" : "") + "; " +
        (sentAt ? "sent to the model at position " + sentAt + " of " + sent.length : "not sent to the model") +
        ". Citations: " + passed + " of " + t.claims.length + " pass every check.");
    }

    var drawn = null;

    function render() {
      var t = tracers[state.q];
      if (drawn !== state.q) { drawPanels(t); drawn = state.q; }
      select.value = state.q;
      Array.prototype.forEach.call(stageInputs, function (input) { input.checked = input.value === state.stage; });
      var all = state.stage === "all";
      board.classList.toggle("is-all", all);
      board.classList.toggle("is-one", !all);
      KEYS.forEach(function (key) { panels[key].hidden = !(all || key === state.stage); });
      var index = KEYS.indexOf(state.stage);
      prevButton.disabled = index <= 0;
      nextButton.disabled = index === KEYS.length - 1;
      status.textContent = all ? "All " + KEYS.length + " stages for \u201c" + t.question + "\u201d."
        : "Stage " + (index + 1) + " of " + KEYS.length + ", " + STAGES[index][1] + ", for \u201c" + t.question + "\u201d.";
    }

    function changed() {
      render();
      RAG.writeHashState("tracer", { q: state.q, stage: state.stage === "all" ? "" : state.stage });
    }

    function step(by) {
      var index = KEYS.indexOf(state.stage);
      var next = index < 0 ? (by > 0 ? 0 : -1) : index + by;
      if (next < 0 || next >= KEYS.length) return;
      state.stage = KEYS[next];
      changed();
    }

    select.addEventListener("change", function () { state.q = select.value; changed(); });
    Array.prototype.forEach.call(stageInputs, function (input) {
      input.addEventListener("change", function () { if (input.checked) { state.stage = input.value; changed(); } });
    });
    prevButton.addEventListener("click", function () { step(-1); });
    nextButton.addEventListener("click", function () { step(1); });
    // A citation in the answer jumps to its passage in the prompt stage, keeping the lab's link.
    board.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a.trace-cite") : null;
      if (!link) return;
      event.preventDefault();
      if (state.stage !== "all") { state.stage = "prompt"; changed(); }
      var target = document.getElementById("tracer-src-" + link.dataset.pid);
      if (target) {
        target.scrollIntoView({ block: "center" });
        target.focus({ preventScroll: true });
      }
    });
    lab.addEventListener("rag:hashstate", function (event) { apply(event.detail); render(); });

    apply(RAG.readHashState("tracer"));
    render();
  });
})();
