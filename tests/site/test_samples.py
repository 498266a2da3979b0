"""Every code sample's JavaScript twin prints exactly what its Python program prints, and
the build's sample runner caches outputs by the program's content."""

import shutil
import subprocess
import sys

import pytest

from builder.page.errors import SampleError
from builder.page.samples import SAMPLES, render_sample, run_python

NAMES = sorted(p.stem for p in SAMPLES.glob("*.py"))


def test_there_are_samples():
    assert "sentence_chunker" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_javascript_twin_prints_the_same_bytes(name):
    js = SAMPLES / f"{name}.js"
    assert js.is_file(), f"{name}.py has no JavaScript twin"
    py_out = subprocess.run([sys.executable, "-I", f"{name}.py"], cwd=SAMPLES, capture_output=True,
                            check=True).stdout
    node = shutil.which("node")
    assert node, "node is needed to run the JavaScript twins (make test installs it)"
    js_out = subprocess.run([node, f"{name}.js"], cwd=SAMPLES, capture_output=True, check=True).stdout
    assert py_out, f"{name}.py printed nothing"
    assert js_out == py_out


def test_runner_caches_by_content_and_reruns_on_change(tmp_path):
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "hello.py").write_text('print("one")\n')
    cache = tmp_path / "cache"
    first = run_python("hello", cache, samples)
    assert (first.output, first.cached) == ("one\n", False)
    again = run_python("hello", cache, samples)
    assert (again.output, again.cached) == ("one\n", True)
    (samples / "hello.py").write_text('print("two")\n')
    changed = run_python("hello", cache, samples)
    assert (changed.output, changed.cached) == ("two\n", False)


def test_a_failing_sample_stops_the_build_with_its_error(tmp_path):
    (tmp_path / "broken.py").write_text("raise SystemExit('no luck')\n")
    with pytest.raises(SampleError, match="no luck"):
        run_python("broken", tmp_path / "cache", tmp_path)


def test_rendered_sample_has_tabs_copy_and_real_output(tmp_path):
    run = run_python("sentence_chunker", tmp_path)
    html = str(render_sample("sentence_chunker", run))
    assert html.count('role="tab"') == 2 and 'class="copy"' in html
    assert "Real output" in html
    assert "only the repeated sentence" in html  # the printed output, escaped into the page
    assert "&lt;- only the repeated sentence" in html


def test_a_samples_copy_of_a_setting_must_equal_the_engines(monkeypatch):
    from builder.page import sample_checks
    from engine import settings

    sample_checks.check_setting_copies()  # as the samples are now
    monkeypatch.setattr(settings, "RRF_K", 61)
    with pytest.raises(SampleError, match=r"site_src/samples/rrf_fuse\.py: K = 60, but engine/settings\.py has RRF_K = 61"):
        sample_checks.check_setting_copies()

