"""The browser's search (site_src/scripts/live-search.js, RAG.liveSearch) ranks as the build
ranks (builder/search.py run_question: dense, BM25, RRF) whatever corpus and vectors it is handed:
a corpus made up here with hand-made vectors (ties included), and the real help center with the
build's vectors, where it gives back the build's own runs. Runs live-search.js and the joined engine under Node, as the page loads them."""

import json
import shutil
import subprocess

import numpy as np

from builder.search import Question, run_question
from engine import settings
from engine.bm25 import BM25
from builder.page import assets
from support.caches import build_vectors
from support.paths import ROOT

SCRIPTS = ROOT / "site_src" / "scripts"
SETTINGS = {"bm25": {"k1": settings.BM25_K1, "b": settings.BM25_B}, "fusion_depth": settings.FUSION_DEPTH,
            "rrf_k": settings.RRF_K}


def live_runs(cases: list[dict]) -> list:
    """RAG.liveSearch.runs(text, vector, passageVectors, corpus) for each case, in Node."""
    node = shutil.which("node")
    assert node, "node is needed (make test installs it)"
    program = f"""
const vm = require("node:vm");
const fs = require("node:fs");
const context = {{ RAG: {{}} }};
context.globalThis = context;
vm.createContext(context);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
vm.runInContext(input.code, context, {{ filename: "engine.js + live-search.js" }});
const cases = input.cases;
console.log(JSON.stringify(cases.map((c) => {{
  try {{ return context.RAG.liveSearch.runs(c.text, c.vector, Float32Array.from(c.passageVectors), c.corpus); }}
  catch (error) {{ return {{ error: error.message }}; }}
}})));"""
    # The engine as the page gets it (its files joined in builder/page/assets.py's order), then live-search.js.
    code = assets.engine_source() + (SCRIPTS / "live-search.js").read_text("utf-8")
    result = subprocess.run([node, "-e", program], input=json.dumps({"code": code, "cases": cases}), capture_output=True,
                            text=True, check=True)
    return json.loads(result.stdout)


def python_runs(text, vector, passage_vectors, passages) -> dict:
    ids = [p["id"] for p in passages]
    index = BM25([p["text"] for p in passages], settings.BM25_K1, settings.BM25_B)
    found = run_question(Question("q", text, "probe"), ids, index, passage_vectors, np.asarray(vector, dtype=np.float32))
    return {name: [[pid, score] for pid, score in ranking] for name, ranking in found.items()}


def assert_same_runs(live: dict, expected: dict, where: str) -> None:
    """The same runs: BM25 and RRF exactly; dense in the same order, each cosine's sixth decimal at
    most one off (the page sums a dot product in double precision, numpy in single)."""
    assert live["bm25"] == expected["bm25"] and live["hybrid"] == expected["hybrid"], where
    assert [pid for pid, _ in live["dense"]] == [pid for pid, _ in expected["dense"]], where
    assert max(abs(round(a * 1e6) - round(b * 1e6)) for (_, a), (_, b) in zip(live["dense"], expected["dense"])) <= 1, where


def case(text, vector, passage_vectors, passages) -> dict:
    return {"text": text, "vector": [float(x) for x in vector], "passageVectors": [float(x) for x in np.ravel(passage_vectors)],
            "corpus": {"passages": passages, "settings": SETTINGS}}


MADE_UP = [{"id": "tea", "text": "Green tea and black tea"}, {"id": "bus", "text": "The bus leaves at nine"},
           {"id": "tie", "text": "Black coffee, no tea"}, {"id": "far", "text": "Nothing in common here"}]
# Unit vectors in three dimensions: "tie" and "tea" score the same against the first question.
MADE_UP_VECTORS = np.array([[0.6, 0.8, 0.0], [0.0, 0.0, 1.0], [0.6, 0.8, 0.0], [-1.0, 0.0, 0.0]], dtype=np.float32)


def test_a_made_up_corpus_is_searched_as_the_build_searches_ties_in_the_passages_order():
    questions = [("black tea", [1.0, 0.0, 0.0]), ("when does the bus leave", [0.0, 0.6, 0.8]), ("zzz", [0.0, 0.0, -1.0])]
    found = live_runs([case(text, vector, MADE_UP_VECTORS, MADE_UP) for text, vector in questions])
    for (text, vector), live in zip(questions, found):
        assert_same_runs(live, python_runs(text, vector, MADE_UP_VECTORS, MADE_UP), text)
    assert [pid for pid, _ in found[0]["dense"]][:2] == ["tea", "tie"]  # equal cosines: the passages' order
    assert found[2]["bm25"] == [] and [pid for pid, _ in found[2]["hybrid"]] == [pid for pid, _ in found[2]["dense"]]


def test_the_help_center_is_searched_as_the_build_searched_every_preset(built_site, data):
    # The presets' own vectors (the build's, from its embedding cache) and the shipped passages.bin:
    # the browser's search gives back the build's runs.
    vectors = np.frombuffer((built_site / data["live"]["files"]["passages"]["url"].split("?")[0]).read_bytes(),
                            dtype="<f4").reshape(len(data["passages"]), settings.DIMENSIONS)
    passages = [{"id": p["id"], "text": p["text"]} for p in data["passages"]]
    questions = data["questions"]
    found = live_runs([case(q["text"], vector, vectors, passages)
                       for q, vector in zip(questions, build_vectors([q["text"] for q in questions]))])
    for q, live in zip(questions, found):
        assert_same_runs(live, data["runs"][q["id"]], q["id"])


def test_vectors_that_do_not_fit_the_passages_are_refused_with_the_fix():
    found = live_runs([case("tea", [1.0, 0.0, 0.0], MADE_UP_VECTORS[:3], MADE_UP)])
    assert found == [{"error": "the passages' vectors hold 3 passages, the page's data 4; rebuild the site"}]
