/* The answer view: an answer read sentence by sentence, each sentence with the claims behind it
 * and, on each that no claim backs, the flag "no claim backs this sentence". The sentences and
 * which claims each holds are RAG.engine.answerSentences, the twin of engine/citations.py
 * answer_sentences (split_sentences, and each claim placed by its `in_answer` words); the tests
 * hold the drawing to Python's.
 *
 * Input: {corpus (RAG.corpus), text (the answer), claims ([{in_answer, ok}]: ok is the claim's
 * citation check, or absent), current (a claim's index to mark as the one being checked, or
 * null), unbacked (the flag's words: engine/citations.py UNBACKED, from a lab's data), label (the
 * illustrative label), cite (text -> the nodes of a sentence: its [id] markers drawn by the lab),
 * prefix}. Reads of the corpus: nothing (the answer and its claims come from the lab). */
(() => {
  const h = RAG.h;

  /** "claim 2", with its check's verdict when it has one, marked when it is the one being checked. */
  const claimBadge = (props, i) => {
    const claim = props.claims[i];
    const verdict = claim.ok === undefined ? "" : claim.ok ? " \u00b7 pass" : " \u00b7 fail";
    const current = props.current === i;
    return h("span", { class: ["badge", claim.ok === false ? "badge-fail" : "badge-ok", current && "is-current"],
                       "data-claim": String(i) }, `claim ${i + 1}${verdict}${current ? " \u00b7 checked above" : ""}`);
  };

  RAG.view("answer", {
    props(state, input) {
      const sentences = RAG.engine.answerSentences(input.text, input.claims.map((claim) => claim.in_answer));
      return { sentences, claims: input.claims, current: input.current ?? null, unbacked: input.unbacked,
               label: input.label, cite: input.cite || ((text) => text), prefix: input.prefix };
    },

    view(props) {
      const unbacked = props.sentences.filter((s) => !s.claims.length).length;
      return h("div", { class: "illustrative answer-read" },
        h("p", { class: "illustrative-label" }, props.label),
        h("ol", { class: "answer-sentences", "aria-describedby": `${props.prefix}-answer-tally` },
          props.sentences.map((sentence, at) => h("li", {
            class: ["answer-sentence", sentence.claims.length ? "is-backed" : "is-unbacked",
                    sentence.claims.includes(props.current) && "is-current"], key: String(at) },
            h("span", { class: "answer-sentence-text" }, props.cite(sentence.text)), " ",
            h("span", { class: "answer-backing" }, sentence.claims.length
              ? ["backed by ", sentence.claims.map((i, n) => [n ? " " : "", claimBadge(props, i)])]
              : h("span", { class: "badge badge-warn answer-unbacked" }, props.unbacked))))),
        h("p", { class: "answer-tally", id: `${props.prefix}-answer-tally` }, unbacked
          ? `No claim backs ${unbacked} of the ${props.sentences.length} sentences: no check ran on ${unbacked === 1 ? "it" : "them"}.`
          : `Every one of the ${props.sentences.length} sentences holds a claim's words.`));
    },
  });
})();
