"""What builder/evaluation.py adds to the recall table beyond misses and intervals: the bars
for many comparisons at once (Bonferroni, Holm), which right passages reach the prompt, how
recall moves with fusion's two settings, a convex combination of scores beside RRF, and recall
against the hit rate on a question that needs two passages; on hand-made ranks, then on the
site the session built."""

import math
from statistics import NormalDist

import pytest

from builder.evaluation import (ALPHA, bonferroni, cited_ids, convex_summary, convex_sweep, fusion_sweep, holm,
                                leads, prompt_reach, significance, sweep_summary, two_passage_recall, wilson)
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
        for k, entry in by_k.items():  # the interval is the sure hits'
            assert intervals[name][k] == pytest.approx(textbook_wilson(entry["hits"], entry["of"]), abs=1e-6), (name, k)


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


def test_holm_steps_down_through_the_sorted_p_values():
    # Sorted: 0.004 < 0.05/4, 0.012 < 0.05/3, 0.02 < 0.05/2, then 0.3 is not below 0.05/1.
    assert holm([0.3, 0.004, 0.02, 0.012], 0.05) == [1, 3, 2]
    # Bonferroni's bar, 0.05/4 = 0.0125, clears only two of them: Holm clears one more.
    assert [p for p in [0.3, 0.004, 0.02, 0.012] if p < bonferroni(0.05, 4)] == [0.004, 0.012]


def test_holm_stops_at_the_first_p_value_that_misses_its_bar():
    # 0.01 < 0.05/3, but 0.03 is not below 0.05/2, so 0.04 is not tried, although 0.04 < 0.05.
    assert holm([0.04, 0.01, 0.03], 0.05) == [1]
    assert holm([0.2, 0.5], 0.05) == []
    assert holm([], 0.05) == []


def test_significance_names_what_clears_holm():
    pairs = {"a-b": {"1": {"p": 0.02}, "3": {"p": 0.3}},
             "a-c": {"1": {"p": 0.004}, "3": {"p": 0.012}}}
    got = significance(pairs, alpha=0.05)
    assert got["below_bonferroni"] == [["a-c", "1"], ["a-c", "3"]]          # below 0.05 / 4
    assert got["below_holm"] == [["a-b", "1"], ["a-c", "1"], ["a-c", "3"]]  # 0.02 < 0.05 / 2 too


def test_convex_sweep_weighs_the_two_scaled_lists():
    runs = {"q1": {"dense": [["a", 0.9], ["b", 0.7], ["c", 0.5]], "bm25": [["b", 6.0], ["c", 2.0]]},
            "q2": {"dense": [["c", 0.8], ["a", 0.4]], "bm25": [["a", 5.0]]}}
    got = convex_sweep(runs, {"q1": "b", "q2": "c"}, alphas=(0.2, 0.8), depth=8, cutoffs=(1, 2))
    # q1, scaled: dense a 1, b 0.5, c 0; BM25 b 1, c 0. At 0.2: a 0.2, b 0.1 + 0.8 = 0.9: b first.
    # At 0.8: a 0.8, b 0.4 + 0.2 = 0.6: b second.
    # q2, scaled: dense c 1, a 0; BM25 a 1 (alone in its list). At 0.2: c 0.2, a 0.8: c second.
    # At 0.8: c 0.8, a 0.2: c first.
    assert got == {"0.2": {"1": 1, "2": 2}, "0.8": {"1": 1, "2": 2}}
    assert convex_sweep(runs, {"q1": "b"}, alphas=(0.2, 0.8), cutoffs=(1,)) == {"0.2": {"1": 1}, "0.8": {"1": 0}}


def test_convex_summary_names_the_weights_that_match_or_beat_rrf():
    recall = {"0.3": {"1": 5, "3": 9}, "0.5": {"1": 6, "3": 9}, "0.7": {"1": 6, "3": 10}}
    got = convex_summary(recall, {"1": 6, "3": 9}, depth=8)
    assert got["match_rrf"] == ["0.5", "0.7"]   # 0.3 finds one fewer at 1
    assert got["beat_rrf"] == ["0.7"]           # 10 > 9 at 3
    assert (got["rrf"], got["depth"], got["alphas"]) == ({"1": 6, "3": 9}, 8, ["0.3", "0.5", "0.7"])


def test_recall_and_hit_rate_part_on_a_question_that_needs_two_passages():
    run = [["a", 3.0], ["x", 2.5], ["y", 2.0], ["b", 1.0]]
    got = two_passage_recall(run, ["a", "b"], cutoffs=(1, 3, 4))
    assert got == {"1": {"found": 1, "of": 2, "hit": True},   # a hit already, half the passages
                   "3": {"found": 1, "of": 2, "hit": True},
                   "4": {"found": 2, "of": 2, "hit": True}}
    assert two_passage_recall(run, ["z"], cutoffs=(4,)) == {"4": {"found": 0, "of": 1, "hit": False}}


def test_cited_ids_reads_the_bracketed_passage_ids_in_order():
    text = "Limits apply [api-limits]. Retry later [api-limits] [err-4290]; see [the docs] and [sic]."
    assert cited_ids(text, {"api-limits", "err-4290"}) == ["api-limits", "err-4290"]
    assert cited_ids("No citation.", {"api-limits"}) == []


def test_prompt_reach_splits_the_questions_by_whether_the_right_passage_is_sent():
    # Places: q5's right passage is tied for 5th and 6th, so it may or may not be sent in a top 5.
    ranks = {"q1": {"hybrid": [1, 1]}, "q2": {"hybrid": [5, 5]}, "q3": {"hybrid": [6, 6]}, "q4": {"hybrid": None},
             "q5": {"hybrid": [5, 6]}}
    assert prompt_reach(ranks, "hybrid", 5) == {"sent": ["q1", "q2"], "not_sent": ["q3", "q4", "q5"]}
    assert prompt_reach(ranks, "hybrid", 1) == {"sent": ["q1"], "not_sent": ["q2", "q3", "q4", "q5"]}


def test_fusion_sweep_measures_rrf_at_each_constant_and_depth():
    runs = {"q1": {"dense": [["a", 0.9], ["b", 0.8], ["c", 0.7]], "bm25": [["b", 3.0], ["c", 2.0]]},
            "q2": {"dense": [["c", 0.9], ["a", 0.8], ["b", 0.7]], "bm25": [["a", 3.0]]}}
    answers = {"q1": ["b"], "q2": ["c"]}
    got = fusion_sweep(runs, answers, ks=(1, 60), depths=(1, 2), cutoffs=(1, 2))
    # Depth 1: q1 fuses [a] and [b], q2 [c] and [a]: each a tie of two at 1/(k+1), so neither right
    # passage is surely first (no sure hit at 1), and both are in the top 2.
    assert got["1"] == {"1": {"1": 0, "2": 2}, "60": {"1": 0, "2": 2}}
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
    assert sweep == {k: data["recall"]["hybrid"][k]["hits"] for k in sweep}
    reach = e["prompt_reach"]
    assert reach["depth"] == data["settings"]["prompt_passages"]
    assert len(reach["sent"]) == data["recall"]["hybrid"][str(reach["depth"])]["hits"]
    assert sorted(reach["sent"] + reach["not_sent"]) == sorted(data["ranks"])
    # The convex sweep sits beside the page's own RRF figures, at the page's fusion depth.
    convex = e["convex"]
    assert convex["rrf"] == {k: data["recall"]["hybrid"][k]["hits"] for k in convex["rrf"]}
    assert convex["depth"] == settings.FUSION_DEPTH and convex["alphas"][0] == "0.1" and convex["alphas"][-1] == "0.9"
    # The API question needs the two passages its answer cites; each is in the fused list.
    two = e["two_passages"]
    assert two["right"] == ["api-limits", "err-4290"]
    hybrid = [pid for pid, _ in data["runs"]["api-rate-limit"]["hybrid"]]
    assert two["ranks"] == {pid: hybrid.index(pid) + 1 for pid in two["right"]}


def test_a_lead_is_kept_whether_the_first_passage_is_right_or_not():
    """The prose's sentence on g30's lead checks `first`: an edit that takes the first place from
    the right passage makes it a claim that fails with what took the place (the bench's edit of
    err-4021 did, and the section then stopped on a missing key instead)."""
    runs = {"g1": {"dense": [["a", 0.9], ["b", 0.7]], "bm25": [["b", 3.0], ["a", 1.0]], "hybrid": [["b", 0.03]]},
            "g2": {"dense": [["c", 0.5], ["d", 0.5]], "bm25": [], "hybrid": [["c", 0.03], ["d", 0.02]]}}
    golden = [{"id": "g1", "answers": ["b"]}, {"id": "g2", "answers": ["c"]}]
    assert leads(runs, golden) == {
        "g1": {"dense": {"first": "a", "second": "b", "gap": 0.2, "right": False},
               "bm25": {"first": "b", "second": "a", "gap": 2.0, "right": True}},
        "g2": {"dense": {"first": "c", "second": "d", "gap": 0.0, "right": True},
               "hybrid": {"first": "c", "second": "d", "gap": 0.01, "right": True}}}
