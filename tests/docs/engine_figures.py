"""Recall on a golden set of marks, computed the Python way with the engine (engine/evaluate.py
rank_of's ranks, recall_at_k, passages_found; engine/significance.py wilson, sign_test;
engine/ranking.py places), in the shape site_src/docs/measure.js returns, for the tests to hold
the two equal (tests/docs/test_measure.py) and to check what reproduce.py prints.

Example: expected_needed(4, 1, 10) -> {'split': 12, 'questions': 24, 'p': 0.038574}
"""

from fractions import Fraction
from math import comb

from engine import settings
from engine.evaluate import passages_found, recall_at_k
from engine.ranking import places
from engine.significance import sign_test, wilson

KS = (1, 3, 5)
RETRIEVERS = ("dense", "bm25", "hybrid")


def expected_needed(wins: int, losses: int, n: int, cap: int = 10_000):
    """The method measure.js states, counted the slow way: every D, its binomial sum from scratch."""
    W, L = max(wins, losses), min(wins, losses)
    T = W + L
    if T == 0 or W == L:
        return None
    for D in range(1, cap + 1):
        w = (2 * D * W + T) // (2 * T)
        if Fraction(2 * sum(comb(D, i) for i in range(D - w + 1)), 2 ** D) <= Fraction(str(settings.SIGNIFICANCE)):  # 1/20 exactly
            return {"split": D, "questions": -(-D * n // T), "p": sign_test(w, D - w)}
    return {"more": cap}


def expected_measure(chunks, runs, marks, tolerances=None):
    hash_of = {c["id"]: c["hash"] for c in chunks}
    known = set(hash_of.values())
    present = {q: [h for h in hs if h in known] for q, hs in marks.items()}
    lost = {q: [h for h in hs if h not in known] for q, hs in marks.items()}
    asked = [q for q in marks if present[q] and q in runs]
    per, recall = {}, {}
    for r in RETRIEVERS:
        per[r], recall[r] = {}, {}
        for q in asked:
            ranking = [tuple(pair) for pair in runs[q][r]]
            spans = places(ranking, (tolerances or {}).get(r, 0.0))
            marked = [i for i, (pid, _) in enumerate(ranking) if hash_of[pid] in present[q]]
            low = min((spans[i][1] for i in marked), default=None)
            high = min((spans[i][0] for i in marked), default=None)
            found = {}
            for k in KS:
                sure = [hash_of[pid] for i, (pid, _) in enumerate(ranking) if spans[i][1] <= k]
                maybe = [hash_of[pid] for i, (pid, _) in enumerate(ranking) if spans[i][0] <= k]
                found[str(k)] = [passages_found(sure, present[q], len(sure))[0], passages_found(maybe, present[q], len(maybe))[0]]
            per[r][q] = {"rank": [low, high], "marks": len(present[q]), "found": found}
        for k in KS:
            n = len(asked)
            hits = [recall_at_k([per[r][q]["rank"][0] for q in asked], k)[0], recall_at_k([per[r][q]["rank"][1] for q in asked], k)[0]]
            share = [sum(per[r][q]["found"][str(k)][edge] / len(present[q]) for q in asked) / n if n else 0 for edge in (0, 1)]
            recall[r][str(k)] = {"n": n, "hits": hits, "hitRate": [h / n if n else 0 for h in hits],
                                 "wilson": [list(wilson(h, n)) for h in hits], "recall": share}
    pairs = []
    for a in range(len(RETRIEVERS)):
        for b in range(a + 1, len(RETRIEVERS)):
            for k in KS:
                A, B = RETRIEVERS[a], RETRIEVERS[b]
                sure = lambda r, q: per[r][q]["rank"][0] is not None and per[r][q]["rank"][0] <= k  # noqa: E731
                never = lambda r, q: per[r][q]["rank"][1] is None or per[r][q]["rank"][1] > k  # noqa: E731
                wins = sum(1 for q in asked if sure(A, q) and never(B, q))
                losses = sum(1 for q in asked if sure(B, q) and never(A, q))
                undecided = sum(1 for q in asked if not (sure(A, q) or never(A, q)) or not (sure(B, q) or never(B, q)))
                pairs.append({"a": A, "b": B, "k": k, "wins": wins, "losses": losses, "undecided": undecided,
                              "p": sign_test(wins, losses), "needed": expected_needed(wins, losses, len(asked))})
    return {"questions": asked, "lost": lost, "perQuestion": per, "recall": recall, "pairs": pairs}


def quote_marks(chunks, asked):
    """The chunks of each answer's file that contain one of its quotes, white space collapsed."""
    collapse = lambda text: " ".join(text.split())  # noqa: E731
    return {q["id"]: list(dict.fromkeys(c["hash"] for c in chunks for quote in q["answers"].get(c["source"], [])
                                        if collapse(quote) in collapse(c["text"]))) for q in asked}
