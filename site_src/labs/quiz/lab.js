/* Check yourself (lab.html draws its default: nothing picked). The reader picks a choice and
 * presses Check; only then does the explanation appear, with a link back to its section.
 * Check with nothing picked asks for a pick first; Try again clears an answer.
 * State, one key per question (the link reads #lab-quiz?split-facts=0&picked.why-rrf=1):
 *   <id>: the choice the reader checked (an index into its choices);
 *   picked.<id>: the choice picked and not yet checked;
 *   nudge: the question whose Check was pressed with nothing picked, while that lasts. */
{  // a block: the helpers stay out of the page's global scope
  const PICKED = "picked.";

  /** The index of one of q's choices, from a link's string or a number; null for anything else. */
  const choiceOf = (q, value) => {
    const text = String(value);
    return /^\d+$/.test(text) && Number(text) < q.choices.length ? Number(text) : null;
  };

  /** What a checked answer says: its verdict and choices, as the feedback shows them. */
  const verdictOf = (q, chosen) => (chosen === q.answer ? `You chose: ${q.choices[chosen]}.`
    : `You chose: ${q.choices[chosen]}. The answer: ${q.choices[q.answer]}.`);

  RAG.lab("quiz", {
    accept(next, ctx) {
      const questions = ctx.own.questions;
      const clean = {};
      for (const q of questions) {
        const chosen = choiceOf(q, next[q.id]);
        if (chosen !== null) clean[q.id] = chosen;
      }
      for (const q of questions) {
        const picked = choiceOf(q, next[PICKED + q.id]);
        if (picked !== null && !(q.id in clean)) clean[PICKED + q.id] = picked;
      }
      const nudged = questions.find((q) => q.id === next.nudge);
      if (nudged && !(nudged.id in clean) && !(PICKED + nudged.id in clean)) clean.nudge = nudged.id;
      return clean;
    },

    setup(ctx) {
      ctx.feedbackShown = {};  // question id -> what its feedback box shows (the template's: nothing)
      for (const item of ctx.findAll("ol.quiz > li[data-quiz]")) {
        const id = item.dataset.quiz;
        for (const radio of item.querySelectorAll('input[type="radio"]')) {
          // A screen reader says which radio is checked; the pick itself needs no announcement.
          ctx.on(radio, "change", () => ctx.set({ [PICKED + id]: radio.value }, { announce: false }));
        }
        ctx.on(item.querySelector(".quiz-check"), "click", () => {
          const { state } = ctx;
          if (id in state) {  // Try again: clear the answer and go back to the choices
            ctx.set({ [id]: undefined });
            item.querySelector('input[type="radio"]').focus();
          } else if (PICKED + id in state) {
            ctx.set({ [id]: state[PICKED + id], [PICKED + id]: undefined });
          } else {
            ctx.set({ nudge: id });
          }
        });
      }
    },

    draw(ctx) {
      const { state, own } = ctx;
      const sections = Object.fromEntries(own.sections.map((s) => [s.slug, s]));
      const byId = Object.fromEntries(own.questions.map((q) => [q.id, q]));
      const said = [];
      let answered = 0;
      let right = 0;

      for (const item of ctx.findAll("ol.quiz > li[data-quiz]")) {
        const q = byId[item.dataset.quiz];
        const committed = q.id in state;
        const chosen = state[q.id];
        const shown = committed ? chosen : state[PICKED + q.id];
        for (const radio of item.querySelectorAll('input[type="radio"]')) {
          const value = Number(radio.value);
          radio.checked = value === shown;
          radio.disabled = committed;
          radio.closest("label").classList.toggle("is-right", committed && value === q.answer);
          radio.closest("label").classList.toggle("is-wrong", committed && value === chosen && chosen !== q.answer);
        }
        item.querySelector(".quiz-check").textContent = committed ? "Try again" : "Check";
        item.classList.toggle("is-answered", committed);
        if (committed) {
          answered += 1;
          if (chosen === q.answer) right += 1;
        }

        // Redraw a feedback box only when what it says changes, and say that change.
        const key = committed ? `answer-${chosen}` : state.nudge === q.id ? "nudge" : "";
        if (ctx.feedbackShown[q.id] === key) continue;
        ctx.feedbackShown[q.id] = key;
        const box = item.querySelector(".quiz-feedback");
        if (committed) {
          const ok = chosen === q.answer;
          const section = sections[q.section];
          RAG.replace(box,
            RAG.el("p", { class: "quiz-verdict" },
              RAG.el("span", { class: ok ? "badge badge-ok" : "badge badge-fail" }, ok ? "right" : "not quite"), " ",
              verdictOf(q, chosen)),
            RAG.el("p", { class: "quiz-explanation" }, q.explanation),
            RAG.el("p", null, RAG.el("a", { class: "quiz-back", href: `#${q.section}` },
              section ? `Back to section ${section.number}: ${section.title}` : "Back to the section")));
          said.push(`${ok ? "Right" : "Not quite"}. ${verdictOf(q, chosen)} ${q.explanation}`);
        } else if (key === "nudge") {
          RAG.replace(box, RAG.el("p", { class: "quiz-nudge" }, "Pick one of the answers first."));
          said.push("Pick one of the answers first.");
        } else {
          RAG.replace(box);
        }
      }

      // (No template literal inside another: the build's minifier would squeeze the inner one's spaces.)
      const status = `${answered} of ${own.questions.length} answered` + (answered ? `, ${right} right.` : ".");
      ctx.find(".lab-status").textContent = status;
      return [...said, status].join(" ");
    },
  });
}
