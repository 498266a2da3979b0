"""The SQL file the page offers for Postgres with pgvector (site_src/docs/pgvector-sql.js), made from
an export of the sample set (chunked by the page's scripts, the real model's vectors from the
Python engine), loaded into PGlite with pgvector in Node (tests/docs/pglite_rank.mjs) and asked,
with the file's own query (ORDER BY embedding <=> $1 LIMIT 5), for each of the six questions' top
5: the same chunks, in the same order, as the engine's dense ranking (engine/ranking.py), as the
planner chooses and through the HNSW index; the cosines within float32's reach. Figures in
test-artifacts/pgvector-agreement.json. Slow: PGlite starts in about 5 s, and a cold cache
embeds the sample set."""

import json
import subprocess

import pytest

from docs.sample_set import chunked, embedded, engine_runs, exported, questions, vectors_of
from support.paths import ARTIFACTS

pytestmark = pytest.mark.slow
SETTING = {"chunker": "sentences", "limit": 40, "repeat": 1}
PGLITE = __import__("pathlib").Path(__file__).with_name("pglite_rank.mjs")


@pytest.fixture(scope="module")
def loaded(node, tmp_path_factory):
    chunks = chunked(node, SETTING)
    bundle = exported(node, SETTING, embedded([c["text"] for c in chunks]), embedded([q["question"] for q in questions()]),
                      chunks=chunks)
    sql = node.run("async (RAG, input) => RAG.docs.toSql(input)", bundle)
    path = tmp_path_factory.mktemp("pgvector") / "documents.sql"
    path.write_text(sql, "utf-8")
    result = subprocess.run(["node", str(PGLITE), str(path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return bundle, sql, json.loads(result.stdout)


def test_the_file_says_what_it_needs_and_holds_the_query(loaded):
    _, sql, found = loaded
    for piece in ("CREATE EXTENSION IF NOT EXISTS vector;", "embedding vector(384) NOT NULL",
                  "CREATE INDEX rag_chunks_embedding ON rag_chunks USING hnsw (embedding vector_cosine_ops);",
                  "ORDER BY embedding <=> $1 LIMIT 5;"):
        assert piece in sql
    assert "Index Scan using rag_chunks_embedding" in found["plan"], found["plan"]


def test_pgvectors_top_5_is_the_engines_dense_ranking_for_the_six_questions(loaded):
    bundle, _, found = loaded
    runs = engine_runs(bundle["chunks"], questions(), vectors_of(bundle, "chunks"), vectors_of(bundle, "questions"))
    agreement = {"pgvector": found["version"], "questions": len(runs)}
    for way in ("nearest", "indexed"):
        same = [q for q in runs if [c for c, _ in found[way][q]] == [pid for pid, _ in runs[q]["dense"][:5]]]
        gap = max(abs(cosine - score) for q in runs for (_, cosine), (_, score) in zip(found[way][q], runs[q]["dense"][:5]))
        agreement[way] = {"top5_identical": len(same), "max_cosine_difference": gap}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "pgvector-agreement.json").write_text(json.dumps(agreement, indent=1), "utf-8")
    print(json.dumps(agreement))
    for way in ("nearest", "indexed"):
        assert agreement[way]["top5_identical"] == len(runs), (way, found[way])
        assert agreement[way]["max_cosine_difference"] < 1e-5
