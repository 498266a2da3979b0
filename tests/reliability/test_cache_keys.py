"""Every cache the build keeps is keyed by the code that fills it, not only by its inputs: an
edit of that code is a miss, and the cache's content is computed again. Without that, a change
to builder/fts5.py left the page showing the old FTS5 results until someone cleared .cache/ by
hand. Each test points the cache's list of code files at copies, fills the cache, checks that
the same code is a hit, then edits a copy (one comment line) and checks that it is a miss."""

import shutil
from pathlib import Path

import jinja2
import numpy as np
import pytest

import engine.dense
from builder import embed_cache, fts5, live_model, tokens
from builder.code_key import code_key
from builder.page import samples, template_cache
from engine import settings


def copies(tmp_path: Path, files) -> tuple[Path, ...]:
    """The files copied into tmp_path/code/, in order."""
    folder = tmp_path / "code"
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for number, path in enumerate(files):
        target = folder / f"{number}-{Path(path).name}"
        shutil.copy(path, target)
        out.append(target)
    return tuple(out)


def edit(path: Path) -> None:
    path.write_text(path.read_text("utf-8") + "\n# edited\n", "utf-8")


def test_the_code_key_follows_the_bytes_and_the_order_of_the_files(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    first = code_key([a, b])
    assert len(first) == 16 and code_key([a, b]) == first
    assert code_key([b, a]) != first
    a.write_text("x = 2\n")
    assert code_key([a, b]) != first


# ------------------------------------------------------------------ SQLite FTS5 (.cache/fts5)

PASSAGES = [("a", "upload limit QB-4021 file"), ("b", "refund within 14 days"), ("c", "sign in with a password")]
QUESTIONS = [("q1", "file upload limit"), ("q2", "refund")]


def test_fts5_results_are_run_again_when_the_code_that_queries_changes(tmp_path, monkeypatch):
    code = copies(tmp_path, fts5.CODE)
    monkeypatch.setattr(fts5, "CODE", code)
    runs = []
    real = fts5.run_fts5
    monkeypatch.setattr(fts5, "run_fts5", lambda *args: runs.append(1) or real(*args))
    fts5.cached_run(tmp_path / "cache", PASSAGES, QUESTIONS)
    fts5.cached_run(tmp_path / "cache", PASSAGES, QUESTIONS)
    assert len(runs) == 1, "same inputs, same code: read from the cache"
    for path in code:  # builder/fts5.py, then each engine module it calls
        edit(path)
        fts5.cached_run(tmp_path / "cache", PASSAGES, QUESTIONS)
    assert len(runs) == 1 + len(code)


def test_fts5_is_keyed_by_its_own_module_and_the_engines_query_terms():
    assert [p.relative_to(fts5.CODE[0].parents[1]).as_posix() for p in fts5.CODE] == [
        "builder/fts5.py", "engine/bm25.py", "engine/tokenize.py"]


# ------------------------------------------------------------------ embeddings (.cache/embeddings-*.json)

@pytest.fixture
def stand_in_model(monkeypatch):
    calls = []

    def embed(texts, progress=None):
        calls.append(list(texts))
        return np.asarray([np.full(384, len(text) / 100, dtype=np.float32) for text in texts])

    monkeypatch.setattr(engine.dense, "embed", embed)
    return calls


def test_embeddings_are_computed_again_when_the_embedding_code_changes(tmp_path, monkeypatch, stand_in_model, capsys):
    code = copies(tmp_path, embed_cache.CODE)
    monkeypatch.setattr(embed_cache, "CODE", code)
    texts = ["refund after three weeks", "QB-4021 upload"]
    first = embed_cache.EmbeddingCache(tmp_path, "model-a")
    first.embed(texts)
    first.save()
    again = embed_cache.EmbeddingCache(tmp_path, "model-a")
    again.embed(texts)
    assert again.stats.computed == 0
    edit(code[0])  # engine/dense.py
    edited = embed_cache.EmbeddingCache(tmp_path, "model-a")
    edited.embed(texts)
    assert edited.stats.computed == 2 and len(stand_in_model) == 2
    assert "written by other embedding code" in capsys.readouterr().err


@pytest.mark.parametrize("setting, other", [("MAX_WORDPIECES", 512), ("DIMENSIONS", 256)])
def test_embeddings_are_computed_again_when_a_setting_the_embedding_code_reads_changes(
        tmp_path, monkeypatch, stand_in_model, capsys, setting, other):
    """A cache written at the model's 256 wordpieces and 384 dimensions is not read once either
    setting (engine/settings.py) is another: it is discarded with one warning, and every text is
    embedded again."""
    assert (settings.MAX_WORDPIECES, settings.DIMENSIONS) == (256, 384)
    texts = ["refund after three weeks", "QB-4021 upload"]
    first = embed_cache.EmbeddingCache(tmp_path, "model-a")
    first.embed(texts)
    first.save()
    written_at = getattr(settings, setting)
    monkeypatch.setattr(settings, setting, other)
    if hasattr(embed_cache, setting):  # the cache's own binding of the setting, when it imports the name
        monkeypatch.setattr(embed_cache, setting, other)
    changed = embed_cache.EmbeddingCache(tmp_path, "model-a")
    assert changed.entries == {}, (f"a cache written at {setting} = {written_at} was read as valid at {other}: "
                                   f"{len(changed.entries)} vectors")
    warnings = [line for line in capsys.readouterr().err.splitlines() if "discarding embedding cache" in line]
    assert len(warnings) == 1 and "written by other embedding code" in warnings[0] and warnings[0].endswith("recomputing")
    changed.embed(texts)
    assert changed.stats.computed == 2 and len(stand_in_model) == 2


def test_embeddings_are_keyed_by_the_embedding_call_and_the_model_loader():
    assert [p.name for p in embed_cache.CODE] == ["dense.py", "models.py"]


# ------------------------------------------------------------------ token counts (.cache/tokens-o200k_base.json)

def test_token_counts_are_counted_again_when_the_counting_code_changes(tmp_path, monkeypatch, capsys):
    code = copies(tmp_path, tokens.CODE)
    monkeypatch.setattr(tokens, "CODE", code)
    cache = tokens.TokenCountCache(tmp_path)
    cache["Hello QB-4021 world"] = 6
    cache.save()
    assert "Hello QB-4021 world" in tokens.TokenCountCache(tmp_path)
    edit(code[0])  # engine/tokens.py
    assert "Hello QB-4021 world" not in tokens.TokenCountCache(tmp_path)
    assert "another schema or encoder" in capsys.readouterr().err


# ------------------------------------------------------------------ code samples' outputs (.cache/samples)

def test_a_samples_output_is_run_again_when_the_runner_changes(tmp_path, monkeypatch):
    (tmp_path / "hello.py").write_text('print("one")\n')
    assert samples.run_python("hello", tmp_path / "cache", tmp_path).cached is False
    monkeypatch.setattr(samples, "RUNNER", copies(tmp_path, [samples.RUNNER])[0])
    first = samples.run_python("hello", tmp_path / "cache", tmp_path)
    assert samples.run_python("hello", tmp_path / "cache", tmp_path).cached is True
    edit(samples.RUNNER)
    assert samples.run_python("hello", tmp_path / "cache", tmp_path).cached is False
    assert first.output == "one\n"


# ------------------------------------------------------------------ compiled templates (.cache/jinja)

def test_compiled_templates_are_keyed_by_the_extensions_source_and_jinjas_version(tmp_path, monkeypatch):
    module = tmp_path / "demo_extension.py"
    module.write_text("from jinja2.ext import Extension\n\nclass Demo(Extension):\n    tags = set()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import demo_extension

    env = jinja2.Environment(extensions=[demo_extension.Demo])
    first = template_cache.environment_fingerprint(env)
    assert template_cache.environment_fingerprint(env) == first
    edit(module)
    assert template_cache.environment_fingerprint(env) != first
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert template_cache.environment_fingerprint(env) != first


# ------------------------------------------------------------------ the live model (.cache/live-model)

class StandInExports:
    def __init__(self, build):
        self.build, self.calls = build, []

    def export(self, location, precision, path, fp32):
        self.calls.append(("export", precision))
        path.write_bytes(b"onnx")

    def embed_with(self, path, location, texts):
        self.calls.append(("check", path.name))
        return self.build


def test_the_live_model_is_exported_again_when_the_exporter_changes_and_checked_again_when_fusion_does(
        tmp_path, monkeypatch):
    build = np.eye(2, 3, dtype=np.float32)
    passages = np.eye(3, dtype=np.float32)
    fake = StandInExports(build)
    monkeypatch.setattr(live_model, "export", fake.export)
    monkeypatch.setattr(live_model, "embed_with", fake.embed_with)
    export_code = copies(tmp_path, live_model.EXPORT_CODE)
    check_code = (*export_code, *copies(tmp_path / "check", live_model.CHECK_CODE[len(export_code):]))
    monkeypatch.setattr(live_model, "EXPORT_CODE", export_code)
    monkeypatch.setattr(live_model, "CHECK_CODE", check_code)

    def prepare():
        fake.calls.clear()
        return live_model.prepare("fp32", tmp_path / "cache", "model-x", "nowhere", ["q1", "q2"], build, passages,
                                  ["a", "b", "c"], [["c"], ["c"]])

    first = prepare()
    assert [kind for kind, _ in fake.calls] == ["export", "check"]
    prepare()
    assert fake.calls == [], "same model, same code, same inputs: read from the cache"
    edit(check_code[-2])  # engine/fusion.py: the same file, checked again
    prepare()
    assert [kind for kind, _ in fake.calls] == ["check"]
    edit(export_code[0])  # builder/live_model.py: exported again, and the old export removed
    again = prepare()
    assert [kind for kind, _ in fake.calls] == ["export", "check"]
    assert again.path != first.path and not first.path.exists()
    assert sorted(p.suffix for p in (tmp_path / "cache" / "live-model").iterdir()) == [".json", ".onnx"]


def test_the_live_models_check_is_keyed_by_the_vectors_it_compares(tmp_path, monkeypatch):
    # The agreement report compares vectors: new passage vectors (an edited passage keeps its id)
    # make an old report wrong, so they are part of its key.
    build = np.eye(2, 3, dtype=np.float32)
    fake = StandInExports(build)
    monkeypatch.setattr(live_model, "export", fake.export)
    monkeypatch.setattr(live_model, "embed_with", fake.embed_with)
    checks = []
    for passages in (np.eye(3, dtype=np.float32), 2 * np.eye(3, dtype=np.float32), 2 * np.eye(3, dtype=np.float32)):
        fake.calls.clear()
        live_model.prepare("fp32", tmp_path, "model-x", "nowhere", ["q1", "q2"], build, passages, ["a", "b", "c"],
                           [["c"], ["c"]])
        checks.append(sum(kind == "check" for kind, _ in fake.calls))
    assert checks == [1, 1, 0]


def test_every_cache_names_code_that_exists():
    for path in (*fts5.CODE, *embed_cache.CODE, *tokens.CODE, samples.RUNNER, *live_model.CHECK_CODE):
        assert path.is_file(), path
