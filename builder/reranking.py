"""Rerank scores for the page: a real cross-encoder when one is named, else the corpus's
hand-written illustrative scores for the tracer questions.

The result, data.rerank:
    source       "model" or "illustrative"
    model        what RAG_EXPLAINER_RERANKER named (None when illustrative)
    label        how the page names the model: a folder's own name, or the hub name
    depth        how many fused candidates the reranker reads
    by_question  question id -> [[passage id, score]], best first
"""

import math
import sys
from pathlib import Path

from engine.problems import CorpusError, Problem
from engine.rerank import RERANK_DEPTH, by_score, cross_encoder_scores, reranker_name


def model_label(name: str) -> str:
    """'/models/ms-marco-MiniLM-L-6-v2/' -> 'ms-marco-MiniLM-L-6-v2'; a hub name stays whole."""
    path = Path(name)
    return path.name if path.is_dir() else name


def check_illustrative_scores(corpus, runs: dict) -> None:
    """Every fused candidate of a tracer has a hand-written score, and only candidates do, so
    the illustrative rerank reorders exactly the list the page shows. A corpus edit that moves
    the candidates stops the build here, naming what to add or remove."""
    problems = []
    for tracer in corpus.tracers:
        candidates = [pid for pid, _ in runs[tracer.id]["hybrid"][:RERANK_DEPTH]]
        unscored = [pid for pid in candidates if pid not in tracer.rerank]
        stray = [pid for pid in tracer.rerank if pid not in candidates]
        if unscored or stray:
            parts = ([f"add scores for {', '.join(unscored)}"] if unscored else []) + (
                [f"remove {', '.join(stray)} (no longer a candidate)"] if stray else [])
            problems.append(Problem(f"{Path(corpus.root).name}/tracers.yaml", tracer.line, tracer.id, "rerank",
                                    "the illustrative scores do not match the fused candidates "
                                    f"({', '.join(candidates)})", "; ".join(parts)))
    if problems:
        raise CorpusError(problems)


def rerank_data(corpus, questions, runs: dict, strict: bool = True) -> dict:
    name = reranker_name()
    if name is None:
        try:
            check_illustrative_scores(corpus, runs)
        except CorpusError as error:
            if strict:
                raise
            print(f"warning: {error}", file=sys.stderr)
        return {"source": "illustrative", "model": None, "label": None, "depth": RERANK_DEPTH,
                "by_question": {t.id: [[pid, score] for pid, score in by_score(t.rerank)] for t in corpus.tracers}}
    by_id = corpus.by_id
    by_question = {}
    for question in questions:
        candidates = [pid for pid, _ in runs[question.id]["hybrid"][:RERANK_DEPTH]]
        scores = cross_encoder_scores(name, question.text, [by_id[pid].text for pid in candidates])
        by_question[question.id] = [[pid, round(score, 6)] for pid, score in by_score(dict(zip(candidates, scores)))]
    return {"source": "model", "model": name, "label": model_label(name), "depth": RERANK_DEPTH,
            "by_question": by_question}


THRESHOLD = 0.5   # the default cut-off for the illustrative 0..1 scores


def threshold_control(rerank: dict) -> dict:
    """The rerank lab's threshold control: its range, step, default and how scores print.
    Illustrative scores are 0..1; a real cross-encoder's are logits, so the range is theirs."""
    if rerank["source"] == "illustrative":
        return {"min": 0.0, "max": 1.0, "step": 0.05, "threshold": THRESHOLD, "digits": 2}
    scores = [score for pairs in rerank["by_question"].values() for _, score in pairs] or [0.0]
    low, high = math.floor(min(scores)), math.ceil(max(scores))
    high = max(high, low + 1)
    step = 0.1 if high - low > 5 else 0.05
    threshold = 0.0 if low < 0 < high else round(low + step * round((high - low) / 2 / step), 2)
    return {"min": float(low), "max": float(high), "step": step, "threshold": threshold, "digits": 3}
