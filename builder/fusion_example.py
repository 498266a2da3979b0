"""The reciprocal rank fusion worked example of section 'hybrid': one question's real top-4 dense and
BM25 lists, fused step by step (data.rrf_example). The question is page.yaml's rrf_example.

Example: rrf_example(runs, k=60, qid="q1")["fused"][0]["parts"] -> [{"list": "dense", "rank": …}, {"list": "bm25", "rank": …}]
"""

from engine.fusion import rrf

DEPTH = 4  # the example fuses each retriever's top 4


def rrf_example(runs: dict, k: int, qid: str, depth: int = DEPTH) -> dict:
    """The worked example of section 'hybrid': fuse the real top-`depth` lists of one question."""
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
