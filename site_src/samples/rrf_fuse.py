"""Reciprocal rank fusion of the real result lists for "Getting QB-4021 when uploading"."""

K = 60


def rrf(ranked_lists, k=K):
    """Fused (id, score, parts) best first; equal scores keep first-seen order."""
    scores, parts = {}, {}
    for ranked in ranked_lists:
        for rank, pid in enumerate(ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + 1 / (k + rank)
            parts.setdefault(pid, []).append(f"1/({k}+{rank})")
    fused = sorted(scores.items(), key=lambda item: -item[1])  # a stable sort
    return [(pid, score, " + ".join(parts[pid])) for pid, score in fused]


def show(title, lists, lines):
    print(title)
    for place, (pid, score, parts) in enumerate(rrf(lists)[:lines], start=1):
        print(f"  {place}. {pid:<14} {score:.6f} = {parts}")


# Each retriever's top 8, best first.
dense = ["err-4290", "err-4011", "err-4031", "rb-4031",
         "err-4090", "api-limits", "err-4021", "sync-stuck"]
bm25 = ["err-4021", "bill-payment", "err-4090", "mobile-notify",
        "export-workspace", "mobile-upload", "sync-offline", "err-4011"]

show("top 4 of each, dense list first:", [dense[:4], bm25[:4]], 8)
show("top 4 of each, BM25 list first:", [bm25[:4], dense[:4]], 2)
show("top 8 of each, dense list first:", [dense, bm25], 4)
