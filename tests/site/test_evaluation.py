"""What builder/evaluation.py adds to the recall table beyond misses and intervals: the bar
for many comparisons at once (Bonferroni), which right passages reach the prompt, and how
recall moves with fusion's two settings; on hand-made ranks, then on the site the session
built."""

import pytest

from builder.evaluation import ALPHA, bonferroni, fusion_sweep, prompt_reach, significance, sweep_summary
from engine import settings


def test_bonferroni_divides_the_level_by_the_number_of_tests():
    assert bonferroni(0.05, 9) == 0.05 / 9
    assert bonferroni(0.05, 1) == 0.05


def test_significance_counts_every_comparison_and_names_those_that_clear_each_bar():
    pairs = {"a-b": {"1": {"p": 0.022}, "3": {"p": 0.06}},
             "a-c": {"1": {"p": 0.004}, "3": {"p": 1.0}}}
    got = significance(pairs, alpha=0.05)
    assert (got["tests"], got["bonferroni"]) == (4, 0.05 / 4)
    assert got["below_alpha"] == [["a-b", "1"], ["a-c", "1"]]
    assert got["below_bonferroni"] == [["a-c", "1"]]  # 0.004 < 0.0125; 0.022 is not
    assert significance({})["tests"] == 0


def test_prompt_reach_splits_the_questions_by_whether_the_right_passage_is_sent():
    ranks = {"q1": {"hybrid": 1}, "q2": {"hybrid": 5}, "q3": {"hybrid": 6}, "q4": {"hybrid": None}}
    assert prompt_reach(ranks, "hybrid", 5) == {"sent": ["q1", "q2"], "not_sent": ["q3", "q4"]}
    assert prompt_reach(ranks, "hybrid", 1) == {"sent": ["q1"], "not_sent": ["q2", "q3", "q4"]}


def test_fusion_sweep_measures_rrf_at_each_constant_and_depth():
    runs = {"q1": {"dense": [["a", 0.9], ["b", 0.8], ["c", 0.7]], "bm25": [["b", 3.0], ["c", 2.0]]},
            "q2": {"dense": [["c", 0.9], ["a", 0.8], ["b", 0.7]], "bm25": [["a", 3.0]]}}
    answers = {"q1": "b", "q2": "c"}
    got = fusion_sweep(runs, answers, ks=(1, 60), depths=(1, 2), cutoffs=(1, 2))
    # Depth 1: q1 fuses [a] and [b], a tie that a (read first) wins; q2 fuses [c] and [a]: c first.
    assert got["1"] == {"1": {"1": 1, "2": 2}, "60": {"1": 1, "2": 2}}
    # Depth 2: q1's b has 1/(k+2) + 1/(k+1) against a's 1/(k+1): b first. q2: a has 1/(k+2) + 1/(k+1),
    # c only 1/(k+1), so c drops to second.
    assert got["2"] == {"1": {"1": 1, "2": 2}, "60": {"1": 1, "2": 2}}


def test_the_sweep_summary_names_the_k_that_agree_with_the_default_and_the_spread():
    recall = {"4": {"1": {"1": 5, "3": 9}, "60": {"1": 4, "3": 9}, "200": {"1": 4, "3": 9}},
              "8": {"1": {"1": 6, "3": 9}, "60": {"1": 6, "3": 8}, "200": {"1": 6, "3": 8}}}
    got = sweep_summary(recall, [1, 60, 200], [4, 8], [1, 3], default_k=60)
    assert got["agree"] == {"4": [60, 200], "8": [60, 200]}  # k = 1 differs at both depths
    assert got["spread"] == {"1": 6 - 4, "3": 9 - 8}
    assert got["recall"] is recall and got["default_k"] == 60


def test_on_the_help_center(data):
    e = data["evaluation"]
    n_tests = sum(len(by_k) for by_k in e["paired"].values())
    assert e["significance"]["tests"] == n_tests == 9
    assert e["significance"]["alpha"] == ALPHA
    assert e["significance"]["bonferroni"] == pytest.approx(ALPHA / 9)
    # The page's own fusion is one cell of the sweep, and it agrees with the recall table.
    sweep = e["fusion_sweep"]["recall"][str(settings.FUSION_DEPTH)][str(settings.RRF_K)]
    assert sweep == {k: data["recall"]["hybrid"][k][0] for k in sweep}
    reach = e["prompt_reach"]
    assert reach["depth"] == data["settings"]["prompt_passages"]
    assert len(reach["sent"]) == data["recall"]["hybrid"][str(reach["depth"])][0]
    assert sorted(reach["sent"] + reach["not_sent"]) == sorted(data["ranks"])
