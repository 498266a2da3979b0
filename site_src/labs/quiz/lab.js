/* lab-quiz.js: Check yourself. The reader picks a choice and presses Check; only then does
 * the explanation appear, with a link back to its section. Committed answers live in the
 * URL (#lab-quiz?split-facts=0&why-rrf=1), so a shared link shows the same results.
 */
(function () {
  "use strict";

  RAG.registerLab("quiz", function (lab, data) {
    var el = RAG.el;
    var byId = {};
    data.quiz.forEach(function (q) { byId[q.id] = q; });
    var sections = {};
    data.measure.sections.forEach(function (s) { sections[s.slug] = s; });

    // answers: quiz id -> committed choice; picked: quiz id -> choice not yet checked;
    // nudge: the question whose Check was pressed with nothing picked.
    var state = { answers: {}, picked: {}, nudge: null };
    var items = Array.prototype.slice.call(lab.querySelectorAll("ol.quiz > li[data-quiz]"));
    var status = lab.querySelector(".lab-status");

    function valid(id, value) {
      var q = byId[id];
      var n = Number(value);
      return q && String(n) === String(value) && n >= 0 && n < q.choices.length;
    }

    function fromHash(values) {
      var answers = {};
      Object.keys(values).forEach(function (id) { if (valid(id, values[id])) answers[id] = Number(values[id]); });
      state.answers = answers;
      state.picked = {};
      state.nudge = null;
    }

    function save() {
      var out = {};
      data.quiz.forEach(function (q) { if (q.id in state.answers) out[q.id] = state.answers[q.id]; });
      RAG.writeHashState("quiz", out);
    }

    function backLink(slug) {
      var s = sections[slug];
      return el("a", { class: "quiz-back", href: "#" + slug },
        s ? "Back to section " + s.number + ": " + s.title : "Back to the section");
    }

    function feedback(q, chosen) {
      var right = chosen === q.answer;
      return [
        el("p", { class: "quiz-verdict" },
          el("span", { class: right ? "badge badge-ok" : "badge badge-fail" }, right ? "right" : "not quite"), " ",
          right ? "You chose: " + q.choices[chosen] + "."
                : "You chose: " + q.choices[chosen] + ". The answer: " + q.choices[q.answer] + "."),
        el("p", { class: "quiz-explanation" }, q.explanation),
        el("p", null, backLink(q.section)),
      ];
    }

    function render() {
      var answered = 0;
      var right = 0;
      items.forEach(function (item) {
        var q = byId[item.dataset.quiz];
        var committed = q.id in state.answers;
        var chosen = state.answers[q.id];
        var shown = committed ? chosen : state.picked[q.id];
        var radios = item.querySelectorAll('input[type="radio"]');
        var button = item.querySelector(".quiz-check");
        var box = item.querySelector(".quiz-feedback");
        Array.prototype.forEach.call(radios, function (radio) {
          radio.checked = Number(radio.value) === shown;
          radio.disabled = committed;
          var label = radio.closest("label");
          label.classList.toggle("is-right", committed && Number(radio.value) === q.answer);
          label.classList.toggle("is-wrong", committed && Number(radio.value) === chosen && chosen !== q.answer);
        });
        button.textContent = committed ? "Try again" : "Check";
        item.classList.toggle("is-answered", committed);
        if (committed) {
          answered += 1;
          if (chosen === q.answer) right += 1;
        }
        // Redraw a feedback box (a live region) only when what it says changes.
        var key = committed ? "answer-" + chosen : state.nudge === q.id ? "nudge" : "";
        if (box.dataset.shown !== key) {
          box.dataset.shown = key;
          if (committed) RAG.replace(box, feedback(q, chosen));
          else if (key === "nudge") RAG.replace(box, el("p", { class: "quiz-nudge" }, "Pick one of the answers first."));
          else RAG.replace(box);
        }
      });
      var summary = answered + " of " + data.quiz.length + " answered" + (answered ? ", " + right + " right." : ".");
      if (status.textContent !== summary) status.textContent = summary;
    }

    items.forEach(function (item) {
      var id = item.dataset.quiz;
      Array.prototype.forEach.call(item.querySelectorAll('input[type="radio"]'), function (radio) {
        radio.addEventListener("change", function () {
          state.picked[id] = Number(radio.value);
          if (state.nudge === id) state.nudge = null;
          render();
        });
      });
      item.querySelector(".quiz-check").addEventListener("click", function () {
        if (id in state.answers) {
          delete state.answers[id];
          delete state.picked[id];
          state.nudge = null;
          save();
          render();
          var first = item.querySelector('input[type="radio"]');
          if (first) first.focus();
          return;
        }
        if (!(id in state.picked)) {
          state.nudge = id;
          render();
          return;
        }
        state.answers[id] = state.picked[id];
        delete state.picked[id];
        state.nudge = null;
        save();
        render();
      });
    });
    lab.addEventListener("rag:hashstate", function (event) { fromHash(event.detail); render(); });

    fromHash(RAG.readHashState("quiz"));
    render();
  });
})();
