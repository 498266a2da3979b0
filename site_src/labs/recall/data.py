"""The recall table: the hit rate at k of each retriever on the golden set, a curve of it for
k = 1 to 10 with each point's 95% interval as a band, the figures per group of questions, and
the questions each retriever misses, for k = 1, 3 or 5 (marked on the curve). The view computes every figure itself from the corpus's runs with the
engine's twins (site_src/engine/: as_reader, hit_place, hits_at_k, wilson), each question under
its reader's permissions, a tie that straddles k counted as a range; a test holds them to the
build's (data.recall, data.recall_by_group, data.evaluation, from builder/search.py and
builder/evaluation.py). The data step names the retrievers in table order, the groups, each
reader's groups, the interval's z, and the chart's geometry.

Example: data(build)["retrievers"][0] -> {"id": "bm25", "name": "BM25", "short": "BM25"}
"""

from engine.significance import Z_95

STATE = {"k": 3}  # the state the page opens on
SCRIPTS = ("engine",)  # the twins the view computes recall with

# Table order: the plainest first, the one the page recommends last (its bar is highlighted).
RETRIEVERS = (("bm25", "BM25", "BM25"), ("dense", "Dense", "Dense"), ("hybrid", "Hybrid (RRF)", "Hybrid"))
HIGHLIGHT = "hybrid"
GROUP_NAMES = {"words": "In the help center's words", "paraphrase": "Paraphrases", "typed": "Typed as people type"}
# The curve, in SVG units: the plot's left edge (after the axis labels), its width and height,
# the space above it and below it (the k axis), and the room on its right for the line labels;
# and the ks it is drawn at.
CHART = {"left": 56, "width": 330, "top": 24, "height": 220, "bottom": 46, "right": 90}
CURVE_KS = tuple(range(1, 11))


def data(build) -> dict:
    groups = list(dict.fromkeys(g.group for g in build.corpus.golden))
    return {"retrievers": [{"id": rid, "name": name, "short": short} for rid, name, short in RETRIEVERS],
            "highlight": HIGHLIGHT, "chart": CHART, "curve_ks": list(CURVE_KS), "z": Z_95,
            "groups": [{"id": g, "name": GROUP_NAMES.get(g, g)} for g in groups],
            "readers": {reader.role: list(reader.groups) for reader in build.corpus.readers}}
