/* site_src/engine/access.js: the twin of engine/access.py (can_read, pre_filter, post_filter,
   as_reader): who may read a passage, applied inside the search (the reader still gets k
   results) or after its top k (the reader silently gets fewer). The same arguments, the same
   lists; asReader takes the fusion's depth and k from the caller (data.settings). Uses ranking.js. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  function canRead(passageGroups, readerGroups) {
    return passageGroups.some((group) => readerGroups.includes(group));
  }
  /** Filter inside the search: the top k of what the reader may read. */
  function preFilter(rankedIds, acl, readerGroups, k) {
    return rankedIds.filter((pid) => canRead(acl[pid], readerGroups)).slice(0, k);
  }
  /** Filter after the search: the top k of everything, minus what the reader may not read. */
  function postFilter(rankedIds, acl, readerGroups, k) {
    return rankedIds.slice(0, k).filter((pid) => canRead(acl[pid], readerGroups));
  }

  /** A run as one reader gets it: each list without what the reader may not read, fused again. */
  function asReader(run, acl, readerGroups, depth, k) {
    const readable = (list) => list.filter(([pid]) => canRead(acl[pid], readerGroups)).map((pair) => [...pair]);
    const dense = readable(run.dense);
    const bm25 = readable(run.bm25);
    return { dense, bm25, hybrid: E.hybridRanking(dense, bm25, depth, k) };
  }

  Object.assign(E, { canRead, preFilter, postFilter, asReader });
})();
