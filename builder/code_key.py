"""Part of every cache key: the code that fills the cache. A cache keyed only by its inputs
(passages, questions, a model) keeps serving what old code computed after the code changes,
until someone clears it by hand; with the code's own text in the key, an edit is a miss.

Each cache names the files whose code decides what it holds (builder/fts5.py and the engine
modules it calls, the embedding code, the exporter of the live model…) as a module constant,
so a test can point it at copies and edit them.

Example: code_key([Path("engine/fusion.py")]) -> 16 hex digits that change with any edit of the file
"""

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_file(name: str) -> Path:
    """The source file of an imported module: module_file("engine.bm25") -> …/engine/bm25.py."""
    module = sys.modules.get(name) or __import__(name, fromlist=["_"])
    return Path(module.__file__).resolve()


def code_key(paths) -> str:
    """SHA-256 (first 16 hex digits) of the files' names and bytes, in the order given. Names are
    taken relative to the repository, so two checkouts of the same code share the key."""
    digest = hashlib.sha256()
    for path in paths:
        path = Path(path).resolve()
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
