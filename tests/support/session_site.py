"""The site the tests read: built once per test session from the current sources into
.cache/test-site/dist, with the project's caches (.cache/), which it leaves warm for the tests that
copy them (support/caches.py).

The build starts in the background as soon as a session has collected a test that needs the
site (start_in_background, from conftest.py), so the tests that need no site run meanwhile:
on a fresh clone the cold build takes about 50 s, most of it importing torch and then embedding,
and for the 20 s of the import it uses one core of two. The built_site fixture waits for it
(ready). One lock (build.lock) orders all of it: the background build holds it while it builds,
and a process that finds the site built for its own run reads it; otherwise it builds it itself.

    python -m support.session_site RUN   the background build (run from tests/), for test run RUN

Example: ready("pid-42") -> Path(".cache/test-site/dist"), built for run pid-42
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

from filelock import FileLock

from support.paths import ROOT, TEST_SITE

OUT = TEST_SITE / "dist"
LOCK = TEST_SITE / "build.lock"
STAMP = TEST_SITE / "built-for-run"     # the run the site in OUT was built for
FAILED = TEST_SITE / "build-failed"     # "<run>\n<the build's stderr>" when the background build failed
BUILD_TIMEOUT_S = 900
LOCKED = "locked"                       # the background build's first line: it holds LOCK
BUILD = [sys.executable, str(ROOT / "build.py")]  # then --out OUT


class BuildFailed(Exception):
    """The site does not build; the message is the build's own."""


def run_id() -> str:
    """This test run's id, the same in every xdist worker of one session."""
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"


def _build_under_lock(run: str) -> None:
    """Build unless the site is already built for `run`. Call with LOCK held."""
    if STAMP.is_file() and STAMP.read_text() == run and (OUT / "index.html").is_file():
        return
    STAMP.unlink(missing_ok=True)
    result = subprocess.run([*BUILD, "--out", str(OUT)], capture_output=True, text=True, cwd=ROOT,
                            timeout=BUILD_TIMEOUT_S)
    if result.returncode != 0:
        raise BuildFailed(result.stderr[-4000:])
    STAMP.write_text(run)


def ready(run: str) -> Path:
    """The site built for `run`: waits for a build in progress, builds it if nobody has.
    Raises BuildFailed with the build's message when it does not build (a failure of the
    background build is reported as it is, not built a second time)."""
    TEST_SITE.mkdir(parents=True, exist_ok=True)
    with FileLock(LOCK):
        if FAILED.is_file():
            failed_run, _, message = FAILED.read_text("utf-8").partition("\n")
            if failed_run == run:
                raise BuildFailed(message)
        _build_under_lock(run)
    return OUT


def start_in_background(run: str) -> subprocess.Popen | None:
    """Start this run's build in a process of its own, unless another process of the run did
    (the first to ask starts it). Returns once the build holds the lock, so that nobody who asks
    for the site afterwards can build it a second time; None when it was started elsewhere."""
    TEST_SITE.mkdir(parents=True, exist_ok=True)
    for old in TEST_SITE.glob("started-*"):
        if old.name != f"started-{run}":
            old.unlink(missing_ok=True)
    try:
        os.close(os.open(TEST_SITE / f"started-{run}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return None
    process = subprocess.Popen([sys.executable, "-m", "support.session_site", run], cwd=Path(__file__).parents[1],
                               stdout=subprocess.PIPE, text=True, start_new_session=True)  # stop(): it and its build
    process.stdout.readline()  # LOCKED (or nothing, if it died: ready() then builds in the foreground)
    return process


def stop(process: subprocess.Popen) -> None:
    """Wait for a background build that is over; stop one still running (no test needed it after
    all, or the session was interrupted), build.py with it: a build stopped midway leaves the old
    site or none."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=60)
    process.stdout.close()


def main(run: str) -> int:
    TEST_SITE.mkdir(parents=True, exist_ok=True)
    with FileLock(LOCK):
        print(LOCKED, flush=True)
        FAILED.unlink(missing_ok=True)
        try:
            _build_under_lock(run)
        except (BuildFailed, subprocess.TimeoutExpired) as failure:
            FAILED.write_text(f"{run}\n{failure}", "utf-8")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
