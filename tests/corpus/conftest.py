"""A copy of the small valid corpus in fixtures/valid/ for each test to break in one place."""

import os
import shutil
from pathlib import Path

import pytest

from engine.corpus import load_corpus
from engine.problems import CorpusError

os.environ["HF_HUB_OFFLINE"] = "1"

VALID = Path(__file__).parent / "fixtures" / "valid"


class MiniCorpus:
    """tmp_path/corpus, a fresh copy of fixtures/valid, with helpers to edit it."""

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
        return load_corpus(self.root)

    def problems(self):
        """The problems load_corpus raises; fails the test if it raises nothing."""
        with pytest.raises(CorpusError) as raised:
            load_corpus(self.root)
        return raised.value.problems


@pytest.fixture
def corpus(tmp_path) -> MiniCorpus:
    return MiniCorpus(tmp_path / "corpus")
