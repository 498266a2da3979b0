"""The order a test session runs its files in (conftest.py's pytest_collection_modifyitems):
`make test` hands whole files to two workers in this order.

Files in three groups, each longest first, so the long ones start early and no worker is left
alone with one at the end (a one-test file that takes a minute, ordered by a guess, once ran last
for 100 s). A file's seconds are those measured in tests/durations.json, or a guess from its
markers. The sort is stable: each file's tests keep their order and stay together.

1. The files none of whose tests needs the site: they run while it builds
   (tests/support/session_site.py), filling the core the build's import leaves idle. Those that
   load the model or build in new processes (marked `model` or `slow`) first, whatever their
   seconds: on a fresh clone they also fill the caches they keep (a file that takes 0.1 s warm
   took 6 s cold), and run last they would still be loading a model beside the navigation
   readings that follow (one such reading failed all its three runs so).
2. The files marked `timing` (the two navigation readings), the first to need the site, each
   followed by one of the longest files, so that each worker takes one (xdist hands a worker
   files until it holds more than two tests: the two one-test readings, one after the other,
   both went to the first worker that asked): on a slowed CPU their cost grows with the time
   they wait, and a late first frame reads the whole page again. Beside a model loading in the
   other worker (a fresh clone's first run) the phone's reading ran twice, 34 CPU-seconds
   instead of 16; side by side, each has a core.
3. The rest.

Example: order(items, {"tests/page/test_a.py": 30.0}, ROOT) sorts items in place
"""

import math
import time
from pathlib import Path

# The fixtures that need the built site (built_site, or one built on it).
SITE_FIXTURES = {"built_site", "dist_dir", "data", "views", "site_url", "browser", "make_page", "make_page_module", "page"}

# Rough seconds per test, by kind, for a file tests/durations.json does not know yet: a browser
# test opens pages, a slow one builds in new processes.
COST = {"slow": 15.0, "browser": 2.0}


def needs_site(item) -> bool:
    return not SITE_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))


def order(items: list, measured: dict[str, float], root: Path) -> None:
    """Sort pytest's items in place; `measured`: seconds by file path relative to `root`."""
    guess: dict = {}
    for item in items:
        each = max((COST[m.name] for m in item.iter_markers() if m.name in COST), default=0.1)
        guess[item.path] = guess.get(item.path, 0.0) + each

    def seconds(item) -> float:
        return measured.get(item.path.relative_to(root).as_posix(), guess[item.path])

    site_files = {item.path for item in items if needs_site(item)}
    heavy_files = {item.path for item in items if is_heavy(item)}
    timing_files = {item.path for item in items if item.get_closest_marker("timing")}
    file_seconds = {item.path: seconds(item) for item in items}
    longest = sorted(site_files - timing_files, key=lambda path: -file_seconds[path])
    # Each timing file, then the longest file left: xdist gives a worker files until it holds more
    # than two tests, so a one-test file alone would leave a worker room for the next one-test file.
    places = {path: 2 * i + 1 for i, path in enumerate(sorted(timing_files, key=lambda path: -file_seconds[path]))}
    places.update({path: 2 * i + 2 for i, path in enumerate(longest[:len(places)])})

    def group(item) -> tuple[int, int]:
        if item.path not in site_files:
            return 0, item.path not in heavy_files
        return 1, places.get(item.path, math.inf)

    items.sort(key=lambda item: (group(item), -seconds(item)))


def is_heavy(item) -> bool:
    """Loads the model or builds in new processes."""
    return bool(item.get_closest_marker("slow") or item.get_closest_marker("model"))


class Neighbours:
    """What the session's other workers are running, as far as a timing test cares: a file
    heavy-<run>-<worker> in `folder` while a worker runs a heavy test (is_heavy). The order above
    runs the heavy files that need no site first, so that none is left beside the navigation
    readings; a worker that gets there first still waits for them (wait_for_quiet), since the
    other worker's share of the files is never known in advance.

    Example: mine = Neighbours(folder, "run-1", "gw0"); mine.running(True)  # ... then mine.running(False)"""

    def __init__(self, folder: Path, run: str, worker: str):
        self.folder, self.run, self.worker = folder, run, worker

    def running(self, heavy: bool) -> None:
        mine = self.folder / f"heavy-{self.run}-{self.worker}"
        if heavy:
            self.folder.mkdir(parents=True, exist_ok=True)
            for old in self.folder.glob("heavy-*"):  # an interrupted earlier run's
                if not old.name.startswith(f"heavy-{self.run}-"):
                    old.unlink(missing_ok=True)
            mine.touch()
        else:
            mine.unlink(missing_ok=True)

    def heavy_elsewhere(self) -> list[str]:
        return sorted(p.name for p in self.folder.glob(f"heavy-{self.run}-*") if p.name != f"heavy-{self.run}-{self.worker}")

    def wait_for_quiet(self, timeout_s: float = 180, poll_s: float = 0.25) -> float:
        """Seconds waited until no other worker runs a heavy test (at most timeout_s)."""
        began = time.monotonic()
        while self.heavy_elsewhere() and time.monotonic() - began < timeout_s:
            time.sleep(poll_s)
        return time.monotonic() - began
