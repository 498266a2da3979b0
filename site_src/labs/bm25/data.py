"""The BM25 explorer: BM25 over every passage, with each query term's share of each score, for
a preset question or any text the reader types (the browser runs the engine's JavaScript twin
live; tests prove the two score alike).

Example: data(build)["explain"]["upload-4021"]["top"][0]["id"] -> 'err-4021'
"""

from engine.bm25 import BM25, unique_terms

STATE = {"q": "upload-4021", "text": ""}  # the state the page opens on: a question, or "" and typed text
DEPTH = 8                     # passages the explorer lists
SCRIPTS = ("engine",)         # the browser's twin of the engine (BM25 and the tokenizer)
BUILD_ONLY = ("explain",)     # drawn by the template and read by the prose; the browser recomputes it


def bm25_explain(passages: list[dict], questions: list[dict], runs: dict, depth: int = DEPTH) -> dict:
    """question -> {"terms": [{term, df, idf}], "matched": n, "top": [{id, score, terms: [[term, share]]}]}."""
    index = BM25([p["text"] for p in passages])
    position = {p["id"]: i for i, p in enumerate(passages)}
    result = {}
    for question in questions:
        if question["set"] not in ("golden", "tracer"):
            continue
        ranking = runs[question["id"]]["bm25"]
        result[question["id"]] = {
            "terms": [{"term": t, "df": index.doc_freq(t), "idf": index.idf(t)} for t in unique_terms(question["text"])],
            "matched": len(ranking),
            "top": [{"id": pid, "score": score,
                     "terms": [[c.term, c.score] for c in index.explain(question["text"], position[pid])]}
                    for pid, score in ranking[:depth]],
        }
    return result


def data(build) -> dict:
    core = build.data
    return {"depth": DEPTH, "explain": bm25_explain(core["passages"], core["questions"], core["runs"])}
