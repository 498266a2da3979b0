/* The permission demo: one dense search, filtered by the reader's groups before the top k is cut
 * (pre-filter) or after it (post-filter), and below it the keyword search for the same reader,
 * filtered too or not at all; the lesson under it gives each leak's rank once fused with the
 * filtered vector search (over each list's top data.settings.fusion_depth). The filters and the
 * fusion run here, once per state, with the twins of engine/access.py and engine/fusion.py
 * (RAG.engine.preFilter, postFilter, canRead, rrf), on the question's rankings, so a question
 * asked live is filtered too; the tests hold them to the lists the build computed. A passage the
 * reader may not read is never named in a filtered list: a post-filter drop shows only its rank.
 * State: {reader, q, k}: a role of own.roles, a question of own.questions (or one asked live),
 * a k of own.ks. */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const acls = new WeakMap();  // a corpus -> id -> its groups, as the engine's filters read them
  const aclOf = (corpus) => {
    if (!acls.has(corpus)) acls.set(corpus, Object.fromEntries(corpus.passages.map((p) => [p.id, p.acl])));
    return acls.get(corpus);
  };

  function lesson(props) {
    const { k, pre, post, reader } = props;
    const dropped = k - post.length;
    if (dropped) {
      return `The search spent ${dropped} of its ${k} places on passages this reader may not read, so the ` +
        `post-filter returns ${post.length}; the pre-filter searched only what this reader may read and ` +
        `still returns ${pre.length}.`;
    }
    if (props.restricted) {
      return `No passage this reader may not read ranked in the top ${k}, so both filters return the same ` +
        `${post.length}. Post-filtering only shows its cost when a restricted passage ranks high.`;
    }
    return `${reader} may read every passage, so both filters return the same ${post.length}, staff-only runbooks included.`;
  }

  function keywordLesson(props) {
    const { leaks, k, reader } = props;
    if (leaks.length) {
      return [`With the filter on the vector search only, keyword search still hands this reader ` +
        `${RAG.plural(leaks.length, "passage")} they may not read: `,
        leaks.map((leak, i) => [i ? "; " : "", h("code", null, leak.id), ` at BM25 rank ${leak.rank}, fused rank ${leak.fused}`]),
        ". Filter every retriever, or filter once, before either runs."];
    }
    if (props.restricted) {
      return `Keyword search ranks no passage this reader may not read in its top ${k}, so a filter missing ` +
        "from it would not show here, which is how such a bug survives a quick test.";
    }
    return `${reader} may read every passage, so the filter removes nothing from either search.`;
  }

  /** A ranked passage: {place, id, title, score, max, right, staff, leaked}. */
  const row = (r) => kit.row({
    id: r.id, place: r.place, title: r.title, bar: { max: r.max, value: r.score }, score: RAG.fixed(r.score, 3),
    more: r.right || r.staff || r.leaked ? h("span", { class: "badges" },
      r.right ? h("span", { class: "badge badge-ok" }, "right passage") : null,
      r.staff ? h("span", { class: "badge badge-staff" }, "staff only") : null,
      r.leaked ? h("span", { class: "badge badge-fail" }, "leaked") : null) : null,
    classes: [r.right && "is-answer", r.leaked && "is-leaked"], attrs: { "data-pid": r.id } });

  /** A place of the top k a post-filter emptied: its rank, never the passage. */
  const droppedRow = (place) => kit.row({
    place, name: h("span", { class: "title" }, "dropped after the search"),
    score: h("span", { class: "score", "aria-hidden": "true" }, "\u2013"),
    more: h("p", { class: "detail" }, "A passage this reader may not read took this place; the filter removed it and nothing replaced it."),
    classes: ["is-removed", "perm-dropped"] });

  const column = (className, title, items) => h("div", { class: ["lab-col", className] },
    h("h4", null, title), h("ol", { class: "results" }, items));

  const status = (props) => `${props.reader}, k = ${props.k}: the pre-filter returns ${RAG.plural(props.pre.length, "passage")}, ` +
    `the post-filter ${props.post.length}.`;

  RAG.lab("permissions", {
    accept(next, input) {
      const question = input.corpus.question(next.q);
      const listed = question && (input.own.questions.includes(next.q) || question.source === "live");
      const k = Number(next.k);
      if (!listed || !Object.hasOwn(input.own.roles, next.reader) || !input.own.ks.includes(k)) return null;
      return { reader: next.reader, q: next.q, k };
    },

    props(state, input) {
      const { data, own, corpus } = input;
      const { k } = state;
      const { label, groups } = own.roles[state.reader];
      const question = corpus.question(state.q);
      const rights = corpus.rightPassages(question);
      const acl = aclOf(corpus);
      const readable = (pid) => RAG.engine.canRead(acl[pid], groups);
      // A tie is named only with passages this reader may read: a filtered list never names the others.
      const named = (place) => (place ? { ...place, tied: place.tied.filter(readable) } : place);
      const { dense, bm25 } = question.runs;
      const ranked = dense.map(([pid]) => pid);
      const scores = new Map(dense);
      const top = dense.length ? dense[0][1] : 0;
      const bm25Top = bm25.length ? bm25[0][1] : 0;
      const ranking = (place, pid, score, max, leaked = false) => ({
        place, id: pid, title: corpus.passage(pid).section, score, max, right: rights.includes(pid),
        staff: corpus.passage(pid).acl.includes("staff"), leaked });

      const pre = RAG.engine.preFilter(ranked, acl, groups, k);
      const post = RAG.engine.postFilter(ranked, acl, groups, k);
      const bm25Ids = bm25.map(([pid]) => pid);
      const depth = data.settings.fusion_depth;
      const fused = RAG.engine.rrf([RAG.engine.preFilter(ranked, acl, groups, depth), bm25Ids.slice(0, depth)],
        data.settings.rrf_k).map(([pid]) => pid);
      const leaked = bm25Ids.slice(0, k).filter((pid) => !readable(pid));
      const bm25Readable = bm25.filter(([pid]) => readable(pid));
      const places = { pre: kit.placesOf(pre.map((pid) => [pid, scores.get(pid)])), dense: kit.placesOf(dense),
                       bm25Readable: kit.placesOf(bm25Readable), bm25: kit.placesOf(bm25) };
      return {
        reader: label, k, pre, post,
        restricted: corpus.passages.some((p) => !readable(p.id)),
        preRows: pre.map((pid) => ranking(places.pre.get(pid), pid, scores.get(pid), top)),
        postRows: ranked.slice(0, k).map((pid) => (post.includes(pid) ? ranking(named(places.dense.get(pid)), pid, scores.get(pid), top)
          : { place: named(places.dense.get(pid)), dropped: true })),
        bm25Filtered: bm25Readable.slice(0, k).map(([pid, score]) => ranking(places.bm25Readable.get(pid), pid, score, bm25Top)),
        bm25Unfiltered: bm25.slice(0, k).map(([pid, score]) => ranking(places.bm25.get(pid), pid, score, bm25Top, !readable(pid))),
        leaks: leaked.map((pid) => ({ id: pid, rank: kit.rankOf(bm25Ids, pid), fused: kit.rankOf(fused, pid) })),
      };
    },

    view(props) {
      const { k } = props;
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "lab-columns perm-columns" },
          column("perm-pre", `Pre-filter \u00b7 ${props.pre.length} of ${k}`, props.preRows.map(row)),
          column("perm-post", `Post-filter \u00b7 ${props.post.length} of ${k}`,
            props.postRows.map((r) => (r.dropped ? droppedRow(r.place) : row(r))))),
        h("p", { class: "lab-lesson perm-lesson" }, lesson(props)),
        h("div", { class: "lab-columns perm-columns perm-keyword" },
          column("perm-kw-on", `BM25, filtered \u00b7 ${props.bm25Filtered.length} of ${k}`, props.bm25Filtered.map(row)),
          column("perm-kw-off", `BM25, not filtered \u00b7 ${props.leaks.length || "none"} leaked`, props.bm25Unfiltered.map(row))),
        h("p", { class: "lab-lesson perm-kw-lesson" }, keywordLesson(props)),
      ];
    },

    summary: status,

    /** Under the controls: what each filter returns for this reader, and what keyword search leaks. */
    outcome(props) {
      const key = (text) => h("span", { class: "outcome-key" }, text);
      const at = (rows) => { const found = rows.find((r) => r.right); return found ? ` (right passage rank ${found.place.label})` : ""; };
      return [h("span", { class: "outcome-part" }, key("Pre-filter"), `${props.pre.length} of ${props.k}${at(props.preRows)}`),
        " \u00b7 ", h("span", { class: "outcome-part" }, key("Post-filter"), `${props.post.length} of ${props.k}`),
        " \u00b7 ", h("span", { class: ["outcome-part", props.leaks.length && "is-bad"] }, key("BM25 unfiltered"),
          props.leaks.length ? `${props.leaks.length} leaked` : "no leak")];
    },
  });
})();
