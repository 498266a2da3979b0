/* Rerank, then cut off: the fused list's top candidates (what the reranker reads) beside the same
 * candidates re-sorted by their rerank scores (data.rerank: a cross-encoder's, or hand-written and
 * labelled illustrative) and cut at the reader's threshold; candidates without a score come last.
 * State: {q, t}: a question with rerank scores, and the threshold (null: the control's default,
 * which depends on where the scores came from; own.control). */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const DASH = "\u2013";

  /** What happens to a right passage: it keeps its rank, moves, is cut, has no score, or was
   *  never a candidate. */
  function fate({ fusedIds, scoredIds, kept }, pid) {
    const was = kit.rankOf(fusedIds, pid);
    const at = kept.includes(pid) ? kit.rankOf(scoredIds, pid) : null;
    if (at && at === was) return `stays at rank ${at}`;
    if (at) return `moves from fused rank ${was} to rank ${at}`;
    if (scoredIds.includes(pid)) return "is cut";
    return was ? "has no score" : "is not among the candidates";
  }

  const status = (props) => [
    `Kept ${props.kept.length} of ${props.candidates.length} candidates at threshold ${RAG.fixed(props.t, 2)}. `,
    props.rights.length > 1 ? "The right passages: " : "The right passage, ",
    props.rights.map((pid, i) => [i ? "; " : "", h("code", null, pid), `, ${fate(props, pid)}`]), "."];

  const fusedRank = (props, pid) => h("p", { class: "detail" }, `fused rank ${kit.rankOf(props.fusedIds, pid)}`);

  function candidateRow(props, [pid, value]) {
    const right = props.rights.includes(pid);
    return kit.row({ id: pid, place: props.places.fused.get(pid), title: props.sections[pid],
                     score: RAG.fixed(value, 5),
                     more: right ? h("span", { class: "flag" }, "right passage") : null,
                     classes: [right && "is-answer"], attrs: { "data-pid": pid } });
  }

  function rerankedRow(props, [pid, value], index) {
    const { control } = props;
    const keep = value >= props.t;
    const right = props.rights.includes(pid);
    return kit.row({
      id: pid, place: props.places.reranked.get(pid), title: props.sections[pid],
      bar: { min: control.min, max: control.max, value }, score: RAG.fixed(value, control.digits),
      more: [h("span", { class: "flag" }, !keep ? "cut" : right ? "right passage" : "kept"), fusedRank(props, pid)],
      classes: [right && "is-answer", keep && index === 0 && "is-winner", !keep && "is-removed", !keep && "is-cut"],
      attrs: { "data-pid": pid } });
  }

  function unscoredRow(props, pid) {
    return kit.row({ id: pid, place: DASH, title: props.sections[pid], score: DASH,
                     more: [h("span", { class: "flag" }, "no score written"), fusedRank(props, pid)],
                     classes: ["is-unscored", props.rights.includes(pid) && "is-answer"], attrs: { "data-pid": pid } });
  }

  RAG.lab("rerank", {
    accept(next, input) {
      if (!input.data.rerank.by_question[next.q] || !input.corpus.question(next.q)) return null;
      return { q: next.q, t: RAG.kit.onSlider(next.t, input.own.control, input.own.control.threshold) };
    },

    props(state, input) {
      const { rerank } = input.data;
      const { corpus } = input;
      const question = corpus.question(state.q);
      const candidates = question.runs.hybrid.slice(0, rerank.depth);
      const fusedIds = candidates.map(([pid]) => pid);
      const scored = rerank.by_question[state.q].filter(([pid]) => fusedIds.includes(pid));
      const scoredIds = scored.map(([pid]) => pid);
      return {
        t: state.t, control: input.own.control, rights: corpus.rightPassages(question),
        illustrative: rerank.source === "illustrative", label: rerank.label,
        candidates, fusedIds, scored, scoredIds,
        places: { fused: kit.placesOf(question.runs.hybrid), reranked: kit.placesOf(scored) },
        unscored: fusedIds.filter((pid) => !scoredIds.includes(pid)),
        kept: scored.filter(([, value]) => value >= state.t).map(([pid]) => pid),
        sections: Object.fromEntries(candidates.map(([pid]) => [pid, corpus.passage(pid).section])),
      };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "lab-columns rerank-columns" },
          h("div", { class: "lab-col" },
            h("h4", { id: "rerank-in-title" }, "Fused list \u00b7 what the reranker reads"),
            h("ol", { class: "results rerank-in", "aria-labelledby": "rerank-in-title" },
              props.candidates.map((pair) => candidateRow(props, pair)))),
          h("div", { class: "lab-col" },
            h("h4", { id: "rerank-out-title" }, `Reranked \u00b7 ${props.illustrative ? "illustrative scores" : props.label}`),
            h("ol", { class: "results rerank-out", "aria-labelledby": "rerank-out-title" },
              props.scored.map((pair, i) => rerankedRow(props, pair, i)),
              props.unscored.map((pid) => unscoredRow(props, pid))))),
      ];
    },

    summary: (props) => kit.spoken(status(props)),

    /** Under the controls: what the threshold does to the right passage, and the first kept. */
    outcome: (props) => [RAG.rankOutcome({ rights: props.rights.map((pid) => [pid, fate(props, pid)]),
      top: props.kept, named: `Kept ${props.kept.length} of ${props.candidates.length}`, empty: "none" })],
  });
})();
