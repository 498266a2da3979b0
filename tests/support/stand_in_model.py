"""A stand-in for the embedding model, for tests whose builds need a vector for a new text but
test something other than meaning (escaping, the embedding cache): each text gets a unit vector
of its own, the same on every call, and no model loads (15-30 s a load on this machine). The
real model's numbers are tested in tests/engine/test_dense.py and through every built page."""

import hashlib

import numpy as np


def stand_in_embed(texts: list[str], progress=None) -> np.ndarray:
    rows = [np.random.default_rng(list(hashlib.sha256(t.encode()).digest())).standard_normal(384) for t in texts]
    return np.asarray([row / np.linalg.norm(row) for row in rows], dtype=np.float32).reshape(len(texts), 384)
