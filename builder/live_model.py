"""The embedding model for the reader's browser: the build's own all-MiniLM-L6-v2, exported to
ONNX for onnxruntime-web, so a question the reader types is embedded by the same model.

Exported once per model and exporter (cached by the model's fingerprint and by the code of
EXPORT_CODE), in the precision the build is asked for; "auto" takes the smallest that agrees with the build for every preset
question: every hybrid ranking identical, every dense one identical but for passages the build
scores within COSINE_TOLERANCE of each other, every cosine within COSINE_TOLERANCE. The
check runs the exported file in onnxruntime against the vectors the build computed with
sentence-transformers, and its figures go into the page's data (the prose states them).

Precisions, smallest first:
    fp16             every large weight stored in half precision and cast back to fp32 inside
                     the graph (half the download; the arithmetic stays fp32)
    fp16-embeddings  only the token-embedding table in half precision (half of all the weights)
    fp32             the weights as they are
(int8 is never offered: builder/int8_drift.py measures how far it moves cosines and top fives.)

Example: with_half_weights(model).graph.initializer[0].data_type -> 10 (FLOAT16)
"""

import functools
import hashlib
import json
import os
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from builder.code_key import code_key, module_file
from engine import settings
from engine.fusion import rrf

PRECISIONS = ("fp16", "fp16-embeddings", "fp32")  # smallest first
HALVED = {"fp16": lambda name: True, "fp16-embeddings": lambda name: "word_embeddings" in name}
CHOICES = ("auto", *PRECISIONS, "off")
COSINE_TOLERANCE = 5e-4          # the most a live cosine may differ from the build's
OPSET = 14
HALF_MIN_ELEMENTS = 1024         # smaller tensors (biases, norms) stay in fp32
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
CACHE_SCHEMA = 1
# The code that fills .cache/live-model: the exporter (this module) and the model loader it
# calls; the agreement report also depends on the fusion code and the settings it reads.
EXPORT_CODE = (Path(__file__).resolve(), module_file("engine.models"))
CHECK_CODE = (*EXPORT_CODE, module_file("engine.fusion"), module_file("engine.settings"))


class LiveModelUnavailable(RuntimeError):
    """What the live model needs is missing (onnxruntime-web's files, the model's own files):
    the message says how to get it, or to build with --live-model off."""


@dataclass(frozen=True)
class Agreement:
    """How the exported model's vectors compare with the build's, over the preset questions."""

    questions: int
    max_abs_diff: float          # the largest difference of one vector component
    max_cosine_diff: float       # the largest difference of one question-passage cosine
    dense_rankings_identical: int
    hybrid_rankings_identical: int
    dense_rankings_alike: int = 0   # identical but for passages whose build cosines are within COSINE_TOLERANCE

    def holds(self) -> bool:
        """Every cosine within the tolerance, every fused ranking identical, and every dense one
        identical but for the order of passages the build itself scores within the tolerance of
        each other (a tie at the precision the page promises, which it marks as one)."""
        return (self.max_cosine_diff <= COSINE_TOLERANCE and self.dense_rankings_alike == self.questions
                and self.hybrid_rankings_identical == self.questions)


@dataclass(frozen=True)
class LiveModel:
    path: Path
    precision: str
    agreement: Agreement
    tried: tuple = ()  # (precision, bytes, Agreement) of every precision checked, smallest first


# ----------------------------------------------------------------------- export


def export_fp32(location: str, path: Path) -> None:
    """torch.onnx's TorchScript exporter, opset 14, batch and sequence axes dynamic; the output
    is the transformer's last hidden state (pooling is a few lines in the browser)."""
    import torch

    from engine.models import transformer_for_export

    bert, _ = transformer_for_export(location)

    class LastHiddenState(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    example = torch.tensor([[101, 7592, 102]])
    axes = {name: {0: "batch", 1: "sequence"} for name in (*INPUTS, "last_hidden_state")}
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # The tracer's notes on a padding branch (the mask is an input of the graph, and padded
        # batches agree with single texts: tests/site/test_embedder.py) and on index lowering (no
        # negative indices here) would only clutter the build's output; the agreement check below
        # is what says whether the exported graph is right.
        warnings.simplefilter("ignore", category=torch.jit.TracerWarning)
        warnings.filterwarnings("ignore", message="Exporting aten::index operator", category=UserWarning)
        torch.onnx.export(LastHiddenState(bert), (example, torch.ones_like(example), torch.zeros_like(example)),
                          str(path), input_names=list(INPUTS), output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=OPSET, dynamo=False)


def with_half_weights(model, chosen=lambda name: True, min_elements: int = HALF_MIN_ELEMENTS):
    """The model with each large fp32 weight whose name `chosen` accepts stored as fp16, and a
    Cast back to fp32 where it is used: fewer bytes to download, the same fp32 arithmetic."""
    import onnx
    from onnx import helper, numpy_helper

    casts = []
    for tensor in model.graph.initializer:
        if (tensor.data_type != onnx.TensorProto.FLOAT or int(np.prod(tensor.dims)) < min_elements
                or not chosen(tensor.name)):
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(tensor).astype(np.float16), tensor.name + "__fp16")
        name = tensor.name
        tensor.CopyFrom(half)
        casts.append(helper.make_node("Cast", [half.name], [name], to=onnx.TensorProto.FLOAT, name=name + "__cast"))
    nodes = casts + list(model.graph.node)  # the casts first: every use of a weight comes after it
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


def export(location: str, precision: str, path: Path, fp32: Path) -> None:
    """`path` in `precision`, made from the fp32 export `fp32` (exported first if missing)."""
    if not fp32.is_file():
        temporary = fp32.with_name(fp32.stem + ".tmp.onnx")
        export_fp32(location, temporary)
        os.replace(temporary, fp32)
    if precision == "fp32":
        return
    import onnx

    temporary = path.with_name(path.stem + ".tmp.onnx")
    onnx.save(with_half_weights(onnx.load(str(fp32)), HALVED[precision]), str(temporary))
    os.replace(temporary, path)


# ---------------------------------------------------------------------- agreement


def mean_pooled(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' pooling and normalisation: the mean of the token vectors under
    the attention mask, scaled to unit length."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    return summed / np.clip(np.linalg.norm(summed, axis=1, keepdims=True), 1e-12, None)


@functools.lru_cache(maxsize=4)
def _session(path: str, modified_ns: int, location: str):
    """An ONNX session and its tokenizer, kept while the file is unchanged: make serve rebuilds in
    one process, and creating a session is most of what an edited passage costs here."""
    import onnxruntime
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(location) / "tokenizer.json"))
    tokenizer.enable_truncation(settings.MAX_WORDPIECES)
    tokenizer.no_padding()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"]), tokenizer


def open_sessions(cache_dir: Path, location: Path) -> int:
    """Open a session on each model file the cache holds (the live model's precisions and the
    int8 check's), so the first edit under make serve finds them open; how many were opened."""
    files = [path for folder in ("live-model", "int8") for path in sorted((cache_dir / folder).glob("*.onnx"))
             if not path.name.endswith("-fp32.onnx")]  # fp32 is only exported from, never run
    for path in files:
        _session(str(path), path.stat().st_mtime_ns, str(location))
    return len(files)


def embed_with(path: Path, location: str, texts: list[str]) -> np.ndarray:
    """Unit vectors from the exported file, one text at a time, as the Ask lab embeds a question
    (site_src/scripts/embed-worker.js; its padded batches are checked in tests/site/test_embedder.py)."""
    session, tokenizer = _session(str(path), path.stat().st_mtime_ns, location)
    rows = []
    for text in texts:
        ids = np.asarray([tokenizer.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        rows.append(mean_pooled(hidden, mask)[0])
    return np.asarray(rows, dtype=np.float32)


def ranked(passage_ids: list[str], scores: np.ndarray) -> list[str]:
    order = sorted(range(len(passage_ids)), key=lambda i: -float(scores[i]))
    return [passage_ids[i] for i in order]


def alike(live_order: list[str], build_order: list[str], build_scores: dict[str, float], tolerance: float) -> bool:
    """The same order, but for pairs of passages whose build cosines are within `tolerance`.

    Example: alike(["b", "a", "c"], ["a", "b", "c"], {"a": 0.5, "b": 0.4999, "c": 0.1}, 5e-4) -> True
    """
    place = {pid: i for i, pid in enumerate(build_order)}
    return all(place[a] < place[b] or abs(build_scores[a] - build_scores[b]) <= tolerance
               for i, a in enumerate(live_order) for b in live_order[i + 1:])


def agreement(live: np.ndarray, build: np.ndarray, passages: np.ndarray, passage_ids: list[str],
              bm25_runs: list[list[str]]) -> Agreement:
    """Compare the live query vectors with the build's, question by question, through what the
    page shows: the cosines, the dense ranking and the fused one (with the build's BM25 list)."""
    live_scores, build_scores = live @ passages.T, build @ passages.T
    dense_same = hybrid_same = dense_alike = 0
    for row, bm25 in enumerate(bm25_runs):
        live_dense, build_dense = ranked(passage_ids, live_scores[row]), ranked(passage_ids, build_scores[row])
        dense_same += live_dense == build_dense
        dense_alike += alike(live_dense, build_dense, dict(zip(passage_ids, map(float, build_scores[row]))), COSINE_TOLERANCE)
        depth = settings.FUSION_DEPTH
        fuse = [pid for pid, _ in rrf([live_dense[:depth], bm25[:depth]])], [pid for pid, _ in rrf([build_dense[:depth], bm25[:depth]])]
        hybrid_same += fuse[0] == fuse[1]
    return Agreement(len(bm25_runs), float(np.abs(live - build).max()), float(np.abs(live_scores - build_scores).max()),
                     dense_same, hybrid_same, dense_alike)


# -------------------------------------------------------------------------- cache


def export_ids(fingerprint: str) -> tuple[str, str]:
    """(the model's id, the id of its export by this exporter code): the cache's file prefixes."""
    model_id = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
    return model_id, f"{model_id}-{code_key(EXPORT_CODE)[:8]}"


def fp32_path(cache_dir: Path, fingerprint: str) -> Path:
    """The full-precision export every smaller one is made from (builder/int8_drift.py's too)."""
    return cache_dir / "live-model" / f"{export_ids(fingerprint)[1]}-fp32.onnx"


def prepare(choice: str, cache_dir: Path, fingerprint: str, location: str, question_texts: list[str],
            build_vectors: np.ndarray, passage_vectors: np.ndarray, passage_ids: list[str],
            bm25_runs: list[list[str]]) -> LiveModel | None:
    """The exported model the page ships (None when `choice` is "off"), exported once per model,
    exporter code and precision, and checked once per set of inputs and checking code; later
    builds read the cache."""
    if choice == "off":
        return None
    if choice not in CHOICES:
        raise ValueError(f"live model precision '{choice}': use one of {', '.join(CHOICES)}")
    folder = cache_dir / "live-model"
    folder.mkdir(parents=True, exist_ok=True)
    model_id, export_id = export_ids(fingerprint)
    inputs = hashlib.sha256(json.dumps([fingerprint, question_texts, passage_ids, bm25_runs, CACHE_SCHEMA,
                                        code_key(CHECK_CODE)]).encode())
    for vectors in (build_vectors, passage_vectors):
        inputs.update(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
    inputs = inputs.hexdigest()[:16]
    for stale in folder.glob(f"{model_id}-*"):  # this model, exported by other code: never read again
        if not stale.name.startswith(f"{export_id}-"):
            stale.unlink()
    fp32 = folder / f"{export_id}-fp32.onnx"  # fp32_path()
    tried = []
    for precision in (PRECISIONS if choice == "auto" else (choice,)):
        path = folder / f"{export_id}-{precision}.onnx"
        report = folder / f"{path.stem}-{inputs}.json"
        if path.is_file() and report.is_file():
            found = Agreement(**json.loads(report.read_text("utf-8")))
        else:
            if not path.is_file():
                export(location, precision, path, fp32)
            live = embed_with(path, location, question_texts)
            found = agreement(live, build_vectors, passage_vectors, passage_ids, bm25_runs)
            report.write_text(json.dumps(asdict(found)), "utf-8")
        tried.append((precision, path.stat().st_size, found))
        if found.holds() or choice != "auto" or precision == PRECISIONS[-1]:
            return LiveModel(path, precision, found, tuple(tried))
    raise AssertionError("unreachable: the last precision is always returned")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_record(path: Path, url: str, cache: dict) -> dict:
    """{url, bytes, sha256}: what the browser checks a download against. Hashes are remembered
    by path, size and modification time, so a rebuild does not read 60 MB again."""
    stat = path.stat()
    key = f"{path}:{stat.st_size}:{stat.st_mtime_ns}"
    if key not in cache:
        cache[key] = sha256_of(path)
    return {"url": url, "bytes": stat.st_size, "sha256": cache[key]}


# ------------------------------------------------------------------- what ships

ORT_FOLDER = Path(__file__).resolve().parents[1] / "node_modules" / "onnxruntime-web"
ORT_FILES = {  # the wasm build, one thread: one ES module with its glue inside (nothing else to import), the wasm
    "runtime": "dist/ort.wasm.bundle.min.mjs",
    "wasm": "dist/ort-wasm-simd-threaded.wasm",
}


def ort_version(folder: Path = ORT_FOLDER) -> str:
    package = folder / "package.json"
    if not package.is_file():
        raise LiveModelUnavailable(f"{folder} is missing: run `npm ci` (make build does), or build with --live-model off")
    return json.loads(package.read_text("utf-8"))["version"]


def shipped_files(live: LiveModel, vocab: Path, passage_bytes: bytes, cache_dir: Path) -> tuple[list, dict]:
    """([(path under dist/, source file or bytes)], {name: {url, bytes, sha256}}) for the live
    model: the model, its vocabulary, the passages' vectors, and onnxruntime-web's files."""
    hashes_path = cache_dir / "live-model" / "hashes.json"
    try:
        hashes = json.loads(hashes_path.read_text("utf-8"))
    except (OSError, ValueError):
        hashes = {}
    sources = {"model": (live.path, "live/model.onnx"), "vocab": (vocab, "live/vocab.txt")}
    sources |= {name: (ORT_FOLDER / relative, f"live/ort/{Path(relative).name}") for name, relative in ORT_FILES.items()}
    files, records = [], {}
    for name, (source, target) in sources.items():
        if not source.is_file():
            raise LiveModelUnavailable(f"{source} is missing: run `npm ci` (make build does), or build with --live-model off")
        record = file_record(source, target, hashes)
        records[name] = record | {"url": f"{target}?v={record['sha256'][:10]}"}
        files.append((target, source))
    records["passages"] = {"url": f"live/passages.bin?v={hashlib.sha256(passage_bytes).hexdigest()[:10]}",
                           "bytes": len(passage_bytes), "sha256": hashlib.sha256(passage_bytes).hexdigest()}
    files.append(("live/passages.bin", passage_bytes))
    hashes_path.parent.mkdir(parents=True, exist_ok=True)
    hashes_path.write_text(json.dumps({k: v for k, v in hashes.items() if any(k.startswith(str(s)) for s, _ in sources.values())}), "utf-8")
    return files, records


def live_data(live: LiveModel, records: dict) -> dict:
    """The page's data about the live model (data.live): what the runtime downloads and checks,
    and how the model agreed with the build."""
    return {"precision": live.precision, "agreement": asdict(live.agreement), "cosine_tolerance": COSINE_TOLERANCE,
            "tried": [{"precision": precision, "bytes": size, "agreement": asdict(found), "holds": found.holds()}
                      for precision, size, found in live.tried],
            "files": records, "download_bytes": sum(record["bytes"] for record in records.values()),
            "max_wordpieces": settings.MAX_WORDPIECES, "dimensions": settings.DIMENSIONS,
            "onnxruntime_web": ort_version()}
