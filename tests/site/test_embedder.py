"""The embedding model in its Web Worker (site_src/scripts/embed-worker.js, its client
embedder.js, its files model-files.js), in Chromium on the site the session built:

- 200 texts cut from the corpus's own words (passages and the chunking lab's chunks) to 10 to
  250 wordpieces, most of them short (as a reader's chunks are; a text costs the worker its
  wordpieces), embedded in batches: one of 16 that mixes short and long texts (so padding and the
  attention mask matter: half of them are padded by 150 wordpieces or more), the rest as the
  client sends them (longest first, in batches of 16). They agree with sentence-transformers
  (engine.dense.embed, kept by text hash: tests/support/reference.py): every cosine with the
  build's passage vectors within the README's 5e-4 and every ranking the same but for passages
  within that tolerance of each other; and with the shipped model file run by Python's
  onnxruntime one unpadded text at a time: every ranking of the 40 passages the same, and every
  vector the same within 1e-5, so a text's vector depends neither on the batch it was embedded
  in nor on its padding. Figures in test-artifacts/embedder-agreement.json, milliseconds per
  text in test-artifacts/embedder-timings.json. (Pooling without the mask moves cosines by
  tenths: these fail on it.)
- The page's thread stays free while the mixed batch of 16 texts embeds: no long task over
  50 ms (a control shows the observer sees one when the page's thread is kept busy).
- The client shares texts among several workers, reports progress, and cancels.
- The runtime module runs from the bytes that were checked (a blob: module); where the worker's
  own response carries a policy that refuses blob: modules, it is imported from its address (the
  several workers' pool is started so, and gives the page's pool's vectors).
"""

import hashlib
import json

import numpy as np
import pytest

from builder import live_model
from builder.code_key import code_key, module_file
from builder.search import dense_ranking
from builder.live_model import COSINE_TOLERANCE, alike
from engine import settings
from engine.dense import resolve_model
from support.labs import lab, open_page
from support.paths import ARTIFACTS, ROOT
from support.reference import reference_vectors, wordpieces

pytestmark = pytest.mark.browser

TEXTS = 200                     # issue 23: "at least 200 texts of 10 to 250 wordpieces embedded in batches"
SHORTEST, LONGEST = 10, 250     # wordpieces, [CLS] and [SEP] included
# The first 16 texts: one batch, padding its short texts to its longest (232 wordpieces; 32 texts
# so padded took the worker 10 s, half of this file's browser time, to show the same).
MIXED, MIXED_BATCHES = 16, 1
CACHE = ROOT / ".cache" / "test-embedder"  # the model file's vectors (sentence-transformers': tests/support/reference.py)
LOAD_TIMEOUT_MS = 120_000
EMBED_TIMEOUT_MS = 300_000


# ------------------------------------------------------------------ the texts


def target_length(i: int, count: int = TEXTS) -> int:
    """Text i's length in wordpieces ([CLS] and [SEP] included): the place 97·i mod count takes
    among count evenly spread, cubed, so lengths run from 10 to 250 with most of them short (mean
    about 70, half under 40: the worker's time goes with the wordpieces, and squared places, mean
    about 90, cost a fifth more).

    Example: [target_length(i, 200) for i in (0, 1, 2)] -> [10, 38, 232]
    """
    at = (97 * i) % count / (count - 1)
    return SHORTEST + round((LONGEST - SHORTEST) * at ** 3)


def corpus_words(data) -> list[str]:
    """The corpus's own words: every passage, then every chunk of the chunking lab's settings."""
    chunks = [chunk["text"] for setting in data["labs"]["chunking"]["settings"] for chunk in setting["chunks"]]
    return " ".join([p["text"] for p in data["passages"]] + chunks).split()


def cut_texts(words: list[str], pieces: list[int], count: int = TEXTS) -> list[str]:
    """`count` runs of consecutive words, text i starting at word 131·i and taking words while
    it stays within target_length(i), or while it is still under SHORTEST (a word of several
    wordpieces can otherwise leave a short text under it). `pieces` is each word's wordpieces (BERT's tokenizer splits
    on spaces first, so they add up).

    Example: cut_texts(["a", "b", "c"], [1, 1, 1], 1) -> ['a b c'] (text 0 may take 10 wordpieces)
    """
    texts = []
    for i in range(count):
        target, at = target_length(i, count), (131 * i) % len(words)
        taken, length = [], 2
        while len(taken) < len(words) and (length < SHORTEST or length + pieces[(at + len(taken)) % len(words)] <= target):
            length += pieces[(at + len(taken)) % len(words)]
            taken.append(words[(at + len(taken)) % len(words)])
        texts.append(" ".join(taken))
    return texts


@pytest.fixture(scope="module")
def texts(data) -> list[str]:
    words = corpus_words(data)
    return cut_texts(words, wordpieces(words, special=False))


@pytest.fixture(scope="module")
def lengths(texts) -> list[int]:
    return wordpieces(texts)


@pytest.fixture(scope="module")
def python_vectors(texts) -> np.ndarray:
    """sentence-transformers' vectors (engine.dense.embed), kept by text hash (tests/support/reference.py)."""
    return reference_vectors(texts)


@pytest.fixture(scope="module")
def model_file_vectors(texts, data) -> np.ndarray:
    """The shipped model file run by Python's onnxruntime, one unpadded text at a time
    (builder.live_model.embed_with), kept in CACHE by the file's SHA-256, the texts and the code."""
    record = data["live"]["files"]["model"]
    key = hashlib.sha256(json.dumps([record["sha256"], texts, code_key((module_file("builder.live_model"),))]).encode())
    path = CACHE / f"model-file-{key.hexdigest()[:16]}.npy"
    if not path.is_file():
        exported = next((ROOT / ".cache" / "live-model").glob(f"*-{data['live']['precision']}.onnx"))
        assert live_model.sha256_of(exported) == record["sha256"], "the exported model is not the one the site ships"
        CACHE.mkdir(parents=True, exist_ok=True)
        for stale in CACHE.glob("model-file-*.npy"):
            stale.unlink()
        np.save(path, live_model.embed_with(exported, resolve_model()[0], texts))
    return np.load(path)


@pytest.fixture(scope="module")
def passage_vectors(built_site, data) -> np.ndarray:
    raw = (built_site / data["live"]["files"]["passages"]["url"].split("?")[0]).read_bytes()
    return np.frombuffer(raw, dtype="<f4").reshape(len(data["passages"]), settings.DIMENSIONS)


def test_the_texts_span_10_to_250_wordpieces_and_the_mixed_batches_mix_them(texts, lengths):
    assert len(texts) >= 200 and len(set(texts)) == len(texts)
    assert min(lengths) >= SHORTEST and max(lengths) <= LONGEST
    assert min(lengths) <= SHORTEST + 2 and max(lengths) >= LONGEST - 2
    for low in range(SHORTEST, LONGEST, 60):  # spread over the whole range, not only its ends
        assert sum(low <= n < low + 60 for n in lengths) >= 10, (low, sorted(lengths))
    for start in range(0, MIXED * MIXED_BATCHES, MIXED):  # each mixed batch pads its short texts by 150 wordpieces or more
        batch = lengths[start:start + MIXED]
        assert max(batch) - min(batch) >= 150, (start, min(batch), max(batch))
        assert sum(n <= max(batch) - 150 for n in batch) >= MIXED // 2, (start, batch)


# ------------------------------------------------------------------ the page


@pytest.fixture(scope="module")
def model_page(make_page_module, site_url):
    page = open_page(make_page_module, site_url, "#lab-ask")
    lab(page, "ask")  # its scripts (embedder.js) load when it starts
    page.evaluate("() => RAG.embedder.load(RAG.data.live).then(() => true)")
    page.set_default_timeout(EMBED_TIMEOUT_MS)
    return page


# The first MIXED_BATCHES batches of MIXED texts each go to the worker as one batch, so short and
# long texts share it (the worker pads a batch to its longest); the first is watched for long
# tasks on the page's thread. The rest go as the client sends a reader's texts (timed too).
EMBED_JS = """async ([texts, mixed, batches]) => {
    const pool = RAG.embedder.pool;
    const tasks = [];
    const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: "longtask" });
    const began = performance.now();
    const parts = [await pool.embed(texts.slice(0, mixed), { batchSize: mixed })];
    const ms = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, 100));  // the observer's last entries
    observer.disconnect();
    for (let k = 1; k < batches; k++) parts.push(await pool.embed(texts.slice(k * mixed, (k + 1) * mixed), { batchSize: mixed }));
    const rest = performance.now();
    parts.push(await pool.embed(texts.slice(batches * mixed)));
    return { firstBatch: { tasks, ms }, restMs: performance.now() - rest,
             vectors: parts.flatMap((p) => p.vectors.map((v) => Array.from(v))),
             wordpieces: parts.flatMap((p) => Array.from(p.wordpieces)) };
}"""


@pytest.fixture(scope="module")
def worker(model_page, texts) -> dict:
    """The worker's vectors of every text, and what the mixed batch did to the page's thread."""
    return model_page.evaluate(EMBED_JS, [texts, MIXED, MIXED_BATCHES])


DENSE_JS = """([vectors, ids]) => vectors.map((v) => RAG.liveSearch.dense(v, RAG.embedder.pool.passageVectors, ids).map(([id]) => id))"""


def python_ranking(vectors: np.ndarray, passages: np.ndarray, ids: list[str]) -> list[list[str]]:
    """Passages best first, as the build ranks them (builder/search.py)."""
    return [[pid for pid, _ in dense_ranking(ids, passages, vector)] for vector in vectors]


def test_texts_embedded_in_batches_agree_with_sentence_transformers(model_page, worker, texts, lengths, python_vectors,
                                                                   model_file_vectors, passage_vectors, data):
    found = worker
    assert found["wordpieces"] == lengths  # the worker's tokenizer cut nothing and counted as Python does
    live = np.asarray(found["vectors"], dtype=np.float64)
    ids = [p["id"] for p in data["passages"]]
    live_ranking = model_page.evaluate(DENSE_JS, [found["vectors"], ids])   # the page's own ranking code
    cosines = live @ passage_vectors.T
    python, model_file = python_ranking(python_vectors, passage_vectors, ids), python_ranking(model_file_vectors, passage_vectors, ids)
    summary = {
        "texts": len(texts), "wordpieces": [min(lengths), max(lengths)], "mean_wordpieces": round(sum(lengths) / len(lengths), 1),
        "batches": {"mixed": [MIXED_BATCHES, MIXED], "then": "the client's (longest first in wordpieces, batches of 16)"},
        "sentence_transformers": {
            "max_cosine_diff": float(np.abs(cosines - python_vectors @ passage_vectors.T).max()),
            "max_abs_diff": float(np.abs(live - python_vectors).max()),
            "rankings_identical": sum(a == b for a, b in zip(live_ranking, python)),
            "top5_identical": sum(a[:5] == b[:5] for a, b in zip(live_ranking, python)),
            # the same order but for passages sentence-transformers' own cosines put within the
            # tolerance of each other: a tie at the precision the page promises
            "rankings_alike": sum(alike(a, b, dict(zip(ids, map(float, row))), COSINE_TOLERANCE)
                                  for a, b, row in zip(live_ranking, python, python_vectors @ passage_vectors.T)),
            "model_file_rankings_identical": sum(a == b for a, b in zip(model_file, python))},
        "model_file_in_onnxruntime": {
            "max_cosine_diff": float(np.abs(cosines - model_file_vectors @ passage_vectors.T).max()),
            "max_abs_diff": float(np.abs(live - model_file_vectors).max()),
            "rankings_identical": sum(a == b for a, b in zip(live_ranking, model_file))},
    }
    mixed = MIXED * MIXED_BATCHES
    timings = {f"mixed batches of {MIXED}": {"wordpieces": [min(lengths[:mixed]), max(lengths[:mixed])],
                                      "ms_per_text": round(found["firstBatch"]["ms"] / MIXED, 1)},
               "the client's batches of 16": {"wordpieces": [min(lengths[mixed:]), max(lengths[mixed:])],
                                              "ms_per_text": round(found["restMs"] / (len(texts) - mixed), 1)}}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "embedder-agreement.json").write_text(json.dumps(summary, indent=1), "utf-8")
    (ARTIFACTS / "embedder-timings.json").write_text(json.dumps(timings, indent=1), "utf-8")
    versus = summary["sentence_transformers"]
    assert versus["max_cosine_diff"] <= COSINE_TOLERANCE, summary
    assert versus["rankings_alike"] == len(texts), summary
    # The whole ranking of the 40 passages: where it is not sentence-transformers', two passages
    # within the tolerance of each other swapped, and the shipped file run by Python swaps them
    # too (the half precision the build chose): the worker adds nothing.
    assert summary["model_file_in_onnxruntime"]["rankings_identical"] == len(texts), summary
    assert summary["model_file_in_onnxruntime"]["max_cosine_diff"] < 1e-5, summary
    # Each text alone and unpadded has the vector the worker gave it in a padded batch (the mixed
    # one or the client's): a vector depends neither on its batch nor on its padding (once a test
    # of its own: batch sizes 1 and 16 on 32 texts, within the same 1e-5).
    assert summary["model_file_in_onnxruntime"]["max_abs_diff"] < 1e-5, summary


# ------------------------------------------------------------------ off the page's thread

CONTROL_JS = """async (texts) => {
    const tasks = [];
    const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: "longtask" });
    setTimeout(() => { const end = performance.now() + 120; while (performance.now() < end); }, 0);
    await RAG.embedder.pool.embed(texts, { batchSize: texts.length });
    await new Promise((resolve) => setTimeout(resolve, 100));  // the observer's last entries
    observer.disconnect();
    return tasks;
}"""


def shortest(texts: list[str], lengths: list[int], count: int) -> list[str]:
    """The `count` shortest texts in wordpieces, in the texts' order: what a test embeds only to
    see the client and its workers at work, not to check vectors again: a batch costs the worker
    its rows times its longest text's wordpieces, and texts[:12] in batches of 4 came to 1,884 of
    them (texts[:4] in one batch to 952), the 12 shortest to 120.

    Example: shortest(["a b c", "a", "a b"], [5, 3, 4], 2) -> ['a', 'a b']
    """
    chosen = set(sorted(range(len(texts)), key=lambda i: (lengths[i], i))[:count])
    return [text for i, text in enumerate(texts) if i in chosen]


def test_the_page_thread_stays_free_while_the_mixed_batch_embeds(model_page, worker, texts, lengths, python_vectors):
    # The control's busy loop is its own long task, however long the texts take to embed.
    control = model_page.evaluate(CONTROL_JS, shortest(texts, lengths, 4))
    assert any(duration >= 100 for duration in control), control  # the observer sees a busy page

    first = worker["firstBatch"]  # texts[:MIXED], one batch padded to the longest
    assert first["ms"] > 500, first["ms"]  # long enough that embedding on the page's thread would show
    assert [d for d in first["tasks"] if d > 50] == [], first["tasks"]
    # And the batch is right: one run of MIXED texts padded to the longest, reassembled in order.
    assert np.abs(np.asarray(worker["vectors"][:MIXED]) - python_vectors[:MIXED]).max() < 1e-3


# ------------------------------------------------------------------ the client


def test_cancelling_stops_before_the_next_batch_and_the_worker_keeps_working(model_page, texts):
    found = model_page.evaluate("""async (texts) => {
        const controller = new AbortController();
        const progress = [];
        let error = null;
        try {
          await RAG.embedder.pool.embed(texts, { batchSize: 2, signal: controller.signal,
            onProgress: (done) => { progress.push(done); if (done >= 4) controller.abort(); } });
        } catch (e) { error = e.name; }
        const after = await RAG.embedder.pool.embed(["still here"]);
        return { error, progress, after: after.wordpieces };
    }""", texts[:40])
    assert found["error"] == "AbortError"
    assert max(found["progress"]) < 40 and found["progress"][:2] == [2, 4]
    assert found["after"] == [4]  # [CLS] still here [SEP]


# ------------------------------------------------------------------ the runtime module's bytes


WORKER_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"


def runtime_requests(guard, data):
    path = data["live"]["files"]["runtime"]["url"].split("?")[0]
    return [url for url in guard.requests if path in url]


def test_the_runtime_module_runs_from_its_checked_bytes(model_page, data):
    assert model_page.evaluate("RAG.embedder.pool.timings.runtimeFrom") == "blob"
    assert len(runtime_requests(model_page.rag_guard, data)) == 1  # fetched once, to be checked; never imported by address


# Last in the module: from here on the page's worker script comes with a policy of its own.
def test_several_workers_whose_policy_refuses_blob_modules_share_the_texts_import_the_runtime_from_its_address_and_agree(
        model_page, worker, texts, lengths, data):
    """Two new workers, each script served with a policy that refuses blob: modules: each imports
    the runtime from its address (the bytes were checked, but the browser fetches them again),
    the second reads the files the first kept, progress comes once per batch, and the vectors
    are the page's pool's (blob: runtime, one worker) of the same texts."""
    model_page.rag_guard.allow_console_error("Content Security Policy")  # the refused blob: probes, reported by Chromium

    def with_policy(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": WORKER_POLICY})

    model_page.route("**/assets/scripts/embed-worker.js*", with_policy)
    before = len(runtime_requests(model_page.rag_guard, data))
    chosen = shortest(texts, lengths, 12)
    found = model_page.evaluate("""async (texts) => {
        const pool = await RAG.embedder.open(RAG.data.live, { workers: 2 });
        try {
          const progress = [];
          const { vectors } = await pool.embed(texts, { batchSize: 4, onProgress: (done, total) => progress.push([done, total]) });
          return { workers: pool.timings.workers, cached: pool.timings.cached, from: pool.timings.runtimeFrom, progress,
                   vectors: vectors.map((v) => Array.from(v)) };
        } finally {
          pool.close();
        }
    }""", chosen)
    assert found["from"] == "url"
    assert len(runtime_requests(model_page.rag_guard, data)) - before == 2  # one import by address per worker
    assert found["workers"] == 2 and found["cached"] is True  # the second pool read what the first kept
    assert found["progress"][-1] == [12, 12] and [done for done, _ in found["progress"]] == sorted(done for done, _ in found["progress"])
    assert len(found["progress"]) == 3  # one report per batch of 4
    page_pool = [vector for text, vector in zip(texts, worker["vectors"]) if text in set(chosen)]
    assert np.abs(np.asarray(found["vectors"]) - np.asarray(page_pool)).max() < 1e-5
