"""Search every question the page shows with both retrievers, fuse, and measure.

Example: recall_table({"q1": {"bm25": 2, "dense": 1, "hybrid": 1}})["bm25"]["1"] -> [0, 1]

Pure functions over the corpus and precomputed vectors: no model here.
"""

from dataclasses import dataclass

import numpy as np

from engine.bm25 import BM25
from engine.evaluate import rank_of, recall_at_k
from engine.fusion import rrf
from engine.settings import FUSION_DEPTH, RECALL_KS, RRF_K

RETRIEVERS = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    set: str  # "golden", "tracer", "lab" or "probe"
    answer_id: str | None = None
    paraphrase: bool = False


def round_score(value: float) -> float:
    return round(float(value), 6)


def ranked(ids: list[str], scores) -> list[tuple[str, float]]:
    """(id, score) best first; equal scores keep corpus order."""
    order = sorted(range(len(ids)), key=lambda i: -scores[i])
    return [(ids[i], round_score(scores[i])) for i in order]


def dense_ranking(ids: list[str], passage_vectors: np.ndarray, query_vector: np.ndarray) -> list[tuple[str, float]]:
    return ranked(ids, passage_vectors @ query_vector)


def bm25_ranking(ids: list[str], index: BM25, query: str) -> list[tuple[str, float]]:
    """Only passages that share a term with the query: BM25 has nothing to say of the rest."""
    return [(pid, score) for pid, score in ranked(ids, index.scores(query)) if score > 0]


def hybrid_ranking(dense: list[tuple[str, float]], bm25: list[tuple[str, float]]) -> list[tuple[str, float]]:
    lists = [[pid for pid, _ in dense[:FUSION_DEPTH]], [pid for pid, _ in bm25[:FUSION_DEPTH]]]
    return [(pid, round_score(score)) for pid, score in rrf(lists, k=RRF_K)]


def run_question(question: Question, ids, index: BM25, passage_vectors, query_vector) -> dict:
    dense = dense_ranking(ids, passage_vectors, query_vector)
    bm25 = bm25_ranking(ids, index, question.text)
    return {"dense": dense, "bm25": bm25, "hybrid": hybrid_ranking(dense, bm25)}


def answer_ranks(runs: dict[str, dict], golden: list[Question]) -> dict[str, dict[str, int | None]]:
    """question id -> retriever -> 1-based rank of the right passage (None: not in the list)."""
    return {q.id: {name: rank_of([pid for pid, _ in runs[q.id][name]], q.answer_id) for name in RETRIEVERS}
            for q in golden}


def recall_table(ranks: dict[str, dict[str, int | None]]) -> dict[str, dict[str, list[int]]]:
    """retriever -> str(k) -> [hits, questions]."""
    return {name: {str(k): list(recall_at_k([r[name] for r in ranks.values()], k)) for k in RECALL_KS}
            for name in RETRIEVERS}
