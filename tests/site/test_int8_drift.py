"""builder/int8_drift.py: what int8 weights change, on hand-made vectors; its cache; and the
figures the session's build measured (section 9 states them)."""

import json

import numpy as np
import pytest

from builder import int8_drift
from builder.int8_drift import cache_key, drift, top_k_changes


def test_top_k_changes_counts_reordered_lists_and_changed_members():
    build = np.array([[0.9, 0.5, 0.1],    # top 2: passage 0, then 1
                      [0.2, 0.8, 0.6],    # top 2: 1, 2
                      [0.7, 0.1, 0.3]])   # top 2: 0, 2
    int8 = np.array([[0.5, 0.9, 0.1],     # 1, 0: same two, other order
                     [0.2, 0.8, 0.6],     # unchanged
                     [0.7, 0.4, 0.3]])    # 0, 1: passage 2 left the top 2
    assert top_k_changes(build, int8, 2) == {"order": 2, "members": 1}
    assert top_k_changes(build, int8, 1) == {"order": 1, "members": 1}  # only the first row's leader moved
    assert top_k_changes(build, build, 2) == {"order": 0, "members": 0}


def test_drift_compares_every_question_passage_cosine():
    passages = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    build_q = np.array([[1.0, 0.0]])            # cosines 1, 0, 0.6
    int8_q = np.array([[0.8, 0.6]])             # cosines 0.8, 0.6, 0.48 + 0.48 = 0.96
    got = drift(build_q, passages, int8_q, passages)
    assert got["questions"] == 1
    assert got["max_cosine_diff"] == pytest.approx(0.6)                                # passage 1: 0 -> 0.6
    assert got["mean_cosine_diff"] == pytest.approx((0.2 + 0.6 + 0.36) / 3, abs=1e-6)
    # Build order: 0 (1), 2 (0.6), 1 (0); int8 order: 2 (0.96), 0 (0.8), 1 (0.6): a new leader,
    # and the same three passages in another order.
    assert got["top1_changed"] == 1
    assert got[f"top{int8_drift.TOP}"] == {"order": 1, "members": 0}


def test_the_cache_key_follows_the_model_its_export_and_the_texts():
    """The export too: after the exporter's code changed, a record kept from before would be read
    while the int8 models it came from are made again at the next edit (2.7 s under make serve)."""
    base = cache_key("model-a", "x1-fp32.onnx", ["q"], ["p"])
    assert cache_key("model-a", "x1-fp32.onnx", ["q"], ["p"]) == base
    assert cache_key("model-b", "x1-fp32.onnx", ["q"], ["p"]) != base
    assert cache_key("model-a", "x2-fp32.onnx", ["q"], ["p"]) != base
    assert cache_key("model-a", "x1-fp32.onnx", ["q", "q2"], ["p"]) != base
    assert cache_key("model-a", "x1-fp32.onnx", ["q"], ["p edited"]) != base


def test_a_cached_measurement_is_read_not_measured_again(tmp_path, monkeypatch):
    record = {"top": 5, "per-tensor": {"max_cosine_diff": 0.2}}
    (tmp_path / "int8").mkdir()
    export = int8_drift.live_model.fp32_path(tmp_path, "m").name
    (tmp_path / "int8" / f"{cache_key('m', export, ['q'], ['p'])}.json").write_text(json.dumps(record), "utf-8")

    def refuse(*args):
        raise AssertionError("quantized again although the cache holds the figures")

    monkeypatch.setattr(int8_drift, "quantized", refuse)
    got = int8_drift.measure(tmp_path, "m", tmp_path, ["q"], np.zeros((1, 2)), ["p"], np.zeros((1, 2)))
    assert got == record


def test_an_edited_text_is_the_only_one_run_through_the_int8_models_again(tmp_path, monkeypatch):
    """make serve's edit-to-screen budget: an edited passage must not quantize the model again,
    nor embed every text again."""
    quantizations, embedded = [], []

    def fake_quantized(fp32, target, variant):
        quantizations.append(variant)
        target.write_bytes(b"int8 " + variant.encode())
        return target

    def fake_embed(model, location, texts):
        embedded.append((model.name.split("-", 1)[1], list(texts)))
        return np.array([[float(len(text)), 1.0] for text in texts], dtype=np.float32)

    monkeypatch.setattr(int8_drift, "quantized", fake_quantized)
    monkeypatch.setattr(int8_drift.live_model, "embed_with", fake_embed)
    fp32 = int8_drift.live_model.fp32_path(tmp_path, "m")  # the export the live model is made from, shared
    fp32.parent.mkdir()
    fp32.write_bytes(b"fp32 model")
    monkeypatch.setattr(int8_drift.live_model, "export_fp32", lambda *args: pytest.fail("exported the model again"))
    vectors = np.array([[1.0, 0.0], [0.0, 1.0]])

    first = int8_drift.measure(tmp_path, "m", tmp_path, ["q1", "q2"], vectors, ["p1", "p2"], vectors)
    assert sorted(quantizations) == ["per-channel", "per-tensor"]
    assert sorted(embedded) == [("per-channel.onnx", ["q1", "q2", "p1", "p2"]), ("per-tensor.onnx", ["q1", "q2", "p1", "p2"])]
    quantizations.clear()
    embedded.clear()

    second = int8_drift.measure(tmp_path, "m", tmp_path, ["q1", "q2"], vectors, ["p1", "p2 edited"], vectors)
    assert quantizations == []
    assert sorted(embedded) == [("per-channel.onnx", ["p2 edited"]), ("per-tensor.onnx", ["p2 edited"])]
    assert second != first  # the edited text's vector is the one that moved
    # What is left on disk: the two models, their vectors, and the figures for today's texts only.
    key = int8_drift.model_key("m", fp32)
    assert sorted(path.name for path in (tmp_path / "int8").iterdir()) == sorted([
        f"{key}-per-channel.onnx", f"{key}-per-tensor.onnx", f"{key}-per-channel-vectors.json",
        f"{key}-per-tensor-vectors.json", f"{cache_key('m', fp32.name, ['q1', 'q2'], ['p1', 'p2 edited'])}.json"])


def test_the_build_measured_both_ways_of_quantizing(data):
    int8 = data["int8"]
    assert int8 is not None, "the session's build ships the live model, so it measures int8 too"
    n_questions = len(data["questions"])
    for variant in int8_drift.VARIANTS:
        figures = int8[variant]
        assert figures["questions"] == n_questions
        assert 0 <= figures["mean_cosine_diff"] <= figures["max_cosine_diff"] <= 2
        assert 0 <= figures["top1_changed"] <= figures["top5"]["order"] <= n_questions
        assert figures["top5"]["members"] <= figures["top5"]["order"]
        assert int8["bytes"][variant] < int8["bytes"]["fp32"] / 2   # 8-bit weights: about a quarter
    # The live model shipped agrees with the build far more closely than either int8 model.
    assert data["live"]["agreement"]["max_cosine_diff"] < min(int8[v]["max_cosine_diff"] for v in int8_drift.VARIANTS)
