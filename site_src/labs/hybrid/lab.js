/* The hybrid explorer: the hybrid view (site_src/views/hybrid.js) of the help center, its sliders'
 * ranges from the data step (own.sliders), its element ids under "hybrid". */
RAG.lab("hybrid", { shows: "hybrid", input: (lab) => ({ corpus: lab.corpus, sliders: lab.own.sliders, prefix: "hybrid" }) });
