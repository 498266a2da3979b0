"""Measure retrieval against a golden set: where the right passages land, and recall@k.

recall@k of one question = (its right passages in the top k) / (its right passages); of a set,
the average over its questions. When every question has exactly one right passage, as in this
page's golden set, that is the hit rate (also called success@k): the share of questions whose
right passage is in the top k.

Twin: site_src/engine/evaluate.js (rankOf, recallAtK, passagesFound), proven equal by tests/twins/.

Example: recall_at_k([1, 4, None], 3) -> (1, 3)
"""


def rank_of(ranked_ids: list[str], answer_id: str) -> int | None:
    """1-based rank of `answer_id` in `ranked_ids`, or None when it is not there."""
    try:
        return ranked_ids.index(answer_id) + 1
    except ValueError:
        return None


def recall_at_k(ranks: list[int | None], k: int) -> tuple[int, int]:
    """(hits, questions) for questions with one right passage each, given its rank in each:
    how many ranks are 1..k, out of all. Here recall@k and the hit rate are the same number."""
    hits = sum(1 for rank in ranks if rank is not None and rank <= k)
    return hits, len(ranks)


def passages_found(ranked_ids: list[str], right_ids: list[str], k: int) -> tuple[int, int]:
    """(right passages in the top k, right passages): one question's recall@k, for a question
    that needs several passages. It counts as a hit as soon as the first is found.

    Example: passages_found(["a", "b", "c"], ["c", "a"], 2) -> (1, 2)
    """
    top = set(ranked_ids[:k])
    return sum(1 for pid in right_ids if pid in top), len(right_ids)
