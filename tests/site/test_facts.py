"""The prose's helpers over the build's data (builder/page/facts.py), on a tiny hand-made data set:
a rank is asked only of a passage with a score of its own; a tied passage has a place ("2=") and
a span of ranks, and a sentence that asks for its rank stops the build with the fix; recall reads
sure hits and writes a range where ties leave it open."""

import pytest

from builder.page.facts import Facts, TiedRank, section_ref

DATA = {
    "questions": [{"id": "q1", "text": "What does QB-4290 mean?", "set": "golden", "answer": "b", "answers": ["b", "c"]}],
    "passages": [{"id": pid} for pid in "abcd"],
    # BM25 gives b and c one score (the corpus lists b first); dense has no tie.
    "runs": {"q1": {"bm25": [["b", 4.1], ["c", 4.1], ["a", 1.0]], "dense": [["a", 0.6], ["b", 0.5], ["c", 0.4], ["d", 0.1]],
                    "hybrid": [["b", 0.032], ["a", 0.03]]}},
    "recall": {"hybrid": {"1": {"hits": 26, "with_ties": 27, "of": 30}, "3": {"hits": 29, "with_ties": 29, "of": 30}}},
    "settings": {}, "tokens": {},
}


def test_a_tied_passage_has_a_place_and_a_span_and_no_rank_of_its_own():
    facts = Facts(DATA)
    assert facts.place("q1", "bm25", "c") == "1=" and facts.span("q1", "bm25", "c") == [1, 2]
    with pytest.raises(TiedRank, match=r"c shares its score with 1 other passage\(s\), places 1 to 2.*write place"):
        facts.rank("q1", "bm25", "c")
    assert facts.rank("q1", "bm25", "a") == 3 and facts.place("q1", "bm25", "a") == "3"


def test_the_right_passage_is_the_best_ranked_of_the_answers():
    facts = Facts(DATA)
    assert facts.rank("q1", "dense") == 2          # b, the better of b and c
    assert facts.span("q1", "bm25") == [1, 2]     # b, tied with c
    with pytest.raises(TiedRank):
        facts.rank("q1", "bm25")


def test_recall_reads_sure_hits_and_writes_a_range_where_ties_leave_it_open():
    facts = Facts(DATA)
    assert facts.recall("hybrid", 1) == 26 and facts.recall_text("hybrid", 1) == "26\u201327"
    assert facts.recall_text("hybrid", 3) == "29"


def test_a_section_is_named_by_slug_and_linked_by_its_current_number():
    numbers = {"chunking": 4, "citations": 8, "failures": 11}
    assert section_ref(numbers, "citations") == 'section <a href="#citations">8</a>'
    assert section_ref(numbers, "chunking", "citations", "failures", cap=True) == (
        'Sections <a href="#chunking">4</a>, <a href="#citations">8</a> and <a href="#failures">11</a>')
    assert section_ref(numbers, "chunking", "citations", to=True) == (
        'sections <a href="#chunking">4</a> to <a href="#citations">8</a>')
    with pytest.raises(ValueError, match=r"no section 'measurin'.*the sections are chunking, citations, failures"):
        section_ref(numbers, "measurin")


def test_no_prose_types_a_section_number():
    """A typed "section 9" goes stale the day a section is added; the prose writes {{ sec('every-stage') }}."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "site_src"
    typed = re.compile(r"\b[Ss]ections? \d+\b(?!\.\d)")
    found = [f"{path.relative_to(root)}:{n}: {line.strip()[:80]}"
             for path in [*sorted((root / "sections").glob("*.md")), *sorted((root / "labs").glob("*/lab.*"))]
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if typed.search(line)]
    assert not found, "write {{ sec('slug') }} instead of a typed section number:\n" + "\n".join(found)
