"""What the documents' Measure step says of a pair of retrievers (site_src/docs/measure.js
pairInWords), in Node: which one alone finds how many of the questions they disagree on, the
sign test over those, and how many questions a difference of that size would take (the figures
are RAG.docs.measure's, proven equal to the engine's in test_measure.py; this is their wording)."""

import pytest

WORDS = "async (RAG, pair) => RAG.docs.pairInWords(pair)"


@pytest.mark.parametrize("pair, said", [
    ({"a": "bm25", "b": "hybrid", "k": 5, "wins": 0, "losses": 1, "p": 1, "needed": {"questions": 36}},
     "At k = 5, BM25 and hybrid disagree on 1 question: hybrid alone finds 1, BM25 alone 0 (sign test p = 1.000). "
     "To see a difference of that size at p \u2264 0.05 would take about 36 questions."),
    ({"a": "dense", "b": "bm25", "k": 3, "wins": 4, "losses": 1, "p": 0.375, "needed": {"questions": 24}},
     "At k = 3, dense and BM25 disagree on 5 questions: dense alone finds 4, BM25 alone 1 (sign test p = 0.375). "
     "To see a difference of that size at p \u2264 0.05 would take about 24 questions."),
    ({"a": "bm25", "b": "hybrid", "k": 5, "wins": 2, "losses": 2, "p": 1, "needed": None},
     "At k = 5, BM25 and hybrid disagree on 4 questions: each finds 2 the other misses (sign test p = 1.000). "
     "With as many found either way, there is no difference to test."),
    ({"a": "bm25", "b": "hybrid", "k": 5, "wins": 0, "losses": 0, "p": 1, "needed": None},
     "At k = 5, BM25 and hybrid find the same questions: there is no difference to test."),
    ({"a": "dense", "b": "hybrid", "k": 1, "wins": 50, "losses": 49, "p": 1, "needed": {"more": 10000}},
     "At k = 1, dense and hybrid disagree on 99 questions: dense alone finds 50, hybrid alone 49 (sign test p = 1.000). "
     "A difference this small would take more than 10,000 questions they disagree on to show."),
], ids=["hybrid-ahead", "first-ahead", "even", "same", "too-small"])
def test_a_pair_says_who_alone_finds_how_many_and_what_it_would_take(node, pair, said):
    assert node.run(WORDS, pair) == said


def test_the_lab_says_it_of_the_measured_pair(node):
    """measure()'s own pair, as the lab takes it (BM25 against hybrid at k = 5), reads its figures."""
    runs = {"q1": {"bm25": [["c2", 2.0], ["c1", 1.0]], "hybrid": [["c1", 0.03], ["c2", 0.02]], "dense": [["c1", 0.9]]},
            "q2": {"bm25": [["c1", 2.0]], "hybrid": [["c1", 0.03]], "dense": [["c1", 0.9]]}}
    found = node.run("""async (RAG, input) => {
        const pair = RAG.docs.measure(input).pairs.find((p) => p.k === 1 && p.a === "bm25" && p.b === "hybrid");
        return [pair.wins, pair.losses, RAG.docs.pairInWords(pair)];
    }""", {"chunks": [{"id": "c1", "hash": "h1"}, {"id": "c2", "hash": "h2"}], "runs": runs, "marks": {"q1": ["h1"], "q2": ["h1"]}})
    assert found[:2] == [0, 1]
    assert found[2].startswith("At k = 1, BM25 and hybrid disagree on 1 question: hybrid alone finds 1, BM25 alone 0 (sign test p = 1.000).")
