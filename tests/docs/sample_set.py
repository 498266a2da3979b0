"""The sample documents (corpus/sample-docs/) as the tests of 'Try it on your documents' use them:
read and chunked by the page's own scripts in Node (tests/docs/node.py), searched by the Python
engine (engine/bm25.py, ranking.py) with vectors of the Python engine's model, kept by text hash
in the tests' reference cache (tests/support/reference.py; a warm run loads no model).

    chunks = chunked(node, {"chunker": "sentences", "limit": 40, "repeat": 1})
    runs = engine_runs(chunks, questions(), chunk_vectors, question_vectors)

Example: [q["id"] for q in questions()][:2] -> ['one-file', 'lost-passphrase']
"""

import numpy as np
import yaml

from builder.live_model import COSINE_TOLERANCE
from engine import settings
from engine.bm25 import BM25
from engine.ranking import bm25_ranking, dense_ranking, hybrid_ranking
from support.paths import ROOT
from support.reference import reference_vectors

SAMPLE = ROOT / "corpus" / "sample-docs"
SETTINGS = [  # the chunking lab's presets, and how build.py --corpus cuts a folder
    {"chunker": "fixed", "size": 25, "overlap": 0},
    {"chunker": "fixed", "size": 25, "overlap": 10},
    {"chunker": "sentences", "limit": 40, "repeat": 1},
    {"chunker": "headings"},
    {"chunker": "sections", "maxWords": 120},
    {"chunker": "page"},
]
CHUNK = """async (RAG, input) => {
  const read = await RAG.docs.read(input.files.map(([name, text]) => ({ name, text })));
  return (await RAG.docs.chunk(read.documents, input.setting)).chunks;
}"""


def sample_files() -> list[tuple[str, str]]:
    return [(path.name, path.read_text("utf-8")) for path in sorted(SAMPLE.iterdir()) if path.name != "questions.yaml"]


def questions() -> list[dict]:
    return yaml.safe_load((SAMPLE / "questions.yaml").read_text("utf-8"))


def chunked(node, setting: dict) -> list[dict]:
    """The sample documents read and cut by the page's scripts (read-files.js, chunk-documents.js)."""
    return node.run(CHUNK, {"files": sample_files(), "setting": setting})


def embedded(texts: list[str]) -> np.ndarray:
    """The Python engine's vectors (sentence-transformers), through the tests' one reference cache
    (tests/support/reference.py), where tests/corpus/test_sample_docs.py keeps the sample set's
    vectors too: a text is embedded once for every test that asks, under the cache's lock (a
    cache of their own here had no lock, so two test processes could each embed the same texts
    and write over each other's additions)."""
    return reference_vectors(texts)


def engine_runs(chunks: list[dict], asked: list[dict], chunk_vectors: np.ndarray, question_vectors: np.ndarray) -> dict:
    """Each question's dense, BM25 and hybrid rankings by the engine, with the page's settings."""
    ids = [c["id"] for c in chunks]
    index = BM25([c["text"] for c in chunks], settings.BM25_K1, settings.BM25_B)
    runs = {}
    # In double precision, as the page's twin (site_src/engine/ranking.js denseRanking) adds the products.
    chunk_vectors = np.asarray(chunk_vectors, dtype=np.float64)
    for question, vector in zip(asked, question_vectors):
        dense = dense_ranking(ids, chunk_vectors, np.asarray(vector, dtype=np.float64))
        bm25 = bm25_ranking(ids, index, question["question"])
        runs[question["id"]] = {"dense": dense, "bm25": bm25,
                                "hybrid": hybrid_ranking(dense, bm25, settings.FUSION_DEPTH, settings.RRF_K)}
    return runs


EXPORT = """async (RAG, input) => {
  const vectors = Object.fromEntries(input.chunks.map((c, i) => [c.hash, Float32Array.from(input.chunkVectors[i])]));
  const questions = input.questions.map((q, i) => ({ id: q.id, text: q.question, vector: Float32Array.from(input.questionVectors[i]) }));
  const answers = Object.fromEntries(input.questions.map((q) => [q.id, q.answers]));
  const marks = RAG.docs.marks.fromQuotes(input.chunks, answers);
  return RAG.docs.exportBundle({ chunks: input.chunks, setting: input.setting, vectors, questions, marks,
                                 fingerprint: input.fingerprint, settings: input.settings, denseTolerance: input.denseTolerance });
}"""


def exported(node, setting: dict, chunk_vectors, question_vectors, chunks=None, fingerprint: str = "model:test") -> dict:
    """The sample set as the page exports it (export.js), with these vectors and the quotes' marks."""
    chunks = chunks if chunks is not None else chunked(node, setting)
    return node.run(EXPORT, {"chunks": chunks, "setting": setting, "questions": questions(), "fingerprint": fingerprint,
                             "settings": settings.as_data(), "denseTolerance": COSINE_TOLERANCE, "chunkVectors": np.asarray(chunk_vectors).tolist(),
                             "questionVectors": np.asarray(question_vectors).tolist()})


def vectors_of(bundle: dict, key: str) -> np.ndarray:
    import base64

    return np.asarray([np.frombuffer(base64.b64decode(item["vector"]), dtype="<f4") for item in bundle[key]])


def plain(runs: dict) -> dict:
    """Runs as JSON carries them: pairs as lists."""
    return {q: {r: [[pid, score] for pid, score in ranking] for r, ranking in run.items()} for q, run in runs.items()}
