# For each golden question, the rank at which a retriever returned the passage that
# answers it (None: it never returned that passage).
RANKS = {
    "keywords": [1, 4, None, 2, 1, 7],
    "vectors": [2, 1, 1, 1, 3, None],
}


def recall_at_k(ranks, k):
    """(hits, questions): how many right passages are in the top k."""
    hits = sum(1 for rank in ranks if rank is not None and rank <= k)
    return hits, len(ranks)


for name, ranks in RANKS.items():
    cells = []
    for k in (1, 3, 5):
        hits, total = recall_at_k(ranks, k)
        cells.append(f"@{k}: {hits}/{total} = {100 * hits / total:5.1f}%")
    print(f"{name:9} " + "   ".join(cells))

total = len(RANKS["keywords"])
print(f"with {total} questions, one question moves recall by {100 / total:.1f} points")
