"""builder/cache_file.py: a cache file is the old one or the new one, never half of either."""

from pathlib import Path

import pytest

from builder.cache_file import write_atomically


def test_the_new_text_replaces_the_old_and_nothing_else_is_left(tmp_path):
    target = tmp_path / "deep" / "ranks.json"
    write_atomically(target, '{"old": 1}')
    write_atomically(target, '{"new": 2}')
    assert target.read_text("utf-8") == '{"new": 2}'
    assert [p.name for p in target.parent.iterdir()] == ["ranks.json"]


def test_a_write_that_dies_halfway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "ranks.json"
    target.write_text('{"old": 1}', "utf-8")
    real_write = Path.write_text

    def dies_halfway(self, text, *args, **kwargs):
        real_write(self, text[:len(text) // 2], *args, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(Path, "write_text", dies_halfway)
    with pytest.raises(OSError):
        write_atomically(target, '{"new": 2, "more": 3}')
    monkeypatch.undo()
    assert target.read_text("utf-8") == '{"old": 1}'


def test_two_processes_write_through_temporary_files_of_their_own(tmp_path, monkeypatch):
    seen = []
    real_write = Path.write_text
    monkeypatch.setattr(Path, "write_text", lambda self, *a, **k: (seen.append(self.name), real_write(self, *a, **k))[1])
    for pid in (101, 202):
        monkeypatch.setattr("builder.cache_file.os.getpid", lambda pid=pid: pid)
        write_atomically(tmp_path / "ranks.json", "{}")
    assert seen == ["ranks.json.tmp-101", "ranks.json.tmp-202"]
