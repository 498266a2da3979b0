"""Convex combination fusion: merge two ranked lists by their scores, each first scaled to 0..1.

    fused(d) = alpha * mm_first(d) + (1 - alpha) * mm_second(d)
    mm(s)    = (s - min) / (max - min) over that list's top `depth`; a passage the list does not
               hold there scores 0 in it (as low as its last passage)

Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 42(1), 2023,
who find it beats reciprocal rank fusion once alpha is tuned. alpha weighs the first list (the
page passes dense first), as the paper's alpha weighs the semantic scores.

Example: convex_fusion([("a", 0.9), ("b", 0.5)], [("b", 4.0), ("c", 2.0)], alpha=0.75)
         -> [("a", 0.75), ("b", 0.25), ("c", 0.0)]
"""

from engine.settings import FUSION_DEPTH


def min_max(ranked: list[tuple[str, float]]) -> dict[str, float]:
    """Each id's score scaled so the list's best is 1 and its worst 0; a list whose scores are
    all equal (one passage, say) gives every id 1.

    Example: min_max([("a", 4.0), ("b", 3.0), ("c", 2.0)]) -> {"a": 1.0, "b": 0.5, "c": 0.0}
    """
    if not ranked:
        return {}
    scores = [score for _, score in ranked]
    low, high = min(scores), max(scores)
    if high == low:
        return {doc_id: 1.0 for doc_id, _ in ranked}
    return {doc_id: (score - low) / (high - low) for doc_id, score in ranked}


def convex_fusion(first: list[tuple[str, float]], second: list[tuple[str, float]], alpha: float,
                  depth: int = FUSION_DEPTH) -> list[tuple[str, float]]:
    """Fused (id, score) pairs, best first, from the top `depth` of each (id, score) list.

    Equal scores keep the order in which ids were first seen, reading `first` then `second`,
    each from its top, as engine/fusion.py's rrf does.
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha {alpha}: the weight of the first list must be between 0 and 1")
    first_scaled, second_scaled = min_max(first[:depth]), min_max(second[:depth])
    seen = dict.fromkeys([doc_id for doc_id, _ in first[:depth]] + [doc_id for doc_id, _ in second[:depth]])
    fused = [(doc_id, alpha * first_scaled.get(doc_id, 0.0) + (1 - alpha) * second_scaled.get(doc_id, 0.0))
             for doc_id in seen]
    return sorted(fused, key=lambda pair: -pair[1])
