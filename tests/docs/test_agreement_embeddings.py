"""The reader's chunks embedded in Chromium by the page's own model pool (site_src/scripts/embedder.js,
two workers, texts sorted by length and batched as the indexing does) agree with sentence-transformers
(engine.dense, through tests/docs/sample_set.py's cache), on the sample documents read and cut by
the page's own scripts (read-files.js, chunk-documents.js) two ways: fixed windows of 12 words and
sentence packs (over 300 chunks of 5 to 60 wordpieces).

- every question-chunk and chunk-chunk cosine within the README's 5e-4 (COSINE_TOLERANCE);
- every dense ranking the page computes (RAG.engine.denseRanking) from the workers' vectors, for
  the six sample questions and for every third chunk taken as a query, equal to the engine's from
  sentence-transformers' vectors, but for pairs whose own cosines are within that tolerance; those
  are counted, and the page shows every one of them as a tie (RAG.engine.places with the model's
  tolerance: any two chunks within it of each other share a place);
- recall at 1, 3 and 5 of BM25, dense and hybrid that the page measures (measure.js) on those
  vectors, and that reproduce.py prints from the page's export of them, equal to the Python
  evaluation's (tests/docs/engine_figures.py) on sentence-transformers' vectors.

Figures in test-artifacts/docs-embedding-agreement.json.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from builder.live_model import COSINE_TOLERANCE, alike
from docs.engine_figures import expected_measure
from docs.sample_set import embedded, engine_runs, plain, questions, sample_files
from engine import settings
from engine.ranking import dense_ranking
from support.labs import lab, open_page
from support.paths import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser

SETTINGS = [{"chunker": "fixed", "size": 12, "overlap": 0}, {"chunker": "sentences", "limit": 40, "repeat": 1}]
CHUNK_QUERIES_EVERY = 3  # every third chunk is also a query (each ranking of every chunk)
MEASURED = 1  # the setting whose recall is measured (sentence packs: the one a reader starts with)
SCRIPT = ROOT / "site_src" / "docs" / "reproduce.py"
TIMEOUT_MS = 300_000

# In the page: its own reader and chunkers, its own pool of workers, its own ranking code.
EMBED_JS = """async ({ files, settings: cuts, asked }) => {
  const read = await RAG.docs.read(files.map(([name, text]) => ({ name, text })));
  const sets = [];
  for (const setting of cuts) sets.push((await RAG.docs.chunk(read.documents, setting)).chunks);
  const pool = await RAG.embedder.open(RAG.data.live, { workers: Math.min(4, navigator.hardwareConcurrency || 1) });
  const texts = sets.flat().map((c) => c.text);
  const chunkVectors = (await pool.embed(texts)).vectors;
  const questionVectors = (await pool.embed(asked.map((q) => q.question))).vectors;
  const workers = pool.channels.length;
  pool.close();
  window.agreement = { sets, chunkVectors, questionVectors };
  return { sets, workers, chunkVectors: chunkVectors.map((v) => Array.from(v)), questionVectors: questionVectors.map((v) => Array.from(v)) };
}"""

# Each query's ranking of every chunk, with the places the page shows ([first, last] of its tie):
# the reader's chunks tie where their cosines are within the browser model's tolerance, as the
# hybrid view draws them (RAG.corpus.fromChunks's denseTolerance, data.live.cosine_tolerance).
RANK_JS = """(every) => {
  const tolerance = RAG.data.live.cosine_tolerance;
  const { sets, chunkVectors, questionVectors } = window.agreement;
  const ids = sets.flat().map((c, i) => `k${i}`);
  const flat = new Float32Array(chunkVectors.length * 384);
  chunkVectors.forEach((v, i) => flat.set(v, i * 384));
  return [...questionVectors, ...chunkVectors.filter((_, i) => i % every === 0)].map((q) => {
    const ranking = RAG.engine.denseRanking(ids, flat, q);
    return { ids: ranking.map(([id]) => id), places: RAG.engine.places(ranking, tolerance) };
  });
}"""

# The setting MEASURED searched and measured as the documents' part does, and exported.
MEASURE_JS = """({ at, setting, asked, answers, settings }) => {
  const { sets, chunkVectors, questionVectors } = window.agreement;
  const offset = sets.slice(0, at).reduce((n, s) => n + s.length, 0);
  const chunks = sets[at];
  const vectors = chunkVectors.slice(offset, offset + chunks.length);
  const flat = new Float32Array(chunks.length * 384);
  vectors.forEach((v, i) => flat.set(v, i * 384));
  const ids = chunks.map((c) => c.id);
  const index = new RAG.engine.BM25(chunks.map((c) => c.text), settings.bm25.k1, settings.bm25.b);
  const runs = {};
  asked.forEach((q, i) => {
    const dense = RAG.engine.denseRanking(ids, flat, questionVectors[i]);
    const bm25 = RAG.engine.bm25Ranking(ids, index, q.question);
    runs[q.id] = { dense, bm25, hybrid: RAG.engine.hybridRanking(dense, bm25, settings.fusion_depth, settings.rrf_k) };
  });
  const marks = RAG.docs.marks.fromQuotes(chunks, answers);
  const measured = RAG.docs.measure({ chunks, runs, marks });
  const bundle = RAG.docs.exportBundle({
    chunks, setting, marks, settings, fingerprint: "model:agreement",
    vectors: Object.fromEntries(chunks.map((c, i) => [c.hash, vectors[i]])),
    questions: asked.map((q, i) => ({ id: q.id, text: q.question, vector: questionVectors[i] })) });
  return { runs, marks, recall: measured.recall, bundle };
}"""


@pytest.fixture(scope="module")
def page(make_page_module, site_url):
    opened = open_page(make_page_module, site_url, "#lab-ask")
    lab(opened, "ask")  # its scripts (embedder.js) load when it starts
    opened.add_script_tag(url=opened.evaluate("RAG.assets().scripts.docs"))
    opened.wait_for_function("() => window.RAG && RAG.docs && RAG.docs.measure")
    opened.set_default_timeout(TIMEOUT_MS)
    return opened


@pytest.fixture(scope="module")
def live(page) -> dict:
    asked = [{"id": q["id"], "question": q["question"]} for q in questions()]
    return page.evaluate(EMBED_JS, {"files": sample_files(), "settings": SETTINGS, "asked": asked})


@pytest.fixture(scope="module")
def reference(live) -> dict:
    """sentence-transformers' vectors of the same texts (kept by text hash: tests/support/reference.py)."""
    texts = [c["text"] for chunks in live["sets"] for c in chunks]
    return {"chunks": embedded(texts), "questions": embedded([q["question"] for q in questions()])}


def swapped_pairs(live_order: list[str], reference_order: list[str]) -> np.ndarray:
    """The pairs (i, j) of places in the live order, i before j, that the reference order has the other way round.

    Example: swapped_pairs(["b", "a", "c"], ["a", "b", "c"]).tolist() -> [[0, 1]]
    """
    place = {pid: i for i, pid in enumerate(reference_order)}
    at = np.asarray([place[pid] for pid in live_order])
    return np.argwhere(np.triu(at[:, None] > at[None, :], 1))


def test_the_workers_vectors_agree_with_sentence_transformers_and_rank_alike(page, live, reference):
    chunk_live = np.asarray(live["chunkVectors"], dtype=np.float64)
    question_live = np.asarray(live["questionVectors"], dtype=np.float64)
    chunk_ref = np.asarray(reference["chunks"], dtype=np.float64)
    question_ref = np.asarray(reference["questions"], dtype=np.float64)
    assert len(chunk_live) >= 300 and len(chunk_live) == len(chunk_ref)
    cosines_live = np.vstack([question_live, chunk_live]) @ chunk_live.T
    cosines_ref = np.vstack([question_ref, chunk_ref]) @ chunk_ref.T
    queries_ref = np.vstack([question_ref, chunk_ref[::CHUNK_QUERIES_EVERY]])
    ids = [f"k{i}" for i in range(len(chunk_live))]
    rankings = page.evaluate(RANK_JS, CHUNK_QUERIES_EVERY)
    identical = alike_count = swaps = marked = 0
    worst = 0.0
    for row, found in enumerate(rankings):
        expected = [pid for pid, _ in dense_ranking(ids, chunk_ref, queries_ref[row])]
        identical += found["ids"] == expected
        pairs = swapped_pairs(found["ids"], expected)
        if not len(pairs):
            continue
        cosine = queries_ref[row] @ chunk_ref.T
        scores = cosine[[int(pid[1:]) for pid in found["ids"]]]  # the reference cosines, in the live order
        gaps = np.abs(scores[pairs[:, 0]] - scores[pairs[:, 1]])
        first = np.asarray([p[0] for p in found["places"]])
        swaps += len(pairs)
        marked += int((first[pairs[:, 0]] == first[pairs[:, 1]]).sum())
        worst = max(worst, float(gaps.max()))
        if row < 6:  # the six questions: the engine's own check says the same
            alike_count += alike(found["ids"], expected, dict(zip(ids, map(float, cosine))), COSINE_TOLERANCE)
    lengths = [len(c["text"].split()) for chunks in live["sets"] for c in chunks]
    figures = {"chunks": len(chunk_live), "questions": len(question_live), "rankings": len(rankings),
               "settings": SETTINGS, "workers": live["workers"], "words_per_chunk": [min(lengths), max(lengths)],
               "max_cosine_diff": float(np.abs(cosines_live - cosines_ref).max()),
               "max_abs_diff": float(np.abs(chunk_live - chunk_ref).max()),
               "rankings_identical": identical, "question_rankings_alike": alike_count,
               "swapped_pairs": swaps, "swapped_pairs_the_page_marks_as_ties": marked,
               "largest_reference_gap_of_a_swapped_pair": worst, "tolerance": COSINE_TOLERANCE}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "docs-embedding-agreement.json").write_text(json.dumps(figures, indent=1), "utf-8")
    print(json.dumps(figures))
    assert figures["max_cosine_diff"] <= COSINE_TOLERANCE, figures
    assert worst <= COSINE_TOLERANCE, figures  # every pair ranked the other way round is within the tolerance
    assert marked == swaps, figures  # ...and the page draws each such pair as a tie
    assert alike_count == len(question_live), figures


def run_script(tmp_path, bundle) -> dict:
    export = tmp_path / "documents.json"
    export.write_text(json.dumps(bundle), "utf-8")
    out = tmp_path / "reproduced.json"
    result = subprocess.run([sys.executable, str(SCRIPT), str(export), "--json", str(out)], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "HF_HUB_OFFLINE": "1"}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(out.read_text("utf-8"))


def test_recall_on_the_workers_vectors_and_from_their_export_equals_the_python_evaluation(page, live, reference, tmp_path):
    asked = questions()
    chunks = live["sets"][MEASURED]
    offset = sum(len(s) for s in live["sets"][:MEASURED])
    runs = engine_runs(chunks, asked, reference["chunks"][offset:offset + len(chunks)], reference["questions"])
    found = page.evaluate(MEASURE_JS, {"at": MEASURED, "setting": SETTINGS[MEASURED], "asked": [{"id": q["id"], "question": q["question"]} for q in asked],
                                       "answers": {q["id"]: q["answers"] for q in asked}, "settings": settings.as_data()})
    python = expected_measure(chunks, plain(runs), found["marks"])
    assert all(found["marks"][q["id"]] for q in asked), "every question has a marked chunk"
    assert found["recall"] == python["recall"]
    script = run_script(tmp_path, found["bundle"])
    assert script["recall"] == {r: {k: {"hits": f["hits"], "questions": f["n"]} for k, f in by_k.items()}
                                for r, by_k in python["recall"].items()}
    assert [p for p, _ in found["runs"][asked[0]["id"]]["hybrid"][:5]] == [p for p, _ in runs[asked[0]["id"]]["hybrid"][:5]]
