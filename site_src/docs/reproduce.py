#!/usr/bin/env python3
"""Reproduce the rankings and recall of 'Try it on your documents' from the page's export.

    python reproduce.py documents.json                 # the page's vectors; embeds only what has none
    python reproduce.py documents.json --embed         # every chunk and question embedded again here
    python reproduce.py documents.json --json out.json # the rankings and recall as JSON too

Needs numpy; sentence-transformers (and its model, all-MiniLM-L6-v2, named by --model) only when
something must be embedded. Everything else is written out below, with the page's settings read
from the file: the tokenizer (lower case, runs of letters and digits), BM25 (Lucene's: IDF =
ln(1 + (N - n + 0.5) / (n + 0.5)), k1 and b from the file), cosine as the dot product of unit
vectors, reciprocal rank fusion (k from the file, each list's top fusion_depth), the page's
rounding (scores to 6 decimals; equal scores keep the chunks' order) and recall: a question hits
at k when one of its marked chunks is in the top k (the marks are the SHA-256 of the chunks'
texts); a tie of equal scores that straddles k counts as a range, low to high. Dense scores
within the file's dense_tolerance of each other tie too (the page's model is known to agree with
sentence-transformers that closely, so the page shows them as ties).
"""

import argparse
import base64
import hashlib
import json
import math
import re
import sys

import numpy as np

SCHEMA = 1
KIND = "rag-explainer/documents"
TERM = re.compile(r"[^\W_]+")


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        bundle = json.load(handle)
    if bundle.get("kind") != KIND or bundle.get("schema") != SCHEMA:
        sys.exit(f"{path}: not an export of the page (schema {SCHEMA}, kind {KIND})")
    for i, chunk in enumerate(bundle["chunks"]):
        if hashlib.sha256(chunk["text"].encode("utf-8")).hexdigest() != chunk["hash"]:
            sys.exit(f"{path}: chunks[{i}].hash is not the SHA-256 of its text (edited by hand?)")
    return bundle


def vector_of(text: str, dimensions: int) -> np.ndarray:
    vector = np.frombuffer(base64.b64decode(text), dtype="<f4")
    if vector.shape != (dimensions,):
        sys.exit(f"a vector holds {vector.size} numbers, not {dimensions}")
    return vector


def embed(texts: list[str], model: str) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    encoder = SentenceTransformer(model, device="cpu")
    return np.asarray([encoder.encode(text, normalize_embeddings=True) for text in texts], dtype=np.float32)


# ------------------------------------------------------------------ the page's retrievers, written out

def tokenize(text: str) -> list[str]:
    return TERM.findall(text.lower())


class BM25:
    def __init__(self, texts: list[str], k1: float, b: float):
        self.k1, self.b = k1, b
        self.lengths, self.postings = [], {}
        for index, text in enumerate(texts):
            terms = tokenize(text)
            self.lengths.append(len(terms))
            counts: dict[str, int] = {}
            for term in terms:
                counts[term] = counts.get(term, 0) + 1
            for term, count in counts.items():
                self.postings.setdefault(term, []).append((index, count))
        self.n = len(texts)
        self.average = sum(self.lengths) / self.n if self.n else 0.0

    def scores(self, query: str) -> list[float]:
        totals = [0.0] * self.n
        for term in dict.fromkeys(tokenize(query)):  # each term once, in the order it first appears
            postings = self.postings.get(term, [])
            idf = math.log(1 + (self.n - len(postings) + 0.5) / (len(postings) + 0.5))
            for index, tf in postings:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[index] / self.average)
                totals[index] += idf * (tf * (self.k1 + 1) / (tf + norm))
        return totals


def ranked(ids: list[str], scores) -> list[tuple[str, float]]:
    """Best first, equal scores in the chunks' order, each score rounded to 6 decimals."""
    order = sorted(range(len(ids)), key=lambda i: -scores[i])
    return [(ids[i], round(float(scores[i]), 6)) for i in order]


def rrf(lists: list[list[str]], k: int) -> list[tuple[str, float]]:
    terms: dict[str, list[float]] = {}
    for ranking in lists:
        for rank, pid in enumerate(ranking, 1):
            terms.setdefault(pid, []).append(1 / (k + rank))
    fused = [(pid, sum(sorted(parts))) for pid, parts in terms.items()]
    return sorted(fused, key=lambda pair: -pair[1])  # stable: ties keep the order ids were first seen


def runs_of(bundle: dict, chunk_vectors: np.ndarray, question_vectors: np.ndarray) -> dict:
    settings = bundle["settings"]
    ids = [c["id"] for c in bundle["chunks"]]
    index = BM25([c["text"] for c in bundle["chunks"]], settings["bm25"]["k1"], settings["bm25"]["b"])
    depth, k = settings["fusion_depth"], settings["rrf_k"]
    runs = {}
    for question, vector in zip(bundle["questions"], question_vectors):
        dense = ranked(ids, chunk_vectors.astype(np.float64) @ vector.astype(np.float64))
        bm25 = [(pid, score) for pid, score in ranked(ids, index.scores(question["text"])) if score > 0]
        hybrid = [(pid, round(score, 6)) for pid, score in rrf([[p for p, _ in dense[:depth]], [p for p, _ in bm25[:depth]]], k)]
        runs[question["id"]] = {"dense": dense, "bm25": bm25, "hybrid": hybrid}
    return runs


# ------------------------------------------------------------------ recall on the marks

def places(ranking: list[tuple[str, float]], tolerance: float = 0.0) -> list[tuple[int, int]]:
    """Each position's (first, last) rank: a score within `tolerance` of the one above shares its ranks, so any two
    scores within it of each other share the ranks their group spans."""
    found, start = [], 0
    for end in range(1, len(ranking) + 1):
        if end == len(ranking) or abs(ranking[end][1] - ranking[end - 1][1]) > tolerance:
            found += [(start + 1, end)] * (end - start)
            start = end
    return found


def recall_of(bundle: dict, runs: dict) -> dict:
    """{retriever: {k: {"hits": [low, high], "questions": n}}} over the questions with a mark among the chunks."""
    hash_of = {c["id"]: c["hash"] for c in bundle["chunks"]}
    marked = {q["id"]: set(q["marks"]) & set(hash_of.values()) for q in bundle["questions"]}
    asked = [q for q, hashes in marked.items() if hashes]
    found: dict = {}
    for retriever in ("dense", "bm25", "hybrid"):
        found[retriever] = {}
        tolerance = bundle["settings"].get("dense_tolerance", 0.0) if retriever == "dense" else 0.0
        for k in bundle["settings"]["recall_ks"]:
            low = high = 0
            for q in asked:
                ranking = runs[q][retriever]
                spans = [span for (pid, _), span in zip(ranking, places(ranking, tolerance)) if hash_of[pid] in marked[q]]
                low += any(last <= k for _, last in spans)
                high += any(first <= k for first, _ in spans)
            found[retriever][k] = {"hits": [low, high], "questions": len(asked)}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="the JSON file the page exported")
    parser.add_argument("--embed", action="store_true", help="embed every chunk and question again, ignoring the file's vectors")
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2", help="a sentence-transformers model name or folder")
    parser.add_argument("--json", help="also write the rankings and recall to this file")
    args = parser.parse_args()
    bundle = load(args.export)
    dimensions = bundle["model"]["dimensions"]
    items = bundle["chunks"] + bundle["questions"]
    vectors = [None if args.embed or "vector" not in item else vector_of(item["vector"], dimensions) for item in items]
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        print(f"embedding {len(missing)} texts with {args.model} ...", file=sys.stderr)
        for i, vector in zip(missing, embed([items[i]["text"] for i in missing], args.model)):
            vectors[i] = vector
    chunk_vectors = np.asarray(vectors[:len(bundle["chunks"])], dtype=np.float32)
    question_vectors = np.asarray(vectors[len(bundle["chunks"]):], dtype=np.float32)
    runs = runs_of(bundle, chunk_vectors, question_vectors)
    recall = recall_of(bundle, runs)
    for question in bundle["questions"]:
        print(f"{question['id']}: {question['text']}")
        for retriever, ranking in runs[question["id"]].items():
            print(f"  {retriever:<6} " + "  ".join(f"{pid} {score:.3f}" for pid, score in ranking[:5]))
    for retriever, by_k in recall.items():
        cells = []
        for k, figure in by_k.items():
            low, high = figure["hits"]
            cells.append(f"@{k} {low}/{figure['questions']}" + (f" to {high}/{figure['questions']}" if high != low else ""))
        print(f"recall {retriever:<6} " + "   ".join(cells))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"runs": runs, "recall": {r: {str(k): v for k, v in by_k.items()} for r, by_k in recall.items()}}, handle)


if __name__ == "__main__":
    main()
