"""rank_of and recall@k on a small golden set, expected values written as arithmetic."""

from engine.evaluate import rank_of, recall_at_k

RANKED = ["err-4290", "err-4021", "refund-new", "bill-plans"]


def test_rank_of_is_one_based():
    assert rank_of(RANKED, "err-4290") == 1
    assert rank_of(RANKED, "refund-new") == 3


def test_rank_of_a_passage_not_retrieved_is_none():
    assert rank_of(RANKED, "sync-offline") is None
    assert rank_of([], "err-4021") is None


def test_recall_at_k_counts_ranks_from_1_to_k():
    ranks = [1, 4, None, 2, 3]  # five questions; the third one's passage was not retrieved
    assert recall_at_k(ranks, 1) == (1, 5)          # only rank 1
    assert recall_at_k(ranks, 3) == (1 + 1 + 1, 5)  # ranks 1, 2 and 3
    assert recall_at_k(ranks, 5) == (4, 5)          # every rank but None
    hits, total = recall_at_k(ranks, 3)
    assert hits / total == 3 / 5


def test_recall_from_rank_of():
    golden = [("QB-4290?", "err-4290"), ("refund?", "refund-new"), ("offline?", "sync-offline")]
    ranks = [rank_of(RANKED, answer) for _, answer in golden]
    assert ranks == [1, 3, None]
    assert recall_at_k(ranks, 2) == (1, 3)
    assert recall_at_k(ranks, 3) == (2, 3)


def test_the_docstring_example():
    assert recall_at_k([1, 4, None], 3) == (1, 3)


def test_no_questions():
    assert recall_at_k([], 5) == (0, 0)


def test_passages_found_counts_each_right_passage_in_the_top_k():
    from engine.evaluate import passages_found

    # Two right passages, at ranks 1 and 3: half found at k = 1 and 2, both at k = 3.
    assert passages_found(RANKED, ["err-4290", "refund-new"], 1) == (1, 2)
    assert passages_found(RANKED, ["err-4290", "refund-new"], 2) == (1, 2)
    assert passages_found(RANKED, ["err-4290", "refund-new"], 3) == (2, 2)
    assert passages_found(RANKED, ["sync-offline"], 4) == (0, 1)


def test_with_one_right_passage_recall_is_the_hit_rate():
    from engine.evaluate import passages_found

    golden = [["err-4290"], ["refund-new"], ["sync-offline"]]
    for k in (1, 2, 3, 4):
        found = sum(passages_found(RANKED, right, k)[0] for right in golden)
        assert (found, len(golden)) == recall_at_k([rank_of(RANKED, r[0]) for r in golden], k)
