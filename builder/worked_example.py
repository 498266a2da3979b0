"""The BM25 worked example: every step of the arithmetic for four tiny passages, as data the
page prints (IDF per term, the term-frequency part per passage, the sums)."""

from engine.bm25 import BM25, unique_terms


def worked_example(example) -> dict:
    texts = [text for _, text in example.passages]
    index = BM25(texts)
    terms = unique_terms(example.query)
    scores = index.scores(example.query)
    return {
        "query": example.query,
        "terms": terms,
        "n": index.n_docs,
        "avg_len": index.avg_len,
        "k1": index.k1,
        "b": index.b,
        "idf": [{"term": t, "df": index.doc_freq(t), "idf": index.idf(t)} for t in terms],
        "passages": [
            {"id": pid, "text": text, "length": index.lengths[i], "score": scores[i],
             "terms": [{"term": c.term, "tf": c.tf, "tf_part": c.tf_part, "score": c.score}
                       for c in index.explain(example.query, i)]}
            for i, (pid, text) in enumerate(example.passages)],
    }
