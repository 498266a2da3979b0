/* lab-prompt.js: the prompt builder.
 *
 * State: {q, n, demo}. The sources are the top n of data.runs[q].hybrid (the fused list the
 * build computed), each with the title, date and text of data.passages; the rules are
 * data.prompt.rules. RAG.engine.buildPrompt assembles the text exactly as engine/prompt.py
 * does (tests/browser/test_answer_labs.py compares them for every question and size). The
 * token counts were computed at build time: data.prompt_tokens, and
 * data.answer.hostile_tokens when the made-up hostile source is added.
 */
(function () {
  "use strict";

  RAG.registerLab("prompt", function (lab, data) {
    var el = RAG.el;
    var answerData = data.answer;
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });
    var questions = {};
    data.questions.forEach(function (q) { questions[q.id] = q; });
    var sizes = [];
    for (var s = answerData.prompt_sizes[0]; s <= answerData.prompt_sizes[1]; s++) sizes.push(String(s));
    var rules = data.prompt.rules.map(function (rule) { return rule.text; });

    var select = lab.querySelector('select[name="prompt-q"]');
    var sizeInputs = lab.querySelectorAll('input[name="prompt-n"]');
    var demoInput = lab.querySelector('input[name="prompt-demo"]');
    var status = lab.querySelector(".lab-status");
    var sourceList = lab.querySelector(".prompt-sources");
    var code = lab.querySelector(".prompt-text code");

    var state = { q: answerData.prompt_default.q, n: String(answerData.prompt_default.n), demo: false };

    function apply(values) {
      if (values.q && questions[values.q]) state.q = values.q;
      if (values.n && sizes.indexOf(String(values.n)) >= 0) state.n = String(values.n);
      state.demo = values.demo === "1";
    }

    function sourcesFor(st) {
      var list = data.runs[st.q].hybrid.slice(0, Number(st.n)).map(function (pair) {
        var p = passages[pair[0]];
        return { id: p.id, title: p.title, date: p.updated, text: p.text };
      });
      if (st.demo) {
        var h = answerData.hostile;
        list.push({ id: h.id, title: h.title, date: h.date, text: h.text });
      }
      return list;
    }

    function badges(p, answer) {
      return el("span", { class: "badges" },
        el("span", { class: "badge" }, p.updated),
        p.id === answer ? el("span", { class: "badge badge-ok" }, "right passage") : null,
        p.superseded ? el("span", { class: "badge badge-superseded" }, "outdated") : null,
        p.kind === "forum" ? el("span", { class: "badge badge-forum" }, "forum post") : null,
        p.kind === "runbook" ? el("span", { class: "badge badge-runbook" }, "runbook") : null,
        p.acl.indexOf("staff") >= 0 ? el("span", { class: "badge badge-staff" }, "staff only") : null);
    }

    function sourceRows(st) {
      var hybrid = data.runs[st.q].hybrid;
      var answer = questions[st.q].answer;
      var rows = hybrid.slice(0, Number(st.n)).map(function (pair, i) {
        var p = passages[pair[0]];
        return el("li", { class: ["result", pair[0] === answer ? "is-answer" : ""] },
          el("span", { class: "rank" }, String(i + 1)),
          el("span", { class: "pid" }, el("code", null, pair[0]), " ", el("span", { class: "title" }, p.title)),
          el("meter", { class: "score-bar", min: "0", max: String(hybrid[0][1]), value: String(pair[1]), "aria-hidden": "true" }),
          el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(pair[1], 4)),
          badges(p, answer));
      });
      if (st.demo) {
        var h = answerData.hostile;
        rows.push(el("li", { class: "result is-demo" },
          el("span", { class: "rank" }, String(rows.length + 1)),
          el("span", { class: "pid" }, el("code", null, h.id), " ", el("span", { class: "title" }, h.title)),
          el("span", { class: "score" }, "\u2013"),
          el("span", { class: "badges" }, el("span", { class: "badge" }, h.date),
            el("span", { class: "badge badge-fail" }, "made up for the demo")),
          el("p", { class: "detail" }, "Not in the help center and not searched: a hostile text added to show the escaping.")));
      }
      return rows;
    }

    /* Text with each escape sequence (&amp; &lt; &gt; &quot;) in a <mark>: same characters. */
    function withEscapes(text) {
      var parts = text.split("&");
      var out = [parts[0]];
      for (var i = 1; i < parts.length; i++) {
        var cut = parts[i].indexOf(";");
        if (cut < 0) { out.push("&" + parts[i]); continue; }
        out.push(el("mark", { class: "prompt-escaped" }, "&" + parts[i].slice(0, cut + 1)));
        out.push(parts[i].slice(cut + 1));
      }
      return out;
    }

    function promptNodes(text) {
      var lines = text.split("\n");
      var part = "head";
      var nodes = [];
      lines.forEach(function (line, i) {
        if (line === "Rules:") part = "rules";
        else if (line === "Sources:") part = "sources";
        var content = part === "sources" && line.indexOf("&") >= 0 ? withEscapes(line) : [line];
        if (line === "Rules:" || line === "Sources:" || line.indexOf("Question: ") === 0) {
          nodes.push(el("span", { class: "prompt-head" }, content));
        } else if (part === "rules" && line) {
          nodes.push(el("span", { class: "prompt-rule-line" }, content));
        } else if (line.indexOf("<source ") === 0 || line === "</source>") {
          nodes.push(el("span", { class: "prompt-tag" }, content));
        } else {
          nodes.push(content);
        }
        if (i < lines.length - 1) nodes.push("\n");
      });
      return nodes;
    }

    function render() {
      var q = questions[state.q];
      var text = RAG.engine.buildPrompt(q.text, sourcesFor(state), rules);
      var tokens = (state.demo ? answerData.hostile_tokens : data.prompt_tokens)[state.q][state.n];
      select.value = state.q;
      Array.prototype.forEach.call(sizeInputs, function (input) { input.checked = input.value === state.n; });
      demoInput.checked = state.demo;
      RAG.replace(sourceList, sourceRows(state));
      RAG.replace(code, promptNodes(text));
      status.textContent = state.n + " passages" + (state.demo ? " and the hostile source" : "") +
        " for \u201c" + q.text + "\u201d: the whole prompt is " + tokens + " tokens (" + data.tokens.tokenizer + ").";
    }

    function changed() {
      render();
      RAG.writeHashState("prompt", { q: state.q, n: state.n, demo: state.demo ? "1" : "" });
    }

    select.addEventListener("change", function () { state.q = select.value; changed(); });
    Array.prototype.forEach.call(sizeInputs, function (input) {
      input.addEventListener("change", function () { if (input.checked) { state.n = input.value; changed(); } });
    });
    demoInput.addEventListener("change", function () { state.demo = demoInput.checked; changed(); });
    lab.addEventListener("rag:hashstate", function (event) { apply(event.detail); render(); });

    apply(RAG.readHashState("prompt"));
    render();
  });
})();
