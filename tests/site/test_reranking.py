"""The illustrative rerank scores must cover exactly the fused candidates of each tracer."""

from types import SimpleNamespace

import pytest

from builder.reranking import check_illustrative_scores
from engine.problems import CorpusError


def corpus_with(scores):
    tracer = SimpleNamespace(id="upload-4021", line=15, rerank=scores)
    return SimpleNamespace(root="/x/corpus", tracers=[tracer])


RUNS = {"upload-4021": {"hybrid": [["err-4021", 0.03], ["err-4290", 0.02]]}}


def test_matching_scores_pass():
    check_illustrative_scores(corpus_with({"err-4021": 0.9, "err-4290": 0.2}), RUNS)


def test_a_missing_and_a_stray_score_are_named_with_the_fix():
    with pytest.raises(CorpusError) as raised:
        check_illustrative_scores(corpus_with({"err-4021": 0.9, "sso-1": 0.1}), RUNS)
    problem, = raised.value.problems
    assert (problem.file, problem.line, problem.id, problem.field) == ("corpus/tracers.yaml", 15, "upload-4021", "rerank")
    assert problem.fix == "add scores for err-4290; remove sso-1 (no longer a candidate)"
