"""What builder/evaluation.py adds to the recall table beyond misses and intervals: the bar
for many comparisons at once (Bonferroni), which right passages reach the prompt, and how
recall moves with fusion's two settings; on hand-made ranks, then on the site the session
built."""

import math
from statistics import NormalDist

import pytest

from builder.evaluation import ALPHA, bonferroni, fusion_sweep, prompt_reach, significance, sweep_summary, wilson
from engine import settings


# The two-sided 95% quantile of the normal distribution, computed here: never the module's own
# constant, so a wrong z in builder/evaluation.py cannot move the expected values with it.
Z = NormalDist().inv_cdf(0.975)


def textbook_wilson(hits: int, total: int) -> tuple[float, float]:
    p = hits / total
    centre = (p + Z * Z / (2 * total)) / (1 + Z * Z / total)
    half = Z * math.sqrt(p * (1 - p) / total + Z * Z / (4 * total * total)) / (1 + Z * Z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def test_wilson_gives_the_95_percent_interval_pinned():
    # Written out from the textbook formula with z = 1.959964; a z of 1.64 (a 90% interval)
    # would give (0.864..., 0.992...) for 29 of 30.
    assert Z == pytest.approx(1.959964, abs=1e-6)
    assert wilson(29, 30) == pytest.approx((0.833296, 0.994091), abs=1e-6)
    assert wilson(21, 30) == pytest.approx((0.521242, 0.833353), abs=1e-6)
    assert wilson(0, 30) == pytest.approx((0.0, 0.113513), abs=1e-6)
    assert wilson(30, 30) == pytest.approx((0.886487, 1.0), abs=1e-6)


def test_every_interval_on_the_page_is_the_95_percent_one(data):
    intervals = data["evaluation"]["wilson"]
    assert set(intervals) == set(data["recall"])
    for name, by_k in data["recall"].items():
        for k, (hits, total) in by_k.items():
            assert intervals[name][k] == pytest.approx(textbook_wilson(hits, total), abs=1e-6), (name, k)


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
