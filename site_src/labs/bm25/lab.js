/* The BM25 explorer: the BM25 view (site_src/views/bm25.js) of the help center, with the data
 * step's sliders, depth and count axis; its ids and controls named "bm25-…" (lab.html). */
RAG.lab("bm25", { shows: "bm25", input: (lab) => ({ corpus: lab.corpus, sliders: lab.own.sliders, depth: lab.own.depth,
                                                    countAxis: lab.own.count_axis, prefix: "bm25" }),
  // Under the controls: the right passage's BM25 rank and the top 3, at the sliders' settings.
  outcome: (props) => RAG.rankOutcome({
    rights: props.rights.map((pid) => [pid, props.ranks[pid].bm25 ? `BM25 rank ${props.ranks[pid].bm25}` : "not found"]),
    top: props.shown.map((r) => r.id), empty: "no passage shares a term" }) });
