"""Write the build's files so that a failed build never leaves a half-written site.

Files go to a fresh folder beside the target; only when everything is written is it swapped
in for the old one. JSON is written with sorted keys and fixed separators, so the same data
gives the same bytes.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path


def to_json(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class StagedOutput:
    """A temporary folder beside `target`; commit() swaps it in, discard() removes it."""

    def __init__(self, target: Path):
        self.target = target.resolve()
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.building-", dir=self.target.parent))

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, "utf-8", newline="\n")
        else:
            path.write_bytes(content)
        return path

    def copy(self, source: Path, relative: str) -> None:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, path)

    def commit(self) -> None:
        os.chmod(self.folder, 0o755)
        old = None
        if self.target.exists():
            old = self.target.with_name(f".{self.target.name}.old-{os.getpid()}")
            os.replace(self.target, old)
        os.replace(self.folder, self.target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
