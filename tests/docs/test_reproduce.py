"""site_src/docs/reproduce.py, the Python script the page offers beside its export, run on an
export of the sample set (chunked by the page's scripts in Node, export.js), its output held
against the engine's rankings (engine/bm25.py, engine/ranking.py, engine/fusion.py, through
tests/docs/sample_set.py engine_runs) and recall (tests/docs/engine_figures.py) computed here:

- with stand-in vectors in the file: every ranking and every recall figure the same (fast);
- with the Python engine's vectors of the real model (the vectors the page's model agrees with to
  3e-5, README "The model in the reader's browser"): the same, and the script's own embedding
  (--embed: sentence-transformers in the script's process) against the engine's: top 5 and recall
  (slow: it loads the model). Figures in test-artifacts/reproduce-agreement.json.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from docs.engine_figures import expected_measure
from docs.sample_set import chunked, embedded, engine_runs, exported, plain, questions, vectors_of
from support.paths import ARTIFACTS, ROOT
from support.stand_in_model import stand_in_embed

SCRIPT = ROOT / "site_src" / "docs" / "reproduce.py"
SETTING = {"chunker": "sentences", "limit": 40, "repeat": 1}


def run_script(tmp_path, bundle, *flags) -> dict:
    export = tmp_path / "documents.json"
    export.write_text(json.dumps(bundle), "utf-8")
    out = tmp_path / "reproduced.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, str(SCRIPT), str(export), "--json", str(out), *flags],
                            capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "recall dense" in result.stdout
    return json.loads(out.read_text("utf-8"))


def expected(bundle, runs):
    chunks = [{"id": c["id"], "hash": c["hash"]} for c in bundle["chunks"]]
    marks = {q["id"]: q["marks"] for q in bundle["questions"]}
    measured = expected_measure(chunks, plain(runs), marks, {"dense": bundle["settings"]["dense_tolerance"]})
    return {r: {k: {"hits": figure["hits"], "questions": figure["n"]} for k, figure in by_k.items()}
            for r, by_k in measured["recall"].items()}


def test_the_script_reproduces_every_ranking_and_recall_from_the_files_vectors(node, tmp_path):
    chunks = chunked(node, SETTING)
    bundle = exported(node, SETTING, stand_in_embed([c["text"] for c in chunks]), stand_in_embed([q["question"] for q in questions()]),
                      chunks=chunks)
    found = run_script(tmp_path, bundle)
    runs = engine_runs(bundle["chunks"], questions(), vectors_of(bundle, "chunks"), vectors_of(bundle, "questions"))
    assert found["runs"] == plain(runs)
    assert found["recall"] == expected(bundle, runs)


@pytest.mark.slow
def test_on_the_real_models_vectors_and_embedding_again_in_the_script(node, tmp_path):
    from engine.dense import resolve_model

    chunks = chunked(node, SETTING)
    asked = questions()
    chunk_vectors, question_vectors = embedded([c["text"] for c in chunks]), embedded([q["question"] for q in asked])
    bundle = exported(node, SETTING, chunk_vectors, question_vectors, chunks=chunks)
    runs = engine_runs(bundle["chunks"], asked, vectors_of(bundle, "chunks"), vectors_of(bundle, "questions"))
    recall = expected(bundle, runs)
    assert run_script(tmp_path, bundle)["runs"] == plain(runs)

    again = run_script(tmp_path, bundle, "--embed", "--model", resolve_model()[0])
    same_top5 = {r: sum(1 for q in runs if [p for p, _ in again["runs"][q][r][:5]] == [p for p, _ in runs[q][r][:5]])
                 for r in ("dense", "bm25", "hybrid")}
    same_scores = sum(1 for q in runs for r in runs[q] if again["runs"][q][r] == plain(runs)[q][r])
    figures = {"questions": len(asked), "chunks": len(chunks), "top5_identical": same_top5,
               "rankings_identical": same_scores, "rankings": 3 * len(asked), "recall_engine": recall, "recall_script": again["recall"]}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "reproduce-agreement.json").write_text(json.dumps(figures, indent=1), "utf-8")
    print(json.dumps(figures))
    assert same_top5 == {"dense": len(asked), "bm25": len(asked), "hybrid": len(asked)}
    assert again["recall"] == recall


def test_the_scripts_recall_ties_dense_scores_within_the_files_tolerance():
    """recall_of with the file's dense_tolerance: a marked chunk 3e-4 below the first is a tie at
    1-2 in dense (a range at k = 1), and stays second in BM25, whose scores are exact."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("reproduce", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    close = [("a", 0.6003), ("c", 0.6), ("b", 0.5)]
    bundle = {"chunks": [{"id": pid, "hash": pid} for pid in "abc"], "questions": [{"id": "q1", "marks": ["c"]}],
              "settings": {"recall_ks": [1], "dense_tolerance": 5e-4}}
    found = script.recall_of(bundle, {"q1": {"dense": close, "bm25": close, "hybrid": close}})
    assert found["dense"][1]["hits"] == [0, 1] and found["bm25"][1]["hits"] == [0, 0]

