"""Run the build as named stages, each printing one line: what, how many, how long."""

import sys
import time
from contextlib import contextmanager


class StageLog:
    def __init__(self, stream=sys.stdout):
        self.stream = stream
        self.timings: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str):
        """Time a stage; the body sets `.summary` on the yielded object to say what it did."""
        record = type("StageRecord", (), {"summary": ""})()
        started = time.perf_counter()
        yield record
        elapsed = time.perf_counter() - started
        self.timings[name] = elapsed
        print(f"  {name:<18} {record.summary:<58} {elapsed:6.2f} s", file=self.stream, flush=True)

    def progress(self, label: str):
        """A progress bar on stderr for slow loops: call it with (done, total)."""
        started = time.perf_counter()
        redrawn = sys.stderr.isatty()
        quarters_shown = [0]

        def show(done: int, total: int) -> None:
            if time.perf_counter() - started < 1 and done < total:
                return
            filled = int(24 * done / max(total, 1))
            if not redrawn:
                # A log file (CI, `make test > log`) gets a line a quarter, not one per redraw.
                quarter = 4 * done // max(total, 1)
                if quarter <= quarters_shown[0]:
                    return
                quarters_shown[0] = quarter
            end = "\n" if done >= total or not redrawn else ""
            print(f"{chr(13) if redrawn else ''}    {label} [{'#' * filled}{'.' * (24 - filled)}] {done}/{total}",
                  end=end, file=sys.stderr, flush=True)

        return show
