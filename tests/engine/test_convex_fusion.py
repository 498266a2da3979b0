"""Convex combination fusion on small hand-made lists, expected values written as arithmetic."""

import pytest
from pytest import approx

from engine.convex_fusion import convex_fusion, min_max


def test_min_max_puts_the_best_at_1_and_the_worst_at_0():
    assert min_max([("a", 0.8), ("b", 0.5), ("c", 0.2)]) == approx({"a": 1.0, "b": (0.5 - 0.2) / (0.8 - 0.2),
                                                                    "c": 0.0})


def test_min_max_of_equal_scores_and_of_nothing():
    assert min_max([("a", 3.0)]) == {"a": 1.0}
    assert min_max([("a", 2.0), ("b", 2.0)]) == {"a": 1.0, "b": 1.0}
    assert min_max([]) == {}


def test_a_textbook_fusion():
    dense = [("a", 0.70), ("b", 0.60), ("c", 0.30)]  # scaled: a 1, b (0.6 - 0.3) / 0.4 = 0.75, c 0
    bm25 = [("c", 9.0), ("b", 5.0), ("d", 1.0)]      # scaled: c 1, b (5 - 1) / 8 = 0.5, d 0
    fused = dict(convex_fusion(dense, bm25, alpha=0.6))
    assert fused == approx({"a": 0.6 * 1 + 0.4 * 0,
                            "b": 0.6 * 0.75 + 0.4 * 0.5,
                            "c": 0.6 * 0 + 0.4 * 1,
                            "d": 0.6 * 0 + 0.4 * 0})
    # b, fairly high in both lists, beats each list's leader: 0.65 against 0.6 and 0.4.
    assert [pid for pid, _ in convex_fusion(dense, bm25, alpha=0.6)] == ["b", "a", "c", "d"]


def test_the_weight_decides_between_two_leaders():
    dense, bm25 = [("a", 0.9), ("b", 0.1)], [("c", 7.0), ("d", 1.0)]
    assert convex_fusion(dense, bm25, alpha=1.0)[0][0] == "a"
    assert convex_fusion(dense, bm25, alpha=0.0)[0][0] == "c"
    # At 0.5 both leaders score 0.5 * 1: a tie, kept in reading order (the first list first).
    assert [pid for pid, _ in convex_fusion(dense, bm25, alpha=0.5)][:2] == ["a", "c"]


def test_only_the_top_depth_of_each_list_counts():
    dense = [("a", 0.9), ("b", 0.8), ("c", 0.1)]
    bm25 = [("c", 4.0), ("a", 1.0)]
    # depth 2: dense scales a and b only (c is outside), so c gets 0 from dense, 1 from BM25.
    assert dict(convex_fusion(dense, bm25, alpha=0.5, depth=2)) == approx(
        {"a": 0.5 * 1 + 0.5 * 0, "b": 0.5 * 0, "c": 0.5 * 0 + 0.5 * 1})


def test_alpha_outside_0_to_1_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        convex_fusion([("a", 1.0)], [], alpha=1.5)
