/* lab-injection.js: run the output guardrail on any answer, live.
 *
 * The two illustrative answers and their verdicts are rendered by the build (Python's
 * engine/guardrail.py). This script only drives the editor: RAG.engine.checkOutput, the
 * JavaScript twin of check_output, with the build's own patterns and allowed hosts.
 */
(function () {
  "use strict";

  var LABELS = { link: "outside link", email: "e-mail address", credentials: "asks for credentials" };

  /** [[piece, kind|null]]: each finding's match cut out for highlighting (as builder/extra_measure.marked). */
  function marked(text, findings) {
    var spans = [];
    findings.forEach(function (finding) {
      var start = text.indexOf(finding.match);
      while (start >= 0) {
        var end = start + finding.match.length;
        var free = spans.every(function (s) { return end <= s[0] || start >= s[1]; });
        if (free) {
          spans.push([start, end, finding.kind]);
          break;
        }
        start = text.indexOf(finding.match, start + 1);
      }
    });
    spans.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var pieces = [];
    var at = 0;
    spans.forEach(function (s) {
      if (s[0] > at) pieces.push([text.slice(at, s[0]), null]);
      pieces.push([text.slice(s[0], s[1]), s[2]]);
      at = s[1];
    });
    if (at < text.length) pieces.push([text.slice(at), null]);
    return pieces;
  }

  RAG.registerLab("injection", function (lab, data) {
    var el = RAG.el;
    var answers = data.injection.answers;
    var engine = RAG.engine;
    if (!engine || !engine.checkOutput) throw new Error("the guardrail's JavaScript twin (engine.js) is missing");

    var state = { base: lab.dataset.base, text: answers[lab.dataset.base].text };
    var textarea = lab.querySelector('textarea[name="injection-text"]');
    var radios = lab.querySelectorAll('input[name="injection-base"]');
    var verdictBox = lab.querySelector(".editor-verdict");
    var answerBox = lab.querySelector(".editor-result .answer-text");

    function check(text) {
      return engine.checkOutput(text, data.guardrail.patterns, data.guardrail.hosts);
    }

    function summaryOf(findings) { return findings.map(function (f) { return f.text; }).join("\n"); }

    // The build already shows the default answer's verdict: redraw it (and make a screen
    // reader announce it) only when it changes.
    var lastVerdict = summaryOf(check(state.text));

    function verdictNodes(findings) {
      var n = findings.length;
      var line = n
        ? el("p", { class: "verdict" }, el("span", { class: "badge badge-fail" }, "blocked"), " " + n + " finding" + (n === 1 ? "" : "s"))
        : el("p", { class: "verdict" }, el("span", { class: "badge badge-ok" }, "passes"), " nothing to block");
      var list = n ? el("ul", { class: "findings" }, findings.map(function (f) { return el("li", null, f.text); })) : null;
      return [line, list];
    }

    function render() {
      Array.prototype.forEach.call(radios, function (r) { r.checked = r.value === state.base; });
      if (textarea.value !== state.text) textarea.value = state.text;
      var findings = check(state.text);
      var summary = summaryOf(findings);
      if (summary !== lastVerdict) {
        RAG.replace(verdictBox, verdictNodes(findings));
        lastVerdict = summary;
      }
      RAG.replace(answerBox, marked(state.text, findings).map(function (piece) {
        return piece[1]
          ? el("mark", { class: "finding finding-" + piece[1], title: LABELS[piece[1]] }, piece[0])
          : piece[0];
      }));
    }

    function save() {
      var edited = state.text !== answers[state.base].text;
      RAG.writeHashState("injection", edited ? { base: state.base, text: state.text } : { base: state.base });
    }

    function apply(values) {
      if (answers[values.base]) {
        state.base = values.base;
        state.text = answers[values.base].text;
      }
      if (typeof values.text === "string") state.text = values.text;
    }

    Array.prototype.forEach.call(radios, function (radio) {
      radio.addEventListener("change", function () {
        state.base = radio.value;
        state.text = answers[radio.value].text;
        save();
        render();
      });
    });
    textarea.addEventListener("input", function () {
      state.text = textarea.value;
      save();
      render();
    });
    lab.addEventListener("rag:hashstate", function (event) { apply(event.detail); render(); });

    apply(RAG.readHashState("injection"));
    render();
  });

  RAG.markFindings = marked;
})();
