"""Measure retrieval against a golden set: where the right passages land, and recall@k.

The hit rate at k (also called success@k) is the share of questions with at least one of their
right passages in the top k. recall@k of one question = (its right passages in the top k) / (its
right passages); of a set, the average over its questions. When every question has one right
passage the two are the same number.

Ties are ties (engine/ranking.py places): when the first right passage shares its score with
other passages, where it lands depends on how the tie is broken, so it has a best and a worst
rank; a question whose range straddles k is a hit only possibly: hits_at_k counts the sure hits
(worst <= k) and the possible ones (best <= k), a range such as 26-27 where they differ.

Twin: site_src/engine/evaluate.js (rankOf, recallAtK, passagesFound, hitPlace, hitsAtK,
shareFound), proven equal by tests/twins/.

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


def _tie_groups(ranking: list):
    """(first, last, ids) for each run of equal scores, best first."""
    groups, start = [], 0
    for end in range(1, len(ranking) + 1):
        if end == len(ranking) or ranking[end][1] != ranking[start][1]:
            groups.append((start + 1, end, [pid for pid, _ in ranking[start:end]]))
            start = end
    return groups


def hit_place(ranking: list, right_ids) -> tuple[int, int] | None:
    """Where the first right passage lands in a ranked list of (id, score) pairs, scores as the
    build keeps them, whichever way ties go: (best, worst). Within the tie that holds the first
    right passages, they could come first or last: with r of them in a tie of places first..last,
    the first of them lands between first and last - r + 1. None when no right passage is listed.

    Example: [hit_place([("a", 0.9), ("b", 0.5), ("c", 0.5)], {"c"}),
              hit_place([("a", 0.5), ("b", 0.5)], {"a", "b"})] -> [(2, 3), (1, 1)]
    """
    right = set(right_ids)
    for first, last, ids in _tie_groups(ranking):
        inside = sum(1 for pid in ids if pid in right)
        if inside:
            return first, last - inside + 1
    return None


def hits_at_k(found: list, k: int) -> tuple[int, int, int]:
    """(sure hits, possible hits, questions) at k, from each question's hit place (or None): a
    place whose worst end is within k is a sure hit, one whose best end is, a possible one.

    Example: hits_at_k([(1, 1), (1, 2), (3, 3), None], 1) -> (1, 2, 4)
    """
    sure = sum(1 for place in found if place is not None and place[1] <= k)
    possible = sum(1 for place in found if place is not None and place[0] <= k)
    return sure, possible, len(found)


def share_found(ranking: list, right_ids, k: int) -> tuple[int, int]:
    """(right passages surely in the top k, right passages): one question's recall@k. A tie
    that straddles k, holding r right passages and with last - k of its places below k, surely
    lets max(0, r - (last - k)) of them in.

    Example: share_found([("a", 0.9), ("b", 0.5), ("c", 0.5)], ["a", "c"], 2) -> (1, 2)
    """
    right = set(right_ids)
    found = 0
    for first, last, ids in _tie_groups(ranking):
        if first > k:
            break
        inside = sum(1 for pid in ids if pid in right)
        found += inside if last <= k else max(0, inside - (last - k))
    return found, len(right)
