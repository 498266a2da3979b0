"""Search every question the page shows with both retrievers, fuse, and measure.

Example: recall_table({"q1": {"bm25": 2, "dense": 1, "hybrid": 1}})["bm25"]["1"] -> [0, 1]

Pure functions over the corpus and precomputed vectors: no model here. How scores become
ranked lists (the rounding, the ties) is engine/ranking.py's.
"""

from dataclasses import dataclass

from engine.bm25 import BM25
from engine.evaluate import rank_of, recall_at_k
from engine.ranking import bm25_ranking, dense_ranking, hybrid_ranking
from engine.settings import RECALL_KS

RETRIEVERS = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    set: str  # "golden", "tracer", "lab" or "probe"
    answer_id: str | None = None
    paraphrase: bool = False


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
