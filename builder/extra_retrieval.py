"""Data for sections 4-6 (chunking, dense and sparse, hybrid) beyond the core: summaries the
prose's claims check and the labs' default states draw, all derived from what the build
already computed.

    chunk_outcomes   setting -> question -> which chunk ranked first and what it holds
    bm25_explain     question -> BM25's top passages with each query term's share
    who_wins         per golden question, the right passage's rank under dense and BM25
    rrf_example      the RRF worked example: two real top-4 lists and their fusion
    near_misses      query words that miss their passage only for want of stemming
    retrieval_view   structural numbers the pages name (model window, the rerank lab's threshold)

Example: extra(corpus, data)["who_wins"]["counts"]["paraphrase"]
         -> {"dense": 9, "bm25": 0, "tie": 6, "both_first": 4, "total": 15}
"""

import math
import re

from engine.bm25 import BM25, unique_terms
from engine.dense import MAX_WORDPIECES
from engine.fusion import rrf
from engine.tokenize import tokenize

EXPLAIN_DEPTH = 8        # passages the BM25 explorer lists
RRF_EXAMPLE_DEPTH = 4    # the worked example fuses each retriever's top 4
RRF_EXAMPLE_QUESTION = "upload-4021"
RERANK_THRESHOLD = 0.5   # the rerank lab's default cut-off for the illustrative 0..1 scores
SUFFIXES = ("s", "es", "d", "ed", "ing", "able")  # what a simple stemmer strips
# The facts each chunking-lab question needs (corpus/chunking-lab.md names them; its README
# says which question needs which): a chunk holding all of them answers the question.
NEEDS = {"q1": ("safety_net", "extra_days"), "q2": ("extra_days",)}


def chunk_outcomes(chunking: dict) -> dict:
    """setting -> {"n_chunks", "min_words", "max_words", "split", qid -> outcome}.

    An outcome names the facts the question needs, whether the top chunk holds them all
    ("top_answers") and the best rank of a chunk that does ("answer_rank"); the top chunk
    (index in page order) with its score, words, facts and text; the runner-up; and for each
    fact the best rank of a chunk that holds it whole (None when the cuts leave no chunk
    holding it whole: those facts are also listed under "split").
    """
    facts = list(chunking["facts"])
    result = {}
    for setting in chunking["settings"]:
        chunks = setting["chunks"]
        summary = {"n_chunks": len(chunks), "min_words": min(c["words"] for c in chunks),
                   "max_words": max(c["words"] for c in chunks),
                   "split": [f for f in facts if not any(f in c["facts"] for c in chunks)]}
        for question in chunking["questions"]:
            qid = question["id"]
            by_rank = sorted(range(len(chunks)), key=lambda i: chunks[i]["ranks"][qid])
            top, second = by_rank[0], (by_rank[1] if len(by_rank) > 1 else None)
            needs = NEEDS.get(qid, ())
            summary[qid] = {
                "needs": list(needs),
                "top_answers": bool(needs) and all(f in chunks[top]["facts"] for f in needs),
                "answer_rank": min((c["ranks"][qid] for c in chunks if needs and all(f in c["facts"] for f in needs)),
                                   default=None),
                "top": top, "top_score": chunks[top]["scores"][qid], "top_words": chunks[top]["words"],
                "top_facts": list(chunks[top]["facts"]), "top_text": chunks[top]["text"],
                "second": second, "second_facts": list(chunks[second]["facts"]) if second is not None else [],
                "second_text": chunks[second]["text"] if second is not None else "",
                "fact_ranks": {f: min((c["ranks"][qid] for c in chunks if f in c["facts"]), default=None)
                               for f in facts},
            }
        result[setting["id"]] = summary
    return result


def fact_segments(text: str, facts: dict[str, str]) -> list[list]:
    """The text cut into [piece, fact name or None], so a fact's phrase can be marked.

    Phrases match case-insensitively, across any run of white space, as the lab's fact
    check does. Example: fact_segments("Wait 30 days.", {"t": "30 days"})
    -> [["Wait ", None], ["30 days", "t"], [".", None]]
    """
    patterns = [(name, re.compile(r"\s+".join(map(re.escape, phrase.split())), re.I)) for name, phrase in facts.items()]
    spans = sorted((m.start(), m.end(), name) for name, pattern in patterns for m in pattern.finditer(text))
    segments, at = [], 0
    for start, end, name in spans:
        if start < at:
            continue  # overlapping phrases: the first one wins
        if start > at:
            segments.append([text[at:start], None])
        segments.append([text[start:end], name])
        at = end
    if at < len(text):
        segments.append([text[at:], None])
    return segments


def bm25_explain(passages: list[dict], questions: list[dict], runs: dict, depth: int = EXPLAIN_DEPTH) -> dict:
    """question -> {"terms": [{term, df, idf}], "matched": n, "top": [{id, score, terms: [[term, share]]}]}."""
    index = BM25([p["text"] for p in passages])
    position = {p["id"]: i for i, p in enumerate(passages)}
    result = {}
    for question in questions:
        if question["set"] not in ("golden", "tracer"):
            continue
        ranking = runs[question["id"]]["bm25"]
        result[question["id"]] = {
            "terms": [{"term": t, "df": index.doc_freq(t), "idf": index.idf(t)} for t in unique_terms(question["text"])],
            "matched": len(ranking),
            "top": [{"id": pid, "score": score,
                     "terms": [[c.term, c.score] for c in index.explain(question["text"], position[pid])]}
                    for pid, score in ranking[:depth]],
        }
    return result


def who_wins(questions: list[dict], ranks: dict) -> dict:
    """Per golden question, the rank of its right passage under dense and BM25 and which is
    better ("dense", "bm25" or "tie"; a passage BM25 never returns counts as worse than any
    rank), with counts for paraphrases and for questions that share words with the passage."""
    rows = []
    for q in questions:
        if q["set"] != "golden":
            continue
        dense, bm25 = ranks[q["id"]]["dense"], ranks[q["id"]]["bm25"]
        d, b = dense or float("inf"), bm25 or float("inf")
        rows.append({"id": q["id"], "text": q["text"], "answer": q["answer"], "paraphrase": q["paraphrase"],
                     "dense": dense, "bm25": bm25, "hybrid": ranks[q["id"]]["hybrid"],
                     "winner": "dense" if d < b else "bm25" if b < d else "tie"})
    counts = {}
    for group, members in (("paraphrase", [r for r in rows if r["paraphrase"]]),
                           ("literal", [r for r in rows if not r["paraphrase"]]), ("all", rows)):
        counts[group] = {"dense": sum(r["winner"] == "dense" for r in members),
                         "bm25": sum(r["winner"] == "bm25" for r in members),
                         "tie": sum(r["winner"] == "tie" for r in members),
                         "both_first": sum(r["dense"] == 1 and r["bm25"] == 1 for r in members),
                         "total": len(members)}
    return {"rows": rows, "counts": counts}


def rrf_example(runs: dict, k: int, qid: str = RRF_EXAMPLE_QUESTION, depth: int = RRF_EXAMPLE_DEPTH) -> dict:
    """The worked example of section 6: fuse the real top-`depth` lists of one question."""
    dense = [pid for pid, _ in runs[qid]["dense"][:depth]]
    bm25 = [pid for pid, _ in runs[qid]["bm25"][:depth]]
    fused = []
    for pid, score in rrf([dense, bm25], k=k):
        parts = [{"list": name, "rank": ranked.index(pid) + 1} for name, ranked in (("dense", dense), ("bm25", bm25))
                 if pid in ranked]
        fused.append({"id": pid, "score": score, "parts": parts})
    return {"question": qid, "depth": depth, "k": k, "dense": dense, "bm25": bm25, "fused": fused,
            "shared": [pid for pid in dense if pid in bm25],
            "tie_at_top": len(fused) > 1 and fused[0]["score"] == fused[1]["score"]}


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


def rerank_view(rerank: dict) -> dict:
    """The rerank lab's threshold control: its range, step, default and how scores print.
    Illustrative scores are 0..1; a real cross-encoder's are logits, so the range is theirs."""
    if rerank["source"] == "illustrative":
        return {"min": 0.0, "max": 1.0, "step": 0.05, "threshold": RERANK_THRESHOLD, "digits": 2}
    scores = [score for pairs in rerank["by_question"].values() for _, score in pairs] or [0.0]
    low, high = math.floor(min(scores)), math.ceil(max(scores))
    high = max(high, low + 1)
    step = 0.1 if high - low > 5 else 0.05
    threshold = 0.0 if low < 0 < high else round(low + step * round((high - low) / 2 / step), 2)
    return {"min": float(low), "max": float(high), "step": step, "threshold": threshold, "digits": 3}


def extra(corpus, data: dict) -> dict:
    runs = data["runs"]
    ranks = data["ranks"]
    index = BM25([p["text"] for p in data["passages"]])
    return {
        "chunk_outcomes": chunk_outcomes(data["chunking"]),
        "chunk_segments": {setting["id"]: [fact_segments(c["text"], data["chunking"]["facts"]) for c in setting["chunks"]]
                           for setting in data["chunking"]["settings"]},
        "bm25_explain": bm25_explain(data["passages"], data["questions"], runs),
        "who_wins": who_wins(data["questions"], ranks),
        "rrf_example": rrf_example(runs, data["settings"]["rrf_k"]),
        "near_misses": near_misses(data["passages"], data["questions"]),
        "retrieval_view": {"max_wordpieces": MAX_WORDPIECES, "explain_depth": EXPLAIN_DEPTH,
                           "rerank": rerank_view(data["rerank"]),
                           "vocabulary": len(index.postings), "avg_len": index.avg_len},
    }
