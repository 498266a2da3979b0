"""builder/stages.py: a stage's one line, and a progress bar that a log file can read."""

import io

from builder.stages import StageLog


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def drawn(monkeypatch, stream, steps: int = 3244) -> str:
    monkeypatch.setattr("sys.stderr", stream)
    ticks = iter(range(0, 10_000_000, 2))  # every call to the clock is 2 s later: no redraw is skipped
    monkeypatch.setattr("builder.stages.time.perf_counter", lambda: next(ticks))
    show = StageLog(io.StringIO()).progress("embedding")
    for done in range(16, steps + 1, 16):
        show(done, steps)
    show(steps, steps)
    return stream.getvalue()


def test_in_a_log_file_the_bar_is_a_line_a_quarter(monkeypatch):
    lines = drawn(monkeypatch, io.StringIO()).splitlines()
    assert lines == ["    embedding [######..................] 816/3244",
                     "    embedding [############............] 1632/3244",
                     "    embedding [##################......] 2448/3244",
                     "    embedding [########################] 3244/3244"]


def test_on_a_terminal_the_bar_is_redrawn_in_place_and_ends_its_line(monkeypatch):
    text = drawn(monkeypatch, Terminal())
    assert text.count("\n") == 1 and text.endswith("3244/3244\n")
    assert text.count("\r") == len(range(16, 3244 + 1, 16)) + 1


def test_a_stage_prints_one_line_with_what_it_did():
    out = io.StringIO()
    log = StageLog(out)
    with log.stage("embed") as stage:
        stage.summary = "3 texts, 1 newly embedded"
    assert out.getvalue().split()[:4] == ["embed", "3", "texts,", "1"]
    assert "embed" in log.timings
