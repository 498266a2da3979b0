/* answers.js: the practice questions' and the predictions' first moment. What a pick does
 * (runtime/practice.js and predict.js) comes in assets/scripts/answers.js, loaded the first time
 * a reader picks a choice (a change, or a key on one) or the quiz lab tells its answers; the
 * events that come before it are kept and handed to it in order. A key that answers at once
 * (Enter, or Space on the checked choice) is held back at once, as practice.js would. Without
 * JavaScript each answer is in its own <details>. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const PRACTICE = ["keydown", "keyup", "change", "focusout", "rag:quiz"];
  const PREDICT = ["change", "rag:lab-drawn"];
  const STARTS = new Set(["keydown", "change", "rag:quiz"]);  // the events that load the file
  RAG.practice = { answers: () => ({}) };  // nothing picked before practice.js has come

  // Each event to what handles its type: practice.js first, then predict.js (both take "change").
  const handle = (event) => {
    if (PRACTICE.includes(event.type)) RAG.onPracticeEvent(event);
    if (PREDICT.includes(event.type)) RAG.onPredictEvent(event);
  };
  const choiceOf = (target) => (target && target.closest ? target.closest("[data-practice], [data-prediction]") : null);

  RAG.onFirstUse("practice", { types: [...new Set([...PRACTICE, ...PREDICT])],
    keeps(event, started) {
      if (event.type === "rag:lab-drawn") return false;  // nothing is picked yet: nothing to judge
      if (event.type === "rag:quiz") return true;
      if (!choiceOf(event.target) || event.target.type !== "radio") return false;
      if (!started && !STARTS.has(event.type)) return false;
      const answersNow = event.key === "Enter" || (event.key === " " && event.target.checked);
      if (event.type === "keydown" && answersNow && event.target.closest("[data-practice]")) event.preventDefault();
      return true;
    },
    load: () => RAG.loadScript(RAG.assets().scripts.answers).then(() => handle) });
})();
