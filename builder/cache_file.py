"""Writing one file of the build's caches (.cache/) so that no reader ever sees half of it.

The text goes to a temporary file beside the target, named by the writing process, then takes
the target's name in one step (os.replace). A build killed mid-write leaves the old file or the
new one, and two builds sharing a cache folder (`make serve` and a test's build, say) never write
into the same temporary file.

Example: write_atomically(Path(".cache/fts5/ranks.json"), json.dumps(result))
"""

import os
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, path)
