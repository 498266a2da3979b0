"""The recall table: the hit rate at k of each retriever on the golden set, a bar chart with each
figure's 95% interval, the figures per group of questions, and the questions each retriever
misses, for k = 1, 3 or 5. The view computes every figure itself from the corpus's runs with the
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
# The bar chart, in SVG units: where the bars start, how long 100% is, one row's height, the
# space above the first row (for the axis labels).
CHART = {"left": 76, "width": 240, "row": 34, "top": 26}


def data(build) -> dict:
    groups = list(dict.fromkeys(g.group for g in build.corpus.golden))
    return {"retrievers": [{"id": rid, "name": name, "short": short} for rid, name, short in RETRIEVERS],
            "highlight": HIGHLIGHT, "chart": CHART, "z": Z_95,
            "groups": [{"id": g, "name": GROUP_NAMES.get(g, g)} for g in groups],
            "readers": {reader.role: list(reader.groups) for reader in build.corpus.readers}}
