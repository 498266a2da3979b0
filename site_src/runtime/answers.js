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

  const early = [];  // events before the file came
  let loading = null;
  const choiceOf = (target) => (target && target.closest ? target.closest("[data-practice], [data-prediction]") : null);

  function load() {
    loading = loading || RAG.loadScript(RAG.assets().scripts.answers).then(() => {
      for (const type of new Set([...PRACTICE, ...PREDICT])) document.removeEventListener(type, keep);
      for (const type of PRACTICE) document.addEventListener(type, RAG.onPracticeEvent);
      for (const type of PREDICT) document.addEventListener(type, RAG.onPredictEvent);
      for (const event of early.splice(0)) {
        if (PRACTICE.includes(event.type)) RAG.onPracticeEvent(event);
        if (PREDICT.includes(event.type)) RAG.onPredictEvent(event);
      }
    }).catch((error) => console.error("[RAG] practice:", error));
    return loading;
  }

  function keep(event) {
    if (event.type === "rag:lab-drawn") return;  // nothing is picked yet: nothing to judge
    if (event.type !== "rag:quiz") {
      if (!choiceOf(event.target) || event.target.type !== "radio") return;
      if (!loading && !STARTS.has(event.type)) return;
      const answersNow = event.key === "Enter" || (event.key === " " && event.target.checked);
      if (event.type === "keydown" && answersNow && event.target.closest("[data-practice]")) event.preventDefault();
    }
    early.push(event);
    load();
  }

  for (const type of new Set([...PRACTICE, ...PREDICT])) document.addEventListener(type, keep);
})();
