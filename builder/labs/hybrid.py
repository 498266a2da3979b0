"""The hybrid explorer: each retriever's top results for one question and the list reciprocal
rank fusion makes of them, every passage with its three ranks. Everything it shows is in the
core data (runs, settings), so its data step only names the default.

The lab's parts: site_src/labs/hybrid/ (lab.html, lab.js, lab.css) and tests/labs/test_hybrid.py.

Example: data(build) -> {}
"""

NAME = "hybrid"
STATE = {"q": "upload-4021"}  # the state the page opens on


def data(build) -> dict:
    return {}
