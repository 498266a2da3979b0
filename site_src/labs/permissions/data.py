"""The permission demo: one search, filtered by the reader's ACL groups before the top k is
cut (pre-filter) or after it (post-filter), for every reader, question and k. A post-filter
silently returns fewer results; neither ever shows a reader a passage they may not read.

Below the vector search, the lab shows the keyword search for the same reader, filtered too or
not at all: a filter put on one retriever and forgotten on the other leaks through the other.

The view (lab.js) runs the filters itself, with the JavaScript twins of engine/access.py and
engine/fusion.py, on the question's rankings (so a question asked live works too): the browser
gets only the questions, the k offered and each reader role's label and groups (`roles`).
`readers` is the build's own record, from the Python engine, which the browser never gets: for
each reader, the passages they may not read (`hidden`), the filtered lists of every question and
k (`runs`), and the passages that reach the fused list when only the vector search is filtered,
with their fused rank (`leaks`). The prose's checked claims read it, and the tests hold the view
to it.

Example: data(build)["readers"]["customer"]["runs"]["g11"]["3"]["post"] -> a list shorter than 3
"""

from engine.access import can_read, post_filter, pre_filter
from engine.fusion import rrf
from engine.settings import FUSION_DEPTH, RRF_K

STATE = {"reader": "customer", "q": "g11", "k": 3}  # the state the page opens on
KS = (3, 5, 8)
EXTRA_QUESTIONS = 2  # golden questions added to the demo, beyond the tracers
SCRIPTS = ("engine",)  # the twins of engine/access.py and engine/fusion.py, which the view filters and fuses with
BUILD_ONLY = ("readers",)  # the build's lists, for the prose and the tests; the view computes its own


def restricted_questions(corpus, data: dict, depth: int, n: int = EXTRA_QUESTIONS) -> list[str]:
    """Golden questions whose dense list ranks a passage that some reader may not read within
    the top `depth`: the questions where a post-filter shows its cost. The best-ranked first,
    one per restricted passage, at most `n`.

    Example: a question whose dense list starts with a staff-only runbook comes first.
    """
    hidden = {p.id for p in corpus.passages for r in corpus.readers if not can_read(list(p.acl), list(r.groups))}
    found = []
    for q in (q for q in data["questions"] if q["set"] == "golden"):
        ranked = [pid for pid, _ in data["runs"][q["id"]]["dense"][:depth]]
        first = next(((i, pid) for i, pid in enumerate(ranked) if pid in hidden), None)
        if first:
            found.append((first[0], first[1], q["id"]))
    chosen, seen = [], set()
    for _, pid, qid in sorted(found, key=lambda item: item[0]):
        if pid not in seen and len(chosen) < n:
            chosen.append(qid)
            seen.add(pid)
    return chosen


def filtered(ranked: list[str], acl: dict, groups: list[str]) -> dict:
    """str(k) -> {"pre": pre-filtered top k, "post": post-filtered top k}."""
    return {str(k): {"pre": pre_filter(ranked, acl, groups, k), "post": post_filter(ranked, acl, groups, k)}
            for k in KS}


def half_filtered(dense: list[str], bm25: list[str], acl: dict, groups: list[str],
                  depth: int = FUSION_DEPTH, k: int = RRF_K) -> list[list]:
    """[passage id, fused rank] of each passage the reader may not read that the fused list
    still holds when the vector search is filtered and the keyword search is not.

    Example: half_filtered(["s", "a"], ["s", "b"], {"s": ["staff"], "a": ["public"], "b": ["public"]},
                           ["public"]) -> [["s", 2]]  (a: 1/61; s: 1/61 from BM25 alone, read second)
    """
    fused = [pid for pid, _ in rrf([pre_filter(dense, acl, groups, depth), bm25[:depth]], k)]
    return [[pid, rank] for rank, pid in enumerate(fused, start=1) if not can_read(acl[pid], groups)]


def data(build) -> dict:
    corpus, core = build.corpus, build.data
    questions = [t.id for t in corpus.tracers] + restricted_questions(corpus, core, max(KS))
    acl = {p.id: list(p.acl) for p in corpus.passages}
    dense = {q: [pid for pid, _ in core["runs"][q]["dense"]] for q in questions}
    bm25 = {q: [pid for pid, _ in core["runs"][q]["bm25"]] for q in questions}
    return {
        "questions": questions,
        "ks": list(KS),
        "roles": {r.role: {"label": r.label, "groups": list(r.groups)} for r in corpus.readers},
        "readers": {r.role: {"hidden": [p.id for p in corpus.passages if not can_read(list(p.acl), list(r.groups))],
                             "runs": {q: filtered(dense[q], acl, list(r.groups)) for q in questions},
                             "leaks": {q: half_filtered(dense[q], bm25[q], acl, list(r.groups)) for q in questions}}
                    for r in corpus.readers},
    }
