"""How a test session gets its site (tests/support/session_site.py) and the order it runs its files
in (tests/support/run_order.py): the site is built once per run, by the background build or by
the first process that asks, and again for the next run; a failed build's message reaches every
process that asks, without a second build; only the first process of a run starts the
background build; the files that need no site come first, those loading a model first among
them, then the navigation readings, then the rest; and the browser is asked for only once make
has installed it."""

import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import chromium, run_order, session_site

# A stand-in for build.py: counts its runs beside the site, and writes index.html or fails with
# a build's kind of message when a file "fail" lies there.
STAND_IN_BUILD = r"""
import pathlib, sys
out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1])
runs = out.parent / "runs"
runs.write_text((runs.read_text() if runs.exists() else "") + "x")
if (out.parent / "fail").exists():
    sys.exit("build failed: corpus/help-center/x.md:3: a stand-in mistake")
out.mkdir(parents=True, exist_ok=True)
(out / "index.html").write_text("<p>site</p>")
"""


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "test-site"
    script = tmp_path / "stand_in_build.py"
    script.write_text(STAND_IN_BUILD)
    for name, value in {"TEST_SITE": folder, "OUT": folder / "dist", "LOCK": folder / "build.lock",
                        "STAMP": folder / "built-for-run", "FAILED": folder / "build-failed",
                        "BUILD": [sys.executable, str(script)]}.items():
        monkeypatch.setattr(session_site, name, value)
    return folder


def builds(folder: Path) -> int:
    return len((folder / "runs").read_text()) if (folder / "runs").exists() else 0


def test_the_site_is_built_once_per_run_and_again_for_the_next(site):
    assert session_site.ready("run-1") == site / "dist"
    assert session_site.ready("run-1") == site / "dist"
    assert builds(site) == 1
    assert session_site.main("run-1") == 0  # the background build of a run already built: nothing to do
    assert builds(site) == 1
    session_site.ready("run-2")
    assert builds(site) == 2


def test_a_failed_background_build_is_reported_to_whoever_asks_and_not_built_twice(site):
    site.mkdir()
    (site / "fail").touch()
    assert session_site.main("run-1") == 1
    for _ in range(2):
        with pytest.raises(session_site.BuildFailed, match="corpus/help-center/x.md:3: a stand-in mistake"):
            session_site.ready("run-1")
    assert builds(site) == 1
    (site / "fail").unlink()
    assert session_site.ready("run-2") == site / "dist"  # the next run builds again
    assert builds(site) == 2


def test_only_the_first_process_of_a_run_starts_the_background_build(site):
    site.mkdir()
    (site / "started-old-run").touch()
    (site / "started-run-1").touch()  # another worker of run-1 started it
    assert session_site.start_in_background("run-1") is None
    assert not (site / "started-old-run").exists()
    assert builds(site) == 0


@dataclass
class Marker:
    name: str


@dataclass
class Item:
    """What run_order reads of a pytest item."""
    path: Path
    fixturenames: list = field(default_factory=list)
    markers: tuple = ()

    def iter_markers(self):
        return [Marker(name) for name in self.markers]

    def get_closest_marker(self, name):
        return Marker(name) if name in self.markers else None


def test_files_needing_no_site_come_first_model_loaders_first_then_the_readings_apart_then_the_longest(tmp_path):
    def item(name, fixtures=(), markers=()):
        return Item(tmp_path / name, list(fixtures), tuple(markers))

    items = [
        item("lab.py", ["make_page"], ["browser"]), item("lab.py", ["data"]),
        item("quick.py"), item("quick.py"),
        item("reading.py", ["page"], ["browser", "timing"]), item("phone_reading.py", ["page"], ["browser", "timing"]),
        item("long_lab.py", ["browser"], ["browser"]),
        item("mixed.py"), item("mixed.py", ["built_site"]),
        item("embeds.py", ["tmp_path"], ["slow"]),
        item("loads_model.py", [], ["model"]),
    ]
    measured = {"lab.py": 20.0, "quick.py": 9.0, "reading.py": 15.0, "phone_reading.py": 10.0, "long_lab.py": 40.0,
                "mixed.py": 50.0, "embeds.py": 2.0, "loads_model.py": 0.1}
    run_order.order(items, measured, tmp_path)
    files = list(dict.fromkeys(i.path.name for i in items))
    # each one-test reading followed by one of the longest files, so that xdist gives each worker one
    assert files == ["embeds.py", "loads_model.py", "quick.py", "reading.py", "mixed.py", "phone_reading.py",
                     "long_lab.py", "lab.py"]
    assert [i.fixturenames for i in items if i.path.name == "lab.py"] == [["make_page"], ["data"]]  # kept in order


def test_a_timing_test_waits_while_another_worker_of_its_run_runs_a_heavy_test(tmp_path):
    mine = run_order.Neighbours(tmp_path, "run-1", "gw0")
    other = run_order.Neighbours(tmp_path, "run-1", "gw1")
    earlier_run = run_order.Neighbours(tmp_path, "run-0", "gw1")
    mine.running(True)
    earlier_run.running(True)
    assert mine.wait_for_quiet(timeout_s=5) < 0.1  # its own heavy test and another run's do not count
    other.running(True)
    threading.Timer(0.5, other.running, [False]).start()
    waited = mine.wait_for_quiet(timeout_s=5, poll_s=0.05)
    assert 0.4 < waited < 2, waited
    other.running(True)
    assert mine.wait_for_quiet(timeout_s=0.3, poll_s=0.05) >= 0.3  # gives up at its limit


def test_under_make_test_the_browser_is_asked_for_once_make_has_installed_it(tmp_path, monkeypatch):
    stamp = tmp_path / ".system-deps"
    monkeypatch.setenv(chromium.INSTALLED_STAMP, str(stamp))
    threading.Timer(0.5, stamp.touch).start()
    began = time.monotonic()
    chromium.chromium_path()
    assert 0.4 < time.monotonic() - began < 3
    stamp.unlink()
    threading.Timer(0.3, (tmp_path / ".system-deps.failed").touch).start()  # or once it failed
    began = time.monotonic()
    chromium.chromium_path()
    assert 0.2 < time.monotonic() - began < 3
