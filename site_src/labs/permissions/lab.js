/* The permission demo (lab.html draws its default): one dense search, filtered by the reader's
 * groups before the top k is cut (pre-filter) or after it (post-filter). The filters are
 * engine/access.py's twins (RAG.engine.preFilter, postFilter), run here on the question's dense
 * ranking, so a question asked live is filtered too; the tests check them against the lists
 * the build computed (own.readers[role].runs). A passage the reader may not read is never
 * named in a filtered list: a post-filter drop shows only its rank.
 * Below, the keyword search for the same reader, filtered too or not at all: the unfiltered list
 * flags what leaks, and the lesson gives each leak's rank once fused with the filtered vector
 * search (RAG.engine.rrf over each list's top data.settings.fusion_depth, as own.readers[role].leaks).
 * State: {reader, q, k}: a role, a question of the demo's list (or one asked live), a k of own.ks. */
(() => {
  const el = RAG.el;


  function lesson(lists, k, reader) {
    const dropped = k - lists.post.length;
    if (dropped) {
      return `The search spent ${dropped} of its ${k} places on passages this reader may not read, so the ` +
        `post-filter returns ${lists.post.length}; the pre-filter searched only what this reader may read and ` +
        `still returns ${lists.pre.length}.`;
    }
    if (reader.hidden.length) {
      return `No passage this reader may not read ranked in the top ${k}, so both filters return the same ` +
        `${lists.post.length}. Post-filtering only shows its cost when a restricted passage ranks high.`;
    }
    return `${reader.label} may read every passage, so both filters return the same ${lists.post.length}, ` +
      "staff-only runbooks included.";
  }

  function keywordLesson(leaked, bm25Ids, fusedRank, k, reader) {
    if (leaked.length) {
      return [`With the filter on the vector search only, keyword search still hands this reader ` +
        `${RAG.plural(leaked.length, "passage")} they may not read: `,
        leaked.map((pid, i) => [i ? "; " : "", el("code", null, pid),
          ` at BM25 rank ${bm25Ids.indexOf(pid) + 1}, fused rank ${fusedRank(pid)}`]),
        ". Filter every retriever, or filter once, before either runs."];
    }
    if (reader.hidden.length) {
      return `Keyword search ranks no passage this reader may not read in its top ${k}, so a filter missing ` +
        "from it would not show here, which is how such a bug survives a quick test.";
    }
    return `${reader.label} may read every passage, so the filter removes nothing from either search.`;
  }

  RAG.lab("permissions", {
    accept(next, ctx) {
      const question = ctx.question(next.q);
      const listed = question && (ctx.own.questions.includes(next.q) || question.source === "live");
      const k = Number(next.k);
      if (!listed || !ctx.own.readers[next.reader] || !ctx.own.ks.includes(k)) return null;
      return { reader: next.reader, q: next.q, k };
    },

    setup(ctx) {
      for (const input of ctx.findAll('input[name="permissions-reader"]')) {
        ctx.on(input, "change", () => ctx.set({ reader: input.value }));
      }
      for (const input of ctx.findAll('input[name="permissions-k"]')) {
        ctx.on(input, "change", () => ctx.set({ k: input.value }));
      }
    },

    draw(ctx) {
      const { state } = ctx;
      const { k } = state;
      const reader = ctx.own.readers[state.reader];
      const question = ctx.question(state.q);
      const dense = question.runs.dense;
      const ranked = dense.map(([pid]) => pid);
      const acl = Object.fromEntries(ctx.data.passages.map((p) => [p.id, p.acl]));
      const lists = { pre: RAG.engine.preFilter(ranked, acl, reader.groups, k),
                      post: RAG.engine.postFilter(ranked, acl, reader.groups, k) };
      const scores = Object.fromEntries(dense);
      const top = dense[0][1];
      const passages = Object.fromEntries(ctx.data.passages.map((p) => [p.id, p]));

      const row = (rank, pid, score = scores[pid], max = top, leaked = false) => {
        const p = passages[pid];
        const right = pid === question.answer;
        const staff = p.acl.includes("staff");
        return el("li", { class: ["result", right ? "is-answer" : "", leaked ? "is-leaked" : ""] },
          el("span", { class: "rank" }, String(rank)),
          el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.section)),
          el("meter", { class: "score-bar", min: "0", max: String(max), value: String(score), "aria-hidden": "true" }),
          el("span", { class: "score" }, RAG.fixed(score, 3)),
          right || staff || leaked ? el("span", { class: "badges" },
            right ? el("span", { class: "badge badge-ok" }, "right passage") : null,
            staff ? el("span", { class: "badge badge-staff" }, "staff only") : null,
            leaked ? el("span", { class: "badge badge-fail" }, "leaked") : null) : null);
      };
      const dropped = (rank) => el("li", { class: "result is-removed perm-dropped" },
        el("span", { class: "rank" }, String(rank)),
        el("span", { class: "pid" }, el("span", { class: "title" }, "dropped after the search")),
        el("span", { class: "score", "aria-hidden": "true" }, "\u2013"),
        el("p", { class: "detail" },
          "A passage this reader may not read took this place; the filter removed it and nothing replaced it."));

      for (const input of ctx.findAll('input[name="permissions-reader"]')) input.checked = input.value === state.reader;
      for (const input of ctx.findAll('input[name="permissions-k"]')) input.checked = Number(input.value) === k;
      const said = `${reader.label}, k = ${k}: the pre-filter returns ${RAG.plural(lists.pre.length, "passage")}, ` +
        `the post-filter ${lists.post.length}.`;
      ctx.find(".lab-status").textContent = said;
      ctx.find(".perm-pre h4").textContent = `Pre-filter \u00b7 ${lists.pre.length} of ${k}`;
      ctx.find(".perm-post h4").textContent = `Post-filter \u00b7 ${lists.post.length} of ${k}`;
      RAG.replace(ctx.find(".perm-pre ol.results"), lists.pre.map((pid, i) => row(i + 1, pid)));
      RAG.replace(ctx.find(".perm-post ol.results"),
        ranked.slice(0, k).map((pid, i) => (lists.post.includes(pid) ? row(i + 1, pid) : dropped(i + 1))));
      ctx.find(".perm-lesson").textContent = lesson(lists, k, reader);

      // The keyword search, filtered too or not at all.
      const bm25 = question.runs.bm25;
      const bm25Ids = bm25.map(([pid]) => pid);
      const kwTop = bm25.length ? bm25[0][1] : 0;
      const readable = (pid) => RAG.engine.canRead(acl[pid], reader.groups);
      const kwFiltered = bm25.filter(([pid]) => readable(pid)).slice(0, k);
      const kwShown = bm25.slice(0, k);
      const leaked = kwShown.map(([pid]) => pid).filter((pid) => !readable(pid));
      const depth = ctx.data.settings.fusion_depth;
      const fused = RAG.engine.rrf([RAG.engine.preFilter(ranked, acl, reader.groups, depth), bm25Ids.slice(0, depth)],
        ctx.data.settings.rrf_k).map(([pid]) => pid);
      ctx.find(".perm-kw-on h4").textContent = `BM25, filtered \u00b7 ${kwFiltered.length} of ${k}`;
      ctx.find(".perm-kw-off h4").textContent = `BM25, not filtered \u00b7 ${leaked.length || "none"} leaked`;
      RAG.replace(ctx.find(".perm-kw-on ol.results"), kwFiltered.map(([pid, score], i) => row(i + 1, pid, score, kwTop)));
      RAG.replace(ctx.find(".perm-kw-off ol.results"),
        kwShown.map(([pid, score], i) => row(i + 1, pid, score, kwTop, !readable(pid))));
      RAG.replace(ctx.find(".perm-kw-lesson"), keywordLesson(leaked, bm25Ids, (pid) => fused.indexOf(pid) + 1, k, reader));
      return said;
    },
  });
})();
