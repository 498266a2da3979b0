"""The project's warm build caches, for tests: a copy for a test's own build (so it loads no
model), and the build's vectors read from them."""

import os
import shutil
from pathlib import Path

import numpy as np

from builder.embed_cache import EmbeddingCache, text_key
from engine.dense import model_fingerprint

from support.paths import ROOT

LARGE = ("*.onnx",)  # the exported live models, a few hundred MB: hard-linked, never rewritten in place


def copy_warm_cache(to: Path, leave_out: tuple[str, ...] = (), source: Path = ROOT / ".cache") -> Path:
    """Copy a build cache (the project's, by default) to `to` without the tests' own site and
    whatever `leave_out` names; the live models are hard-linked (builds replace cache files,
    they never write into them)."""
    if not source.is_dir():
        to.mkdir(parents=True, exist_ok=True)
        return to
    shutil.copytree(source, to, ignore=shutil.ignore_patterns("test-site", *LARGE, *leave_out))
    for model in (source / "live-model").glob("*.onnx") if "live-model" not in leave_out else ():
        os.link(model, to / "live-model" / model.name)
    return to


def build_vectors(texts: list[str]) -> np.ndarray:
    """The build's vectors, from the embedding cache the session's build filled (no model loads)."""
    return EmbeddingCache(ROOT / ".cache", model_fingerprint()).embed(texts)


def cached_build_vectors(texts: list[str]) -> np.ndarray:
    """The build's vectors of texts the session's build embedded, read from its embedding cache;
    a text it did not embed fails the test (nothing is computed here, so a test comparing the
    model's output with these compares it with the build's, never with itself)."""
    cache = EmbeddingCache(ROOT / ".cache", model_fingerprint())
    missing = [text for text in texts if text_key(text) not in cache.entries]
    assert not missing, f"{len(missing)} text(s) not in the build's embedding cache (.cache/): {missing[:2]}"
    return cache.embed(texts)
