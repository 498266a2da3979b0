"""How far 8-bit integer weights move the embedding model: the build's all-MiniLM-L6-v2, exported
to ONNX (builder/live_model.py), quantized with onnxruntime's dynamic quantization, then run on
every preset question and every passage and compared with the vectors sentence-transformers
computed. Section 'every-stage' states the figures instead of a number typed from memory; the page's live
model is never int8 (live_model.py's precisions), and this is the measurement behind that.

Two ways to quantize are measured: onnxruntime's defaults (signed 8-bit weights, one scale per
weight tensor) and one scale per output channel, the finer setting many exporters use.

Figures are cached in .cache/int8/ by the model's fingerprint, the texts, onnxruntime's version
and this module's own source, so a rebuild with nothing new quantizes nothing, and a change to
how the figures are computed is measured again. Below them, so that an edited passage costs one
text through each int8 model and not the whole measurement (make serve's edit-to-screen
budget): the quantized models, and each model's vectors by text, under the same model key.

Example: top_k_changes(np.array([[0.9, 0.5, 0.1]]), np.array([[0.5, 0.9, 0.1]]), 2)
         -> {"order": 1, "members": 0}
"""

import hashlib
import json
import logging
from importlib.metadata import version
from pathlib import Path

import numpy as np

from builder import live_model
from builder.cache_file import write_atomically

TOP = 5             # the top-k lists compared: the five passages a prompt carries
VARIANTS = {        # name -> quantize_dynamic's keyword arguments (weight_type is added at run time)
    "per-tensor": {"per_channel": False},
    "per-channel": {"per_channel": True},
}
CACHE_SCHEMA = 1


def top_k_changes(build_scores: np.ndarray, int8_scores: np.ndarray, k: int = TOP) -> dict:
    """How many rows (questions) rank their top k differently ("order") and how many hold a
    different set of k passages ("members"), int8 against the build. Ties keep the earlier
    passage first, as the page's rankings do."""
    def top(row):
        return list(np.argsort(-row, kind="stable")[:k])

    pairs = [(top(b), top(q)) for b, q in zip(build_scores, int8_scores)]
    return {"order": sum(a != b for a, b in pairs), "members": sum(set(a) != set(b) for a, b in pairs)}


def drift(build_questions: np.ndarray, build_passages: np.ndarray, int8_questions: np.ndarray,
          int8_passages: np.ndarray) -> dict:
    """Every question-passage cosine from the int8 vectors against the build's: the largest and
    the mean difference, and how many questions' first passage and top five change."""
    build_scores, int8_scores = build_questions @ build_passages.T, int8_questions @ int8_passages.T
    gap = np.abs(build_scores - int8_scores)
    return {"questions": int(len(build_scores)), "max_cosine_diff": round(float(gap.max()), 6),
            "mean_cosine_diff": round(float(gap.mean()), 6),
            "top1_changed": top_k_changes(build_scores, int8_scores, 1)["order"],
            f"top{TOP}": top_k_changes(build_scores, int8_scores, TOP)}


def quantized(fp32: Path, target: Path, variant: str) -> Path:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process the graph first would only clutter the build's output
    try:
        quantize_dynamic(str(fp32), str(target), weight_type=QuantType.QInt8, **VARIANTS[variant])
    finally:
        root.setLevel(level)
    return target


def cache_key(fingerprint: str, export: str, question_texts: list[str], passage_texts: list[str]) -> str:
    """What the figures depend on: the model, the fp32 export the int8 models are made from (its
    file name carries the exporter's code), the texts, onnxruntime and this code."""
    source = Path(__file__).read_bytes()
    payload = json.dumps([fingerprint, export, question_texts, passage_texts, version("onnxruntime"), CACHE_SCHEMA])
    return hashlib.sha256(payload.encode() + source).hexdigest()[:16]


def model_key(fingerprint: str, fp32: Path) -> str:
    """What the quantized models and their vectors depend on: the model and its export (whose
    file name carries the exporter's code), onnxruntime, this code."""
    payload = json.dumps([fingerprint, fp32.name, version("onnxruntime"), CACHE_SCHEMA]).encode()
    return hashlib.sha256(payload + Path(__file__).read_bytes()).hexdigest()[:16]


def cached_vectors(folder: Path, key: str, variant: str, model: Path, location: Path, texts: list[str]) -> np.ndarray:
    """The int8 model's vector of each text, embedding only texts it has not seen (by text hash)."""
    store = folder / f"{key}-{variant}-vectors.json"
    known = json.loads(store.read_text("utf-8")) if store.is_file() else {}
    hashes = [hashlib.sha256(text.encode()).hexdigest() for text in texts]
    missing = list(dict.fromkeys(h for h in hashes if h not in known))
    if missing:
        text_of = dict(zip(hashes, texts))
        for h, vector in zip(missing, live_model.embed_with(model, str(location), [text_of[h] for h in missing])):
            known[h] = vector.tolist()
        wanted = set(hashes)  # texts no longer in the build are dropped, so the file does not grow
        write_atomically(store, json.dumps({h: v for h, v in known.items() if h in wanted}))
    return np.asarray([known[h] for h in hashes], dtype=np.float32)


def measure(cache_dir: Path, fingerprint: str, location: Path, question_texts: list[str], question_vectors: np.ndarray,
            passage_texts: list[str], passage_vectors: np.ndarray) -> dict:
    """{variant: drift, ..., "bytes": {variant: size}, "onnxruntime": version, "top": TOP}, from the
    cache when the model, the texts and this code are unchanged; otherwise quantized and run now."""
    folder = cache_dir / "int8"
    fp32 = live_model.fp32_path(cache_dir, fingerprint)
    record = folder / f"{cache_key(fingerprint, fp32.name, question_texts, passage_texts)}.json"
    if record.is_file():
        return json.loads(record.read_text("utf-8"))
    live_model.export(str(location), "fp32", fp32, fp32)  # prepare() made it already, unless it did not run
    result = {"top": TOP, "onnxruntime": version("onnxruntime"), "bytes": {"fp32": fp32.stat().st_size}}
    key = model_key(fingerprint, fp32)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():  # another model, onnxruntime or version of this code, or old figures
        if not stale.name.startswith(key + "-"):
            stale.unlink()
    for variant in VARIANTS:
        model = folder / f"{key}-{variant}.onnx"
        if not model.is_file():
            quantized(fp32, model.with_suffix(".tmp"), variant).replace(model)
        result["bytes"][variant] = model.stat().st_size
        int8 = cached_vectors(folder, key, variant, model, location, question_texts + passage_texts)
        result[variant] = drift(question_vectors, passage_vectors, int8[:len(question_texts)], int8[len(question_texts):])
    write_atomically(record, json.dumps(result, sort_keys=True))
    return result
