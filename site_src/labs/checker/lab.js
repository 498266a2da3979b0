/* lab-checker.js: the citation checker.
 *
 * State: {q, c, text, source, quote}: a traced answer, the claim the reader started from, and
 * the three fields as edited. Every change runs RAG.engine.checkClaim (the twin of
 * engine/citations.py's check_claim, tested equal on a table of cases) against the passages
 * that answer's prompt carried: data.answer.tracer_checks[q].sent. Text the reader types is
 * only ever shown through textContent.
 */
(function () {
  "use strict";

  RAG.registerLab("checker", function (lab, data) {
    var el = RAG.el;
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });
    var tracers = {};
    data.tracers.forEach(function (t) { tracers[t.id] = t; });
    var checks = data.answer.tracer_checks;

    var qSelect = lab.querySelector('select[name="checker-q"]');
    var cSelect = lab.querySelector('select[name="checker-c"]');
    var textInput = lab.querySelector('textarea[name="checker-text"]');
    var sourceInput = lab.querySelector('input[name="checker-source"]');
    var quoteInput = lab.querySelector('textarea[name="checker-quote"]');
    var buttons = {};
    Array.prototype.forEach.call(lab.querySelectorAll("button[data-action]"), function (b) { buttons[b.dataset.action] = b; });
    var status = lab.querySelector(".lab-status");
    var claimBox = lab.querySelector(".checker-claim");
    var checkList = lab.querySelector(".checker-checks");
    var sourceHeading = lab.querySelector(".checker-sources").previousElementSibling;
    var sourceList = lab.querySelector(".checker-sources");

    var state = {};

    function preset(q, c) {
      var claim = tracers[q].claims[c];
      return { q: q, c: c, text: claim.text, source: claim.source, quote: claim.quote };
    }

    function apply(values) {
      var d = data.answer.checker_default;
      var q = tracers[values.q] ? values.q : d.q;
      var c = values.c === undefined ? (q === d.q ? d.c : 0) : Number(values.c);
      if (!(Number.isInteger(c) && c >= 0 && c < tracers[q].claims.length)) c = 0;
      state = preset(q, c);
      ["text", "source", "quote"].forEach(function (key) {
        if (typeof values[key] === "string") state[key] = values[key];
      });
    }

    function sentSources(q) {
      var sources = {};
      checks[q].sent.forEach(function (pid) { sources[pid] = passages[pid].text; });
      return sources;
    }

    /* engine.checkClaim's problems sorted into its three checks, as builder/extra_answer.py's by_check does. */
    function byCheck(problems) {
      var out = { source: [], quote: [], numbers: [] };
      problems.forEach(function (p) {
        if (p.indexOf("unknown source id") === 0) out.source.push(p);
        else if (p.indexOf("number ") === 0) out.numbers.push(p);
        else out.quote.push(p);
      });
      return out;
    }

    /* Where the quote sits in the passage, word by word, ignoring case and spacing (as quote_span). */
    function quoteSpan(text, quote) {
      var words = quote.split(/\s+/).filter(Boolean);
      if (!words.length) return null;
      var pattern = words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&"); }).join("\\s+");
      var match = new RegExp(pattern, "i").exec(text);
      return match ? [match.index, match.index + match[0].length] : null;
    }

    function checkRow(kind, name, problems, unknown, passText) {
      var skipped = kind !== "source" && unknown;
      var bad = problems.length > 0;
      var cls = skipped ? "is-skipped" : bad ? "is-bad" : "is-ok";
      var badge = skipped ? ["badge-warn", "not run"] : bad ? ["badge-fail", "fail"] : ["badge-ok", "pass"];
      var detail;
      if (skipped) {
        detail = el("span", { class: "checker-detail" }, kind === "quote"
          ? "Not checked: there is no such source to look in." : "Not checked: there is no such source.");
      } else if (bad) {
        detail = problems.map(function (p) { return el("span", { class: "checker-problem" }, p); });
      } else {
        detail = el("span", { class: "checker-detail" }, passText);
      }
      return el("li", { class: cls }, el("span", { class: "badge " + badge[0] }, badge[1]), " ",
        el("span", { class: "checker-check-name" }, name), detail);
    }

    function render() {
      var tracer = tracers[state.q];
      var sent = checks[state.q].sent;
      var result = RAG.engine.checkClaim({ text: state.text, source_id: state.source, quote: state.quote }, sentSources(state.q));
      var groups = byCheck(result.problems);
      var unknown = groups.source.length > 0;

      qSelect.value = state.q;
      RAG.replace(cSelect, tracer.claims.map(function (claim, i) {
        return el("option", { value: String(i), selected: i === state.c }, (i + 1) + ". " + claim.text);
      }));
      cSelect.value = String(state.c);
      if (textInput.value !== state.text) textInput.value = state.text;
      if (sourceInput.value !== state.source) sourceInput.value = state.source;
      if (quoteInput.value !== state.quote) quoteInput.value = state.quote;
      buttons.number.disabled = !/[0-9]/.test(state.text);
      buttons.word.disabled = state.quote.split(/\s+/).filter(Boolean).length < 2;

      var n = result.problems.length;
      status.textContent = n ? "Fails: " + n + " problem" + (n === 1 ? "" : "s") + "." : "Passes every check.";
      RAG.replace(claimBox,
        el("div", null, el("dt", null, "Claim"), el("dd", { class: "checker-claim-text" }, state.text)),
        el("div", null, el("dt", null, "Cites"), el("dd", null, el("code", { class: "checker-claim-source" }, state.source))),
        el("div", null, el("dt", null, "Quote"), el("dd", { class: "checker-claim-quote" }, state.quote)));
      RAG.replace(checkList,
        checkRow("source", "The source was sent to the model", groups.source, unknown,
          [el("code", null, state.source), " is one of the " + sent.length + " passages sent."]),
        checkRow("quote", "The quote is in that source", groups.quote, unknown, "Found, ignoring case and spacing."),
        checkRow("numbers", "Every number in the claim is in the quote", groups.numbers, unknown,
          "No number of the claim is missing from the quote."));
      sourceHeading.textContent = "The " + sent.length + " passages sent with this answer";
      var fused = {};
      data.runs[state.q].hybrid.forEach(function (pair) { fused[pair[0]] = pair[1]; });
      RAG.replace(sourceList, sent.map(function (pid, i) {
        var p = passages[pid];
        var cited = pid === state.source;
        var span = cited && !groups.quote.length ? quoteSpan(p.text, state.quote) : null;
        var snippet = span
          ? [p.text.slice(0, span[0]), el("mark", null, p.text.slice(span[0], span[1])), p.text.slice(span[1])]
          : p.text;
        return el("li", { class: ["result", cited ? "is-winner" : ""] },
          el("span", { class: "rank" }, String(i + 1)),
          el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.title)),
          el("span", { class: "score", title: "fused (RRF) score" }, RAG.fixed(fused[pid], 4)),
          el("span", { class: "badges" }, el("span", { class: "badge" }, p.updated),
            cited ? el("span", { class: "badge badge-warn" }, "cited" + (span ? " \u00b7 quote marked" : "")) : null),
          el("p", { class: "snippet" }, snippet));
      }));
    }

    function save() {
      var base = preset(state.q, state.c);
      var hash = { q: state.q, c: String(state.c) };
      ["text", "source", "quote"].forEach(function (key) {
        if (state[key] !== base[key]) hash[key] = state[key];
      });
      RAG.writeHashState("checker", hash);
    }

    function changed() { render(); save(); }

    qSelect.addEventListener("change", function () { state = preset(qSelect.value, 0); changed(); });
    cSelect.addEventListener("change", function () { state = preset(state.q, Number(cSelect.value)); changed(); });
    textInput.addEventListener("input", function () { state.text = textInput.value; changed(); });
    sourceInput.addEventListener("input", function () { state.source = sourceInput.value; changed(); });
    quoteInput.addEventListener("input", function () { state.quote = quoteInput.value; changed(); });

    buttons.unsent.addEventListener("click", function () {
      // The first passage of the fused list that did not make the cut: real, but never sent.
      var sent = checks[state.q].sent;
      var next = data.runs[state.q].hybrid.filter(function (pair) { return sent.indexOf(pair[0]) < 0; })[0];
      if (next) { state.source = next[0]; changed(); }
    });
    buttons.number.addEventListener("click", function () {
      state.text = state.text.replace(/[0-9]+/, function (digits) { return String(Number(digits) + 1); });
      changed();
    });
    buttons.word.addEventListener("click", function () {
      var words = state.quote.split(/\s+/).filter(Boolean);
      words.splice(Math.floor(words.length / 2), 1);
      state.quote = words.join(" ");
      changed();
    });
    buttons.reset.addEventListener("click", function () { state = preset(state.q, state.c); changed(); });
    lab.addEventListener("rag:hashstate", function (event) { apply(event.detail); render(); });

    apply(RAG.readHashState("checker"));
    render();
  });
})();
