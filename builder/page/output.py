"""Write the build's files so that a failed or killed build never leaves a half-written site.

Files go to a fresh folder beside the target; only when everything is written is it swapped
in for the old one, in one atomic step where the system allows it (Linux renameat2 with
RENAME_EXCHANGE), so at every instant the target is either the whole old site or the whole
new one. Folders left behind by a killed build are removed by the next one. JSON is written
with sorted keys and fixed separators, so the same data gives the same bytes.
"""

import ctypes
import ctypes.util
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def to_json(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False where the system cannot."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale(target: Path) -> None:
    """Delete temporary folders of earlier builds of `target` whose process is gone."""
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.(?:building|old)-(\d+)-")
    for sibling in target.parent.iterdir():
        match = pattern.match(sibling.name)
        if match and sibling.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(sibling, ignore_errors=True)


class StagedOutput:
    """A temporary folder beside `target`; commit() swaps it in, discard() removes it."""

    def __init__(self, target: Path):
        self.target = target.resolve()
        self.target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(self.target)
        self.folder = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.building-{os.getpid()}-",
                                            dir=self.target.parent))

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, "utf-8", newline="\n")
        else:
            path.write_bytes(content)
        return path

    def link(self, source: Path, relative: str) -> None:
        """A large file the build keeps in its cache: hard-linked where the system allows it
        (no copy of tens of megabytes on every build), copied otherwise."""
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, path)
        except OSError:
            shutil.copyfile(source, path)

    def copy(self, source: Path, relative: str) -> None:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, path)

    def commit(self) -> None:
        os.chmod(self.folder, 0o755)
        if not self.target.exists():
            os.replace(self.folder, self.target)
            return
        if _exchange(self.folder, self.target):
            shutil.rmtree(self.folder, ignore_errors=True)  # now holds the old site
            return
        # No atomic exchange here: two renames, with a moment in between without a target.
        old = self.target.with_name(f".{self.target.name}.old-{os.getpid()}-{self.folder.name[-8:]}")
        os.replace(self.target, old)
        os.replace(self.folder, self.target)
        shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
