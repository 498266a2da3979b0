"""A copy of the project's warm build caches for a test's own build, so it loads no model."""

import os
import shutil
from pathlib import Path

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
