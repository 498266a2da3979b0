"""What stemming would have bought: for each question, the query words BM25 cannot match in
the right passage only because the passage has another form of the word ("refund" against
"refundable"). The dense-sparse section's prose names them (data.near_misses).

Example: near_misses([{"id": "p", "text": "Plans are refundable"}],
                     [{"id": "q", "set": "golden", "answer": "p", "text": "refund"}]) -> {"q": [["refund", ["refundable"]]]}
"""

from engine.bm25 import unique_terms
from engine.tokenize import tokenize

SUFFIXES = ("s", "es", "d", "ed", "ing", "able")  # what a simple stemmer strips


def near_misses(passages: list[dict], questions: list[dict]) -> dict:
    """question -> [[query word, [variants in its right passage]]]: words BM25 cannot match
    without stemming. A variant is the query word plus one of SUFFIXES ("refund" ->
    "refundable"), or the query word minus one ("means" -> "mean")."""
    text_of = {p["id"]: p["text"] for p in passages}
    result = {}
    for q in questions:
        if q["set"] not in ("golden", "tracer") or not q["answer"]:
            continue
        passage_terms = set(tokenize(text_of[q["answer"]]))
        misses = []
        for term in unique_terms(q["text"]):
            if term in passage_terms or len(term) < 3:
                continue
            variants = sorted(t for t in passage_terms if min(len(t), len(term)) >= 3
                              and any(t == term + s or term == t + s for s in SUFFIXES))
            if variants:
                misses.append([term, variants])
        if misses:
            result[q["id"]] = misses
    return result
