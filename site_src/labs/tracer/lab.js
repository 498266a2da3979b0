/* One question, every stage: a tracer question through every stage, side by side ("all") or one
 * at a time, with buttons that step through them. Everything shown is read from the data: the
 * question's runs (dense, BM25, fused, with scores), data.rerank (illustrative unless a real model
 * was named), data.tracers[i] (the passages its prompt carries, the illustrative answer, its claims
 * and the real results of check_citations and the output guardrail) and data.prompt_tokens.
 * State: {q, stage}: a tracer id (only tracer questions have an answer to trace) and "all" or one
 * stage key (own.stages). */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const DASH = "\u2013";

  const tracerOf = (data, id) => data.tracers.find((t) => t.id === id) || null;

  /* "Stage 3 of 7, Fused," or "All 7 stages", then the question. */
  function status(props) {
    const { at, stages } = props;
    const which = at < 0 ? `All ${stages.length} stages` : `Stage ${at + 1} of ${stages.length}, ${stages[at][1]},`;
    return `${which} for \u201c${props.tracer.question}\u201d.`;
  }

  /* The answer's text with each [id] marker a link to that passage in the prompt stage, or
     marked as a citation of a passage the prompt did not carry. */
  function answerNodes(text, sent) {
    const nodes = [];
    let last = 0;
    for (const match of text.matchAll(/\[([^[\]]*)\]/g)) {
      const pid = match[1];
      nodes.push(text.slice(last, match.index), sent.includes(pid)
        ? h("a", { class: "trace-cite", href: `#tracer-src-${pid}`, "data-pid": pid }, `[${pid}]`)
        : h("mark", { class: "trace-cite is-unsent" }, `[${pid}]`));
      last = match.index + match[0].length;
    }
    nodes.push(text.slice(last));
    return nodes;
  }

  const codes = (ids) => ids.map((pid, i) => [i ? ", " : "", h("code", null, pid)]);

  function badges(props, pid, dated = false) {
    const p = props.passages[pid];
    const staff = p.acl.includes("staff");
    const right = props.rights.includes(pid);
    if (!(dated || right || p.superseded || p.kind === "forum" || staff)) return null;
    return h("span", { class: "badges" },
      dated ? h("span", { class: "badge" }, p.updated) : null,
      right ? h("span", { class: "badge badge-ok" }, "right passage") : null,
      p.superseded ? h("span", { class: "badge badge-superseded" }, "outdated") : null,
      p.kind === "forum" ? h("span", { class: "badge badge-forum" }, "forum post") : null,
      staff ? h("span", { class: "badge badge-staff" }, "staff only") : null);
  }

  const title = (props, pid, key = "section") =>
    [h("code", null, pid), " ", h("span", { class: "title" }, props.passages[pid][key])];

  function row(props, place, [pid, value], top, digits, later = false) {
    const right = props.rights.includes(pid);
    return kit.row({ id: pid, place, name: title(props, pid), bar: { max: top, value }, score: RAG.fixed(value, digits),
                     more: badges(props, pid), classes: [right && "is-answer", later && "is-later"], attrs: { "data-pid": pid } });
  }

  /* The top `depth` of a list; below them, each right passage where it ranked, or a note that the
     list does not hold it. */
  function ranked(props, list, digits, top, missing) {
    const places = kit.placesOf(list);
    const below = (pid) => {
      const at = kit.rankOf(list, pid);
      if (at) return at > props.depth ? row(props, places.get(pid), list[at - 1], top, digits, true) : null;
      return kit.row({ place: DASH, name: title(props, pid), score: DASH, more: h("p", { class: "detail" }, missing),
                       classes: ["is-answer", "is-later", "is-missing"] });
    };
    return h("ol", { class: "results trace-list" },
      list.slice(0, props.depth).map((pair) => row(props, places.get(pair[0]), pair, top, digits)), props.rights.map(below));
  }

  const head = (index, label, ...extra) => h("h4", null, h("span", { class: "trace-num" }, String(index)), ` ${label}`, extra);
  const note = (...children) => h("p", { class: "trace-note" }, children);

  function stage(props, key, wide, ...children) {
    return h("div", { class: ["trace-stage", wide && "trace-wide"], "data-stage": key,
                      hidden: props.at >= 0 && props.stages[props.at][0] !== key }, children);
  }

  function listStages(props) {
    const { runs, fusionDepth, cutoff, kept, illustrative } = props;
    return [
      stage(props, "dense", false, head(1, "Dense search"),
        note(`Cosine similarity of the question's embedding to each passage's (${props.model}).`),
        ranked(props, runs.dense, 3, runs.dense[0][1], "")),
      stage(props, "bm25", false, head(2, "BM25"),
        note("Keyword scores; only passages that share a word with the question are listed."),
        ranked(props, runs.bm25, 3, runs.bm25.length ? runs.bm25[0][1] : 0, "Not in BM25's list: it shares no word with the question.")),
      stage(props, "fused", false, head(3, "Fused (RRF)"),
        note(`Reciprocal rank fusion of each list's top ${fusionDepth}, k = ${props.rrfK}.`),
        ranked(props, runs.hybrid, 4, runs.hybrid[0][1], `Not in the fused list: neither retriever had it in its top ${fusionDepth}.`)),
      stage(props, "rerank", false,
        head(4, "Rerank", ...(illustrative ? [" ", h("span", { class: "badge badge-warn" }, "illustrative")] : [])),
        note(...(illustrative ? ["Scores written by hand to show what a cross-encoder typically does; no reranker ran."]
          : ["Scores of the cross-encoder ", h("code", null, String(props.rerankModel)), ` over the fused top ${props.rerankDepth}.`])),
        h("p", { class: "trace-note trace-cutoff" }, kept.length
          ? [`A cut-off at ${RAG.fixed(cutoff, 2)} keeps ${kept.length}: `, codes(kept), "."]
          : `A cut-off at ${RAG.fixed(cutoff, 2)} keeps none of them.`),
        ranked(props, props.rerank, 2, 1, "Not scored by the reranker.")),
    ];
  }

  function promptStage(props) {
    const { q, sent, dropped, cutoff, illustrative } = props;
    const fused = (pid) => (props.runs.hybrid.find(([id]) => id === pid) || [pid, 0])[1];
    return stage(props, "prompt", true, head(5, "Into the prompt"),
      note(`The fused top ${sent.length}, in that order, each tagged with its id, title and date: ` +
        `${props.promptTokens} tokens (${props.tokenizer}) with the rules and the question. `,
        h("a", { class: "trace-open-prompt", href: `#lab-prompt?q=${q}&n=${sent.length}` }, "Open this prompt in the builder")),
      h("p", { class: "trace-note trace-which" },
        (illustrative
          ? "The prompt takes the fused list, not the rerank: the rerank scores are written by hand, so every prompt " +
            "on this page, and every citation check, is built from the real fused list."
          : "The prompt takes the fused list, not the rerank, so every prompt on this page is built the same way " +
            "with or without a reranker; a pipeline that reranks sends what passes its cut-off.") + " ",
        dropped.length
          ? [`The cut-off at ${RAG.fixed(cutoff, 2)} would have dropped ${dropped.length} of these ${sent.length}: `,
             codes(dropped), "."]
          : `All ${sent.length} pass the cut-off at ${RAG.fixed(cutoff, 2)}.`),
      h("ol", { class: "results trace-sent" }, sent.map((pid) => kit.row({
        place: props.sentPlaces.get(pid), name: title(props, pid, "title"), score: RAG.fixed(fused(pid), 4), scoreTitle: "fused (RRF) score",
        more: [badges(props, pid, true), h("p", { class: "snippet" }, props.passages[pid].text)],
        classes: [props.rights.includes(pid) && "is-answer"], attrs: { id: `tracer-src-${pid}`, tabindex: "-1" } }))));
  }

  function checkStage(props) {
    const { tracer } = props;
    return stage(props, "check", true, head(7, "Citation check"),
      note("Each sentence of the answer with the claims that stand for its words: a sentence no claim backs was ",
        "checked by nothing. Then the claims, each with the source it cites and its quote, checked by ",
        h("code", null, "check_citations"), " against the passages sent."),
      props.answer.view(props.answerProps),
      h("div", { class: "table-scroll" }, h("table", { class: "trace-claims" },
        h("thead", null, h("tr", null, ["#", "Claim", "Cites", "Quote", "Check"].map((name) => h("th", { scope: "col" }, name)))),
        h("tbody", null, tracer.claims.map((c, i) => h("tr", null,
          h("th", { scope: "row", class: "trace-claim-number" }, `claim ${i + 1}`),
          h("td", null, c.text),
          h("td", null, h("code", null, c.source)),
          h("td", null, `\u201c${c.quote}\u201d`),
          h("td", null, c.ok ? h("span", { class: "badge badge-ok" }, "pass")
            : [h("span", { class: "badge badge-fail" }, "fail"),
               c.problems.map((problem) => [" ", h("span", { class: "checker-problem" }, problem)])])))))),
      h("p", { class: "trace-guardrail" }, "Output guardrail on the answer: " + (tracer.guardrail.length
        ? tracer.guardrail.join("; ") : "no links, e-mail addresses or requests for credentials found.")));
  }

  function readout(props) {
    const { runs, rights, sent, tracer } = props;
    const passed = tracer.claims.filter((c) => c.ok).length;
    const stages = (pid) => {
      const sentAt = kit.rankOf(sent, pid);
      return `: dense rank ${kit.rankOf(runs.dense, pid) || DASH}, BM25 rank ${kit.rankOf(runs.bm25, pid) || "none (not in the list)"}, ` +
        `fused rank ${kit.rankOf(runs.hybrid, pid) || "none"}, rerank ${kit.rankOf(props.rerank, pid) || "none"}` +
        `${props.illustrative ? " (illustrative)" : ""}; ` +
        (sentAt ? `sent to the model at position ${sentAt} of ${sent.length}` : "not sent to the model");
    };
    return h("p", { class: "lab-lesson trace-readout" }, rights.length > 1 ? "Right passages: " : "Right passage ",
      rights.map((pid, i) => [i ? "; " : "", h("code", null, pid), stages(pid)]),
      `. Citations: ${passed} of ${tracer.claims.length} pass every check; ` +
      `${RAG.plural(props.unbacked, "sentence")} of ${props.answerProps.sentences.length} backed by no claim.`);
  }

  RAG.lab("tracer", {
    accept(next, input) {
      if (!tracerOf(input.data, next.q) || !input.corpus.question(next.q)) return null;
      const known = next.stage === "all" || input.own.stages.some(([key]) => key === next.stage);
      return { q: next.q, stage: known ? next.stage : "all" };
    },

    props(state, input) {
      const { data, own } = input;
      const tracer = tracerOf(data, state.q);
      const question = input.corpus.question(state.q);
      const runs = question.runs;
      const rerank = data.rerank.by_question[state.q] || tracer.rerank;
      const fused = new Map(runs.hybrid);
      // The prompt takes the fused list; the rerank stage says what a cut-off would keep.
      const kept = rerank.filter(([, value]) => value >= own.cutoff).map(([pid]) => pid);
      const answer = RAG.viewSpec("answer");
      const answerProps = answer.props(null, {
        corpus: input.corpus, text: tracer.answer_text, claims: tracer.claims, current: null, unbacked: own.unbacked,
        label: "Illustrative \u00b7 sentence by sentence", cite: (text) => answerNodes(text, tracer.sent),
        prefix: "tracer" });
      return {
        q: state.q, stages: own.stages, at: own.stages.findIndex(([key]) => key === state.stage),
        tracer, rights: input.corpus.rightPassages(question), sent: tracer.sent, runs, rerank,
        sentPlaces: kit.placesOf(tracer.sent.map((pid) => [pid, fused.get(pid) || 0])),
        depth: own.depth, cutoff: own.cutoff, kept, dropped: tracer.sent.filter((pid) => !kept.includes(pid)),
        illustrative: data.rerank.source === "illustrative", rerankModel: data.rerank.model, rerankDepth: data.rerank.depth,
        model: data.model.name, fusionDepth: data.settings.fusion_depth, rrfK: data.settings.rrf_k,
        promptTokens: data.prompt_tokens[state.q][String(tracer.sent.length)], tokenizer: data.tokens.tokenizer,
        passages: Object.fromEntries(data.passages.map((p) => [p.id, p])),
        answer, answerProps, unbacked: answerProps.sentences.filter((s) => !s.claims.length).length,
      };
    },

    view(props) {
      const { at, stages } = props;
      return [
        h("div", { class: "trace-step js-only", role: "group", "aria-label": "Step through the stages" },
          h("button", { type: "button", class: "btn", "data-step": "-1", disabled: at <= 0 }, "Previous stage"),
          h("button", { type: "button", class: "btn btn-primary", "data-step": "1", disabled: at === stages.length - 1 },
            "Next stage")),
        h("p", { class: "lab-status", role: "status", "aria-live": "polite" }, status(props)),
        h("div", { class: ["trace-stages", at < 0 ? "is-all" : "is-one"] },
          listStages(props),
          promptStage(props),
          stage(props, "answer", true, head(6, "The answer"),
            h("div", { class: "illustrative trace-answer" }, h("p", null, answerNodes(props.tracer.answer_text, props.sent)))),
          checkStage(props)),
        readout(props),
      ];
    },

    summary: status,

    setup(ctx) {
      const keys = () => ctx.input.own.stages.map(([key]) => key);
      ctx.on(ctx.output, "click", (event) => {
        const target = event.target.closest ? event.target : null;
        const button = target && target.closest("button[data-step]");
        if (button) {
          const at = keys().indexOf(ctx.state.stage);
          const step = Number(button.dataset.step);
          const next = at < 0 ? (step > 0 ? 0 : -1) : at + step;
          if (next >= 0 && next < keys().length) ctx.set({ stage: keys()[next] });
          return;
        }
        // A citation in the answer jumps to its passage in the prompt stage; the lab keeps its link.
        const cite = target && target.closest("a.trace-cite");
        if (!cite) return;
        event.preventDefault();
        if (ctx.state.stage !== "all") ctx.set({ stage: "prompt" });
        const passage = document.getElementById(`tracer-src-${cite.dataset.pid}`);
        if (passage) {
          passage.scrollIntoView({ block: "center" });
          passage.focus({ preventScroll: true });
        }
      });
    },
  });
})();
