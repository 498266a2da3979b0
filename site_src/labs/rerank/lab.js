/* Rerank, then cut off: the fused list's top candidates (what the reranker reads) beside the same
 * candidates re-sorted by their rerank scores (data.rerank: a cross-encoder's, or hand-written and
 * labelled illustrative) and cut at the reader's threshold; candidates without a score come last.
 * State: {q, t}: a question with rerank scores, and the threshold (null: the control's default,
 * which depends on where the scores came from; own.control). */
(() => {
  const h = RAG.h;
  const DASH = "\u2013";

  /** What happens to the right passage: it keeps its rank, moves, is cut, has no score, or was
   *  never a candidate. */
  function fate({ answer, fusedIds, scoredIds, kept }) {
    const was = fusedIds.indexOf(answer) + 1;
    const at = kept.includes(answer) ? scoredIds.indexOf(answer) + 1 : 0;
    if (at && at === was) return `stays at rank ${at}.`;
    if (at) return `moves from fused rank ${was} to rank ${at}.`;
    if (scoredIds.includes(answer)) return "is cut.";
    return was ? "has no score." : "is not among the candidates.";
  }

  const statusHead = (props) =>
    `Kept ${props.kept.length} of ${props.candidates.length} candidates at threshold ${RAG.fixed(props.t, 2)}. The right passage, `;

  function name(props, pid) {
    return h("span", { class: "pid" }, h("code", null, pid), " ", h("span", { class: "title" }, props.sections[pid]));
  }

  const fusedRank = (props, pid) => h("p", { class: "detail" }, `fused rank ${props.fusedIds.indexOf(pid) + 1}`);

  function candidateRow(props, [pid, value], index) {
    return h("li", { class: ["result", pid === props.answer && "is-answer"], "data-pid": pid },
      h("span", { class: "rank" }, String(index + 1)),
      name(props, pid),
      h("span", { class: "score" }, RAG.fixed(value, 5)),
      pid === props.answer ? h("span", { class: "flag" }, "right passage") : null);
  }

  function rerankedRow(props, [pid, value], index) {
    const { control } = props;
    const keep = value >= props.t;
    return h("li", {
      class: ["result", pid === props.answer && "is-answer", keep && index === 0 && "is-winner", !keep && "is-removed",
              !keep && "is-cut"], "data-pid": pid },
    h("span", { class: "rank" }, String(index + 1)),
    name(props, pid),
    h("meter", { class: "score-bar", min: String(control.min), max: String(control.max), value: String(value),
                 "aria-hidden": "true" }),
    h("span", { class: "score" }, RAG.fixed(value, control.digits)),
    h("span", { class: "flag" }, !keep ? "cut" : pid === props.answer ? "right passage" : "kept"),
    fusedRank(props, pid));
  }

  function unscoredRow(props, pid) {
    return h("li", { class: ["result", "is-unscored", pid === props.answer && "is-answer"], "data-pid": pid },
      h("span", { class: "rank" }, DASH),
      name(props, pid),
      h("span", { class: "score" }, DASH),
      h("span", { class: "flag" }, "no score written"),
      fusedRank(props, pid));
  }

  RAG.lab("rerank", {
    accept(next, input) {
      if (!input.data.rerank.by_question[next.q] || !input.question(next.q)) return null;
      return { q: next.q, t: RAG.kit.onSlider(next.t, input.own.control, input.own.control.threshold) };
    },

    props(state, input) {
      const { rerank } = input.data;
      const candidates = input.question(state.q).runs.hybrid.slice(0, rerank.depth);
      const fusedIds = candidates.map(([pid]) => pid);
      const scored = rerank.by_question[state.q].filter(([pid]) => fusedIds.includes(pid));
      const scoredIds = scored.map(([pid]) => pid);
      return {
        t: state.t, control: input.own.control, answer: input.question(state.q).answer,
        illustrative: rerank.source === "illustrative", label: rerank.label,
        candidates, fusedIds, scored, scoredIds,
        unscored: fusedIds.filter((pid) => !scoredIds.includes(pid)),
        kept: scored.filter(([, value]) => value >= state.t).map(([pid]) => pid),
        sections: Object.fromEntries(input.data.passages.map((p) => [p.id, p.section])),
      };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, statusHead(props), h("code", null, props.answer), `, ${fate(props)}`),
        h("div", { class: "lab-columns rerank-columns" },
          h("div", { class: "lab-col" },
            h("h4", { id: "rerank-in-title" }, "Fused list \u00b7 what the reranker reads"),
            h("ol", { class: "results rerank-in", "aria-labelledby": "rerank-in-title" },
              props.candidates.map((pair, i) => candidateRow(props, pair, i)))),
          h("div", { class: "lab-col" },
            h("h4", { id: "rerank-out-title" }, `Reranked \u00b7 ${props.illustrative ? "illustrative scores" : props.label}`),
            h("ol", { class: "results rerank-out", "aria-labelledby": "rerank-out-title" },
              props.scored.map((pair, i) => rerankedRow(props, pair, i)),
              props.unscored.map((pid) => unscoredRow(props, pid))))),
      ];
    },

    summary(props) {
      return `${statusHead(props)}${props.answer}, ${fate(props)}`;
    },
  });
})();
