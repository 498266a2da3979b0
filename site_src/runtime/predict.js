/* predict.js: the predictions before the labs (builder/page/predictions.py draws each frame,
 * site_src/templates/_prediction.html). The reader picks what they expect; the frame then says
 * what to set in the lab; once the lab's live state holds the frame's `data-when` (lab-context.js tells
 * every drawing with a "rag:lab-drawn" event {name, state}), the frame says whether the pick was
 * right, with what the lab shows, and says it in the frame's own polite region (the lab's summary
 * goes to the page's, as the reader drags). The right choice (data-answer) is the build's,
 * found from its own data. The first verdict stands: a prediction is made once. Nothing runs at
 * load: this file comes with practice.js in assets/scripts/answers.js, loaded by
 * runtime/answers.js the first time a reader picks. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const picks = new Map();  // prediction id -> the choice picked

  const frameOf = (node) => (node && node.closest ? node.closest("[data-prediction]") : null);

  /** Does the lab's state hold every setting the prediction is about? */
  function holds(frame, state) {
    let when = {};
    try { when = JSON.parse(frame.dataset.when || "{}"); } catch (error) { return false; }
    return Object.entries(when).every(([key, value]) => (typeof value === "number"
      ? Math.abs(Number(state[key]) - value) < 1e-9 : String(state[key]) === String(value)));
  }

  function verdict(frame) {
    const choice = picks.get(frame.dataset.prediction);
    const answer = Number(frame.dataset.answer);
    const right = choice === answer;
    frame.classList.add("is-judged");
    for (const radio of frame.querySelectorAll('input[type="radio"]')) {
      const label = radio.closest("label");
      label.classList.toggle("is-right", Number(radio.value) === answer);
      label.classList.toggle("is-wrong", Number(radio.value) === choice && !right);
    }
    frame.querySelector("fieldset").disabled = true;
    const shows = frame.querySelector(".prediction-shows");
    const line = frame.querySelector(".prediction-verdict");
    RAG.replace(line, RAG.el("strong", null, right ? "You were right." : "Not what you predicted."), " ",
      ...[...shows.childNodes].map((node) => node.cloneNode(true)));
    line.className = `prediction-verdict ${right ? "is-right" : "is-wrong"}`;
    line.hidden = false;
    frame.querySelector(".prediction-task").hidden = true;
    frame.querySelector(".prediction-status").textContent = line.textContent.replace(/\s+/g, " ").trim();
  }

  function pick(radio) {
    const frame = frameOf(radio);
    if (!frame || frame.classList.contains("is-judged")) return;
    picks.set(frame.dataset.prediction, Number(radio.value));
    frame.classList.add("is-picked");
    frame.querySelector(".prediction-task").hidden = false;
    const ctx = RAG.labContext(frame.dataset.forLab);
    if (ctx && holds(frame, ctx.state)) verdict(frame);
  }

  const on = {
    change(event) {
      if (event.target.type === "radio" && frameOf(event.target)) pick(event.target);
    },
    "rag:lab-drawn": (event) => {
      const { name, state } = event.detail;
      for (const frame of document.querySelectorAll(`[data-prediction][data-for-lab="${name}"]`)) {
        if (picks.has(frame.dataset.prediction) && !frame.classList.contains("is-judged") && holds(frame, state)) verdict(frame);
      }
    },
  };
  /** What the document's listeners do (runtime/answers.js adds them once this file has come). */
  RAG.onPredictEvent = (event) => on[event.type] && on[event.type](event);
})();
