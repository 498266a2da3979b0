"""The recall table (site_src/labs/recall/) and what it draws from
(builder/evaluation.py): the Wilson interval, the sign test, the paired comparison and the
misses, each on small hand-made ranks with its expected value written as arithmetic; the view,
in Node, draws for every k the table, the chart and the lists of misses of the build's data,
with recall named as the hit rate it equals here; in the browser, the k changes by mouse, by
keyboard and from a shared link."""

import math
from statistics import NormalDist
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from builder import evaluation
from builder.evaluation import misses, paired, sign_test, wilson
from site_src.labs.recall import data as recall
from builder.search import recall_table
from engine.access import as_reader
from support.labs import hash_of, lab, open_page
from support.pictures import shoot_everywhere
from support.views import markup, text

Z_95 = NormalDist().inv_cdf(0.975)  # the two-sided 95% quantile, computed here, never read from the module
Z2 = Z_95 ** 2


# ------------------------------------------------------------------ builder/evaluation.py


def test_wilson_at_the_edges_and_in_the_middle():
    # Nothing found: the interval starts at 0 and reaches z²/(n + z²).
    assert wilson(0, 30) == pytest.approx((0.0, Z2 / (30 + Z2)), abs=1e-6)
    # Everything found: from n/(n + z²) up to 1.
    assert wilson(30, 30) == pytest.approx((30 / (30 + Z2), 1.0), abs=1e-6)
    # Half found: centred on 1/2, half-width z·√(1/4n + z²/4n²) / (1 + z²/n).
    half = Z_95 * math.sqrt(0.25 / 10 + Z2 / (4 * 10 ** 2)) / (1 + Z2 / 10)
    assert wilson(5, 10) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-6)
    # No questions: no information, the whole range.
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_for_29_of_30_by_the_textbook_formula():
    p, n = 29 / 30, 30
    centre = (p + Z2 / (2 * n)) / (1 + Z2 / n)
    half = Z_95 * math.sqrt(p * (1 - p) / n + Z2 / (4 * n * n)) / (1 + Z2 / n)
    assert wilson(29, 30) == pytest.approx((centre - half, centre + half), abs=1e-6)
    # The interval of the misses is the mirror image of the interval of the hits.
    lo, hi = wilson(1, 30)
    assert wilson(29, 30) == pytest.approx((1 - hi, 1 - lo), abs=1e-6)


def test_sign_test_counts_splits_at_least_as_lopsided():
    assert sign_test(6, 1) == 2 * (1 + 7) / 2 ** 7                 # C(7,0) + C(7,1) of 2^7, both tails
    assert sign_test(1, 6) == sign_test(6, 1)                      # which side wins does not matter
    assert sign_test(5, 0) == 2 * 1 / 2 ** 5
    assert sign_test(7, 3) == 2 * (1 + 10 + 45 + 120) / 2 ** 10     # C(10,0..3)
    assert sign_test(3, 3) == 1.0                                  # an even split: capped at 1
    assert sign_test(0, 0) == 1.0                                  # no disagreement, no evidence


RANKS = {  # question -> the place of its right passage under each retriever: [best, worst] (None: not retrieved)
    "q1": {"bm25": [1, 1], "dense": [4, 4], "hybrid": [1, 1]},
    "q2": {"bm25": None, "dense": [2, 2], "hybrid": [3, 3]},
    "q3": {"bm25": [2, 2], "dense": [1, 1], "hybrid": [1, 2]},   # hybrid: a tie for first with another passage
    "q4": {"bm25": [6, 6], "dense": None, "hybrid": [5, 5]},
}


def test_misses_are_the_questions_not_surely_in_the_top_k_in_set_order():
    assert misses(RANKS, "dense", 3) == ["q1", "q4"]          # rank 4, not retrieved
    assert misses(RANKS, "hybrid", 1) == ["q2", "q3", "q4"]   # q3's tie for first is no sure hit at 1
    assert misses(RANKS, "hybrid", 2) == ["q2", "q4"]
    assert misses(RANKS, "hybrid", 5) == []                   # rank 5 is inside the top 5
    assert misses(RANKS, "bm25", 5) == ["q2", "q4"]


def test_paired_names_the_questions_only_one_retriever_surely_finds():
    # One question either way is no evidence: 2 * C(1,0) / 2^1 = 1.
    assert paired(RANKS, "hybrid", "dense", 3) == {"a_only": ["q1"], "b_only": [], "p": 2 * 1 / 2 ** 1}
    assert paired(RANKS, "hybrid", "dense", 5) == {"a_only": ["q4"], "b_only": [], "p": 2 * 1 / 2 ** 1}
    assert paired(RANKS, "dense", "bm25", 1) == {"a_only": ["q3"], "b_only": ["q1"], "p": 1.0}
    assert paired(RANKS, "hybrid", "dense", 1) == {"a_only": ["q1"], "b_only": ["q3"], "p": 1.0}  # the tie counts against
    # Two questions, both one way: 2 * C(2,0) / 2^2.
    assert paired(RANKS, "hybrid", "bm25", 5) == {"a_only": ["q2", "q4"], "b_only": [], "p": 2 * 1 / 2 ** 2}


def test_the_recall_table_counts_sure_hits_and_hits_with_the_ties():
    table = recall_table(RANKS)
    assert table["hybrid"]["1"] == {"hits": 1, "with_ties": 2, "of": 4}   # q1 surely; q3 only if its tie goes its way
    assert table["hybrid"]["3"] == {"hits": 3, "with_ties": 3, "of": 4}
    assert table["bm25"]["5"] == {"hits": 2, "with_ties": 2, "of": 4}


def test_evaluation_gathers_misses_intervals_and_pairs_by_k():
    groups = {"q1": "words", "q2": "paraphrase", "q3": "typed", "q4": "paraphrase"}
    questions = [{"id": q, "set": "golden", "group": groups[q], "text": f"reset password {q}", "answers": ["p1"]}
                 for q in RANKS]
    corpus = SimpleNamespace(by_id={"p1": SimpleNamespace(text="To reset a password, open Settings.")})
    runs = {q: {"dense": [["p1", 0.9]], "bm25": [["p1", 2.0]], "hybrid": [["p1", 0.032787]]} for q in RANKS}
    data = {"ranks": RANKS, "settings": {"recall_ks": [1, 3, 5]}, "questions": questions,
            "recall": recall_table(RANKS), "runs": runs, "golden_runs": runs}
    got = evaluation.evaluation(corpus, data)
    assert got["misses"]["dense"] == {"1": ["q1", "q2", "q4"], "3": ["q1", "q4"], "5": ["q4"]}
    assert got["paraphrase_misses"]["dense"] == {"1": 2, "3": 1, "5": 1}   # q2 and q4 are the paraphrases
    assert got["group_misses"]["dense"]["1"] == {"words": 1, "paraphrase": 2, "typed": 0}
    assert data["recall"]["dense"]["3"] == {"hits": 2, "with_ties": 2, "of": 4}
    assert got["wilson"]["dense"]["3"] == list(wilson(2, 4))
    assert got["paired"]["hybrid-bm25"]["3"] == paired(RANKS, "hybrid", "bm25", 3)
    assert set(got["paired"]) == {"hybrid-dense", "hybrid-bm25", "dense-bm25"}
    assert got["shared_terms"]["q1"] == ["password", "reset"]
    assert got["significance"]["tests"] == 3 * 3  # three pairs at three k
    assert got["prompt_reach"]["sent"] == ["q1", "q2", "q3", "q4"]  # hybrid places 1, 3, 1-2 and 5
    assert got["fusion_sweep"]["recall"]["8"]["60"] == {"1": 4, "3": 4, "5": 4}  # p1 first in both runs
    assert got["ties"] == [] and got["leads"] == {}  # one passage per list: no tie, no second to lead


# ------------------------------------------------------------------ the data step


def test_the_lab_names_every_retriever_group_and_reader_the_build_measured(data):
    own = data["labs"]["recall"]
    assert [r["id"] for r in own["retrievers"]] == ["bm25", "dense", "hybrid"]
    assert {r["id"] for r in own["retrievers"]} == set(data["recall"]) == set(data["evaluation"]["wilson"])
    # In corpus/golden.yaml's order (the data file sorts its keys).
    assert [g["id"] for g in own["groups"]] == ["words", "paraphrase", "typed"]
    assert set(data["recall_by_group"]) == {g["id"] for g in own["groups"]}
    assert set(own["readers"]) == {q["reader"] for q in data["questions"] if q["set"] == "golden"} | {"customer"}
    assert own["highlight"] in data["recall"]
    assert recall.STATE["k"] in data["settings"]["recall_ks"]
    for name, by_k in data["recall"].items():
        for k, entry in by_k.items():
            assert len(data["evaluation"]["misses"][name][k]) == entry["of"] - entry["hits"]


# ------------------------------------------------------------------ the view, in Node

RETRIEVERS = ("bm25", "dense", "hybrid")


def hits_text(entry) -> str:
    return str(entry["hits"]) if entry["hits"] == entry["with_ties"] else f"{entry['hits']}\u2013{entry['with_ties']}"


def pct_text(entry) -> str:
    one = lambda n: f"{100 * n / entry['of']:.1f}%"
    return one(entry["hits"]) if entry["hits"] == entry["with_ties"] else f"{one(entry['hits'])}\u2013{one(entry['with_ties'])}"


def described(data, name, k) -> str:
    """One retriever's figures as the chart's description (and the announcement) words them."""
    entry = data["recall"][name][str(k)]
    lo, hi = data["evaluation"]["wilson"][name][str(k)]
    label = next(r["name"] for r in data["labs"]["recall"]["retrievers"] if r["id"] == name)
    return f"{label}: {hits_text(entry)} of {entry['of']} ({pct_text(entry)}, interval {100 * lo:.0f} to {100 * hi:.0f}%)"


def place_text(place) -> str:
    if not place:
        return "not retrieved"
    return f"rank {place[0]}" if place[0] == place[1] else f"rank {place[0]} or {place[1]} (a tie)"


def check_drawing(drawing, data, k):
    """What the view computed and drew for k, against the build's own figures (data.recall,
    data.recall_by_group, data.evaluation, data.ranks): the twins in the browser's renderer and
    builder/search.py and builder/evaluation.py in Python must agree."""
    m = data["evaluation"]
    own = data["labs"]["recall"]
    names = {r["id"]: r["name"] for r in own["retrievers"]}
    out = markup(drawing.html)
    n_golden = sum(q["set"] == "golden" for q in data["questions"])
    assert [text(s) for s in out.css(".recall-k")] == [str(k)] * 3  # the table, the groups, the misses (the curve says "k = …")
    assert text(out.css_first(".lab-status")) == f"The hit rate at {k} on {n_golden} golden questions, each asked as its reader."
    assert [text(th) for th in out.css(".recall-table thead th")] == ["Retriever", "Found", "Hit rate", "95% interval"]
    assert [row.attributes["data-retriever"] for row in out.css(".recall-table tbody tr")] == list(RETRIEVERS)
    questions = {q["id"]: q for q in data["questions"]}
    for name in RETRIEVERS:
        entry = data["recall"][name][str(k)]
        lo, hi = m["wilson"][name][str(k)]
        row = out.css_first(f'.recall-table tr[data-retriever="{name}"]')
        assert [text(cell) for cell in row.css("th, td")] == [
            names[name], f"{hits_text(entry)} / {entry['of']}", pct_text(entry), f"{100 * lo:.0f}–{100 * hi:.0f}%"]
        column = out.css_first(f'.recall-misses [data-retriever="{name}"]')
        missed = m["misses"][name][str(k)]
        assert len(missed) == entry["of"] - entry["hits"]
        assert text(column.css_first("h5")) == f"{names[name]} · {len(missed)} missed"
        assert [text(li) for li in column.css("li")] == [
            f"{questions[qid]['text']} {place_text(data['ranks'][qid][name])}"
            + ("" if questions[qid]["group"] == "words" else f" {questions[qid]['group']}") for qid in missed]
        if not missed:
            assert text(column.css_first(".miss-none")) == f"None: every right passage is in the top {k}."
    for group in own["groups"]:
        row = out.css_first(f'.recall-groups tr[data-group="{group["id"]}"]')
        by = data["recall_by_group"][group["id"]]
        assert [text(td) for td in row.css("td")] == [f"{hits_text(by[n][str(k)])} / {by[n][str(k)]['of']}" for n in RETRIEVERS]
    descriptions = [described(data, name, k) for name in RETRIEVERS]
    assert text(out.css_first("#recall-chart-desc")) == "; ".join(descriptions)
    assert drawing.summary == f"Hit rate at {k}: {'; '.join(descriptions)}."
    assert text(out.css_first("#recall-chart-title")) == f"Recall@k for k = 1 to 10 by retriever, with 95% intervals; k = {k} marked"
    assert text(out.css_first(".recall-chart figcaption")).startswith(
        f"Lines: the share of the {n_golden} golden questions with a right passage surely in the top k")
    marked = out.css_first("line.recall-k-line").attributes["x1"]
    assert [c.attributes["cx"] for c in out.css(f'.recall-line circle.recall-point[data-k="{k}"]')] == [marked] * 3


def sure_and_possible(ranking, right, k):
    """Worked by hand from one ranked list: is a right passage surely in the top k (whichever way
    the ties among equal scores go), and could it be? A tie group holding r right passages puts
    the first of them at worst at its last place - r + 1."""
    start = 0
    while start < len(ranking):
        end = start
        while end < len(ranking) and ranking[end][1] == ranking[start][1]:
            end += 1
        inside = sum(pid in right for pid, _ in ranking[start:end])
        if inside:
            return end - inside + 1 <= k, start + 1 <= k
        start = end
    return False, False


def curve_from_runs(data):
    """retriever -> [(k, sure hits, possible hits, questions)] for k = 1..10, from the build's runs,
    each golden question as its reader gets the lists (the engine's as_reader: the reader's filter,
    then fusion again)."""
    acl = {p["id"]: p["acl"] for p in data["passages"]}
    readers = data["labs"]["recall"]["readers"]
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    runs = [as_reader(data["runs"][q["id"]], acl, readers[q["reader"]], data["settings"]["fusion_depth"], data["settings"]["rrf_k"])
            for q in golden]
    curve = {}
    for name in RETRIEVERS:
        curve[name] = []
        for k in range(1, 11):
            found = [sure_and_possible(run[name], set(q["answers"]), k) for q, run in zip(golden, runs)]
            curve[name].append((k, sum(sure for sure, _ in found), sum(could for _, could in found), len(golden)))
    return curve


def test_the_curve_draws_recall_at_every_k_from_1_to_10_with_its_wilson_band(views, data):
    curve = curve_from_runs(data)
    # The hand count agrees with the build's table where the build measured.
    for name in RETRIEVERS:
        for k in data["settings"]["recall_ks"]:
            entry = data["recall"][name][str(k)]
            assert curve[name][k - 1][1:] == (entry["hits"], entry["with_ties"], entry["of"])
    svg = markup(views.draw("recall", recall.STATE).html).css_first("svg.recall-curve")
    # The scale, read back from the drawn axis: each tick's height and the share it names.
    ticks = [(float(t.attributes["y"]) - 4, int(text(t).rstrip("%")) / 100) for t in svg.css("text.recall-tick-y")]
    (y_low, share_low), (y_high, share_high) = ticks[0], ticks[-1]
    share_at = lambda y: share_low + (y - y_low) * (share_high - share_low) / (y_high - y_low)  # noqa: E731
    k_at = {text(t): float(t.attributes["x"]) for t in svg.css("text.recall-tick-k")}
    assert list(k_at) == [str(k) for k in range(1, 11)]
    lowest = 1.0
    for name in RETRIEVERS:
        line = svg.css_first(f'g.recall-line[data-retriever="{name}"]')
        points = {int(c.attributes["data-k"]): (float(c.attributes["cx"]), float(c.attributes["cy"])) for c in line.css("circle.recall-point")}
        rings = {int(c.attributes["data-k"]): float(c.attributes["cy"]) for c in line.css("circle.recall-tie-ring")}
        band = [tuple(map(float, pair.split())) for pair in svg.css_first(f'path.recall-band[data-retriever="{name}"]')
                .attributes["d"].strip("Mz").split("L")]
        assert len(band) == 20
        for k, hits, possible, total in curve[name]:
            x, y = points[k]
            assert x == pytest.approx(k_at[str(k)], abs=0.06)
            assert share_at(y) == pytest.approx(hits / total, abs=0.001), (name, k)
            lo, hi = wilson(hits, total, Z_95)
            lowest = min(lowest, lo)
            assert band[k - 1][0] == pytest.approx(x, abs=0.06) and band[20 - k][0] == pytest.approx(x, abs=0.06)
            assert share_at(band[k - 1][1]) == pytest.approx(hi, abs=0.001), (name, k)
            assert share_at(band[20 - k][1]) == pytest.approx(lo, abs=0.001), (name, k)
            if possible > hits:
                assert share_at(rings[k]) == pytest.approx(possible / total, abs=0.001), (name, k)
            else:
                assert k not in rings, (name, k)
    assert share_low == math.floor(lowest * 10) / 10, "the axis starts at the tenth below the lowest interval"
    assert any(possible > hits for name in RETRIEVERS for _, hits, possible, _ in curve[name]), "no tie straddles any k: rings untested"


def test_the_view_computes_the_builds_figures_for_every_k(views, data):
    ks = data["settings"]["recall_ks"]
    assert ks == [1, 3, 5]
    for k, drawing in zip(ks, views.draw_many("recall", [{"k": k} for k in ks])):
        check_drawing(drawing, data, k)


def test_the_view_takes_a_k_from_a_link_as_a_number_and_refuses_one_the_build_did_not_measure(views, data):
    assert views.draw("recall", {"k": "5"}).state == {"k": 5}
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("recall", {"k": 4})


# ------------------------------------------------------------------ in the browser


@pytest.fixture(scope="module")
def shared(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-recall")


@pytest.mark.browser
def test_a_click_on_k_redraws_says_it_and_writes_the_link(shared, data):
    section = lab(shared, "recall")
    for k in data["settings"]["recall_ks"]:
        section.locator(f'input[name="recall-k"][value="{k}"] + span').click()
        expect(section.locator(f'input[name="recall-k"][value="{k}"]')).to_be_checked()
        expect(section.locator(".lab-status")).to_have_text(
            f"The hit rate at {k} on {data['recall']['hybrid'][str(k)]['of']} golden questions, each asked as its reader.")
        said = "; ".join(described(data, name, k) for name in RETRIEVERS)
        expect(shared.locator("#rag-status")).to_have_text(f"Hit rate at {k}: {said}.")
        assert hash_of(shared) == f"#lab-recall?k={k}"


@pytest.mark.browser
def test_recall_by_keyboard_and_from_a_shared_link(make_page, site_url, data):
    ks = data["settings"]["recall_ks"]
    page = open_page(make_page, site_url)
    section = lab(page, "recall")
    default = recall.STATE["k"]
    expect(section.locator(f'input[name="recall-k"][value="{default}"]')).to_be_checked()
    section.locator('input[name="recall-k"]:checked').focus()
    page.keyboard.press("ArrowLeft")
    k = ks[ks.index(default) - 1]
    expect(section.locator(f'input[name="recall-k"][value="{k}"]')).to_be_checked()
    expect(section.locator(".recall-table caption")).to_have_text(f"A right passage in the top {k}")
    assert hash_of(page) == f"#lab-recall?k={k}"
    again = open_page(make_page, site_url, f"#lab-recall?k={ks[-1]}")
    restored = lab(again, "recall")
    expect(restored.locator(f'input[name="recall-k"][value="{ks[-1]}"]')).to_be_checked()
    expect(restored.locator(".recall-table caption")).to_have_text(f"A right passage in the top {ks[-1]}")


@pytest.mark.browser
def test_a_link_with_a_k_the_build_did_not_measure_opens_the_default(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-recall?k=4")
    section = lab(page, "recall")
    expect(section.locator(f'input[name="recall-k"][value="{recall.STATE["k"]}"]')).to_be_checked()
    expect(section.locator(".lab-status")).to_contain_text(f"The hit rate at {recall.STATE['k']} on ")


@pytest.mark.browser
def test_screenshots_of_the_curve(shared):
    section = lab(shared, "recall")
    expect(section.locator("svg.recall-curve")).to_be_visible()
    shoot_everywhere(shared, "#lab-recall .recall-chart", "picture-recall")
