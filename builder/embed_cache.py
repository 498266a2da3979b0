"""Embeddings cached on disk by model identity and text, so a rebuild embeds only what changed.

The cache is one JSON file per model fingerprint: {sha256(text): base64 float32 vector},
sealed with a checksum of its entries, and marked with the code that computed them (CODE and
the settings it reads). It keeps the last build's texts and, up to MAX_ENTRIES in all, those
of earlier builds, most recently used first ("recent"): building another corpus with the
same cache folder does not evict the main corpus's vectors. A file that fails to parse, whose checksum does not match, or that
other code wrote, is discarded with a one-line warning and rebuilt, never read as wrong numbers.
Nothing here imports sentence-transformers unless a text is missing from the cache.
"""

import base64
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from builder.cache_file import write_atomically
from builder.code_key import code_key, module_file
from engine.settings import DIMENSIONS, MAX_WORDPIECES

SCHEMA = 1
# How many texts the cache keeps: the last build's always, others up to this many in all. The
# Quillbox page embeds about 3,200; each text costs about 2 KB of JSON.
MAX_ENTRIES = 12_000
# The code that turns a text into its vector: the embedding call and the model loader.
CODE = (module_file("engine.dense"), module_file("engine.models"))


def embedding_code() -> str:
    """What, besides the model and the text, decides a vector: the code and the two settings it reads."""
    return f"{code_key(CODE)}/wordpieces-{MAX_WORDPIECES}/dimensions-{DIMENSIONS}"


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checksum(entries: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()


@dataclass
class EmbedStats:
    requested: int = 0
    computed: int = 0
    computed_texts: list[str] = field(default_factory=list)


class EmbeddingCache:
    def __init__(self, folder: Path, fingerprint: str):
        self.path = folder / f"embeddings-{hashlib.sha256(fingerprint.encode()).hexdigest()[:16]}.json"
        self.fingerprint = fingerprint
        self.code = embedding_code()
        self.recent: list[str] = []  # keys, most recently used first (read with the entries)
        self.entries: dict[str, str] = self._read()
        self.stats = EmbedStats()

    def _read(self) -> dict[str, str]:
        if not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text("utf-8"))
            recent = data.get("recent", [])
            # Only the order of eviction depends on it, so it is not sealed: a bad one is just ignored.
            self.recent = [key for key in recent if isinstance(key, str)] if isinstance(recent, list) else []
            entries = data["entries"]
            if data.get("schema") != SCHEMA or data.get("model") != self.fingerprint:
                raise ValueError("written for another schema or model")
            if data.get("code") != self.code:
                raise ValueError("written by other embedding code (engine/dense.py, engine/models.py or their settings)")
            if _checksum(entries) != data.get("checksum"):
                raise ValueError("checksum does not match its entries")
            for value in entries.values():
                if len(base64.b64decode(value, validate=True)) != 384 * 4:
                    raise ValueError("a vector has the wrong length")
            return entries
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as error:
            print(f"warning: discarding embedding cache {self.path}: {error}; recomputing", file=sys.stderr)
            return {}

    def embed(self, texts: list[str], progress=None) -> np.ndarray:
        """Vectors for `texts` in order, computing (and caching) only the missing ones."""
        unique_missing = list(dict.fromkeys(t for t in texts if text_key(t) not in self.entries))
        self.stats.requested += len(texts)
        if unique_missing:
            from engine.dense import embed  # loads the model: only when something is new

            for text, vector in zip(unique_missing, embed(unique_missing, progress)):
                self.entries[text_key(text)] = base64.b64encode(vector.astype("<f4").tobytes()).decode()
            self.stats.computed += len(unique_missing)
            self.stats.computed_texts += unique_missing
        rows = [np.frombuffer(base64.b64decode(self.entries[text_key(t)]), dtype="<f4") for t in texts]
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), 384)

    def save(self, keep: set[str] | None = None) -> None:
        """Write the cache atomically. `keep`, the keys of this build's texts, go first and are
        always kept; the others follow, most recently used first, up to MAX_ENTRIES in all."""
        keep = set() if keep is None else keep
        first = sorted(key for key in keep if key in self.entries)
        seen = set(first)
        others = [key for key in dict.fromkeys(self.recent + sorted(self.entries))
                  if key in self.entries and key not in seen]
        order = first + others[:max(0, MAX_ENTRIES - len(first))]
        if not self.stats.computed and order == self.recent and len(order) == len(self.entries) and self.path.is_file():
            return  # nothing embedded and the same order: the file holds this already (a no-op build writes nothing)
        entries = {key: self.entries[key] for key in order}
        payload = {"schema": SCHEMA, "model": self.fingerprint, "code": self.code, "checksum": _checksum(entries),
                   "entries": entries, "recent": order}
        write_atomically(self.path, json.dumps(payload, sort_keys=True))
        self.recent = order
