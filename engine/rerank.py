"""Reranking: rescore the top candidates with a cross-encoder, which reads the question and
a passage together, then keep only those above a threshold.

No cross-encoder can be downloaded where this page is built, so by default the scores are
the hand-written, illustrative ones in corpus/tracers.yaml. Name a real model in the
environment variable RAG_EXPLAINER_RERANKER (a local folder or a hub name) and the build
scores with it through sentence-transformers instead; the page then names the model.

Example: cut_off([("a", 0.9), ("b", 0.2)], threshold=0.5) -> [("a", 0.9)]
"""

import os

from engine import models
from engine.settings import RERANK_DEPTH

RERANKER_ENV = "RAG_EXPLAINER_RERANKER"
__all__ = ["RERANK_DEPTH", "RERANKER_ENV", "reranker_name", "cross_encoder_scores", "by_score", "cut_off"]


def reranker_name() -> str | None:
    return os.environ.get(RERANKER_ENV) or None


def cross_encoder_scores(name: str, question: str, texts: list[str]) -> list[float]:
    """One relevance score per text, higher is better, from the named cross-encoder."""
    if not texts:
        return []
    scores = models.cross_encoder(name).predict([(question, text) for text in texts], show_progress_bar=False)
    return [float(score) for score in scores]


def by_score(scores: dict[str, float]) -> list[tuple[str, float]]:
    """(id, score) best first; equal scores keep their given order."""
    return sorted(scores.items(), key=lambda pair: -pair[1])


def cut_off(reranked: list[tuple[str, float]], threshold: float) -> list[tuple[str, float]]:
    return [(pid, score) for pid, score in reranked if score >= threshold]
