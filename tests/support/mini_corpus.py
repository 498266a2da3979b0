"""A copy of the small valid corpus in tests/corpus/fixtures/valid/, for a test to break in
one place and see what the loader says."""

import shutil
from pathlib import Path

import pytest

from builder.site import load_site
from engine.problems import CorpusError

VALID = Path(__file__).resolve().parents[1] / "corpus" / "fixtures" / "valid"


class MiniCorpus:
    """A fresh copy of fixtures/valid under `root`, with helpers to edit it."""

    def __init__(self, root: Path):
        self.root = root
        shutil.copytree(VALID, root)

    def path(self, name: str) -> Path:
        return self.root / name

    def edit(self, name: str, old: str, new: str) -> None:
        """Replace the one occurrence of `old` in the file (fails if it isn't there exactly once)."""
        path = self.path(name)
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"{name}: expected {old!r} exactly once"
        path.write_text(text.replace(old, new, 1), "utf-8", newline="\n")

    def write_bytes(self, name: str, data: bytes) -> None:
        self.path(name).parent.mkdir(parents=True, exist_ok=True)
        self.path(name).write_bytes(data)

    def line_of(self, name: str, marker: str) -> int:
        """1-based number of the only line of the file that contains `marker`."""
        lines = self.path(name).read_bytes().split(b"\n")
        found = [number for number, line in enumerate(lines, start=1) if marker.encode() in line]
        assert len(found) == 1, f"{name}: {marker!r} is on lines {found}"
        return found[0]

    def load(self):
        """The corpus and the page's content (builder/site.py), as the build loads them."""
        return load_site(self.root)

    def problems(self):
        """The problems the loader raises; fails the test if it raises nothing."""
        with pytest.raises(CorpusError) as raised:
            load_site(self.root)
        return raised.value.problems
