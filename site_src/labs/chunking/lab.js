/* lab-chunking.js: the chunking lab. One page cut six ways (data.chunking.settings), every
 * chunk with its real cosine score and rank for each question; the build drew the default
 * state (templates/lab-chunking.html), this redraws it when the reader picks another chunker
 * or question. State: {setting, q}, kept in the URL hash (#lab-chunking?setting=…&q=…). */
(function () {
  "use strict";

  RAG.registerLab("chunking", function (lab, data) {
    var chunking = data.chunking;
    var settings = {};
    chunking.settings.forEach(function (s) { settings[s.id] = s; });
    var questionIds = chunking.questions.map(function (q) { return q.id; });
    var maxScore = Number(lab.dataset.maxScore);

    var output = lab.querySelector(".lab-output");
    var list = output.querySelector("ol.chunk-results");
    var status = output.querySelector(".lab-status");
    var questionLabel = output.querySelector(".lab-question-label");
    var questionText = output.querySelector(".lab-question-text");
    var lessons = Array.prototype.slice.call(lab.querySelectorAll(".lab-lesson[data-setting]"));
    var settingRadios = Array.prototype.slice.call(lab.querySelectorAll('input[name="chunking-setting"]'));
    var questionRadios = Array.prototype.slice.call(lab.querySelectorAll('input[name="chunking-question"]'));

    function checkedValue(radios) {
      for (var i = 0; i < radios.length; i++) if (radios[i].checked) return radios[i].value;
      return radios.length ? radios[0].value : null;
    }

    var state = { setting: checkedValue(settingRadios), q: checkedValue(questionRadios) };

    function accept(next) {
      if (next.setting && settings[next.setting]) state.setting = next.setting;
      if (next.q && questionIds.indexOf(next.q) >= 0) state.q = next.q;
    }

    function factBadge(name) {
      var tempting = name === "tempting";
      return RAG.el("span", { class: ["badge", tempting ? "badge-warn" : "badge-fact"] },
        (tempting ? "tempting: " : "") + chunking.facts[name]);
    }

    function chunkItem(setting, chunk, index, outcome) {
      var q = state.q;
      var needs = outcome.needs;
      var answers = needs.length > 0 && needs.every(function (f) { return chunk.facts.indexOf(f) >= 0; });
      var first = chunk.ranks[q] === 1;
      var badges = [];
      if (first) badges.push(RAG.el("span", { class: "badge badge-top" }, "ranked first"));
      if (answers) badges.push(RAG.el("span", { class: "badge badge-ok" }, "answers it"));
      var held = Object.keys(chunking.facts).filter(function (name) { return chunk.facts.indexOf(name) >= 0; });
      held.forEach(function (name) { badges.push(factBadge(name)); });
      if (!held.length) badges.push(RAG.el("span", { class: "badge badge-none" }, "no key fact"));
      var pieces = data.chunk_segments[setting.id][index].map(function (segment) {
        if (!segment[1]) return segment[0];
        return RAG.el("mark", { class: ["fact", segment[1] === "tempting" ? "is-tempting" : ""] }, segment[0]);
      });
      return RAG.el("li", { class: ["result", "chunk", first ? "is-winner" : "", answers ? "is-answer" : ""],
                             dataset: { chunk: index } },
        RAG.el("span", { class: "rank" }, String(chunk.ranks[q])),
        RAG.el("span", { class: "pid" }, RAG.el("code", null, "chunk " + (index + 1) + " of " + setting.chunks.length),
          " ", RAG.el("span", { class: "title" }, chunk.words + " words")),
        RAG.el("meter", { class: "score-bar", min: "0", max: String(maxScore),
                          value: String(Math.max(chunk.scores[q], 0)), "aria-hidden": "true" }),
        RAG.el("span", { class: "score" }, RAG.fixed(chunk.scores[q], 3)),
        RAG.el("span", { class: "badges" }, badges),
        RAG.el("p", { class: ["snippet", "chunk-text"] }, pieces));
    }

    function render() {
      var setting = settings[state.setting];
      var summary = data.chunk_outcomes[setting.id];
      var outcome = summary[state.q];
      var qIndex = questionIds.indexOf(state.q);
      settingRadios.forEach(function (r) { r.checked = r.value === state.setting; });
      questionRadios.forEach(function (r) { r.checked = r.value === state.q; });
      questionLabel.textContent = "Question " + (qIndex + 1);
      questionText.textContent = chunking.questions[qIndex].text;
      var words = summary.min_words === summary.max_words ? String(summary.min_words)
        : summary.min_words + " to " + summary.max_words;
      status.textContent = setting.label + ": " + summary.n_chunks + " chunk" + (summary.n_chunks !== 1 ? "s" : "") +
        " of " + words + " words, ranked by cosine similarity.";
      var order = setting.chunks.map(function (c, i) { return i; });
      order.sort(function (a, b) { return setting.chunks[a].ranks[state.q] - setting.chunks[b].ranks[state.q]; });
      RAG.replace(list, order.map(function (i) { return chunkItem(setting, setting.chunks[i], i, outcome); }));
      var lessonText = "";
      lessons.forEach(function (p) {
        var shown = p.dataset.setting === state.setting && p.dataset.q === state.q;
        p.hidden = !shown;
        if (shown) lessonText = p.textContent;
      });
      return status.textContent + " " + lessonText;
    }

    function change() {
      RAG.writeHashState("chunking", state);
      RAG.announce(render());
    }

    settingRadios.forEach(function (radio) {
      radio.addEventListener("change", function () { if (radio.checked) { accept({ setting: radio.value }); change(); } });
    });
    questionRadios.forEach(function (radio) {
      radio.addEventListener("change", function () { if (radio.checked) { accept({ q: radio.value }); change(); } });
    });
    lab.addEventListener("rag:hashstate", function (event) { accept(event.detail || {}); render(); });

    accept(RAG.readHashState("chunking"));
    render();
  });
})();
