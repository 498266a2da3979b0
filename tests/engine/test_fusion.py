from pytest import approx

from engine.fusion import rrf


def test_two_short_lists():
    fused = rrf([["a", "b", "c"], ["b", "d"]])
    assert [pid for pid, _ in fused] == ["b", "a", "d", "c"]
    assert [score for _, score in fused] == approx([1 / (60 + 2) + 1 / (60 + 1), 1 / (60 + 1),
                                                    1 / (60 + 2), 1 / (60 + 3)])


def test_ties_keep_first_seen_order():
    # a and b swap places in the two lists: equal sums, so the first list's leader stays first.
    assert [pid for pid, _ in rrf([["a", "b"], ["b", "a"]])] == ["a", "b"]
    assert [pid for pid, _ in rrf([["b", "a"], ["a", "b"]])] == ["b", "a"]


def test_sums_do_not_depend_on_list_order():
    lists = [["a", "b", "c"], ["c", "a"], ["b", "c", "a"]]
    assert dict(rrf(lists)) == dict(rrf(lists[::-1]))


def test_k_changes_the_scores():
    assert rrf([["a"]], k=1) == [("a", 1 / 2)]
