"""SQLite's FTS5 beside the page's BM25 (builder/fts5.py): FTS5's bm25() on textbook cases,
worked by hand; its sign, its sort, its IDF floor and its tokenizer; the cache; and the real
comparison the page prints, on the site the session built."""

import json
import math
import sqlite3

import pytest

from builder import fts5
from engine.bm25 import BM25
from engine.tokenize import tokenize

# Three tiny passages: 4, 1 and 2 terms, so N = 3 and the average length is 7/3.
TEXTS = ["QB-4021 file limit", "QB", "attach files"]
AVG = 7 / 3


def tf_part(f, length, k1=1.2, b=0.75):
    return f * (k1 + 1) / (f + k1 * (1 - b + b * length / AVG))


def scores(expression, texts=TEXTS):
    return fts5.search(fts5.open_index(texts), expression)


# ------------------------------------------------------------------ the formulas


def test_fts5_idf_drops_the_one_plus_and_floors_what_is_not_positive():
    assert fts5.fts5_idf(1, 4) == pytest.approx(math.log((4 - 1 + 0.5) / (1 + 0.5)))
    assert fts5.fts5_idf(2, 4) == 1e-6            # ln(2.5 / 2.5) = 0
    assert fts5.fts5_idf(3, 4) == 1e-6            # ln(1.5 / 3.5) < 0
    assert fts5.lucene_idf(2, 4) == pytest.approx(math.log(2))  # the page's IDF stays positive
    for n in range(1, 41):
        assert fts5.fts5_idf(n, 40) < fts5.lucene_idf(n, 40)


def test_the_query_asks_for_each_distinct_term_once_joined_by_or():
    assert fts5.match_query("QB-4021: file? file!") == '"qb" OR "4021" OR "file"'
    assert fts5.match_query("?!") == ""
    assert fts5.curve_points(40) == [1, 5, 10, 20, 30]
    assert fts5.curve_points(3) == [1, 2]


# ------------------------------------------------------------------ FTS5 itself, worked by hand


def test_bm25_of_a_rare_term_is_the_textbook_score_times_minus_one():
    # "4021" is in one passage of three, which has 4 terms.
    (row, score), = scores('"4021"')
    assert row == 0
    assert score == pytest.approx(-math.log((3 - 1 + 0.5) / (1 + 0.5)) * tf_part(1, 4))


def test_a_term_in_most_rows_weighs_a_millionth():
    # "qb" is in two passages of three: ln(1.5 / 2.5) < 0, so the IDF is floored at 1e-6.
    ranked = scores('"qb"')
    assert [row for row, _ in ranked] == [1, 0]  # the shorter passage first
    assert [s for _, s in ranked] == pytest.approx([-1e-6 * tf_part(1, 1), -1e-6 * tf_part(1, 4)])


def test_results_come_negative_and_ascending_best_first():
    ranked = scores('"qb" OR "4021" OR "file"')
    assert [row for row, _ in ranked] == [0, 1]
    assert all(s < 0 for _, s in ranked)
    assert ranked == sorted(ranked, key=lambda pair: pair[1])
    assert ranked[0][1] == pytest.approx(-(math.log(2.5 / 1.5) * tf_part(1, 4) * 2 + 1e-6 * tf_part(1, 4)))


def test_a_repeated_query_term_counts_twice_in_fts5_and_once_here():
    (_, once), = scores('"4021"')
    (_, twice), = scores('"4021" OR "4021"')
    assert twice == pytest.approx(2 * once)
    assert BM25(TEXTS).scores("4021 4021") == BM25(TEXTS).scores("4021")


def test_its_tokenizer_folds_case_and_diacritics_where_ours_keeps_the_accents():
    assert fts5.fts5_tokens("Café QB-4021") == ["cafe", "qb", "4021"]
    assert tokenize("Café QB-4021") == ["café", "qb", "4021"]
    assert fts5.vocabulary(fts5.open_index(TEXTS)) == {"4021": 1, "attach": 1, "file": 1, "files": 1, "limit": 1,
                                                        "qb": 2}


def test_rescored_puts_ftss_idf_into_our_bm25_and_matches_fts5_exactly():
    index = BM25(TEXTS)
    expected = fts5.rescored(index, "qb 4021 file")
    for row, score in scores(fts5.match_query("qb 4021 file")):
        assert -score == pytest.approx(expected[row], abs=1e-12)


# ------------------------------------------------------------------ the comparison and its cache


# Five passages, 4, 4, 2, 2 and 2 terms long (average 14/5). "can" is in two of them, "our" in one.
PASSAGES = [("a", "can can can x"), ("b", "our y z w"), ("c", "can p"), ("d", "4021 r"), ("e", "s t")]
GOLDEN = [{"id": "q1", "text": "can our", "answer": "a", "set": "golden"},
          {"id": "q2", "text": "our", "answer": "b", "set": "golden"}]


def our_runs():
    index = BM25([text for _, text in PASSAGES])
    ids = [pid for pid, _ in PASSAGES]
    def run(text):
        s = index.scores(text)
        return {"bm25": [[ids[i], s[i]] for i in sorted(range(len(ids)), key=lambda i: -s[i]) if s[i] > 0]}
    return {q["id"]: run(q["text"]) for q in GOLDEN}


def test_compare_names_the_rank_of_each_right_passage_in_both_engines_and_why_they_differ():
    raw = fts5.run_fts5(PASSAGES, [(q["id"], q["text"]) for q in GOLDEN])
    out = fts5.compare(raw, PASSAGES, GOLDEN, our_runs(), BM25([text for _, text in PASSAGES]))
    # q1, by hand (average length 14/5): a says "can" three times, b says "our" once.
    def part(f, length):
        return f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / (14 / 5)))
    ours_a, ours_b = math.log(1 + 3.5 / 2.5) * part(3, 4), math.log(1 + 4.5 / 1.5) * part(1, 4)
    fts5_a, fts5_b = math.log(3.5 / 2.5) * part(3, 4), math.log(4.5 / 1.5) * part(1, 4)
    assert ours_a > ours_b and fts5_b > fts5_a  # ours puts a first, FTS5 b
    assert [(r["q"], r["ours"], r["fts5"]) for r in out["rows"]] == [("q1", 1, 2), ("q2", 1, 1)]
    assert out["differ"] == ["q1"]
    example = out["example"]
    assert (example["q"], example["ours_top"], example["fts5_top"], example["term"]) == ("q1", "a", "b", "can")
    assert (example["df"], example["tf"]) == (2, 3)
    assert example["ours"] == pytest.approx({"a": ours_a, "b": ours_b})
    assert example["fts5"] == pytest.approx({"a": fts5_a, "b": fts5_b})
    assert example["idf"] == pytest.approx(math.log(1 + 3.5 / 2.5))
    assert example["fts5_idf"] == pytest.approx(math.log(3.5 / 2.5))
    assert example["fts5_top_terms"] == [["our", 1]]
    assert out["same_lists"] and out["negative"] and out["ascending"]
    assert out["idf_gap"] < 1e-12
    assert out["vocabulary"]["same"]
    assert out["repeat"]["twice"] == pytest.approx(2 * out["repeat"]["once"])
    json.dumps(out)  # it travels in the page's data


def test_the_raw_results_are_cached_by_their_inputs(tmp_path, monkeypatch):
    questions = [(q["id"], q["text"]) for q in GOLDEN]
    first = fts5.cached_run(tmp_path, PASSAGES, questions)
    assert len(list((tmp_path / "fts5").glob("*.json"))) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("the cache should have answered")
    monkeypatch.setattr(sqlite3, "connect", refuse)
    assert fts5.cached_run(tmp_path, PASSAGES, questions) == first
    monkeypatch.undo()

    edited = [(pid, text + " more") if pid == "a" else (pid, text) for pid, text in PASSAGES]
    assert fts5.cache_key(edited, questions) != fts5.cache_key(PASSAGES, questions)
    fts5.cached_run(tmp_path, edited, questions)
    assert len(list((tmp_path / "fts5").glob("*.json"))) == 2


# ------------------------------------------------------------------ the real data


def test_on_the_help_center_fts5_differs_only_by_its_idf(data):
    out = data["fts5"]
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    assert [r["q"] for r in out["rows"]] == [q["id"] for q in golden]
    # Each engine's rank of the question's first answer, over every passage (no reader's filter).
    ours = [[pid for pid, _ in data["runs"][q["id"]]["bm25"]] for q in golden]
    assert [r["ours"] for r in out["rows"]] == [ids.index(q["answer"]) + 1 if q["answer"] in ids else None
                                               for q, ids in zip(golden, ours)]
    assert out["differ"] == [r["q"] for r in out["rows"] if r["ours"] != r["fts5"]]
    assert out["differ"], "the page explains differences; with none, its prose would need rewriting"
    # Same passages matched, same terms indexed: the tokenizers agree on this corpus...
    assert out["same_lists"] and out["vocabulary"]["same"]
    # ...and our engine with FTS5's IDF puts out FTS5's every score: the IDF is the whole difference.
    assert out["idf_gap"] < out["close"]
    assert out["negative"] and out["ascending"]
    n = len(data["passages"])
    assert all(2 * df >= n for _, df in out["floored"])
    assert out["probe"]["ours"] != out["probe"]["fts5"]
    assert out["sqlite"] == sqlite3.sqlite_version


def test_a_python_without_fts5_stops_the_build_naming_the_fix(monkeypatch):
    class NoModule:
        def execute(self, sql, *args):
            raise sqlite3.OperationalError("no such module: fts5")
    monkeypatch.setattr(fts5.sqlite3, "connect", lambda *args: NoModule())
    with pytest.raises(fts5.NoFTS5, match="has no FTS5: no such module: fts5 .fix: build with a Python"):
        fts5.open_index(TEXTS)
