"""engine/ranking.py: best first, ties in corpus order, scores rounded as round(x, 6) rounds,
each expected value written out by hand."""

from engine.bm25 import BM25
from engine.ranking import best_first, bm25_ranking, hybrid_ranking, places, rank_label, ranked, round_score


def test_a_score_keeps_6_decimals_and_an_exact_half_goes_to_the_even_digit():
    assert round_score(0.1234564) == 0.123456
    assert round_score(0.0078125) == 0.007812     # 1/128 = 0.0078125 exactly: 7812.5 millionths, to the even 2
    assert round_score(0.0234375) == 0.023438     # 3/128: 23437.5 millionths, to the even 8
    assert round_score(-0.0078125) == -0.007812


def test_equal_scores_keep_their_order_and_the_order_reads_the_scores_before_rounding():
    assert best_first([0.2, 0.9, 0.2, 0.5]) == [1, 3, 0, 2]
    # 0.1234561 and 0.1234564 both keep 0.123456, yet the second is ranked first.
    assert ranked(["a", "b"], [0.1234561, 0.1234564]) == [("b", 0.123456), ("a", 0.123456)]


def test_bm25_lists_only_the_passages_that_share_a_term():
    index = BM25(["qb 4021 file limit", "nothing here", "qb"])
    assert [pid for pid, _ in bm25_ranking(["a", "b", "c"], index, "QB-4021")] == ["a", "c"]


def test_hybrid_fuses_each_lists_top_depth_with_rrf_and_rounds():
    dense = [("a", 0.9), ("b", 0.8), ("c", 0.7)]
    bm25 = [("c", 5.0), ("a", 4.0)]
    assert hybrid_ranking(dense, bm25, depth=2, k=60) == [("a", round(1 / 61 + 1 / 62, 6)), ("c", round(1 / 61, 6)),
                                                          ("b", round(1 / 62, 6))]


def test_tied_scores_share_a_place_and_the_label_says_so():
    # BM25 gives api-limits and err-4290 the same score for "What does QB-4290 mean?": rank 1=, both.
    ranking = [("api-limits", 4.1026), ("err-4290", 4.1026), ("err-4011", 1.2), ("sso-1", 0.4), ("trash-1", 0.4)]
    assert places(ranking) == [(1, 2), (1, 2), (3, 3), (4, 5), (4, 5)]
    assert [rank_label(p) for p in places(ranking)] == ["1=", "1=", "3", "4=", "4="]
    assert places([]) == [] and places([("a", 0.1)]) == [(1, 1)]


def test_with_a_tolerance_any_two_scores_that_close_share_a_place():
    # b is 0.0004 below a and c 0.0004 below b: a model known to 5e-4 could swap b and c as
    # surely as a and b, so the three share a place (c is 0.0008 below a: a chain); d is alone.
    # (Grouped from each group's first, c had a place of its own: the reader's chunks then showed
    # 17 of 728 pairs the browser swapped as ranked, not tied.)
    ranking = [("a", 0.5), ("b", 0.4996), ("c", 0.4992), ("d", 0.1), ("e", 0.0996)]
    assert places(ranking, 5e-4) == [(1, 3), (1, 3), (1, 3), (4, 5), (4, 5)]
    assert places(ranking) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    for i, (_, x) in enumerate(ranking):  # any two within the tolerance share a place
        for j, (_, y) in enumerate(ranking):
            if abs(x - y) <= 5e-4:
                assert places(ranking, 5e-4)[i] == places(ranking, 5e-4)[j]
