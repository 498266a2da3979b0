/* practice.js: the practice questions, at the end of each core section (builder/page/practice.py
 * draws them, answers in a <details>) and in "Check yourself" (the quiz lab draws them). A pick
 * shows at once whether it is right, and why each other choice is wrong; a polite announcement
 * says the same. Nothing runs at load.
 *
 * Keyboard: the arrow keys move through a radio group and check each radio they pass, so a choice
 * reached with them counts once the reader presses Space or Enter, or leaves the choices; a click,
 * a tap or Space counts at once. Once a question is answered, every pick counts at once.
 *
 * Every pick is told to the quiz lab with a "rag:practice" event {id, choice, lab} (lab: "quiz" for a
 * pick in the quiz, null at the end of a section); picks at the ends of sections are also kept
 * (RAG.practice.answers()) for the quiz to show when it starts. The other way, the quiz tells its
 * answers after every drawing with a "rag:quiz" event {answers, cleared}: each section's block shows
 * the same pick (and none once the reader clears the quiz), so "Back to section N" lands on the
 * answer given in the quiz.
 * This file comes with predict.js in assets/scripts/answers.js, loaded by runtime/answers.js the
 * first time a reader picks (or the quiz lab tells its answers); the events before it are kept
 * and handed to RAG.onPracticeEvent in order. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const answers = new Map();  // question id -> the choice picked on this page
  const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
  let arrowing = false;       // an arrow key is down: the change it makes is not yet an answer
  let pending = null;         // the radio an arrow key checked, waiting for Space, Enter or leaving

  RAG.practice = { answers: () => Object.fromEntries(answers) };

  const questionOf = (node) => (node && node.closest ? node.closest("[data-practice]") : null);
  const isChoice = (node) => node && node.type === "radio" && questionOf(node) !== null;

  /** Mark a section's question answered: the choices right and wrong, the verdict, the reasons open. */
  function reveal(item, choice) {
    const answer = Number(item.dataset.answer);
    item.classList.add("is-answered");
    for (const radio of item.querySelectorAll('input[type="radio"]')) {
      const value = Number(radio.value);
      radio.closest("label").classList.toggle("is-right", value === answer);
      radio.closest("label").classList.toggle("is-wrong", value === choice && choice !== answer);
    }
    for (const reason of item.querySelectorAll(".practice-wrong > li")) {
      reason.classList.toggle("is-picked", Number(reason.dataset.choice) === choice);
    }
    const verdict = item.querySelector(".practice-verdict") || RAG.el("p");
    RAG.replace(verdict, choice === answer ? "Right." : "Not quite.");
    verdict.className = `practice-verdict ${choice === answer ? "is-right" : "is-wrong"}`;
    item.querySelector("fieldset").after(verdict);
    item.querySelector("details.practice-answer").open = true;
  }

  /** Take a section's question back to unanswered (the quiz's answers were cleared). */
  function unreveal(item) {
    item.classList.remove("is-answered");
    for (const radio of item.querySelectorAll('input[type="radio"]')) {
      radio.checked = false;
      radio.closest("label").classList.remove("is-right", "is-wrong");
    }
    for (const reason of item.querySelectorAll(".practice-wrong > li")) reason.classList.remove("is-picked");
    const verdict = item.querySelector(".practice-verdict");
    if (verdict) verdict.remove();
    item.querySelector("details.practice-answer").open = false;
  }

  /** The quiz's answers, shown in the sections' blocks: quiet (the quiz announced the pick). A
   *  question the quiz has no answer for keeps the block's, unless the reader cleared the quiz. */
  function follow(quizAnswers, cleared) {
    for (const item of document.querySelectorAll("section.practice [data-practice]")) {
      const id = item.dataset.practice;
      const choice = Object.prototype.hasOwnProperty.call(quizAnswers, id) ? Number(quizAnswers[id]) : null;
      if (choice === null) {
        if (cleared && answers.has(id)) { answers.delete(id); unreveal(item); }
        continue;
      }
      if (answers.get(id) === choice) continue;
      answers.set(id, choice);
      const radio = item.querySelector(`input[type="radio"][value="${choice}"]`);
      if (radio) radio.checked = true;
      reveal(item, choice);
    }
  }

  /** What a screen reader hears: the verdict, the picked choice's reason, the answer's. */
  function said(item, choice) {
    const right = item.querySelector(".practice-right");
    const picked = item.querySelector(`.practice-wrong > li[data-choice="${choice}"]`);
    const text = (node) => (node ? node.textContent.replace(/\s+/g, " ").trim() : "");
    return choice === Number(item.dataset.answer) ? `Right. ${text(right)}` : `Not quite. ${text(picked)} ${text(right)}`;
  }

  function answer(radio) {
    pending = null;
    const item = questionOf(radio);
    const choice = Number(radio.value);
    const lab = item.closest("section.lab[data-lab]");
    const tell = (name) => document.dispatchEvent(new CustomEvent("rag:practice",
      { detail: { id: item.dataset.practice, choice, lab: name } }));
    if (!lab) {
      answers.set(item.dataset.practice, choice);
      reveal(item, choice);
      tell(null);
      RAG.announce(said(item, choice));
      return;
    }
    // In a lab, its view draws the answer (the lab may still be starting: a click starts it).
    RAG.startLab(lab).then((ctx) => {
      if (!ctx) return;
      tell(lab.dataset.lab);
      RAG.announce(said(item, choice));
    });
  }

  const on = {
    keydown(event) {
      if (!isChoice(event.target)) return;
      if (ARROWS.has(event.key)) arrowing = true;
      else if (event.key === "Enter" || (event.key === " " && event.target.checked)) {
        event.preventDefault();
        event.target.checked = true;
        answer(event.target);
      }
    },
    keyup() { arrowing = false; },
    "rag:quiz": (event) => follow(event.detail.answers, event.detail.cleared),
    change(event) {
      const radio = event.target;
      if (!isChoice(radio)) return;
      if (arrowing && !questionOf(radio).classList.contains("is-answered")) pending = radio;
      else answer(radio);
    },
    focusout(event) {
      if (!pending || pending.closest("fieldset").contains(event.relatedTarget)) return;
      if (pending.checked) answer(pending);
      else pending = null;
    },
  };
  /** What the document's listeners do (runtime/answers.js adds them once this file has come). */
  RAG.onPracticeEvent = (event) => on[event.type] && on[event.type](event);
})();
