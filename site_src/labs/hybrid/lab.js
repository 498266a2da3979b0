/* The hybrid explorer: each retriever's top results for one question and the list reciprocal
 * rank fusion makes of them, side by side. Pointing at, focusing or tapping a passage marks it in
 * every list and names its three ranks. Each list is one tab stop; the arrow keys move inside it.
 * State: {q}: a question id (a preset, or one asked live). Local: the passage pointed at, and the
 * passage each list's tab stop is on. */
(() => {
  const h = RAG.h;
  const LISTS = [["dense", "Dense \u00b7 cosine", 3], ["bm25", "BM25 \u00b7 score", 3], ["hybrid", "Fused \u00b7 RRF", 5]];
  const ids = (ranking) => ranking.map(([pid]) => pid);
  const rankIn = (ranking, pid) => (pid ? ids(ranking).indexOf(pid) + 1 || null : null);

  /** Where the fused list's passage came from: "from dense 2 + BM25 1". */
  function sourcesOf(pid, dense, bm25) {
    const parts = [];
    if (dense.includes(pid)) parts.push(`dense ${dense.indexOf(pid) + 1}`);
    if (bm25.includes(pid)) parts.push(`BM25 ${bm25.indexOf(pid) + 1}`);
    return `from ${parts.join(" + ")}`;
  }

  function row(props, list, [pid, score], index, digits) {
    const stop = props.stops[list] && props.lists[list].some(([other]) => other === props.stops[list]) ? props.stops[list] : null;
    return h("li", {
      class: ["result", pid === props.answer && "is-answer", index === 0 && "is-winner", pid === props.linked && "is-linked"],
      "data-pid": pid, tabindex: (stop ? pid === stop : index === 0) ? "0" : "-1" },
    h("span", { class: "rank" }, String(index + 1)),
    h("span", { class: "pid" }, h("code", null, pid), " ", h("span", { class: "title" }, props.sections[pid])),
    h("span", { class: "score" }, RAG.fixed(score, digits)),
    pid === props.answer ? h("span", { class: "flag" }, "right passage") : null,
    h("p", { class: "detail" }, list === "hybrid" ? sourcesOf(pid, props.top.dense, props.top.bm25)
      : `fused rank ${props.fused.indexOf(pid) + 1}`));
  }

  const EMPTY = h("li", { class: "result is-muted empty-list" }, h("span", { class: "rank" }),
    h("span", { class: "pid" }, "No passage shares a term with the question."), h("span", { class: "score" }));

  function status(props) {
    const { answer, ranks, firsts } = props;
    if (!answer) {
      // A question asked live has no known right passage: say what each list put first.
      return [`Asked live, so no right passage is known: dense puts ${firsts.dense} first, BM25 ${firsts.bm25}, ` +
        `fusion ${firsts.hybrid}.`];
    }
    return ["The right passage, ", h("code", null, answer),
      `: dense rank ${ranks.dense || "none"}, BM25 rank ${ranks.bm25 || "none"}, fused rank ${ranks.hybrid || "none"}.`];
  }

  function readout(props) {
    const pid = props.linked;
    if (!pid) return "Point at or tap a passage to see its three ranks.";
    const rank = (list) => rankIn(props.lists[list], pid) || "none";
    return [h("code", null, pid),
      `: dense ${rank("dense")}, BM25 ${rank("bm25")}, fused ${rank("hybrid")} (of the top ${props.depth} each).`];
  }

  RAG.lab("hybrid", {
    local: { linked: null, stops: {} },

    accept(next, input) {
      return input.question(next.q) ? { q: next.q } : null;
    },

    props(state, input, local) {
      const question = input.question(state.q);
      const { runs } = question;
      const depth = input.data.settings.fusion_depth;
      const lists = { dense: runs.dense.slice(0, depth), bm25: runs.bm25.slice(0, depth), hybrid: runs.hybrid.slice(0, depth) };
      const first = (ranking) => (ranking.length ? ranking[0][0] : "nothing");
      return {
        answer: question.answer, depth, lists, linked: local.linked, stops: local.stops,
        top: { dense: ids(lists.dense), bm25: ids(lists.bm25) }, fused: ids(runs.hybrid),
        ranks: { dense: rankIn(runs.dense, question.answer), bm25: rankIn(runs.bm25, question.answer),
                 hybrid: rankIn(runs.hybrid, question.answer) },
        firsts: { dense: first(runs.dense), bm25: first(runs.bm25), hybrid: first(runs.hybrid) },
        sections: Object.fromEntries(input.data.passages.map((p) => [p.id, p.section])),
      };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("p", { class: "hybrid-readout js-only", "aria-live": "polite" }, readout(props)),
        h("div", { class: "lab-columns hybrid-columns" }, LISTS.map(([list, title, digits]) => {
          const present = props.linked && !props.lists[list].some(([pid]) => pid === props.linked);
          return h("div", { class: ["lab-col", present && "is-missing"], "data-list": list },
            h("h4", { id: `hybrid-${list === "hybrid" ? "fused" : list}-title` }, title),
            h("ol", { class: "results", "aria-labelledby": `hybrid-${list === "hybrid" ? "fused" : list}-title` },
              props.lists[list].length ? props.lists[list].map((pair, i) => row(props, list, pair, i, digits)) : EMPTY));
        })),
      ];
    },

    summary(props) {
      const said = status(props);
      return said.map((part) => (typeof part === "string" ? part : props.answer)).join("");
    },

    setup(ctx) {
      const output = ctx.output;
      const itemOf = (target) => (target && target.closest ? target.closest("ol.results li[data-pid]") : null);
      const point = (pid) => { if (pid !== ctx.local.linked) ctx.show({ linked: pid }); };
      ctx.on(output, "mouseover", (event) => { const li = itemOf(event.target); if (li) point(li.dataset.pid); });
      ctx.on(output, "mouseleave", () => { if (!output.contains(document.activeElement)) point(null); });
      ctx.on(output, "focusin", (event) => { const li = itemOf(event.target); if (li) point(li.dataset.pid); });
      ctx.on(output, "focusout", (event) => { if (!output.contains(event.relatedTarget)) point(null); });
      ctx.on(output, "keydown", (event) => {
        const li = itemOf(event.target);
        if (!li) return;
        const items = [...li.parentNode.querySelectorAll("li[data-pid]")];
        const at = items.indexOf(li);
        const next = { ArrowDown: items[at + 1], ArrowRight: items[at + 1], ArrowUp: items[at - 1], ArrowLeft: items[at - 1],
                       Home: items[0], End: items[items.length - 1] }[event.key];
        if (!next) return;
        event.preventDefault();
        const list = li.closest(".lab-col").dataset.list;
        ctx.show({ stops: { ...ctx.local.stops, [list]: next.dataset.pid } });
        next.focus();
      });
    },
  });
})();
