"""The hybrid explorer: each retriever's top results for one question and the list reciprocal
rank fusion makes of them, every passage with its three ranks. Everything it shows is in the
core data (runs, settings), so its data step only names the default.

Example: data(build) -> {}
"""

STATE = {"q": "upload-4021"}  # the state the page opens on


def data(build) -> dict:
    return {}
