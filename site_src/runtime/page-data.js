/* page-data.js: the build's data, loaded when the first lab starts (assets/data.js), checked
 * against the schema this page was built for. The labs read it as a corpus (corpus.js,
 * RAG.corpus.page), which also keeps the questions asked live. */
(() => {
  "use strict";
  const RAG = window.RAG;
  let loading = null;

  /* The build ships each ranked list as [passage index, score] pairs, which download smaller;
     the labs read [passage id, score], as dist/data/rag.json has them. */
  function expandRuns(data) {
    const ids = data.passages.map((p) => p.id);
    for (const run of Object.values(data.runs)) {
      for (const retriever of Object.keys(run)) {
        run[retriever] = run[retriever].map(([index, score]) => [ids[index], score]);
      }
    }
    return data;
  }

  /** The build's data as the labs read it, once its schema is the one the page expects (the
   *  build's Node renderer, builder/page/lab_views.js, reads it through this too). */
  RAG.acceptData = (data, expected) => {
    const found = data && typeof data === "object" ? data.schema : undefined;
    if (expected === undefined) throw new Error("the page does not say which data schema it expects (no data-schema on <html>)");
    if (String(found) !== String(expected)) {
      throw new Error(`the page's data has schema ${found} but this page expects schema ${expected}; ` +
        "rebuild the site (python build.py) so they match");
    }
    return expandRuns(data);
  };

  /** The build's data (a Promise), loaded once; rejects with a message a reader can act on. */
  RAG.loadData = () => {
    if (!loading) {
      const url = RAG.assets().data;
      const schema = document.documentElement.dataset.schema;
      loading = url ? RAG.need("data", url).then((data) => RAG.acceptData(data, schema))
        : Promise.reject(new Error("the page lists no data file; rebuild the site"));
      loading.then((data) => { RAG.data = data; }, () => {});
    }
    return loading;
  };
})();
