"""The build end to end, into temporary folders: what it writes, that the same input gives
the same bytes, that a rebuild with nothing new never loads the model, and that the data
holds what the page needs."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine.dense
from builder.core_data import SCHEMA
from builder.labs import LABS
from builder.pipeline import build_site
from support.caches import copy_warm_cache
from support.stand_in_model import stand_in_embed

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow  # several builds, each in a new process


def build(out: Path, cache: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out), "--cache", str(cache), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_site):
    """One build into a fresh folder, with a copy of the project's caches, which the session's
    build (built_site) left warm."""
    base = tmp_path_factory.mktemp("build")
    cache = base / "cache"
    copy_warm_cache(cache, leave_out=("samples",))
    result = build(base / "dist", cache)
    assert result.returncode == 0, result.stderr
    return base, cache, result


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_writes_the_site(built):
    base, _, result = built
    dist = base / "dist"
    for name in ("index.html", "corpus.html", "assets/app.js", "assets/site.css", "assets/data.js", "data/rag.json",
                 *(f"assets/labs/{lab.name}.js" for lab in LABS)):
        assert (dist / name).is_file(), name
    for stage in ("load corpus", "embed", "search", "rerank", "evaluate", "tokens", "labs", "render page", "write"):
        assert f"  {stage}" in result.stdout
    assert not list(base.glob(".dist.*")), "temporary build folders were left behind"


def test_data_is_schema_versioned_and_complete(built):
    data = json.loads((built[0] / "dist" / "data" / "rag.json").read_text())
    assert data["schema"] == SCHEMA
    assert len(data["passages"]) >= 35
    golden = [q for q in data["questions"] if q["set"] == "golden"]
    assert len(golden) == 40 and {q["group"] for q in golden} == {"words", "paraphrase", "typed"}
    for question in data["questions"]:
        run = data["runs"][question["id"]]
        assert len(run["dense"]) == len(data["passages"])  # dense scores every passage
        assert [s for _, s in run["dense"]] == sorted((s for _, s in run["dense"]), reverse=True)
    assert set(data["recall"]) == {"bm25", "dense", "hybrid"}
    assert {len(s["chunks"]) > 0 for s in data["labs"]["chunking"]["settings"]} == {True}
    assert len(data["labs"]["chunking"]["settings"]) == 6
    assert set(data["labs"]) == {lab.name for lab in LABS}
    assert data["tokens"]["help_center"]["o200k"] > 0


def test_a_rebuild_with_nothing_new_imports_no_model_and_writes_the_same_bytes(built, tmp_path):
    """The second build of the same input, with the first one's cache: it embeds nothing, imports
    neither sentence-transformers nor torch, and writes the first one's files byte for byte (two
    tests once, each with a build of its own)."""
    base, cache, _ = built
    probe = ("import sys, build; code = build.main(['--out', sys.argv[1], '--cache', sys.argv[2]]);"
             "print('IMPORTED' if 'sentence_transformers' in sys.modules or 'torch' in sys.modules else 'CLEAN');"
             "sys.exit(code)")
    result = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "dist"), str(cache)],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "0 newly embedded" in result.stdout
    assert result.stdout.strip().endswith("CLEAN")
    assert files_of(tmp_path / "dist") == files_of(base / "dist")


def test_an_edited_passage_is_the_only_text_embedded_again(built, tmp_path, monkeypatch):
    _, cache, _ = built
    corpus = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", corpus)
    doc = corpus / "help" / "sync.md"
    text = doc.read_text()
    marker = "## sync-offline"
    start = text.index(marker)
    body_start = text.index("\n\n", start) + 2
    doc.write_text(text[:body_start] + "Quite simply: " + text[body_start:])
    embedded = []
    monkeypatch.setattr(engine.dense, "embed", lambda texts, progress=None: embedded.extend(texts) or stand_in_embed(texts))
    # (The edit may move a number some sentence relies on: claims only warn here.)
    build_site(corpus, tmp_path / "dist", copy_warm_cache(tmp_path / "cache", source=cache), strict_claims=False,
               live="off")
    assert len(embedded) == 1 and embedded[0].startswith("Quite simply: "), embedded


def test_trace_prints_every_stage(built_site):  # the trace reads the project's caches, which the session's build left warm
    result = subprocess.run([sys.executable, str(ROOT / "build.py"), "trace", "Getting QB-4021 when uploading"],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    for heading in ("Dense (all-MiniLM-L6-v2, cosine), top 8:", "BM25 (k1=1.2, b=0.75), top 8",
                    "Hybrid (RRF, k=60", "Right passage (tracer upload-4021): err-4021"):
        assert heading in result.stdout
    assert "qb " in result.stdout and "4021 " in result.stdout  # per-term contributions
