"""What the page says of the embedding model that only its files know, read without loading it.

Example: learned_positions() -> 512 (all-MiniLM-L6-v2's BERT; sentence-transformers cuts texts at 256)
"""

import json
from pathlib import Path

from engine.dense import resolve_model


def learned_positions() -> int | None:
    """How many positions the network under the model has learned (config.json's
    max_position_embeddings); None for a hub name not yet on this machine."""
    location, _ = resolve_model()
    config = Path(location) / "config.json"
    if not config.is_file():
        return None
    return json.loads(config.read_text("utf-8")).get("max_position_embeddings")
