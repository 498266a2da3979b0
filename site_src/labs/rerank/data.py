"""Rerank, then cut off: the fused list's top candidates rescored (a real cross-encoder's
scores when the build ran one, else the corpus's illustrative ones, data.rerank) and cut at a
threshold the reader moves. Its data step sets the threshold control's range
(builder/reranking.py threshold_control, which the tracer's cut-off follows too).

Example: threshold_control({"source": "illustrative", "by_question": {}})
         -> {"min": 0.0, "max": 1.0, "step": 0.05, "threshold": 0.5, "digits": 2}
"""

from builder.reranking import threshold_control

# The state the page opens on: a question with rerank scores, and the threshold (None: the
# control's default, which depends on where the scores came from).
STATE = {"q": "refund-three-weeks", "t": None}
SCRIPTS = ("engine",)  # the engine's ranking twin: tied ranks (RAG.engine.places, through RAG.kit)


def data(build) -> dict:
    return {"control": threshold_control(build.data["rerank"])}
