"""The page's figures, each drawn from the build's data by builder/figures.py.
A section names one with {{ figure("name") }}.

Figures of sections 1-3 are here; each later part of the page keeps its own in a module
`builder/figures_<topic>.py` with a FIGURES dict, collected below.
"""

import importlib
import pkgutil

import builder
from builder.figures import flow

PREVIEW = "upload-4021"  # the question the pipeline figure follows


def three_steps(facts) -> str:
    q = facts.question(PREVIEW)
    top3 = facts.ids(PREVIEW, "hybrid", 3)
    return flow(
        "fig-three-steps", "RAG in three steps",
        f"A question, '{q['text']}', is searched for in the help center; the best passages "
        f"({', '.join(top3)}) go into the prompt; the model answers from them and cites them.",
        [("", [("1 · Search", ["the question against", f"{facts.namespace()['n_passages']} help passages"]),
               ("2 · Pick", ["the best few:", ", ".join(top3[:2]), f"{top3[2]}"]),
               ("3 · Answer", ["from those passages", "only, citing each", "by its id"])])],
        f"Searching first, then answering from what was found. The passages in step 2 are the real "
        f"top three of the hybrid search for “{q['text']}”.")


def pipeline(facts) -> str:
    q = facts.question(PREVIEW)
    ns = facts.namespace()
    dense_top, bm25_top, hybrid_top = (facts.top(PREVIEW, r) for r in ("dense", "bm25", "hybrid"))
    return flow(
        "fig-pipeline", "The RAG pipeline: indexing offline, querying online",
        "Indexing: load each page with its source, chunk it, index every chunk twice (keywords and vectors), "
        "store text, vector and metadata. Querying: know who asks, optionally rewrite the question, retrieve "
        "with both indexes, fuse and rerank, build the prompt, generate, check the citations. "
        f"For the question '{q['text']}', dense search ranks {dense_top} first, BM25 ranks {bm25_top} first, "
        f"and the fused list starts with {hybrid_top}.",
        [("Indexing · offline, whenever the help center changes",
          [("Load", ["each page with its", "URL, date, owner"]),
           ("Chunk", ["cut pages into", f"{ns['n_passages']} passages"]),
           ("Index twice", ["BM25 terms and", "384-number vectors"]),
           ("Store", ["text + vector +", "metadata (ACL, date)"])]),
         ("Querying · online, for every question",
          [("Who asks", ["groups decide what", "may be searched"]),
           ("Retrieve", [f"dense: {dense_top}", f"BM25: {bm25_top}"]),
           ("Fuse, rerank", [f"RRF: {hybrid_top}", "first, then rerank"]),
           ("Prompt", ["rules, sources", "best first, question"]),
           ("Generate, check", ["answer with ids;", "code checks quotes"])])],
        f"The two halves of a RAG system. The querying row shows where “{q['text']}” really goes: "
        f"the first passage each retriever returned in this build.")


FIGURES = {"three-steps": three_steps, "pipeline": pipeline}
for _module in sorted(m.name for m in pkgutil.iter_modules(builder.__path__) if m.name.startswith("figures_")):
    FIGURES.update(importlib.import_module(f"builder.{_module}").FIGURES)
