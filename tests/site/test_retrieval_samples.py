"""The code samples of sections 5 and 6 print what the engine computes: the BM25 sample's
output agrees, number for number, with the build's worked example, and the RRF sample fuses
the real result lists of the page's data (so a corpus change that moves them fails here)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from builder.page.samples import SAMPLES
from builder.worked_example import worked_example
from builder.site import load_site
from engine.fusion import rrf

ROOT = Path(__file__).resolve().parents[2]


def run_sample(name: str) -> str:
    return subprocess.run([sys.executable, "-I", f"{name}.py"], cwd=SAMPLES, capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def example():
    return worked_example(load_site(ROOT / "corpus").content.worked_example)


def test_bm25_sample_uses_the_worked_examples_passages_and_query(example):
    source = (SAMPLES / "bm25_scores.py").read_text("utf-8")
    for passage in example["passages"]:
        assert f'"{passage["id"]}": "{passage["text"]}"' in source, passage["id"]
    assert f'query = "{example["query"]}"' in source


def test_bm25_sample_prints_the_worked_examples_numbers(example):
    out = run_sample("bm25_scores")
    assert f"average length {example['avg_len']:.2f} terms" in out
    for row in example["idf"]:
        assert re.search(rf"^{re.escape(row['term'])}\s+{row['idf']:.3f}$", out, re.M), row["term"]
    scores = dict(re.findall(r"^(\w+)  (\d+\.\d{3})  [=(]", out, re.M))
    assert scores == {p["id"]: f"{p['score']:.3f}" for p in example["passages"]}
    for passage in example["passages"]:
        for term in passage["terms"]:
            if term["tf"]:
                line = next(l for l in out.splitlines() if l.startswith(passage["id"] + "  "))
                assert f"{term['term']} {term['score']:.3f}" in line, (passage["id"], term["term"])


def sample_lists(name: str) -> dict[str, list[str]]:
    source = (SAMPLES / f"{name}.py").read_text("utf-8")
    return {key: re.findall(r'"([^"]+)"', body) for key, body in
            re.findall(r"^(dense|bm25) = \[(.*?)\]", source, re.M | re.S)}


def test_rrf_sample_fuses_the_real_top_lists(data):
    example = data["rrf_example"]
    runs = data["runs"][example["question"]]
    depth = data["settings"]["fusion_depth"]
    lists = sample_lists("rrf_fuse")
    assert lists["dense"] == [pid for pid, _ in runs["dense"][:depth]]
    assert lists["bm25"] == [pid for pid, _ in runs["bm25"][:depth]]
    assert lists["dense"][:example["depth"]] == example["dense"]


def test_rrf_sample_prints_what_the_engine_fuses(data):
    out = run_sample("rrf_fuse")
    blocks = re.split(r"^(?=\S)", out, flags=re.M)
    printed = [re.findall(r"^\s+\d+\. (\S+)\s+(\d\.\d{6}) =", block, re.M) for block in blocks if block]
    example = data["rrf_example"]
    runs = data["runs"][example["question"]]
    # depth 4, dense first: the build's worked example, every line
    assert printed[0] == [(f["id"], f"{f['score']:.6f}") for f in example["fused"]]
    # depth 4, BM25 first: the tie flips
    flipped = rrf([example["bm25"], example["dense"]], k=example["k"])
    assert printed[1] == [(pid, f"{score:.6f}") for pid, score in flipped[:len(printed[1])]]
    # depth 8: the page's hybrid list
    assert printed[2] == [(pid, f"{score:.6f}") for pid, score in runs["hybrid"][:len(printed[2])]]
