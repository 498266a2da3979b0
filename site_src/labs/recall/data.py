"""The recall table: recall@k of each retriever on the golden set, a bar chart with each
figure's 95% interval, and the questions each retriever misses, for k = 1, 3 or 5. The figures
are in the core data (data.recall, data.ranks; data.evaluation's misses and wilson, from
builder/evaluation.py); the data step names the retrievers in table order and the chart's
geometry, which the view (lab.js) draws from.

Example: data(build)["retrievers"][0] -> {"id": "bm25", "name": "BM25", "short": "BM25"}
"""

STATE = {"k": 3}  # the state the page opens on

# Table order: the plainest first, the one the page recommends last (its bar is highlighted).
RETRIEVERS = (("bm25", "BM25", "BM25"), ("dense", "Dense", "Dense"), ("hybrid", "Hybrid (RRF)", "Hybrid"))
HIGHLIGHT = "hybrid"
# The bar chart, in SVG units: where the bars start, how long 100% is, one row's height, the
# space above the first row (for the axis labels).
CHART = {"left": 76, "width": 240, "row": 34, "top": 26}


def data(build) -> dict:
    return {"retrievers": [{"id": rid, "name": name, "short": short} for rid, name, short in RETRIEVERS],
            "highlight": HIGHLIGHT, "chart": CHART}
