"""Measure retrieval against a golden set: where the right passage lands, and recall@k.

recall@k = (questions whose right passage is in the top k) / (questions)

Example: recall_at_k([1, 4, None], 3) -> (1, 3)
"""


def rank_of(ranked_ids: list[str], answer_id: str) -> int | None:
    """1-based rank of `answer_id` in `ranked_ids`, or None when it is not there."""
    try:
        return ranked_ids.index(answer_id) + 1
    except ValueError:
        return None


def recall_at_k(ranks: list[int | None], k: int) -> tuple[int, int]:
    """(hits, questions): how many ranks are 1..k, out of all."""
    hits = sum(1 for rank in ranks if rank is not None and rank <= k)
    return hits, len(ranks)
