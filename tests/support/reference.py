"""The Python side of the model's agreement tests, without loading the model where it can be
helped (15-30 s a load on this machine, in each process that loads it): sentence-transformers'
vectors (engine.dense.embed) kept by text hash in one cache that every test shares, and the
model's tokenizer read from its own file.

    vectors = reference_vectors(["QB-4021 when uploading"])     # (1, 384); a warm run loads no model
    wordpieces(["QB-4021"])                                      # -> [7] ([CLS] and [SEP] included)

The cache is builder/embed_cache.py's (one file per model fingerprint, checked on every read),
in .cache/test-reference/: the build's own cache keeps only its corpus's texts. Two test
processes share it under a lock, so neither writes over the texts the other added.

Example: reference_vectors([]).shape -> (0, 384)
"""

from functools import cache

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


@cache
def tokenizer():
    """The model's own tokenizer (its tokenizer.json), with no padding and no cut: the file asks
    for both at 128, which sentence-transformers overrides (it cuts at 256, settings.MAX_WORDPIECES)."""
    from tokenizers import Tokenizer

    from engine.dense import resolve_model

    found = Tokenizer.from_file(f"{resolve_model()[0]}/tokenizer.json")
    found.no_padding()
    found.no_truncation()
    return found


def wordpieces(texts: list[str], special: bool = True) -> list[int]:
    """Each text's wordpieces, [CLS] and [SEP] included unless `special` is False."""
    return [len(encoding.ids) for encoding in tokenizer().encode_batch(list(texts), add_special_tokens=special)]
