"""Who wins where: the right passage's rank under dense search and under BM25 for every golden
question, and which retriever ranks it higher, counted for paraphrases and for the rest.

Example: data(build)["counts"]["paraphrase"] -> {"dense": 9, "bm25": 0, "tie": 6, "both_first": 4, "total": 15}
"""

STATE = {"sort": "id", "dir": "asc", "show": "all"}  # the state the page opens on


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
        rows.append({"id": q["id"], "text": q["text"], "paraphrase": q["paraphrase"], "dense": dense, "bm25": bm25,
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


def data(build) -> dict:
    return who_wins(build.data["questions"], build.data["ranks"])
