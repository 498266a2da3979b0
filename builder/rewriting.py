"""Query rewriting, made real: hand-written rewrites (as a model would write them), searched
with the same retrievers, and for multi-query, the rewrites' lists fused with RRF."""

from engine.evaluate import rank_of
from engine.fusion import rrf

from builder.retrieval import RRF_K, round_score


def rewrite_texts(rewrites) -> list[str]:
    """Every text the rewriting examples search for: originals, then rewrites."""
    return [r.original for r in rewrites] + [text for r in rewrites for text in r.rewrites]


def rewrite_record(rewrite, search) -> dict:
    """`search(text)` returns a run {"dense": …, "bm25": …, "hybrid": …} for any text."""
    before = search(rewrite.original)
    after_runs = [search(text) for text in rewrite.rewrites]
    if len(after_runs) == 1:
        after = after_runs[0]["hybrid"]
    else:
        after = [(pid, round_score(score)) for pid, score in
                 rrf([[pid for pid, _ in run["hybrid"]] for run in after_runs], k=RRF_K)]

    def ranks(run):
        return {name: rank_of([pid for pid, _ in ranking], rewrite.answer_id) for name, ranking in run.items()}

    return {
        "id": rewrite.id, "kind": rewrite.kind, "context": rewrite.context, "original": rewrite.original,
        "rewrites": list(rewrite.rewrites), "answer": rewrite.answer_id,
        "before": {"run": {name: ranking[:8] for name, ranking in before.items()}, "ranks": ranks(before)},
        "each": [{"text": text, "ranks": ranks(run), "hybrid": run["hybrid"][:8]}
                 for text, run in zip(rewrite.rewrites, after_runs)],
        "after": {"hybrid": after[:8], "rank": rank_of([pid for pid, _ in after], rewrite.answer_id)},
    }
