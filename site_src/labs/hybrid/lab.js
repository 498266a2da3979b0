/* The hybrid explorer: the hybrid view (site_src/views/hybrid.js) of the help center, its sliders'
 * ranges from the data step (own.sliders), its element ids under "hybrid". */
RAG.lab("hybrid", { shows: "hybrid", input: (lab) => ({ corpus: lab.corpus, sliders: lab.own.sliders, prefix: "hybrid" }),
  // Under the controls: the right passage's fused rank (and where each retriever had it), the fused top 3.
  outcome: (props) => RAG.rankOutcome({
    rights: props.rights.map((pid) => {
      const { hybrid, dense, bm25 } = props.ranks[pid];
      const fused = hybrid ? "fused " + hybrid : "not fused";
      return [pid, `${fused} (dense ${dense || "\u2013"}, BM25 ${bm25 || "\u2013"})`];
    }),
    top: props.fusedIds, named: "Fused top 3" }) });
