/* The permission demo (lab.html draws its default): one dense search, filtered by the reader's
 * groups before the top k is cut (pre-filter) or after it (post-filter). The filters are the
 * two lines of engine/access.py, run here on the question's dense ranking and the passages
 * the reader may not read (own.readers[role].hidden); the tests check them against the lists
 * the build computed (own.readers[role].runs). A passage the reader may not read is never
 * named in that reader's view: a post-filter drop shows only its rank.
 * State: {reader, q, k}: a role, a question of the demo's list (or one asked live), a k of own.ks. */
(() => {
  const el = RAG.el;

  /** Filter inside the search: the top k of what the reader may read. */
  const preFilter = (ranked, hidden, k) => ranked.filter((pid) => !hidden.has(pid)).slice(0, k);
  /** Filter after the search: the top k of everything, minus what the reader may not read. */
  const postFilter = (ranked, hidden, k) => ranked.slice(0, k).filter((pid) => !hidden.has(pid));

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
      const hidden = new Set(reader.hidden);
      const lists = { pre: preFilter(ranked, hidden, k), post: postFilter(ranked, hidden, k) };
      const scores = Object.fromEntries(dense);
      const top = dense[0][1];
      const passages = Object.fromEntries(ctx.data.passages.map((p) => [p.id, p]));

      const row = (rank, pid) => {
        const p = passages[pid];
        const right = pid === question.answer;
        const staff = p.acl.includes("staff");
        return el("li", { class: ["result", right ? "is-answer" : ""] },
          el("span", { class: "rank" }, String(rank)),
          el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.section)),
          el("meter", { class: "score-bar", min: "0", max: String(top), value: String(scores[pid]), "aria-hidden": "true" }),
          el("span", { class: "score" }, RAG.fixed(scores[pid], 3)),
          right || staff ? el("span", { class: "badges" },
            right ? el("span", { class: "badge badge-ok" }, "right passage") : null,
            staff ? el("span", { class: "badge badge-staff" }, "staff only") : null) : null);
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
      ctx.find(".lab-lesson").textContent = lesson(lists, k, reader);
      return said;
    },
  });
})();
