"""Rerank scores for the page: a real cross-encoder when one is named, else the corpus's
hand-written illustrative scores for the tracer questions."""

from engine.rerank import RERANK_DEPTH, by_score, cross_encoder_scores, reranker_name


def rerank_data(corpus, questions, runs: dict) -> dict:
    name = reranker_name()
    if name is None:
        return {"source": "illustrative", "model": None, "depth": RERANK_DEPTH,
                "by_question": {t.id: [[pid, score] for pid, score in by_score(t.rerank)] for t in corpus.tracers}}
    by_id = corpus.by_id
    by_question = {}
    for question in questions:
        candidates = [pid for pid, _ in runs[question.id]["hybrid"][:RERANK_DEPTH]]
        scores = cross_encoder_scores(name, question.text, [by_id[pid].text for pid in candidates])
        by_question[question.id] = [[pid, round(score, 6)] for pid, score in by_score(dict(zip(candidates, scores)))]
    return {"source": "model", "model": name, "depth": RERANK_DEPTH, "by_question": by_question}
