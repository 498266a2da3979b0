"""Who wins where: the place of the right passage under dense search and under BM25 for every
golden question (its best-ranked right passage, as the question's reader gets the lists; a tie
spans a range of ranks), which retriever surely ranks it higher, counted per group of questions
(corpus/golden.yaml: in the help center's words, paraphrases, and typed the way people type).

Example: data(build)["counts"]["paraphrase"]["bm25"] -> 0
"""

STATE = {"sort": "id", "dir": "asc", "show": "all"}  # the state the page opens on
SCRIPTS = ("engine",)                                # the twin of engine/ranking.py writes a shared place "2="
GROUPS = ("words", "paraphrase", "typed")            # corpus/golden.yaml's groups, in its order


def winner(dense: list[int] | None, bm25: list[int] | None) -> str:
    """Which retriever surely ranks the right passage higher: one whose place ends above where the
    other's begins; "tie" when the places overlap (or both miss). A passage a retriever never
    returns is below every place.

    Example: [winner([1, 1], [3, 3]), winner([1, 2], [2, 2]), winner(None, [5, 5])] -> ['dense', 'tie', 'bm25']
    """
    low = float("inf")
    d_first, d_last = dense or (low, low)
    b_first, b_last = bm25 or (low, low)
    return "dense" if d_last < b_first else "bm25" if b_last < d_first else "tie"


def who_wins(questions: list[dict], ranks: dict) -> dict:
    """Per golden question, the place of its right passage under dense and BM25 and which is
    better, with counts per group and over all."""
    rows = []
    for q in questions:
        if q["set"] != "golden":
            continue
        dense, bm25 = ranks[q["id"]]["dense"], ranks[q["id"]]["bm25"]
        rows.append({"id": q["id"], "text": q["text"], "group": q["group"], "dense": dense, "bm25": bm25,
                     "winner": winner(dense, bm25)})
    counts = {}
    for group, members in [(g, [r for r in rows if r["group"] == g]) for g in GROUPS] + [("all", rows)]:
        counts[group] = {"dense": sum(r["winner"] == "dense" for r in members),
                         "bm25": sum(r["winner"] == "bm25" for r in members),
                         "tie": sum(r["winner"] == "tie" for r in members),
                         "both_first": sum(r["dense"] == [1, 1] and r["bm25"] == [1, 1] for r in members),
                         "total": len(members)}
    return {"rows": rows, "counts": counts}


def data(build) -> dict:
    return who_wins(build.data["questions"], build.data["ranks"])
