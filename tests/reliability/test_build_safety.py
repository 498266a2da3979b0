"""Builds that lose nothing: a killed build leaves the whole old site or the whole new one,
never a mix; a corrupted embedding cache is noticed, discarded and recomputed to the same
output; a cold build and a warm build write the same bytes."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.caches import copy_warm_cache

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # builds in new processes, some killed on purpose


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
def workspace(tmp_path_factory, built_site):
    """An old and a new corpus, and a warm cache for each (copies of the project's, which the
    session's build, built_site, left warm). The new corpus moves one document's
    date: every file of the site that shows passages changes, and no text needs embedding, so no
    build here loads the model (killing a build that is loading a model proves nothing more)."""
    base = tmp_path_factory.mktemp("safety")
    cache = base / "cache"
    copy_warm_cache(cache)
    copy_warm_cache(base / "new-cache")
    old_corpus, new_corpus = base / "old-corpus", base / "new-corpus"
    shutil.copytree(ROOT / "corpus", old_corpus)
    shutil.copytree(ROOT / "corpus", new_corpus)
    doc = new_corpus / "help" / "mobile.md"
    text = doc.read_text("utf-8")
    assert "updated: 2026-02-11" in text, "the test moves this date: pick another document's if it changed"
    doc.write_text(text.replace("updated: 2026-02-11", "updated: 2026-02-12", 1), "utf-8")
    return base, cache, old_corpus, new_corpus


def restore(saved: Path, dist: Path) -> None:
    shutil.rmtree(dist, ignore_errors=True)
    shutil.copytree(saved, dist)


@pytest.fixture(scope="module")
def two_sites(workspace):
    """The new corpus's site and the old one's, built once for the module (the old one after the new
    one, into the same folder, timed): (new snapshot, old snapshot, a copy of the old site, seconds)."""
    base, cache, old_corpus, new_corpus = workspace
    dist = base / "dist"
    build(new_corpus, dist, base / "new-cache")
    new = snapshot(dist)
    started = time.perf_counter()
    build(old_corpus, dist, cache)
    whole = time.perf_counter() - started  # how long one build takes here
    old = snapshot(dist)
    assert old != new
    saved_old = base / "saved-old"
    shutil.copytree(dist, saved_old)
    return new, old, saved_old, whole


def test_a_killed_build_leaves_the_old_site_or_the_new_one(workspace, two_sites):
    base, cache, old_corpus, new_corpus = workspace
    new, old, saved_old, whole = two_sites
    new_cache = base / "new-cache"
    dist = base / "dist"
    outcomes = []
    # Kills spread over the whole build, from the imports to the swap and past it.
    for fraction in (0.05, 0.3, 0.55, 0.8, 0.95, 1.3):
        restore(saved_old, dist)
        process = subprocess.Popen(build_cmd(new_corpus, dist, new_cache), cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(whole * fraction)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = snapshot(dist)
        assert now in (old, new), (f"killed at {fraction:.0%} of a build: the site is a mix of two builds; differs "
                                   f"from the old in {sorted(k for k in now if now[k] != old.get(k))}, from the new in "
                                   f"{sorted(k for k in now if now[k] != new.get(k))}")
        outcomes.append("new" if now == new else "old")
    assert "old" in outcomes, "no kill landed before the build finished: the test proves nothing"
    build(old_corpus, dist, cache)
    leftovers = [p.name for p in base.iterdir() if p.name.startswith(".dist.")]
    assert leftovers == [], f"a later build should remove what killed builds left: {leftovers}"


def test_an_interrupted_build_cleans_up_and_leaves_the_old_site(workspace, two_sites):
    """Ctrl-C once the build has begun (its first line printed: build.py's handler is in place by
    then, whatever the machine's load; a fixed 0.4 s once landed in its first import), over a
    copy of the old corpus's site (two_sites built it)."""
    base, cache, old_corpus, new_corpus = workspace
    _, old, saved_old, _ = two_sites
    dist = base / "dist-int"
    restore(saved_old, dist)
    assert snapshot(dist) == old
    process = subprocess.Popen(build_cmd(new_corpus, dist, base / "new-cache"), cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout.readline().startswith("Building ")
    process.send_signal(signal.SIGINT)
    out, stderr = process.communicate(timeout=60)
    if process.returncode != 0:
        assert process.returncode == 130 and "build interrupted" in stderr, stderr
        assert "Traceback" not in stderr
        assert snapshot(dist) == old
    else:
        assert snapshot(dist) != old, "the build ended before the interrupt reached it, and wrote the new site"


def test_a_corrupted_cache_is_discarded_and_recomputed_to_the_same_output(workspace, tmp_path, monkeypatch, capsys):
    """In this process, with the model's vectors replayed from the project's warm cache instead of
    the model itself: what is tested is the cache (a truncated file is noticed, discarded and every
    text computed again, and the site comes out byte for byte as from a whole cache), not the
    model, which tests/engine/test_dense.py checks; a cold re-embedding with the real model costs
    minutes here (every chunk the chunking lab's sliders can make)."""
    import base64

    import numpy as np

    import engine.dense
    from builder.embed_cache import EmbeddingCache, text_key
    from builder.pipeline import build_site

    _, warm, old_corpus, _ = workspace
    recorded = EmbeddingCache(warm, engine.dense.model_fingerprint()).entries
    assert recorded, "the warm cache holds the model's vectors"
    asked = []

    def replayed(texts, progress=None):
        asked.extend(texts)
        return np.asarray([np.frombuffer(base64.b64decode(recorded[text_key(t)]), dtype="<f4") for t in texts])

    monkeypatch.setattr(engine.dense, "embed", replayed)
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    # The build's own texts, as it asks the cache for them (the cache may keep other builds' too:
    # builder/embed_cache.py keeps a bound of the most recently used).
    wanted: set[str] = set()
    original = EmbeddingCache.embed

    def recording(self, texts, progress=None):
        wanted.update(texts)
        return original(self, texts, progress)

    monkeypatch.setattr(EmbeddingCache, "embed", recording)
    build_site(old_corpus, tmp_path / "reference", cache, strict_claims=False, live="off")
    assert asked == [], "the reference build reads every vector from the cache"
    needed = len(wanted)
    for path in cache.glob("embeddings-*.json"):
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    capsys.readouterr()
    build_site(old_corpus, tmp_path / "dist", cache, strict_claims=False, live="off")
    out = capsys.readouterr()
    assert len([line for line in out.err.splitlines() if "discarding embedding cache" in line]) == 1, out.err
    assert len(asked) == len(set(asked)) == needed, "after the discard every text is embedded again, once"
    assert {text_key(t) for t in asked} <= set(recorded)
    # Cold (after the discard) and warm builds agree to the byte.
    assert snapshot(tmp_path / "dist") == snapshot(tmp_path / "reference")
