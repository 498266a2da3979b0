"""Reciprocal rank fusion: merge ranked lists by rank, not by score.

    RRF(d) = sum over lists L containing d of 1 / (k + rank_L(d)),  ranks start at 1

Cormack, Clarke & Buettcher, "Reciprocal Rank Fusion outperforms Condorcet and
individual Rank Learning Methods" (SIGIR 2009); k = 60 as in the paper.

Twin: site_src/engine/fusion.js (rrf), proven equal by tests/twins/, bit for bit.

Example: rrf([["a", "b"], ["b", "c"]]) -> [("b", 1/62 + 1/61), ("a", 1/61), ("c", 1/62)]
"""

from engine.settings import RRF_K


def rrf(ranked_lists: list[list[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fused (id, score) pairs, best first.

    Equal scores keep the order in which ids were first seen, reading the lists in the
    order given, each from its top. Each id's terms are added smallest first, so the same
    ranks give bit-identical sums whatever the order of the lists.
    """
    terms: dict[str, list[float]] = {}
    for ranked in ranked_lists:
        for rank, doc_id in enumerate(ranked, start=1):
            terms.setdefault(doc_id, []).append(1 / (k + rank))
    fused = [(doc_id, sum(sorted(parts))) for doc_id, parts in terms.items()]
    # sorted() is stable and `terms` is in first-seen order, so ties keep that order.
    return sorted(fused, key=lambda pair: -pair[1])
