"""Builds that lose nothing: a killed build leaves the whole old site or the whole new one,
never a mix; a corrupted embedding cache is noticed, discarded and recomputed to the same
numbers; a cold build and a warm build write the same bytes."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def build_cmd(corpus: Path, out: Path, cache: Path) -> list[str]:
    return [sys.executable, str(ROOT / "build.py"), "--corpus", str(corpus), "--out", str(out),
            "--cache", str(cache), "--claims", "warn"]


def build(corpus, out, cache) -> subprocess.CompletedProcess:
    result = subprocess.run(build_cmd(corpus, out, cache), capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert result.returncode == 0, result.stderr
    return result


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    base = tmp_path_factory.mktemp("safety")
    cache = base / "cache"
    if (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", cache)
    old_corpus, new_corpus = base / "old-corpus", base / "new-corpus"
    shutil.copytree(ROOT / "corpus", old_corpus)
    shutil.copytree(ROOT / "corpus", new_corpus)
    doc = new_corpus / "help" / "mobile.md"
    text = doc.read_text("utf-8")
    body = text.index("\n\n", text.index("\n## ")) + 2  # the first passage's text
    doc.write_text(text[:body] + "As of this release: " + text[body:], "utf-8")
    return base, cache, old_corpus, new_corpus


def test_a_killed_build_leaves_the_old_site_or_the_new_one(workspace):
    base, cache, old_corpus, new_corpus = workspace
    dist = base / "dist"
    outcomes = []
    for delay in (0.05, 0.5, 0.7, 0.9, 1.2):
        build(new_corpus, dist, cache)  # (the first one also puts the new text in the cache)
        new = snapshot(dist)
        build(old_corpus, dist, cache)
        old = snapshot(dist)
        assert old != new
        process = subprocess.Popen(build_cmd(new_corpus, dist, cache), cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = snapshot(dist)
        assert now in (old, new), (f"killed after {delay} s: the site is a mix of two builds; differs from the old "
                                   f"in {sorted(k for k in now if now[k] != old.get(k))}, from the new in "
                                   f"{sorted(k for k in now if now[k] != new.get(k))}")
        outcomes.append("new" if now == new else "old")
    assert "old" in outcomes, "no kill landed before the build finished: the test proves nothing"
    build(old_corpus, dist, cache)
    leftovers = [p.name for p in base.iterdir() if p.name.startswith(".dist.")]
    assert leftovers == [], f"a later build should remove what killed builds left: {leftovers}"


def test_an_interrupted_build_cleans_up_and_leaves_the_old_site(workspace):
    base, cache, old_corpus, new_corpus = workspace
    dist = base / "dist-int"
    build(old_corpus, dist, cache)
    old = snapshot(dist)
    process = subprocess.Popen(build_cmd(new_corpus, dist, cache), cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    if process.returncode != 0:
        assert "Traceback" not in stderr
        assert snapshot(dist) == old


def test_a_corrupted_cache_is_discarded_and_recomputed_to_the_same_output(workspace, tmp_path):
    base, cache, old_corpus, _ = workspace
    reference = tmp_path / "reference"
    build(old_corpus, reference, cache)
    broken = tmp_path / "cache"
    shutil.copytree(cache, broken)
    for path in broken.glob("embeddings-*.json"):
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    result = build(old_corpus, tmp_path / "dist", broken)
    warnings = [line for line in result.stderr.splitlines() if "discarding embedding cache" in line]
    assert len(warnings) == 1, result.stderr
    assert "newly embedded" in result.stdout and " 0 newly embedded" not in result.stdout
    # Cold (after the discard) and warm builds agree to the byte.
    assert snapshot(tmp_path / "dist") == snapshot(reference)


def test_a_cache_with_a_wrong_number_is_not_trusted(workspace, tmp_path):
    base, cache, old_corpus, _ = workspace
    broken = tmp_path / "cache"
    shutil.copytree(cache, broken)
    path = next(broken.glob("embeddings-*.json"))
    cache_file = json.loads(path.read_text())
    key = sorted(cache_file["entries"])[0]
    vector = cache_file["entries"][key]
    cache_file["entries"][key] = ("B" if vector[0] != "B" else "C") + vector[1:]  # the checksum is not updated
    path.write_text(json.dumps(cache_file))
    result = build(old_corpus, tmp_path / "dist", broken)
    assert "checksum does not match" in result.stderr
