"""Query rewriting, made real: hand-written rewrites from corpus/rewrites.yaml (as a model
would write them), searched with the same retrievers, and for multi-query, the rewrites'
lists fused with RRF.

Example: rewrite_texts([Rewrite("r1", "expansion", "refund?", ("refund policy",), "refund-1", "", 3)])
         -> ['refund?', 'refund policy']
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_list
from engine.evaluate import rank_of
from engine.fields import check_id, required_choice, required_str
from engine.fusion import rrf
from engine.problems import ProblemLog
from engine.ranking import round_score

REWRITE_KINDS = ("follow-up", "expansion", "multi-query")


@dataclass(frozen=True)
class Rewrite:
    id: str
    kind: str
    original: str
    rewrites: tuple[str, ...]
    answer_id: str
    context: str
    line: int


def load_rewrites(path: Path, out: ProblemLog) -> list[Rewrite]:
    rewrites = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        rewrite_id = check_id(record.get("id"), path, line, "id", out)
        kind = required_choice(record, "kind", REWRITE_KINDS, path, rewrite_id, out)
        original = required_str(record, "original", path, rewrite_id, out)
        answer = required_str(record, "answer", path, rewrite_id, out)
        raw = record.get("rewrites")
        if not isinstance(raw, list) or not raw or not all(isinstance(r, str) and r.strip() for r in raw):
            out.add(path, line, rewrite_id, "rewrites", "is not a list of questions", "write rewrites: [first, …]")
            continue
        context = str(record.get("context") or "")
        if None not in (rewrite_id, kind, original, answer):
            rewrites.append(Rewrite(rewrite_id, kind, original, tuple(raw), answer, context, line))
    return rewrites



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
                 rrf([[pid for pid, _ in run["hybrid"]] for run in after_runs])]

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
