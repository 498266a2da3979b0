"""The model the page ships for the reader's browser (builder/live_model.py): half-precision
weights cast back inside the graph, the agreement check that picks the precision, the cache that
exports and checks once, the files and their checksums; and, on the site the session built, the
shipped files against the records the browser checks them with.

The browser side (the same model run by onnxruntime-web in Chromium, the downloads refused when
damaged) is tested in site_src/labs/ask/test_ask.py."""

import hashlib
import json

import numpy as np
import pytest

from builder import live_model
from builder.live_model import Agreement
from engine import settings
from support.paths import ROOT

onnx = pytest.importorskip("onnx")
onnxruntime = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402 (after the skip)


def tiny_model(weight: np.ndarray, bias: np.ndarray):
    """y = x @ W + b, with W and b stored in the graph, as the transformer's layers are."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, weight.shape[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, weight.shape[1]])],
        [numpy_helper.from_array(weight, "W"), numpy_helper.from_array(bias, "b")])
    # The IR version torch.onnx writes for opset 14, which every onnxruntime reads.
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", live_model.OPSET)], ir_version=7)


def run(model, x: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


# ------------------------------------------------------------------ half weights


def test_large_weights_are_stored_in_half_precision_and_cast_back_small_ones_stay():
    rng = np.random.default_rng(7)
    weight = rng.normal(size=(32, 32)).astype(np.float32)   # 1,024 elements: halved
    bias = rng.normal(size=32).astype(np.float32)            # 32: kept
    x = rng.normal(size=(1, 32)).astype(np.float32)
    before = run(tiny_model(weight, bias), x)

    halved = live_model.with_half_weights(tiny_model(weight, bias))
    onnx.checker.check_model(halved)
    stored = {t.name: t.data_type for t in halved.graph.initializer}
    assert stored == {"W__fp16": TensorProto.FLOAT16, "b": TensorProto.FLOAT}
    first = halved.graph.node[0]
    assert (first.op_type, list(first.input), list(first.output)) == ("Cast", ["W__fp16"], ["W"])
    after = run(halved, x)
    # The arithmetic is fp32; only the weights were rounded: the output moves by the rounding alone.
    exact = x @ weight.astype(np.float16).astype(np.float32) + bias
    assert np.allclose(after, exact, atol=1e-5)
    assert 0 < np.abs(after - before).max() < 0.05


def test_only_the_weights_the_precision_names_are_halved():
    weight = np.ones((32, 32), dtype=np.float32)
    bias = np.zeros(32, dtype=np.float32)
    untouched = live_model.with_half_weights(tiny_model(weight, bias), live_model.HALVED["fp16-embeddings"])
    assert [t.data_type for t in untouched.graph.initializer] == [TensorProto.FLOAT, TensorProto.FLOAT]
    assert [n.op_type for n in untouched.graph.node] == ["MatMul", "Add"]
    assert live_model.HALVED["fp16-embeddings"]("embeddings.word_embeddings.weight")
    assert not live_model.HALVED["fp16-embeddings"]("encoder.layer.0.attention.self.query.weight")


# ------------------------------------------------------------------ pooling


def test_mean_pooling_averages_the_masked_tokens_and_normalises():
    hidden = np.array([[[3.0, 0.0], [1.0, 2.0], [100.0, 100.0]]], dtype=np.float32)
    mask = np.array([[1, 1, 0]])
    # mean of the first two tokens: (2, 1); length sqrt(5)
    assert live_model.mean_pooled(hidden, mask)[0] == pytest.approx([2 / 5 ** 0.5, 1 / 5 ** 0.5])


# ------------------------------------------------------------------ agreement

PASSAGES = np.eye(3, dtype=np.float32)          # three passages along the axes
IDS = ["a", "b", "c"]
BM25 = [["c"], ["c"]]                            # BM25 finds "c" for both questions


def unit(*xs):
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_identical_vectors_agree_exactly():
    build = np.stack([unit(3, 2, 1), unit(1, 3, 2)])
    found = live_model.agreement(build.copy(), build, PASSAGES, IDS, BM25)
    assert found == Agreement(questions=2, max_abs_diff=0.0, max_cosine_diff=0.0,
                              dense_rankings_identical=2, hybrid_rankings_identical=2, dense_rankings_alike=2)
    assert found.holds()


def test_a_swapped_ranking_or_a_cosine_past_the_tolerance_breaks_agreement():
    build = np.stack([unit(3, 2, 1), unit(1, 3, 2)])
    swapped = np.stack([unit(2, 3, 1), build[1]])   # question 1: b before a now
    found = live_model.agreement(swapped, build, PASSAGES, IDS, BM25)
    assert (found.dense_rankings_identical, found.hybrid_rankings_identical) == (1, 1)
    assert not found.holds()

    nudged = build.copy()
    nudged[0, 0] += 1e-3   # same order, one cosine moved past the README's 5e-4
    found = live_model.agreement(nudged, build, PASSAGES, IDS, BM25)
    assert found.dense_rankings_identical == 2
    assert found.max_cosine_diff == pytest.approx(1e-3, rel=1e-3)
    assert not found.holds()


def test_two_passages_the_build_scores_within_the_tolerance_may_trade_places():
    scores = {"a": 0.5001, "b": 0.5, "c": 0.3}   # a and b: 1e-4 apart, a tie at the page's precision
    assert live_model.alike(["b", "a", "c"], ["a", "b", "c"], scores, 5e-4)
    assert not live_model.alike(["a", "c", "b"], ["a", "b", "c"], scores, 5e-4)   # b and c are 0.2 apart
    assert not live_model.alike(["b", "a", "c"], ["a", "b", "c"], scores, 5e-5)


def test_the_tolerance_is_the_one_the_readme_states():
    # Pinned as a literal: a test that nudged by a multiple of the module's own tolerance would
    # move with it. README.md: "every cosine within 5e-4".
    assert live_model.COSINE_TOLERANCE == 5e-4
    assert "every cosine within 5e-4" in " ".join((ROOT / "README.md").read_text("utf-8").split())
    build = np.stack([unit(3, 2, 1), unit(1, 3, 2)])
    for moved, holds in ((4e-4, True), (6e-4, False)):
        nudged = build.copy()
        nudged[0, 0] += moved
        assert live_model.agreement(nudged, build, PASSAGES, IDS, BM25).holds() is holds, moved


# ------------------------------------------------------------------ the cache


class FakeExports:
    """export() and embed_with() stood in for: each precision's vectors are the build's plus
    that precision's error, and every call is counted."""

    def __init__(self, build, errors):
        self.build, self.errors, self.calls = build, errors, []

    def export(self, location, precision, path, fp32):
        self.calls.append(("export", precision))
        path.write_bytes(b"x" * {"fp16": 10, "fp16-embeddings": 20, "fp32": 40}[precision])

    def embed_with(self, path, location, texts):
        precision = next(p for p in live_model.PRECISIONS if path.stem.endswith(f"-{p}"))
        self.calls.append(("embed", precision))
        return self.build + self.errors[precision]


def prepare(tmp_path, choice, fake, build, monkeypatch):
    monkeypatch.setattr(live_model, "export", fake.export)
    monkeypatch.setattr(live_model, "embed_with", fake.embed_with)
    return live_model.prepare(choice, tmp_path, "model-x", "nowhere", ["q1", "q2"], build, PASSAGES, IDS, BM25)


def test_auto_takes_the_smallest_precision_that_agrees_and_the_next_build_reads_the_cache(tmp_path, monkeypatch):
    build = np.stack([unit(3, 2, 1), unit(1, 3, 2)])
    swap = np.stack([unit(2, 3, 1), build[1]]) - build          # fp16 reorders a ranking
    fake = FakeExports(build, {"fp16": swap, "fp16-embeddings": np.full_like(build, 1e-6), "fp32": 0 * build})
    chosen = prepare(tmp_path, "auto", fake, build, monkeypatch)
    assert chosen.precision == "fp16-embeddings"
    assert [(p, size, found.holds()) for p, size, found in chosen.tried] == [("fp16", 10, False), ("fp16-embeddings", 20, True)]
    assert fake.calls == [("export", "fp16"), ("embed", "fp16"), ("export", "fp16-embeddings"), ("embed", "fp16-embeddings")]

    fake.calls.clear()
    again = prepare(tmp_path, "auto", fake, build, monkeypatch)
    assert fake.calls == []                      # exported and checked once
    assert again == chosen


def test_a_precision_asked_for_is_used_even_when_it_disagrees_and_off_ships_nothing(tmp_path, monkeypatch):
    build = np.stack([unit(3, 2, 1), unit(1, 3, 2)])
    swap = np.stack([unit(2, 3, 1), build[1]]) - build
    fake = FakeExports(build, {"fp16": swap})
    chosen = prepare(tmp_path, "fp16", fake, build, monkeypatch)
    assert (chosen.precision, chosen.agreement.holds()) == ("fp16", False)
    assert prepare(tmp_path, "off", fake, build, monkeypatch) is None
    with pytest.raises(ValueError, match="use one of auto, fp16, fp16-embeddings, fp32, off"):
        prepare(tmp_path, "int8", fake, build, monkeypatch)


# ------------------------------------------------------------------ what ships


def test_shipped_files_carry_their_size_and_sha256_and_a_versioned_address(tmp_path, monkeypatch):
    ort = tmp_path / "onnxruntime-web"
    for relative in live_model.ORT_FILES.values():
        (ort / relative).parent.mkdir(parents=True, exist_ok=True)
        (ort / relative).write_bytes(relative.encode())
    monkeypatch.setattr(live_model, "ORT_FOLDER", ort)
    model, vocab = tmp_path / "m.onnx", tmp_path / "vocab.txt"
    model.write_bytes(b"model bytes")
    vocab.write_text("[PAD]\n", "utf-8")
    chosen = live_model.LiveModel(model, "fp32", Agreement(1, 0.0, 0.0, 1, 1))
    files, records = live_model.shipped_files(chosen, vocab, b"\x00" * 12, tmp_path / "cache")

    assert set(records) == {"model", "vocab", "passages", *live_model.ORT_FILES}
    for target, source in files:
        content = source if isinstance(source, bytes) else source.read_bytes()
        record = next(r for r in records.values() if r["url"].split("?")[0] == target)
        assert record["bytes"] == len(content)
        assert record["sha256"] == hashlib.sha256(content).hexdigest()
        assert record["url"] == f"{target}?v={record['sha256'][:10]}"

    (ort / live_model.ORT_FILES["wasm"]).unlink()
    with pytest.raises(live_model.LiveModelUnavailable, match="npm ci"):
        live_model.shipped_files(chosen, vocab, b"", tmp_path / "cache")


def test_a_hash_is_computed_again_only_when_the_file_changes(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"one")
    remembered = {}
    first = live_model.file_record(path, "f.bin", remembered)
    assert first["sha256"] == hashlib.sha256(b"one").hexdigest()
    key = next(iter(remembered))
    remembered[key] = "remembered"                       # not read again while size and time hold
    assert live_model.file_record(path, "f.bin", remembered)["sha256"] == "remembered"
    path.write_bytes(b"three")
    assert live_model.file_record(path, "f.bin", remembered)["sha256"] == hashlib.sha256(b"three").hexdigest()


# ------------------------------------------------------------------ the real site


def test_the_site_ships_the_precision_that_agrees_and_every_file_it_lists(built_site, data):
    live = data["live"]
    assert live is not None, "the session's build ships the live model (build.py --live-model auto)"
    assert live["precision"] in live_model.PRECISIONS
    assert Agreement(**live["agreement"]).holds()
    tried = [t["precision"] for t in live["tried"]]
    assert tried == list(live_model.PRECISIONS[:len(tried)]) and tried[-1] == live["precision"]
    assert all(not t["holds"] for t in live["tried"][:-1])     # every smaller one was checked and failed
    assert live["agreement"]["questions"] == len(data["questions"])
    assert (live["max_wordpieces"], live["dimensions"]) == (settings.MAX_WORDPIECES, settings.DIMENSIONS)
    assert live["download_bytes"] == sum(f["bytes"] for f in live["files"].values())
    package = json.loads((live_model.ORT_FOLDER / "package.json").read_text("utf-8"))
    assert live["onnxruntime_web"] == package["version"]
    for name, record in live["files"].items():
        path = built_site / record["url"].split("?")[0]
        assert path.stat().st_size == record["bytes"], name
        assert live_model.sha256_of(path) == record["sha256"], name
    vectors = np.frombuffer((built_site / live["files"]["passages"]["url"].split("?")[0]).read_bytes(), dtype="<f4")
    assert vectors.shape == (len(data["passages"]) * settings.DIMENSIONS,)


def policy_of(html: str) -> str:
    return html.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0]


def test_the_page_policy_adds_exactly_wasm_same_origin_fetches_and_its_own_worker_when_the_model_ships(built_site):
    policy = policy_of((built_site / "index.html").read_text("utf-8"))
    assert policy == ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
                      "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")


def test_make_serve_keeps_the_page_policy_with_the_model(built_site):
    # builder/serve.py lets its reload script connect (connect-src 'none' -> 'self'); with the
    # model the page already connects to itself, so the served policy is the page's, worker-src too.
    from builder.serve import dev_html

    html = (built_site / "index.html").read_text("utf-8")
    assert policy_of(dev_html(html, "build-1")) == policy_of(html)


def test_passage_vectors_are_the_builds_in_the_pages_order(built_site, data):
    from builder.embed_cache import EmbeddingCache
    from engine.dense import model_fingerprint

    # The session's build filled the project's embedding cache: reading it loads no model.
    expected = EmbeddingCache(ROOT / ".cache", model_fingerprint()).embed([p["text"] for p in data["passages"]])
    shipped = np.frombuffer((built_site / "live" / "passages.bin").read_bytes(), dtype="<f4").reshape(expected.shape)
    assert np.array_equal(shipped, expected)
