"""The Python side of the model's agreement tests, without loading the model where it can be
helped (15-30 s a load on this machine, in each process that loads it): sentence-transformers'
vectors (engine.dense.embed) kept by text hash in one cache that every test shares, and
wordpieces counted by the engine's own tokenizer (engine/tokens.py), which loads no model.

    vectors = reference_vectors(["QB-4021 when uploading"])     # (1, 384); a warm run loads no model
    wordpieces(["QB-4021"])                                      # -> [7] ([CLS] and [SEP] included)

The cache is builder/embed_cache.py's (one file per model fingerprint, checked on every read),
in .cache/test-reference/: the build's own cache keeps only its corpus's texts. Two test
processes share it under a lock, so neither writes over the texts the other added.

Example: reference_vectors([]).shape -> (0, 384)
"""

import numpy as np
from filelock import FileLock

from support.paths import ROOT

CACHE = ROOT / ".cache" / "test-reference"


def reference_vectors(texts: list[str]) -> np.ndarray:
    """sentence-transformers' unit vectors of `texts`, computed only for texts no test asked for before."""
    from builder.embed_cache import EmbeddingCache
    from engine.dense import model_fingerprint

    CACHE.mkdir(parents=True, exist_ok=True)
    with FileLock(CACHE / "cache.lock"):
        vectors = EmbeddingCache(CACHE, model_fingerprint())
        found = vectors.embed(list(texts))
        if vectors.stats.computed:
            vectors.save(keep=set(vectors.entries))
    return found


def wordpieces(texts: list[str], special: bool = True) -> list[int]:
    """Each text's wordpieces, [CLS] and [SEP] included unless `special` is False (the engine's
    own count, engine/tokens.py, which always holds the two)."""
    from engine.tokens import count_wordpieces

    return [count_wordpieces(text) - (0 if special else 2) for text in texts]
