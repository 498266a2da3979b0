"""What the build's stages computed before the labs run, handed to each lab's data step.

Example: a lab's data(build) reads build.data["runs"]["<question id>"]["dense"][0] -> [<the passage ranked first>, <its cosine>]
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from builder.site import Site


@dataclass
class Build:
    site: Site                 # the corpus and the page's content
    data: dict                 # the page's core data so far (builder/core_data.py)
    vector_of: dict[str, np.ndarray] = field(default_factory=dict)  # every embedded text -> its vector
    cache_dir: Path | None = None  # where a data step may keep what is slow to compute (None: keep nothing)
    strict: bool = True        # hand-written data that no longer matches the numbers: an error (else a warning)

    @property
    def corpus(self):
        return self.site.corpus

    @property
    def content(self):
        return self.site.content
