"""Recall on the reader's golden set (site_src/docs/measure.js, marks.js), in Node, equal to the same
figures computed in Python with the engine (engine/evaluate.py rank_of, recall_at_k,
passages_found; engine/significance.py wilson, sign_test; engine/ranking.py places) on the same
input: the sample documents cut two ways and searched by the engine (BM25 as built; dense over
stand-in vectors: what is measured here is the counting, not the model), marked by their quotes;
and hand-made rankings with ties that straddle k, questions with several marks, and lost marks.
Also: how many questions a difference would take, against a brute-force count over binomials."""

import hashlib

import pytest

from engine import settings
from engine.significance import Z_95, wilson
from docs.engine_figures import RETRIEVERS, expected_measure, expected_needed, quote_marks
from docs.sample_set import chunked, engine_runs, plain, questions
from support.stand_in_model import stand_in_embed

MEASURE = "async (RAG, input) => RAG.docs.measure(input)"


# ----------------------------------------------------------------------------- the cases

def sample_case(node, setting):
    chunks = chunked(node, setting)
    asked = questions()
    runs = engine_runs(chunks, asked, stand_in_embed([c["text"] for c in chunks]), stand_in_embed([q["question"] for q in asked]))
    answers = {q["id"]: q["answers"] for q in asked}
    marks = node.run("async (RAG, input) => RAG.docs.marks.fromQuotes(input.chunks, input.answers)", {"chunks": chunks, "answers": answers})
    return chunks, plain(runs), marks, asked


@pytest.mark.parametrize("setting", [{"chunker": "sentences", "limit": 40, "repeat": 1}, {"chunker": "headings"}],
                         ids=["sentences-40-1", "headings"])
def test_recall_on_the_sample_set_equals_the_engines_count(node, setting):
    chunks, runs, marks, asked = sample_case(node, setting)
    assert marks == quote_marks(chunks, asked)
    assert all(marks[q["id"]] for q in asked), "every question has a chunk that holds one of its quotes"
    found = node.run(MEASURE, {"chunks": chunks, "runs": runs, "marks": marks})
    assert found == expected_measure(chunks, runs, marks)


def h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# Six chunks, two of them tied at rank 2-3, two more tied at 4-6 (scores equal to 6 decimals).
TIED = [["a", 0.9], ["b", 0.5], ["c", 0.5], ["d", 0.2], ["e", 0.2], ["f", 0.2]]
HAND_CHUNKS = [{"id": pid, "hash": h(pid)} for pid in "abcdef"]


def test_a_tie_that_straddles_k_counts_as_a_range(node):
    runs = {"q1": {r: TIED for r in RETRIEVERS}, "q2": {r: TIED for r in RETRIEVERS},
            "q3": {r: TIED for r in RETRIEVERS}, "q4": {r: TIED for r in RETRIEVERS}}
    marks = {"q1": [h("a")],            # first, alone: a hit at every k
             "q2": [h("c")],            # tied at 2-3: a miss at k = 1, a hit at k = 3
             "q3": [h("e"), h("b")],    # two marks: b at 2-3, e at 4-6 (straddles 5)
             "q4": [h("gone")]}         # its only mark lost: left out of every figure
    found = node.run(MEASURE, {"chunks": HAND_CHUNKS, "runs": runs, "marks": marks})
    assert found == expected_measure(HAND_CHUNKS, runs, marks)
    assert found["questions"] == ["q1", "q2", "q3"] and found["lost"]["q4"] == [h("gone")]
    dense = found["recall"]["dense"]
    assert dense["1"]["hits"] == [1, 1] and dense["3"]["hits"] == [3, 3]
    assert found["perQuestion"]["dense"]["q3"]["found"]["5"] == [1, 2], "e's tie spans ranks 4 to 6: found at 5 or not"
    assert dense["5"]["recall"] == [(1 + 1 + 1 / 2) / 3, 1.0]
    assert dense["1"]["wilson"] == [list(wilson(1, 3, Z_95))] * 2


def test_a_tie_at_k_makes_the_hit_itself_a_range_and_the_pair_undecided(node):
    runs = {"q1": {"dense": TIED, "bm25": [["a", 3.0]], "hybrid": TIED}}
    marks = {"q1": [h("b")]}  # b is tied at 2-3: at k = 2 it may or may not be in
    found = node.run("async (RAG, input) => RAG.docs.measure({...input, ks: [2]})", {"chunks": HAND_CHUNKS, "runs": runs, "marks": marks})
    assert found["recall"]["dense"]["2"]["hits"] == [0, 1]
    dense_bm25 = next(p for p in found["pairs"] if (p["a"], p["b"]) == ("dense", "bm25"))
    assert (dense_bm25["wins"], dense_bm25["losses"], dense_bm25["undecided"]) == (0, 0, 1)


# Cosines of the browser's model, known to data.live.cosine_tolerance (5e-4): a and c are apart by
# less, so with the tolerance they tie at 1-2 as the hybrid view draws them; exactly, c is second.
CLOSE = [["a", 0.6003], ["c", 0.6], ["b", 0.5], ["d", 0.4], ["e", 0.2], ["f", 0.1]]


def test_a_tolerance_makes_close_scores_a_tie_in_that_retriever_only(node):
    runs = {"q1": {"dense": CLOSE, "bm25": CLOSE, "hybrid": CLOSE}}
    marks = {"q1": [h("c")]}
    tolerances = {"dense": 5e-4}
    found = node.run(MEASURE, {"chunks": HAND_CHUNKS, "runs": runs, "marks": marks, "tolerances": tolerances})
    assert found == expected_measure(HAND_CHUNKS, runs, marks, tolerances)
    assert found["recall"]["dense"]["1"]["hits"] == [0, 1], "c ties with a within the tolerance: at k = 1 a range"
    assert found["recall"]["bm25"]["1"]["hits"] == [0, 0], "BM25's scores are exact: c is second"
    assert found != expected_measure(HAND_CHUNKS, runs, marks), "without the tolerance the figures differ"


@pytest.mark.parametrize("wins, losses, n", [(4, 1, 10), (3, 0, 6), (1, 0, 6), (6, 1, 30), (5, 4, 20), (2, 2, 6), (0, 0, 6), (1, 3, 9)])
def test_how_many_questions_a_difference_would_take(node, wins, losses, n):
    found = node.run("async (RAG, input) => RAG.docs.questionsNeeded(...input)", [wins, losses, n])
    assert found == expected_needed(wins, losses, n)


def test_the_number_of_questions_example_and_the_constants():
    assert expected_needed(4, 1, 10) == {"split": 12, "questions": 24, "p": 0.038574}  # measure.js's example
    assert settings.SIGNIFICANCE == 0.05 and Z_95 == 1.959964  # the 40 and the z measure.js writes


def test_marks_split_into_those_a_chunking_keeps_and_those_it_loses(node):
    found = node.run("async (RAG) => RAG.docs.marks.split({q1: ['aa', 'bb'], q2: []}, [{hash: 'aa'}])")
    assert found == {"present": {"q1": ["aa"], "q2": []}, "lost": {"q1": ["bb"], "q2": []}}
    toggled = node.run("async (RAG) => [RAG.docs.marks.toggle({q1: ['aa']}, 'q1', 'bb'), RAG.docs.marks.toggle({q1: ['aa']}, 'q1', 'aa')]")
    assert toggled == [{"q1": ["aa", "bb"]}, {"q1": []}]


def test_every_setting_tried_side_by_side_with_the_marks_each_loses(node):
    tried, all_marks = [], {}
    for setting in ({"chunker": "sentences", "limit": 40, "repeat": 1}, {"chunker": "fixed", "size": 25, "overlap": 0}):
        chunks, runs, marks, _ = sample_case(node, setting)
        tried.append({"setting": setting, "chunks": chunks, "runs": runs})
        for q, hashes in marks.items():
            all_marks.setdefault(q, []).extend(hashes)
    rows = node.run("async (RAG, input) => RAG.docs.compareSettings(input.tried, input.marks)", {"tried": tried, "marks": all_marks})
    assert [row["label"] for row in rows] == ["Sentences, up to 40 words, 1 repeated", "Fixed, 25 words"]
    for row, one in zip(rows, tried):
        assert row["measured"] == expected_measure(one["chunks"], one["runs"], all_marks)
        kept = {c["hash"] for c in one["chunks"]}
        assert row["lost"] == {q: [x for x in hs if x not in kept] for q, hs in all_marks.items()}
    assert any(row["lost"][q] for row in rows for q in row["lost"]), "marks made under one cut are lost under the other"
