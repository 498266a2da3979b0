/* Check yourself: every practice question (builder/page/practice.py renders them from
 * corpus/quiz.yaml), in page order. The reader picks a choice and at once sees whether it is right
 * and why each other choice is wrong; each question links back to the end of its section.
 * Picking is site_src/runtime/practice.js's (keyboard rules, the announcement): it tells this lab
 * with a "rag:practice" event, for its own questions and for those answered along the way; this lab
 * tells its answers back after every drawing ("rag:quiz"), so the sections' blocks show them too.
 * State, one key per answered question (the link reads #lab-quiz?chunk-split=2&fused-rank=0):
 *   <id>: the index of the choice the reader picked. */
(() => {
  const h = RAG.h;

  /** Text whose `backticked` parts are code (builder/page/practice.py inline(), the same rule). */
  const inline = (text) => text.split("`").map((part, i) => (i % 2 ? h("code", null, part) : part));

  /** The index of one of q's choices, from a link's string or a number; null for anything else. */
  const choiceOf = (q, value) => {
    const text = String(value);
    return /^\d+$/.test(text) && Number(text) < q.choices.length ? Number(text) : null;
  };

  /** The answer and why each other choice is wrong: the markup of a section's practice block. */
  function reasons(q) {
    return [
      h("p", { class: "practice-right" }, h("span", { class: "badge badge-ok" }, "right"), " ",
        h("strong", null, inline(q.choices[q.answer])), ": ", inline(q.why[q.answer])),
      h("ul", { class: "practice-wrong" }, q.choices.map((text, i) => (i === q.answer ? null
        : h("li", { key: i, "data-choice": String(i), class: i === q.picked ? "is-picked" : undefined },
          h("span", { class: "badge badge-fail" }, "wrong"), " ", h("strong", null, inline(text)), ": ", inline(q.why[i]))))),
    ];
  }

  function item(q) {
    const answered = q.picked !== null;
    return h("li", { key: q.id, class: ["practice-q", answered && "is-answered"], id: `quiz-${q.id}`,
      "data-practice": q.id, "data-answer": String(q.answer) },
    h("fieldset", { class: "practice-choices" },
      h("legend", { class: "practice-question" }, inline(q.question)),
      q.choices.map((text, i) => h("label", { key: i, class: ["practice-choice", answered && i === q.answer && "is-right",
        answered && i === q.picked && i !== q.answer && "is-wrong"] },
      h("input", { type: "radio", name: `quiz-${q.id}`, value: String(i), checked: i === q.picked }),
      h("span", null, inline(text))))),
    answered ? h("p", { class: ["practice-verdict", q.picked === q.answer ? "is-right" : "is-wrong"] },
      q.picked === q.answer ? "Right." : "Not quite.") : null,
    answered ? h("details", { class: "practice-answer", open: true }, h("summary", null, "Show the answer"), reasons(q)) : null,
    h("p", { class: "quiz-back" }, h("a", { href: `#practice-${q.id}` },
      `Back to section ${q.from.number}: ${q.from.title}`)));
  }

  const statusOf = (props) => `${props.answered} of ${props.questions.length} answered` +
    (props.answered ? `, ${props.right} right.` : ".");

  RAG.lab("quiz", {
    accept(next, input) {
      const clean = {};
      for (const q of input.own.questions) {
        const chosen = choiceOf(q, next[q.id]);
        if (chosen !== null) clean[q.id] = chosen;
      }
      return clean;
    },

    props(state, input) {
      const sections = Object.fromEntries(input.own.sections.map((s) => [s.slug, s]));
      const questions = input.own.questions.map((q) => ({ ...q, from: sections[q.section],
        picked: q.id in state ? state[q.id] : null }));
      const answered = questions.filter((q) => q.picked !== null);
      return { questions, answered: answered.length, right: answered.filter((q) => q.picked === q.answer).length };
    },

    view(props) {
      return [
        h("p", { class: "lab-status js-only" }, statusOf(props)),
        h("ol", { class: "quiz" }, props.questions.map(item)),
      ];
    },

    summary: statusOf,

    // After every drawing: the sections' blocks show the quiz's answers (runtime/practice.js).
    // "Clear my answers" clears them there too; a quiz that starts empty leaves them alone.
    sync(ctx) {
      const cleared = ctx.cleared === true;
      ctx.cleared = false;
      document.dispatchEvent(new CustomEvent("rag:quiz", { detail: { answers: { ...ctx.state }, cleared } }));
    },

    setup(ctx) {
      // A pick here, or at the end of a section (practice.js says which): answered here too. A pick
      // made elsewhere leaves the link alone, so the reader's place in the page stays theirs.
      const take = (answers, link) => {
        const fresh = Object.keys(answers).filter((id) => ctx.state[id] !== answers[id]);
        if (fresh.length) ctx.set(Object.fromEntries(fresh.map((id) => [id, answers[id]])), { announce: false, link });
      };
      ctx.on(document, "rag:practice", (event) => take({ [event.detail.id]: event.detail.choice }, event.detail.lab === ctx.name));
      ctx.on(ctx.find(".quiz-clear"), "click", () => { ctx.cleared = true; ctx.set({}, { replace: true }); });
      // Answers given along the way before this lab started: once the runtime has drawn the state
      // the lab opens on (it does so right after setup returns), the link's answers first.
      Promise.resolve().then(() => take(Object.fromEntries(Object.entries(RAG.practice.answers())
        .filter(([id]) => !(id in ctx.state))), false));
    },
  });
})();
