"""Turn scores into ranked lists: best first, equal scores in corpus order, every score rounded
to the 6 decimals the build keeps, so each list the page shows is the same numbers whether the
build or the browser ranked it.

    round_score(x)   round(x, 6): the decimal nearest the double, an exact half to the even digit
    best_first(s)    the indexes of s, highest score first; equal scores keep their order
    ranked           (id, rounded score) pairs in that order
    dense_ranking    by cosine (the vectors are unit length: the dot product)
    bm25_ranking     by BM25, only the passages that share a term with the query
    hybrid_ranking   reciprocal rank fusion of the two lists' tops, rounded
    places           each item's place with ties shown: the first and last rank its tie spans
    rank_label       "2" for a place of its own, "2=" for one it shares

The ordering reads the unrounded scores; only what is kept is rounded. Two scores that are equal
to the build's 6 decimals are a tie: the order between them is the corpus's, not the
retriever's, so the page shows them as sharing a place (competition ranking: 1, 2=, 2=, 4).

Twin: site_src/engine/ranking.js (roundTo, roundScore, bestFirst, ranked, denseRanking,
bm25Ranking, hybridRanking, places, rankLabel), proven equal by tests/twins/.

Example: ranked(["a", "b", "c"], [0.5, 0.9, 0.5]) -> [('b', 0.9), ('a', 0.5), ('c', 0.5)]
"""

import numpy as np

from engine.bm25 import BM25
from engine.fusion import rrf
from engine.settings import FUSION_DEPTH, RRF_K

SCORE_DIGITS = 6  # the decimals of every score the build keeps


def round_score(value: float) -> float:
    """A score as the build keeps it. 0.0078125 and 0.0234375 are exact halves, rounded to the
    even digit; the double nearest 0.2345675 is a little above it, so it rounds up.

    Example: [round_score(0.0078125), round_score(0.0234375), round_score(0.2345675)] -> [0.007812, 0.023438, 0.234568]
    """
    return round(float(value), SCORE_DIGITS)


def best_first(scores) -> list[int]:
    """The indexes of `scores`, highest first; equal scores keep their order (sorted() is stable).

    Example: best_first([0.2, 0.9, 0.2, 0.5]) -> [1, 3, 0, 2]
    """
    return sorted(range(len(scores)), key=lambda i: -scores[i])


def ranked(ids: list[str], scores) -> list[tuple[str, float]]:
    """(id, score) best first; equal scores keep corpus order."""
    return [(ids[i], round_score(scores[i])) for i in best_first(scores)]


def dense_ranking(ids: list[str], passage_vectors: np.ndarray, query_vector: np.ndarray) -> list[tuple[str, float]]:
    return ranked(ids, passage_vectors @ query_vector)


def bm25_ranking(ids: list[str], index: BM25, query: str) -> list[tuple[str, float]]:
    """Only passages that share a term with the query: BM25 has nothing to say of the rest."""
    return [(pid, score) for pid, score in ranked(ids, index.scores(query)) if score > 0]


def hybrid_ranking(dense: list[tuple[str, float]], bm25: list[tuple[str, float]], depth: int = FUSION_DEPTH,
                   k: int = RRF_K) -> list[tuple[str, float]]:
    """The top `depth` of each list fused by RRF with constant `k`, scores rounded."""
    lists = [[pid for pid, _ in dense[:depth]], [pid for pid, _ in bm25[:depth]]]
    return [(pid, round_score(score)) for pid, score in rrf(lists, k=k)]


def places(ranking: list, tolerance: float = 0.0) -> list[tuple[int, int]]:
    """For a ranked list of (id, score) pairs, scores as the build keeps them: each item's place,
    (first, last), the ranks its tie spans; (r, r) when no other item has its score. With a
    tolerance (a model whose scores are known only that closely, such as the browser's), an item
    within it of the one above shares that one's place, so any two items within it of each other
    share a place (a chain can span more than the tolerance: a, b, c at 0.5, 0.4996, 0.4992 are
    one place at 5e-4, since b and c could trade places as surely as a and b).

    Example: places([("a", 0.9), ("b", 0.5), ("c", 0.5), ("d", 0.1)]) -> [(1, 1), (2, 3), (2, 3), (4, 4)]
    """
    found: list[tuple[int, int]] = []
    start = 0
    for end in range(1, len(ranking) + 1):
        if end == len(ranking) or abs(ranking[end][1] - ranking[end - 1][1]) > tolerance:
            found += [(start + 1, end)] * (end - start)
            start = end
    return found


def rank_label(place: tuple[int, int]) -> str:
    """How the page writes a place: its first rank, and "=" when the rank is shared.

    Example: [rank_label((2, 3)), rank_label((4, 4))] -> ['2=', '4']
    """
    first, last = place
    return f"{first}=" if last > first else str(first)
