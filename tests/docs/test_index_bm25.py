"""The documents' BM25 built in slices (site_src/docs/index-bm25.js) is the engine's BM25 built in
one call (site_src/engine/bm25.js, itself proven equal to engine/bm25.py by tests/twins/): the
same lengths, postings (terms in the same order, texts in order), average length and scores, on
the sample documents' chunks repeated past several parts, and on no chunks at all."""

from engine import settings
from docs.sample_set import chunked, questions

SAME_INDEX = """async (RAG, {texts, queries, k1, b}) => {
  const sliced = await RAG.docs.bm25(texts, {k1, b});
  const whole = new RAG.engine.BM25(texts, k1, b);
  const shape = (index) => ({ k1: index.k1, b: index.b, nDocs: index.nDocs, avgLen: index.avgLen, lengths: index.lengths,
                              postings: [...index.postings], scores: queries.map((q) => index.scores(q)) });
  return { sliced: shape(sliced), whole: shape(whole), isBM25: sliced instanceof RAG.engine.BM25 };
}"""


def test_the_sliced_index_is_the_one_call_index(node):
    texts = [c["text"] for c in chunked(node, {"chunker": "sentences", "limit": 40, "repeat": 1})]
    texts = texts * (1 + 70_000 // sum(map(len, texts)))  # several parts of 20,000 characters
    queries = [q["question"] for q in questions()] + ["QB-4021 file limit", "naïve façade 東京"]
    found = node.run(SAME_INDEX, {"texts": texts, "queries": queries, "k1": settings.BM25_K1, "b": settings.BM25_B})
    assert found["isBM25"]
    assert found["sliced"] == found["whole"]
    assert any(any(s) for s in found["whole"]["scores"]), "some query matches: the scores compared are not all zeros"


def test_no_chunks_give_the_empty_index(node):
    found = node.run(SAME_INDEX, {"texts": [], "queries": ["refund"], "k1": settings.BM25_K1, "b": settings.BM25_B})
    assert found["sliced"] == found["whole"]
