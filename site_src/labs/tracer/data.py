"""One question, every stage: a tracer question's dense, BM25 and fused lists, the rerank, the
passages its prompt carries, the illustrative answer with its citations, and the real
citation check, side by side or one stage at a time. Everything is in the core data
(runs, rerank, tracers); the data step names the stages, sets how deep each list is shown, and
the cut-off the rerank stage applies (the rerank lab's default threshold), so the lab can say
which passages the prompt carries that a cut-off would have dropped: the prompt takes the fused
list.

Example: data(build) -> {"depth": 5, "cutoff": 0.5, "stages": [["dense", "Dense"], ...],
                          "unbacked": "no claim backs this sentence"}
         (with the illustrative rerank scores)
"""

from builder.reranking import threshold_control
from engine.citations import UNBACKED

STATE = {"q": "upload-4021", "stage": "all"}  # the state the page opens on
SCRIPTS = ("engine",)  # the engine's twins: tied ranks (RAG.engine.places, through RAG.kit), the answer's sentences
VIEWS = ("answer",)  # site_src/views/answer.js draws the answer sentence by sentence in the check stage
DEPTH = 5  # rows each ranked list shows
# The stages in order, each with the name its radio and its heading's step give it.
STAGES = [["dense", "Dense"], ["bm25", "BM25"], ["fused", "Fused"], ["rerank", "Rerank"],
          ["prompt", "Prompt"], ["answer", "Answer"], ["check", "Check"]]


def data(build) -> dict:
    return {"depth": DEPTH, "cutoff": threshold_control(build.data["rerank"])["threshold"], "stages": STAGES,
            "unbacked": UNBACKED}
