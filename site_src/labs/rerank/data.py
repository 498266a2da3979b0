"""Rerank, then cut off: the fused list's top candidates rescored (a real cross-encoder's
scores when the build ran one, else the corpus's illustrative ones, data.rerank) and cut at a
threshold the reader moves. Its data step sets the threshold control's range.

Example: threshold_control({"source": "illustrative", "by_question": {}})
         -> {"min": 0.0, "max": 1.0, "step": 0.05, "threshold": 0.5, "digits": 2}
"""

import math

# The state the page opens on: a question with rerank scores, and the threshold (None: the
# control's default, which depends on where the scores came from).
STATE = {"q": "refund-three-weeks", "t": None}
SCRIPTS = ("engine",)  # the engine's ranking twin: tied ranks (RAG.engine.places, through RAG.kit)
THRESHOLD = 0.5   # the default cut-off for the illustrative 0..1 scores


def threshold_control(rerank: dict) -> dict:
    """The rerank lab's threshold control: its range, step, default and how scores print.
    Illustrative scores are 0..1; a real cross-encoder's are logits, so the range is theirs."""
    if rerank["source"] == "illustrative":
        return {"min": 0.0, "max": 1.0, "step": 0.05, "threshold": THRESHOLD, "digits": 2}
    scores = [score for pairs in rerank["by_question"].values() for _, score in pairs] or [0.0]
    low, high = math.floor(min(scores)), math.ceil(max(scores))
    high = max(high, low + 1)
    step = 0.1 if high - low > 5 else 0.05
    threshold = 0.0 if low < 0 < high else round(low + step * round((high - low) / 2 / step), 2)
    return {"min": float(low), "max": float(high), "step": step, "threshold": threshold, "digits": 3}


def data(build) -> dict:
    return {"control": threshold_control(build.data["rerank"])}
