"""Reranking: rescore the top candidates with a cross-encoder, which reads the question and
a passage together, then keep only those above a threshold.

No cross-encoder can be downloaded where this page is built, so by default the scores are
the hand-written, illustrative ones in corpus/tracers.yaml. Name a real model in the
environment variable RAG_EXPLAINER_RERANKER (a local folder or a hub name) and the build
scores with it through sentence-transformers instead; the page then names the model.

Example: cut_off([("a", 0.9), ("b", 0.2)], threshold=0.5) -> [("a", 0.9)]
"""

import os
from functools import lru_cache
from pathlib import Path

RERANKER_ENV = "RAG_EXPLAINER_RERANKER"
RERANK_DEPTH = 20  # how many fused candidates a reranker sees


def reranker_name() -> str | None:
    return os.environ.get(RERANKER_ENV) or None


@lru_cache(maxsize=2)
def _cross_encoder(name: str):
    if Path(name).is_dir():
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import CrossEncoder  # heavy: only when a reranker is named

    return CrossEncoder(name, device="cpu")


def cross_encoder_scores(name: str, question: str, texts: list[str]) -> list[float]:
    """One relevance score per text, higher is better, from the named cross-encoder."""
    if not texts:
        return []
    scores = _cross_encoder(name).predict([(question, text) for text in texts], show_progress_bar=False)
    return [float(score) for score in scores]


def by_score(scores: dict[str, float]) -> list[tuple[str, float]]:
    """(id, score) best first; equal scores keep their given order."""
    return sorted(scores.items(), key=lambda pair: -pair[1])


def cut_off(reranked: list[tuple[str, float]], threshold: float) -> list[tuple[str, float]]:
    return [(pid, score) for pid, score in reranked if score >= threshold]
